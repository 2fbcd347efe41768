// GraphSAGE (DESIGN.md): the node-wise program with inverse transform sampling,
//   S = its_sample(normalize_rows(Q·A), s_l)   s_l distinct neighbours per frontier vertex
// (sample_rows: an unweighted row is drawn in O(s_l), never read whole); with
// replace, s_l independent draws per vertex, repeats kept (sample_rows_with_replacement).
#include "sampling/node_wise.h"
#include "sampling/registry.h"

namespace matsamp {

namespace {

class GraphSageSampler final : public NodeWiseSampler, public TemporalSampler {
 public:
  GraphSageSampler(SamplingGraph& graph, std::vector<int64_t> fanouts, bool replace, bool expand_new_only)
      : NodeWiseSampler(graph, std::move(fanouts), "GraphSAGE fanouts", expand_new_only), replace_(replace) {}
  std::string name() const override { return "graphsage"; }
  void count_traffic(const BulkSample& bulk, StepStats& stats) const override {
    count_node_wise_traffic(bulk, !adj_.uniform_rows(), stats);
  }

  Bulk sample_before(Context& ctx, const SeedBatch& seeds, int64_t first_minibatch, uint32_t epoch,
                     const TemporalBounds& bounds) const override {
    MATSAMP_CHECK(!replace_, "graphsage samples by time without replacement: drop replace");
    return sample_layers_before(ctx, seeds, first_minibatch, epoch, bounds);
  }

 protected:
  Matrix draw_before(Backend& backend, const Ids& rows, int64_t fanout, const SampleKeys& keys,
                     const TemporalBounds& bounds, Ids* positions) const override {
    return backend.sample_rows_before(adj_, rows, fanout, keys, bounds.order, bounds.sorted_times, bounds.seed_times,
                                      bounds.strategy, positions);
  }
  Matrix draw(Backend& backend, const Matrix& a, const Ids& rows, int64_t fanout, const SampleKeys& keys,
              Ids* positions) const override {
    if (replace_) return backend.sample_rows_with_replacement(a, rows, fanout, keys, positions);
    return backend.sample_rows(a, rows, fanout, keys, positions);
  }
  Matrix draw_masked(Backend& backend, const Ids& frontier, int64_t fanout, const SampleKeys& keys, const Matrix& mask,
                     Ids* positions) const override {
    if (replace_) return NodeWiseSampler::draw_masked(backend, frontier, fanout, keys, mask, positions);
    return backend.sample_rows_masked(adj_, frontier, fanout, keys, mask, positions);
  }

 private:
  bool replace_;
};

}  // namespace

SamplerSpec graphsage_sampler() {
  return {"graphsage",
          "GraphSAGE: fanouts[l] distinct neighbours per frontier vertex, mean weights",
          SamplerFamily::node_wise,
          FirstProduct::sampled_rows,
          kEdgeSeeds | kPartitioned | kTemporal,
          {option::fanouts(), option::replace(), option::expand_new_only()},
          "fanouts",
          {GraphMatrix::adjacency},
          [](SamplingGraph& graph, const SamplerParams& params) -> std::unique_ptr<Sampler> {
            return std::make_unique<GraphSageSampler>(graph, params.list("fanouts"), params.flag("replace"),
                                                      params.flag("expand_new_only"));
          }};
}

}  // namespace matsamp
