// The program GraphSAGE, LABOR-0 and DGS share, for fanouts s_L … s_1: per layer l,
//   S = draw(frontier)                      the frontier's rows of P = normalize_rows(Q·A),
//                                           sampled (P itself is never formed)
//   A^l = compact_columns(weigh(S))         weights: mean over S's entries unless the draw
//                                           gives its own; columns per minibatch: the frontier
//                                           first, then the new vertices in ascending id
// and the next frontier is A^l's column list. A subclass gives the draw. With
// expand_new_only (PyG's rule), layer l > 0 draws only the rows of the vertices
// layer l - 1 added (the frontier past its own leading vertices); the others keep
// empty rows, so the layer's rows are still the frontier and its columns start
// with it, and no vertex is expanded twice.
#pragma once
#include <utility>

#include "sampling/capabilities.h"
#include "sampling/excluding_sampler.h"
#include "sampling/sampling_graph.h"

namespace matsamp {

class NodeWiseSampler : public ExcludingSampler {
 public:
  // `what` names the fanouts in errors ("GraphSAGE fanouts").
  NodeWiseSampler(SamplingGraph& graph, std::vector<int64_t> fanouts, const char* what, bool expand_new_only);

  int num_layers() const override { return static_cast<int>(fanouts_.size()); }
  int64_t bytes_per_minibatch(int64_t batch_size) const override;

 protected:
  // Rows `rows` of `a` (the adjacency, or the masked frontier rows) sampled with
  // `fanout` (mean weights are applied after). With `positions`, a draw that
  // knows them sets each entry's position in the adjacency (others leave it
  // undefined, and the positions are located later if asked for).
  virtual Matrix draw(Backend& backend, const Matrix& a, const Ids& rows, int64_t fanout, const SampleKeys& keys,
                      Ids* positions) const = 0;
  // The draw over the frontier's rows of A ∘ ¬mask (row i of mask masks frontier
  // row i). By default draw() over the masked rows, formed (no positions); a
  // fused op may do without forming them.
  virtual Matrix draw_masked(Backend& backend, const Ids& frontier, int64_t fanout, const SampleKeys& keys,
                             const Matrix& mask, Ids* positions) const;
  // The draw where row i of block g keeps to bounds' seed time g (TemporalSampler).
  // By default an error: the subclass that samples by time overrides it.
  virtual Matrix draw_before(Backend& backend, const Ids& rows, int64_t fanout, const SampleKeys& keys,
                             const TemporalBounds& bounds, Ids* positions) const;
  // The layer's weights from the draw: by default mean aggregation over the kept entries.
  virtual Matrix weigh(Backend& backend, Matrix drawn) const;
  // A row's extent read per frontier vertex and each sampled column id (random
  // gathers), and with rows_read_whole, every frontier row streamed.
  void count_node_wise_traffic(const BulkSample& bulk, bool rows_read_whole, StepStats& stats) const;

  // With excluded edges, each layer draws from R·A ∘ ¬M instead: the frontier's
  // rows with the minibatch's excluded edges masked out (rows read whole).
  Bulk sample_layers(Context& ctx, const SeedBatch& seeds, int64_t first_minibatch, uint32_t epoch,
                     const ExcludedInBackend* excluded) const override;
  // The same program with every draw kept to the blocks' seed times (draw_before).
  Bulk sample_layers_before(Context& ctx, const SeedBatch& seeds, int64_t first_minibatch, uint32_t epoch,
                            const TemporalBounds& bounds) const;
  int64_t graph_columns() const override { return adj_.cols(); }
  Bulk sample_program(Context& ctx, const SeedBatch& seeds, int64_t first_minibatch, uint32_t epoch,
                      const ExcludedInBackend* excluded, const TemporalBounds* temporal) const;

  SamplingGraph& graph_;

  Matrix adj_;
  std::vector<int64_t> fanouts_;
  bool expand_new_only_;
};

}  // namespace matsamp
