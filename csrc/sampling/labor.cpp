// LABOR-0 (Balın & Çatalyürek, "Layer-Neighbor Sampling", NeurIPS 2023): the
// node-wise program with Poisson sampling of P's rows,
//   S = labor_sample_rows(A, frontier, s_l)   entry (i, t) of P kept iff u_g(t) < s_l·p_it,
//                                             one uniform number per minibatch g and column t
// so rows of a minibatch that share a neighbour tend to keep it together: s_l
// neighbours per row in expectation, fewer distinct vertices per layer. By time,
// the same draw over the rows cut to their entries no later than the seed time.
#include "sampling/node_wise.h"
#include "sampling/registry.h"

namespace matsamp {

namespace {

class LaborSampler final : public NodeWiseSampler, public TemporalSampler {
 public:
  LaborSampler(SamplingGraph& graph, std::vector<int64_t> fanouts, bool expand_new_only)
      : NodeWiseSampler(graph, std::move(fanouts), "LABOR fanouts", expand_new_only) {}
  std::string name() const override { return "labor"; }
  void count_traffic(const BulkSample& bulk, StepStats& stats) const override {
    count_node_wise_traffic(bulk, /*rows_read_whole=*/true, stats);
  }

  Bulk sample_before(Context& ctx, const SeedBatch& seeds, int64_t first_minibatch, uint32_t epoch,
                     const TemporalBounds& bounds) const override {
    MATSAMP_CHECK(bounds.strategy == TemporalStrategy::uniform,
                  "labor samples by time with the strategy 'uniform': 'last' takes the latest neighbours, which "
                  "LABOR's shared random numbers do not choose (graphsage can)");
    return sample_layers_before(ctx, seeds, first_minibatch, epoch, bounds);
  }

 protected:
  // Row i of the early rows is frontier row i: LABOR's draw under the same keys.
  Matrix draw_before(Backend& backend, const Ids& rows, int64_t fanout, const SampleKeys& keys,
                     const TemporalBounds& bounds, Ids*) const override {
    const Matrix early =
        backend.select_rows_before(adj_, rows, keys.row_offsets, bounds.order, bounds.sorted_times, bounds.seed_times);
    return backend.labor_sample_rows(early, backend.sequence_ids(early.rows()), fanout, keys);
  }
  Matrix draw(Backend& backend, const Matrix& a, const Ids& rows, int64_t fanout, const SampleKeys& keys,
              Ids* positions) const override {
    return backend.labor_sample_rows(a, rows, fanout, keys, positions);
  }
};

}  // namespace

SamplerSpec labor_sampler() {
  return {"labor",
          "LABOR-0: GraphSAGE's layers, each neighbour kept with probability min(1, fanout/degree) by a random "
          "number its minibatch shares",
          SamplerFamily::node_wise,
          FirstProduct::sampled_rows,
          kEdgeSeeds | kPartitioned | kTemporal,
          {option::fanouts(), option::expand_new_only()},
          "fanouts",
          {GraphMatrix::adjacency},
          [](SamplingGraph& graph, const SamplerParams& params) -> std::unique_ptr<Sampler> {
            return std::make_unique<LaborSampler>(graph, params.list("fanouts"), params.flag("expand_new_only"));
          }};
}

}  // namespace matsamp
