// GraphSAINT's node sampler as a matrix program: budget distinct vertices per
// minibatch drawn from one row all minibatches share,
//   C = its_sample(normalize_rows(1ᵀ·(Â∘Â)), budget)   p(v) ∝ ‖Â[:,v]‖² (FastGCN's distribution)
// and C_g joins minibatch g's subgraph (subgraph.h).
#include "sampling/registry.h"
#include "sampling/subgraph.h"

namespace matsamp {

namespace {

class SaintNodeSampler final : public SubgraphSampler {
 public:
  SaintNodeSampler(SamplingGraph& graph, int64_t budget, int64_t layers, bool aggregator_norm)
      : SubgraphSampler(graph, layers, aggregator_norm), column_norms_(graph.column_norms()), budget_(budget) {
    check_positive_option(budget_, "GraphSAINT node budget");
  }
  std::string name() const override { return "saint_node"; }

 protected:
  AddedVertices add_vertices(Context& ctx, const SeedBatch& roots, int64_t first_minibatch,
                             uint32_t epoch) const override {
    const Offsets& offsets = roots.offsets();
    return {draw_per_minibatch(ctx, column_norms_, budget_, offsets, first_minibatch, epoch),
            one_row_per_minibatch(static_cast<int64_t>(offsets.size()) - 1)};
  }
  double added_per_minibatch(int64_t) const override { return static_cast<double>(budget_); }

 private:
  Matrix column_norms_;
  int64_t budget_;
};

}  // namespace

SamplerSpec saint_node_sampler() {
  return {"saint_node",
          "GraphSAINT nodes: budget vertices per minibatch drawn ∝ ‖Â[:,v]‖²; layers are the subgraph",
          SamplerFamily::subgraph,
          FirstProduct::whole_rows,
          kPartitioned | kEstimates,
          {option::budget(), option::layers(), option::saint_norm()},
          "budget",
          {GraphMatrix::normalized, GraphMatrix::column_norms},
          [](SamplingGraph& graph, const SamplerParams& params) -> std::unique_ptr<Sampler> {
            return std::make_unique<SaintNodeSampler>(graph, params.integer("budget"), params.integer("layers"),
                                                      params.flag("saint_norm"));
          }};
}

}  // namespace matsamp
