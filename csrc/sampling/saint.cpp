// GraphSAINT's subgraph samplers as matrix programs:
//   random walk: F_{t+1} = its_sample(normalize_rows(Q_t·A), 1)   (Q_t selects each walker's
//                vertex: sample_rows); added: every vertex visited
//   node:        C = its_sample(1ᵀ·(Â∘Â) normalized, budget)   (FastGCN's draw); added: C_g
//   edge:        E = its_sample(p_E, budget), p_E one row over A's entries; added: E_g's endpoints
//   V_g = the roots of minibatch g, then the added vertices
//   A^l = R·Â·C with R = C = V_g (R = the roots in the batch layer), row-normalized.
// Every layer aggregates inside the same induced subgraph, and the batch layer's
// rows are the roots, so the loss is taken at the batch vertices as for the other
// samplers (each training vertex is a root once per epoch).
#include <algorithm>

#include "sampling/sampler.h"
#include "util/timer.h"

namespace matsamp {

namespace {

class SaintSampler final : public Sampler {
 public:
  SaintSampler(const CsrMatrix& adj, std::shared_ptr<const LayerWiseMatrices> matrices, SaintOptions options,
               uint64_t seed, bool uniform_rows, std::shared_ptr<const CsrMatrix> edge_probabilities)
      : adj_(adj),
        matrices_(std::move(matrices)),
        edge_probabilities_(std::move(edge_probabilities)),
        options_(options),
        seed_(seed),
        uniform_rows_(uniform_rows) {
    MATSAMP_CHECK(adj_.rows == adj_.cols, "GraphSAINT: adjacency is not square (", adj_.shape(), ")");
    check_saint_options(options_);
    MATSAMP_CHECK(matrices_->normalized.rows == adj_.rows, "GraphSAINT: Â has ", matrices_->normalized.rows,
                  " rows, the adjacency ", adj_.rows);
    if (options_.kind == SaintKind::edge) {
      if (!edge_probabilities_) edge_probabilities_ = std::make_shared<CsrMatrix>(saint_edge_probabilities(adj_));
      MATSAMP_CHECK(edge_probabilities_->cols == adj_.nnz(), "GraphSAINT edges: the edge distribution has ",
                    edge_probabilities_->cols, " entries, the adjacency ", adj_.nnz());
    }
  }

  std::string name() const override { return options_.sampler_name(); }
  int num_layers() const override { return static_cast<int>(options_.layers); }

  BulkSample sample(const std::vector<vid_t>& seeds, const Offsets& seed_offsets, int64_t first_minibatch,
                    uint32_t epoch, Backend& backend, StepStats* times) const override {
    BulkSample bulk{first_minibatch, seeds, seed_offsets, {}, nullptr};
    bulk.layers.reserve(options_.layers);   // frontier points into the previous layer
    std::vector<std::vector<vid_t>> added = options_.kind == SaintKind::random_walk
                                                ? walk(seeds, seed_offsets, first_minibatch, epoch, backend, times)
                                                : draw(seed_offsets, first_minibatch, epoch, backend, times);
    ScopedTimer t(times ? &times->extraction : nullptr);
    SampledLayer subgraph;
    list_subgraphs(seeds, seed_offsets, first_minibatch, added, subgraph);
    const CsrMatrix& normalized = matrices_->normalized;
    const std::vector<vid_t>* frontier = &bulk.seeds;
    for (int64_t l = 0; l < options_.layers; ++l) {
      SampledLayer layer = subgraph;
      layer.row_offsets = l == 0 ? seed_offsets : subgraph.col_offsets;
      if (times) {   // the rows of Â read, column id + value
        for (vid_t u : *frontier) times->streamed_bytes += 8 * normalized.row_nnz(u);
        times->gathers += static_cast<int64_t>(frontier->size());
      }
      backend.append_weighted_layer(normalized, *frontier, {}, std::move(layer), bulk);
      frontier = &bulk.layers.back().vertices;
    }
    return bulk;
  }

