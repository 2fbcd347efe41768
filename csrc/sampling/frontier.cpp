// GraphSAINT's frontier sampler: the minibatch's batch vertices are the frontier
// (m = the batch size); `budget` steps each pop a frontier vertex u ∝ deg(u) and
// replace it by a uniform neighbour (ops/frontier.h, the paper's Dashboard), and
// the popped vertices join the minibatch's subgraph (subgraph.h):
//   V_g = roots ∪ popped,   A^l = normalize_rows(R·Â·C), C = V_g
// The walk is a backend op whose pops stay in the backend (on the device with
// CUDA); the graph must be whole on this process (not a partitioned one).
#include "ops/frontier.h"
#include "sampling/registry.h"
#include "sampling/subgraph.h"

namespace matsamp {

namespace {

class FrontierSampler final : public SubgraphSampler {
 public:
  FrontierSampler(SamplingGraph& graph, int64_t budget, int64_t layers, bool aggregator_norm)
      : SubgraphSampler(graph, layers, aggregator_norm), adj_(graph.adjacency()), budget_(budget) {
    check_positive_option(budget_, "frontier budget");
    MATSAMP_CHECK(graph.host_adjacency(),
                  "the frontier sampler walks the whole adjacency: run it where the graph is whole (not "
                  "--distributed partitioned)");
  }
  std::string name() const override { return "frontier"; }

 protected:
  AddedVertices add_vertices(Context& ctx, const SeedBatch& roots, int64_t first_minibatch,
                             uint32_t epoch) const override {
    return ctx.timed(&StepStats::sampling, [&] {
      // One row per minibatch: the vertices it popped.
      Matrix popped = ctx.backend.frontier_walk(adj_, roots.resident, budget_,
                                                FrontierKeys{ctx.seed, epoch, first_minibatch}, kFrontierEnlargement);
      return AddedVertices{std::move(popped), one_row_per_minibatch(roots.resident.blocks())};
    });
  }
  double added_per_minibatch(int64_t) const override { return static_cast<double>(budget_); }

 private:
  Matrix adj_;
  int64_t budget_;
};

}  // namespace

SamplerSpec frontier_sampler() {
  return {"frontier",
          "GraphSAINT frontier: the batch is the frontier; budget steps pop a vertex ∝ degree and walk it on; "
          "layers are the subgraph",
          SamplerFamily::subgraph,
          FirstProduct::whole_rows,
          kEstimates,
          {option::budget(), option::layers(), option::saint_norm()},
          "budget",
          {GraphMatrix::adjacency, GraphMatrix::normalized},
          [](SamplingGraph& graph, const SamplerParams& params) -> std::unique_ptr<Sampler> {
            return std::make_unique<FrontierSampler>(graph, params.integer("budget"), params.integer("layers"),
                                                     params.flag("saint_norm"));
          }};
}

}  // namespace matsamp
