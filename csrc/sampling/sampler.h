// Samplers as matrix programs over stacked minibatches (DESIGN.md).
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "graph/graph.h"
#include "sampling/backend.h"
#include "sampling/sample.h"

namespace matsamp {

// Wall time of the three steps of every layer, summed over calls, and the
// memory traffic no implementation can avoid (for the floor: gathers at the
// measured random-gather rate plus streamed bytes at the copy bandwidth).
struct StepStats {
  double probability = 0;   // P = Q·A and its normalization
  double sampling = 0;      // its_sample
  double extraction = 0;    // row/column extraction and relabelling
  int64_t gathers = 0;          // random reads of single elements
  int64_t streamed_bytes = 0;   // bytes read in contiguous runs
  double total() const { return probability + sampling + extraction; }
};

class Sampler {
 public:
  virtual ~Sampler() = default;
  virtual std::string name() const = 0;
  virtual int num_layers() const = 0;
  // Samples the minibatches first_minibatch … first_minibatch + k - 1 of an
  // epoch, whose batch vertices are `seeds` split by `seed_offsets` (k + 1).
  virtual BulkSample sample(const std::vector<vid_t>& seeds, const Offsets& seed_offsets,
                            int64_t first_minibatch, uint32_t epoch, Backend& backend,
                            StepStats* times = nullptr) const = 0;
  // Upper estimate of the bytes one minibatch of batch_size seeds needs while sampled.
  virtual int64_t bytes_per_minibatch(int64_t batch_size) const = 0;
};

// GraphSAGE: fanouts[l] distinct neighbours per frontier vertex in layer l
// (fanouts[0] for the batch layer); values are 1/(sampled count) per row.
// The sampler refers to adj, which must outlive it. uniform_rows, when given,
// is has_uniform_rows(adj), which otherwise reads all of adj (a caller that
// builds samplers often, as the Python ops do per call, computes it once).
std::unique_ptr<Sampler> make_graphsage_sampler(const CsrMatrix& adj, std::vector<int64_t> fanouts,
                                                uint64_t seed, std::optional<bool> uniform_rows = std::nullopt);

// LABOR-0 (Balın & Çatalyürek, "Layer-Neighbor Sampling", NeurIPS 2023): as
// GraphSAGE, but each neighbour t of a frontier row u is kept independently with
// probability min(1, fanouts[l]·p_ut) (p_ut = 1/deg(u) unweighted), decided by a
// uniform number per minibatch and vertex t that all rows of the minibatch share:
// fanouts[l] neighbours per row in expectation, and fewer distinct vertices per
// layer than GraphSAGE's independent draws. Values are 1/(kept count) per row.
std::unique_ptr<Sampler> make_labor_sampler(const CsrMatrix& adj, std::vector<int64_t> fanouts, uint64_t seed);

// LADIES (p(v) ∝ Σ_{u in frontier} Â_uv²) and FastGCN (p(v) ∝ ‖Â[:,v]‖²): s[l]
// vertices per minibatch in layer l; values Â_uv / (s·p(v)), row-normalized.
// With include_frontier, the frontier is part of the next layer (first in its list).
enum class LayerWiseKind { ladies, fastgcn };

// The graph matrices the layer-wise samplers multiply with. Computed once per
// graph; a distributed run prepares its own block rows of them.
struct LayerWiseMatrices {
  CsrMatrix normalized;     // Â = D^-1/2 (A + I) D^-1/2
  CsrMatrix squared;        // Â∘Â
  CsrMatrix column_norms;   // 1ᵀ·(Â∘Â), row-normalized: FastGCN's p (1 x n)
};
std::shared_ptr<const LayerWiseMatrices> prepare_layerwise_matrices(const CsrMatrix& adj);

std::unique_ptr<Sampler> make_layerwise_sampler(LayerWiseKind kind,
                                                std::shared_ptr<const LayerWiseMatrices> matrices,
                                                std::vector<int64_t> samples_per_layer,
                                                uint64_t seed, bool include_frontier = true);
// The same, preparing the matrices from the adjacency.
std::unique_ptr<Sampler> make_layerwise_sampler(LayerWiseKind kind, const CsrMatrix& adj,
                                                std::vector<int64_t> samples_per_layer,
                                                uint64_t seed, bool include_frontier = true);

// GraphSAINT's subgraph samplers. Minibatch g's subgraph is induced by its batch
// vertices (the roots: first, in order) and the vertices the sampler adds to them
// (ascending); each of the `layers` layers is that subgraph of Â, row-normalized,
// and the batch layer has the roots as rows.
//   random walk ("saint"): each root walks walk_length steps (uniform over a
//     vertex's neighbours; proportional to the values on a weighted graph) and
//     every vertex visited is added;
//   node ("saint_node"): `budget` distinct vertices per minibatch are drawn with
//     p(v) ∝ ‖Â[:,v]‖² (FastGCN's distribution, GraphSAINT's node sampler);
//   edge ("saint_edge"): `budget` distinct entries (u, v) of A per minibatch are
//     drawn with p ∝ 1/deg(u) + 1/deg(v), and both endpoints are added.
// adj (for the walks and the edges' endpoints) must outlive the sampler.
enum class SaintKind { random_walk, node, edge };
struct SaintOptions {
  SaintKind kind = SaintKind::random_walk;
  int64_t walk_length = 2;   // random_walk
  int64_t budget = 1024;     // node: vertices, edge: entries of A
  int64_t layers = 2;

  static SaintOptions random_walk(int64_t walk_length, int64_t layers) {
    return {SaintKind::random_walk, walk_length, 0, layers};
  }
  static SaintOptions node(int64_t budget, int64_t layers) { return {SaintKind::node, 0, budget, layers}; }
  static SaintOptions edge(int64_t budget, int64_t layers) { return {SaintKind::edge, 0, budget, layers}; }
  // `size` is the walk length (random walk) or the budget (node, edge).
  static SaintOptions of(SaintKind kind, int64_t size, int64_t layers) {
    return kind == SaintKind::random_walk ? random_walk(size, layers) : SaintOptions{kind, 0, size, layers};
  }
  // "saint", "saint_node" or "saint_edge", as samplers are named.
  std::string sampler_name() const;
};
// The GraphSAINT sampler of that name, if the name is one of theirs.
std::optional<SaintKind> saint_kind_of(const std::string& sampler_name);
// GraphSAINT's edge distribution as one row over A's entries (column e = entry e
// of A in CSR order): p(u, v) ∝ 1/deg(u) + 1/deg(v), deg counting entries.
CsrMatrix saint_edge_probabilities(const CsrMatrix& adj);
// edge_probabilities: saint_edge_probabilities(adj), computed here when null
// and the sampler draws edges (a caller that builds samplers often keeps it).
std::unique_ptr<Sampler> make_saint_sampler(const CsrMatrix& adj, std::shared_ptr<const LayerWiseMatrices> matrices,
                                            SaintOptions options, uint64_t seed,
                                            std::optional<bool> uniform_rows = std::nullopt,
                                            std::shared_ptr<const CsrMatrix> edge_probabilities = nullptr);
// The same, preparing Â from the adjacency.
std::unique_ptr<Sampler> make_saint_sampler(const CsrMatrix& adj, SaintOptions options, uint64_t seed);
// Throws unless the walk length (random walk) or budget (node, edge) and the layers are positive.
void check_saint_options(const SaintOptions& options);

// Throws unless every fanout / sample count is positive and there is at least one layer.
void check_layer_sizes(const std::vector<int64_t>& sizes, const char* what);

}  // namespace matsamp