  int64_t bytes_per_minibatch(int64_t batch_size) const override {
    const CsrMatrix& normalized = matrices_->normalized;
    const double degree = normalized.rows ? double(normalized.nnz()) / normalized.rows : 0;
    const double b = static_cast<double>(batch_size);
    const bool walks = options_.kind == SaintKind::random_walk;
    const double endpoints = options_.kind == SaintKind::edge ? 2 : 1;
    const double added =
        walks ? b * static_cast<double>(options_.walk_length) : endpoints * static_cast<double>(options_.budget);
    const double vertices = std::min(double(adj_.rows), b + added);
    // Walk picks or drawn vertices (column id, value, row pointer); each layer's
    // rows of Â (R·Â on the GPU) and the extracted subgraph, column id + value.
    const double rows = b + vertices * static_cast<double>(options_.layers - 1);
    return static_cast<int64_t>(added * 24 + rows * (degree * 16 + 16) + vertices * 16);
  }

 private:
  // Walks every root walk_length steps (a walker at a vertex without neighbours
  // stays): the vertices each minibatch's walkers visited.
  std::vector<std::vector<vid_t>> walk(const std::vector<vid_t>& roots, const Offsets& offsets, int64_t first_minibatch,
                                       uint32_t epoch, Backend& backend, StepStats* times) const {
    ScopedTimer t(times ? &times->sampling : nullptr);
    const int64_t k = static_cast<int64_t>(offsets.size()) - 1;
    std::vector<vid_t> position = roots;
    std::vector<std::vector<vid_t>> visited(k);
    for (int64_t step = 0; step < options_.walk_length; ++step) {
      const CsrMatrix picks = backend.sample_rows(
          adj_, position, 1, {seed_, epoch, static_cast<uint32_t>(step), first_minibatch, offsets}, uniform_rows_);
      for (int64_t g = 0; g < k; ++g)
        for (int64_t i = offsets[g]; i < offsets[g + 1]; ++i) {
          if (picks.row_nnz(i) == 0) continue;
          position[i] = picks.colidx[picks.rowptr[i]];
          visited[g].push_back(position[i]);
        }
    }
    if (times) times->gathers += options_.walk_length * static_cast<int64_t>(roots.size());
    return visited;
  }

  // `budget` distinct vertices (node: from the column norms of Â∘Â) or entries of
  // A (edge: their endpoints) per minibatch, from one row shared by all.
  std::vector<std::vector<vid_t>> draw(const Offsets& offsets, int64_t first_minibatch, uint32_t epoch,
                                       Backend& backend, StepStats* times) const {
    const int64_t k = static_cast<int64_t>(offsets.size()) - 1;
    const Offsets per_minibatch = one_row_per_minibatch(k);
    const bool edges = options_.kind == SaintKind::edge;
    const CsrMatrix chosen =
        backend.draw_columns(nullptr, edges ? *edge_probabilities_ : matrices_->column_norms, options_.budget,
                             {seed_, epoch, 0, first_minibatch, per_minibatch}, nullptr, offsets, times)
            .chosen;
    std::vector<std::vector<vid_t>> drawn(k);
    for (int64_t g = 0; g < k; ++g)
      for (int64_t i = chosen.rowptr[g]; i < chosen.rowptr[g + 1]; ++i) {
        const int64_t e = chosen.colidx[i];
        if (!edges) {
          drawn[g].push_back(static_cast<vid_t>(e));
          continue;
        }
        const auto row = std::upper_bound(adj_.rowptr.begin(), adj_.rowptr.end(), e) - adj_.rowptr.begin() - 1;
        drawn[g].push_back(static_cast<vid_t>(row));
        drawn[g].push_back(adj_.colidx[e]);
      }
    return drawn;
  }

