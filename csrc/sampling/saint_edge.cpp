// GraphSAINT's edge sampler as a matrix program: budget distinct entries of A per
// minibatch drawn from one row over A's entries that all minibatches share,
//   E = its_sample(p_E, budget)      p_E(u, v) ∝ 1/deg(u) + 1/deg(v)
// and both endpoints of E_g's entries join minibatch g's subgraph (subgraph.h).
// The endpoints are looked up in the whole adjacency on the host, so the graph
// must be replicated, not partitioned.
#include <algorithm>

#include "sampling/registry.h"
#include "sampling/subgraph.h"

namespace matsamp {

namespace {

const CsrMatrix& whole_adjacency(SamplingGraph& graph) {
  const CsrMatrix* adj = graph.host_adjacency();
  MATSAMP_CHECK(adj, "saint_edge needs the whole graph on every rank: run it with the graph replicated");
  return *adj;
}

class SaintEdgeSampler final : public SubgraphSampler {
 public:
  SaintEdgeSampler(SamplingGraph& graph, int64_t budget, int64_t layers, bool aggregator_norm)
      : SubgraphSampler(graph, layers, aggregator_norm), adj_(whole_adjacency(graph)), budget_(budget) {
    check_positive_option(budget_, "GraphSAINT edge budget");
    edge_probabilities_ = graph.edge_probabilities();
  }
  std::string name() const override { return "saint_edge"; }

 protected:
  std::vector<std::vector<vid_t>> add_vertices(Context& ctx, const std::vector<vid_t>&, const Offsets& offsets,
                                               int64_t first_minibatch, uint32_t epoch) const override {
    const CsrMatrix chosen = draw_per_minibatch(ctx, edge_probabilities_, budget_, offsets, first_minibatch, epoch);
    std::vector<std::vector<vid_t>> endpoints(chosen.rows);
    for (int64_t g = 0; g < chosen.rows; ++g)
      for (int64_t i = chosen.rowptr[g]; i < chosen.rowptr[g + 1]; ++i) {
        const int64_t e = chosen.colidx[i];
        const auto row = std::upper_bound(adj_.rowptr.begin(), adj_.rowptr.end(), e) - adj_.rowptr.begin() - 1;
        endpoints[g].push_back(static_cast<vid_t>(row));
        endpoints[g].push_back(adj_.colidx[e]);
      }
    return endpoints;
  }
  double added_per_minibatch(int64_t) const override { return 2.0 * static_cast<double>(budget_); }

 private:
  const CsrMatrix& adj_;
  Matrix edge_probabilities_;
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
          {GraphMatrix::normalized, GraphMatrix::edge_probabilities},
          [](SamplingGraph& graph, const SamplerParams& params) -> std::unique_ptr<Sampler> {
            return std::make_unique<SaintEdgeSampler>(graph, params.integer("budget"), params.integer("layers"),
                                                      params.flag("saint_norm"));
          }};
}

}  // namespace matsamp
