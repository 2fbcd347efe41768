// GraphSAINT's edge sampler as a matrix program: budget distinct entries of A per
// minibatch drawn from one row over A's entries that all minibatches share,
//   E = its_sample(p_E, budget)      p_E(u, v) ∝ 1/deg(u) + 1/deg(v)
// and both endpoints of E_g's entries join minibatch g's subgraph (subgraph.h):
// row g of E·B, B (nnz x n) holding each entry's two ends. B is built from the
// whole adjacency, so the graph must be replicated, not partitioned.
#include "sampling/registry.h"
#include "sampling/subgraph.h"

namespace matsamp {

namespace {

class SaintEdgeSampler final : public SubgraphSampler {
 public:
  SaintEdgeSampler(SamplingGraph& graph, int64_t budget, int64_t layers, bool aggregator_norm)
      : SubgraphSampler(graph, layers, aggregator_norm), budget_(budget) {
    check_positive_option(budget_, "GraphSAINT edge budget");
    MATSAMP_CHECK(graph.host_adjacency(),
                  "saint_edge needs the whole graph on every rank: run it with the graph replicated");
    edge_probabilities_ = graph.edge_probabilities();
    edge_endpoints_ = graph.edge_endpoints();
  }
  std::string name() const override { return "saint_edge"; }

 protected:
  AddedVertices add_vertices(Context& ctx, const SeedBatch& roots, int64_t first_minibatch,
                             uint32_t epoch) const override {
    const Offsets& offsets = roots.offsets();
    const Matrix chosen = draw_per_minibatch(ctx, edge_probabilities_, budget_, offsets, first_minibatch, epoch);
    Matrix touched = ctx.timed(&StepStats::sampling, [&] { return ctx.backend.spgemm(chosen, edge_endpoints_); });
    return {std::move(touched), one_row_per_minibatch(static_cast<int64_t>(offsets.size()) - 1)};
  }
  double added_per_minibatch(int64_t) const override { return 2.0 * static_cast<double>(budget_); }

 private:
  Matrix edge_probabilities_, edge_endpoints_;  // E·endpoints: the vertices E's edges touch
  int64_t budget_;
};

}  // namespace

SamplerSpec saint_edge_sampler() {
  return {"saint_edge",
          "GraphSAINT edges: budget edges per minibatch drawn ∝ 1/deg(u) + 1/deg(v), both endpoints added; layers "
          "are the subgraph",
          SamplerFamily::subgraph,
          FirstProduct::whole_rows,
          kEstimates,
          {option::budget(), option::layers(), option::saint_norm()},
          "budget",
          {GraphMatrix::normalized, GraphMatrix::edge_probabilities, GraphMatrix::edge_endpoints},
          [](SamplingGraph& graph, const SamplerParams& params) -> std::unique_ptr<Sampler> {
            return std::make_unique<SaintEdgeSampler>(graph, params.integer("budget"), params.integer("layers"),
                                                      params.flag("saint_norm"));
          }};
}

}  // namespace matsamp