  // V_g per minibatch into subgraph.vertices / col_offsets: its roots in order,
  // then the added vertices that are not roots, ascending and once each.
  static void list_subgraphs(const std::vector<vid_t>& roots, const Offsets& offsets, int64_t first_minibatch,
                             std::vector<std::vector<vid_t>>& added, SampledLayer& subgraph) {
    const int64_t k = static_cast<int64_t>(offsets.size()) - 1;
    subgraph.col_offsets.assign(1, 0);
    subgraph.vertices.clear();
    for (int64_t g = 0; g < k; ++g) {
      std::vector<vid_t> block_roots(roots.begin() + offsets[g], roots.begin() + offsets[g + 1]);
      subgraph.vertices.insert(subgraph.vertices.end(), block_roots.begin(), block_roots.end());
      std::sort(block_roots.begin(), block_roots.end());
      const auto repeated = std::adjacent_find(block_roots.begin(), block_roots.end());
      MATSAMP_CHECK(repeated == block_roots.end(), "GraphSAINT: minibatch ", first_minibatch + g, " has root vertex ",
                    repeated == block_roots.end() ? 0 : *repeated, " twice");
      std::vector<vid_t>& others = added[g];
      std::sort(others.begin(), others.end());
      others.erase(std::unique(others.begin(), others.end()), others.end());
      for (vid_t v : others)
        if (!std::binary_search(block_roots.begin(), block_roots.end(), v)) subgraph.vertices.push_back(v);
      subgraph.col_offsets.push_back(static_cast<int64_t>(subgraph.vertices.size()));
    }
  }

  const CsrMatrix& adj_;
  std::shared_ptr<const LayerWiseMatrices> matrices_;
  std::shared_ptr<const CsrMatrix> edge_probabilities_;   // edge: p_E
  SaintOptions options_;
  uint64_t seed_;
  bool uniform_rows_;   // unweighted: a step costs O(1), not O(degree)
};

}  // namespace

std::string SaintOptions::sampler_name() const {
  switch (kind) {
    case SaintKind::random_walk: return "saint";
    case SaintKind::node: return "saint_node";
    case SaintKind::edge: return "saint_edge";
  }
  return "saint";
}

std::optional<SaintKind> saint_kind_of(const std::string& sampler_name) {
  for (SaintKind kind : {SaintKind::random_walk, SaintKind::node, SaintKind::edge})
    if (SaintOptions{kind}.sampler_name() == sampler_name) return kind;
  return std::nullopt;
}

CsrMatrix saint_edge_probabilities(const CsrMatrix& adj) {
  MATSAMP_CHECK(adj.rows == adj.cols, "GraphSAINT edges: adjacency is not square (", adj.shape(), ")");
  check_column_count(adj.nnz(), "GraphSAINT edges: entries of the adjacency");
  CsrMatrix p(1, adj.nnz());
  p.rowptr[1] = adj.nnz();
  p.colidx.resize(adj.nnz());
  p.values.resize(adj.nnz());
  for (int64_t u = 0; u < adj.rows; ++u)
    for (int64_t e = adj.rowptr[u]; e < adj.rowptr[u + 1]; ++e) {
      const int64_t v = adj.colidx[e];
      p.colidx[e] = static_cast<col_t>(e);
      // deg(v) >= 1 unless the graph is directed and v has no entries of its own.
      const double inverse_v = adj.row_nnz(v) ? 1.0 / static_cast<double>(adj.row_nnz(v)) : 1.0;
      p.values[e] = static_cast<float>(1.0 / static_cast<double>(adj.row_nnz(u)) + inverse_v);
    }
  normalize_rows(p);
  return p;
}

std::unique_ptr<Sampler> make_saint_sampler(const CsrMatrix& adj, std::shared_ptr<const LayerWiseMatrices> matrices,
                                            SaintOptions options, uint64_t seed, std::optional<bool> uniform_rows,
                                            std::shared_ptr<const CsrMatrix> edge_probabilities) {
  return std::make_unique<SaintSampler>(adj, std::move(matrices), options, seed,
                                        uniform_rows ? *uniform_rows : has_uniform_rows(adj),
                                        std::move(edge_probabilities));
}

std::unique_ptr<Sampler> make_saint_sampler(const CsrMatrix& adj, SaintOptions options, uint64_t seed) {
  check_saint_options(options);
  return make_saint_sampler(adj, prepare_layerwise_matrices(adj), options, seed);
}

void check_saint_options(const SaintOptions& options) {
  if (options.kind == SaintKind::random_walk)
    MATSAMP_CHECK(options.walk_length >= 1, "GraphSAINT walk length must be at least 1, got ", options.walk_length);
  else
    MATSAMP_CHECK(options.budget >= 1, "GraphSAINT ", options.kind == SaintKind::node ? "node" : "edge",
                  " budget must be at least 1, got ", options.budget);
  MATSAMP_CHECK(options.layers >= 1, "GraphSAINT layers must be at least 1, got ", options.layers);
}

}  // namespace matsamp
