// GraphSAINT's random-walk sampler (Zeng et al., ICLR 2020) as a matrix program:
// each root walks walk_length steps,
//   F_{t+1} = its_sample(normalize_rows(Q_t·A), 1)   (Q_t selects each walker's vertex: sample_rows)
//   W = F_1 + … + F_T                                 row i: the vertices walker i visited
// a walker at a vertex without neighbours stays; every vertex visited joins the
// minibatch's subgraph (subgraph.h).
#include "sampling/registry.h"
#include "sampling/subgraph.h"

namespace matsamp {

namespace {

class SaintWalkSampler final : public SubgraphSampler {
 public:
  SaintWalkSampler(SamplingGraph& graph, int64_t walk_length, int64_t layers, bool aggregator_norm)
      : SubgraphSampler(graph, layers, aggregator_norm), adj_(graph.adjacency()), walk_length_(walk_length) {
    check_positive_option(walk_length_, "GraphSAINT walk length");
    MATSAMP_CHECK(adj_.rows() == adj_.cols(), "GraphSAINT: adjacency is not square (", adj_.shape(), ")");
  }
  std::string name() const override { return "saint"; }
  void count_traffic(const BulkSample& bulk, StepStats& stats) const override {
    SubgraphSampler::count_traffic(bulk, stats);
    stats.gathers += walk_length_ * static_cast<int64_t>(bulk.seeds.size());  // one pick per step
  }

 protected:
  AddedVertices add_vertices(Context& ctx, const SeedBatch& roots, int64_t first_minibatch,
                             uint32_t epoch) const override {
    return ctx.timed(&StepStats::sampling, [&] {
      Backend& backend = ctx.backend;
      // W: row i holds the vertices walker i visited; a walker without a pick stays.
      Ids position = roots.resident.ids;
      Matrix visited;
      for (int64_t step = 0; step < walk_length_; ++step) {
        const SampleKeys keys{ctx.seed, epoch, static_cast<uint32_t>(step), first_minibatch, roots.offsets()};
        const Matrix picks = backend.sample_rows(adj_, position, 1, keys);
        position = backend.first_columns(picks, position);
        visited = visited.defined() ? backend.add_entries(visited, picks) : picks;
      }
      return AddedVertices{std::move(visited), roots.offsets()};
    });
  }
  double added_per_minibatch(int64_t batch_size) const override {
    return static_cast<double>(batch_size) * static_cast<double>(walk_length_);
  }

 private:
  Matrix adj_;
  int64_t walk_length_;
};

}  // namespace

SamplerSpec saint_sampler() {
  return {"saint",
          "GraphSAINT random walks: each batch vertex walks walk_length steps; layers are the subgraph",
          SamplerFamily::subgraph,
          FirstProduct::walk_steps,
          kPartitioned | kEstimates,
          {option::walk_length(), option::layers(), option::saint_norm()},
          "walk_length",
          {GraphMatrix::adjacency, GraphMatrix::normalized},
          [](SamplingGraph& graph, const SamplerParams& params) -> std::unique_ptr<Sampler> {
            return std::make_unique<SaintWalkSampler>(graph, params.integer("walk_length"), params.integer("layers"),
                                                      params.flag("saint_norm"));
          }};
}

}  // namespace matsamp
