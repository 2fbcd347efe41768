// The program LADIES and FastGCN share, s_l vertices per minibatch in layer l:
//   P = probability(frontier)             one row per minibatch, or one row shared by all
//   S = its_sample(P, s_l)                 s_l distinct vertices per minibatch
//   C = compact_columns(S, frontier)       C_g: the frontier first (unless excluded),
//                                          then the other drawn vertices in ascending id
//   A^l = normalize_rows(diag(R_g·Â)·[C_g · diag(1/(s_l·p_g(v)))])
// all in the backend; the next frontier is C. A subclass gives P.
#pragma once
#include "sampling/excluding_sampler.h"
#include "sampling/sampling_graph.h"

namespace matsamp {

class LayerWiseSampler : public ExcludingSampler {
 public:
  // `what` names the sizes in errors ("LADIES samples per layer").
  LayerWiseSampler(SamplingGraph& graph, std::vector<int64_t> sizes, bool include_frontier, const char* what);

  int num_layers() const override { return static_cast<int>(sizes_.size()); }
  int64_t bytes_per_minibatch(int64_t batch_size) const override;
  void count_traffic(const BulkSample& bulk, StepStats& stats) const override;

 protected:
  // With excluded edges, each minibatch's are masked out of its extracted rows
  // (the column draw is the unmasked one's).
  Bulk sample_layers(Context& ctx, const SeedBatch& seeds, int64_t first_minibatch, uint32_t epoch,
                     const ExcludedInBackend* excluded) const override;
  int64_t graph_columns() const override { return normalized_.cols(); }
  // Each minibatch's distribution over the vertices given its frontier (block g
  // of `offsets`): k rows, or one row all minibatches share.
  virtual Matrix probability(Context& ctx, const BlockedIds& frontier) const = 0;
  // Whether P is read from the frontier's rows of Â∘Â (counted as traffic).
  virtual bool reads_frontier_rows() const = 0;

  SamplingGraph& graph_;
  Matrix normalized_;
  std::vector<int64_t> sizes_;
  bool include_frontier_;
};

}  // namespace matsamp
