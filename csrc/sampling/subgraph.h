// The program GraphSAINT's samplers share: minibatch g's subgraph is induced by
// its batch vertices (the roots) and the vertices the sampler adds to them,
//   V_g = the roots in order, then the added vertices that are not roots, ascending
//   A^l = normalize_rows(R·Â·C) with C = V_g, and R = the roots in the batch layer,
//         V_g in the others
// so every layer aggregates inside the same subgraph and the loss stays at the
// batch vertices. With GraphSAINT's aggregator normalization (saint_norm) the
// layers are R·(Â∘1/α)·C instead, unbiased (saint_normalization.h), α estimated
// on the first call by pre-sampling until 50·n vertices were drawn, as the
// GraphSAINT code does. A subclass adds the vertices (walks, drawn vertices,
// drawn edges, a frontier's pops) as a matrix in the backend, and V_g is
// compact_columns of it with the roots leading.
#pragma once
#include <mutex>

#include "sampling/capabilities.h"
#include "sampling/saint_normalization.h"
#include "sampling/sampling_graph.h"

namespace matsamp {

// The vertices a subgraph sampler adds to a bulk's roots: the columns of the
// rows of block g (row_offsets) are minibatch g's (any number of rows each).
struct AddedVertices {
  Matrix vertices;
  Offsets row_offsets;
};

class SubgraphSampler : public Sampler, public EstimatingSampler {
 public:
  SubgraphSampler(SamplingGraph& graph, int64_t layers, bool aggregator_norm);

  int num_layers() const override { return static_cast<int>(layers_); }
  Bulk sample(Context& ctx, const SeedBatch& seeds, int64_t first_minibatch, uint32_t epoch) const override;
  using Sampler::sample;
  void count_traffic(const BulkSample& bulk, StepStats& stats) const override;
  void keep_estimates(std::shared_ptr<const EstimateStore> store, std::string key) override;

 protected:
  // The vertices added to each minibatch's roots.
  virtual AddedVertices add_vertices(Context& ctx, const SeedBatch& roots, int64_t first_minibatch,
                                     uint32_t epoch) const = 0;
  // Vertices added per minibatch (at most), for the memory estimate.
  virtual double added_per_minibatch(int64_t batch_size) const = 0;
  int64_t bytes_per_minibatch(int64_t batch_size) const override;

  SamplingGraph& graph_;
  Matrix normalized_;
  int64_t layers_;

 private:
  // SubgraphCounts kept in the backend.
  struct Tallies {
    Counts vertex, entry;  // undefined: none counted yet
    int64_t subgraphs = 0, sampled_vertices = 0;
  };
  // Â∘1/α in the backend, estimated with minibatches of the largest block of `offsets`.
  const Matrix& aggregator_normalized(Context& ctx, const Offsets& offsets) const;
  // Adds pre-sampled subgraphs of `batch` roots to `tallies` until 50·n vertices
  // were drawn, by backend ops only (apart from each chunk's seeds).
  void presample(Context& ctx, int64_t batch, Tallies& tallies) const;
  bool aggregator_norm_;
  std::shared_ptr<const EstimateStore> store_;
  std::string key_;
  mutable std::mutex estimate_mutex_;
  mutable Matrix scaled_;
};

// C = its_sample(p, budget) with one row per minibatch of `offsets` drawing
// from p's one shared row (the node and edge samplers' draw).
Matrix draw_per_minibatch(Context& ctx, const Matrix& p, int64_t budget, const Offsets& offsets,
                          int64_t first_minibatch, uint32_t epoch);

// Throws unless `value` (a walk length or budget, named by `what`) is at least 1.
void check_positive_option(int64_t value, const char* what);

}  // namespace matsamp
