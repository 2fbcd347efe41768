// LADIES (Zou et al., NeurIPS 2019) as the layer-wise program (layer_wise.h) with
//   Q = one row per minibatch with a 1 at each of its frontier vertices
//   P = normalize_rows(Q·(Â∘Â))        p_g(v) ∝ Σ_{u in frontier g} Â_uv²
#include "sampling/layer_wise.h"
#include "sampling/registry.h"

namespace matsamp {

namespace {

class LadiesSampler final : public LayerWiseSampler {
 public:
  LadiesSampler(SamplingGraph& graph, std::vector<int64_t> sizes, bool include_frontier)
      : LayerWiseSampler(graph, std::move(sizes), include_frontier, "LADIES samples per layer"),
        squared_(graph.squared()) {}
  std::string name() const override { return "ladies"; }

 protected:
  Matrix probability(Context& ctx, const BlockedIds& frontier) const override {
    Backend& backend = ctx.backend;
    Matrix p = backend.normalize_rows(backend.spgemm(backend.block_indicator(frontier, squared_.rows()), squared_),
                                      RowScale::by_sum);
    ctx.count_streamed(8 * p.nnz());  // P written as column id + value
    return p;
  }
  bool reads_frontier_rows() const override { return true; }

 private:
  Matrix squared_;
};

}  // namespace

SamplerSpec ladies_sampler() {
  return {"ladies",
          "LADIES (layer-wise): samples[l] vertices per minibatch, p(v) ∝ Σ_u Â_uv² over the frontier",
          SamplerFamily::layer_wise,
          FirstProduct::minibatch_rows,
          kEdgeSeeds | kPartitioned,
          {option::samples(), option::exclude_frontier()},
          "samples",
          {GraphMatrix::normalized, GraphMatrix::squared},
          [](SamplingGraph& graph, const SamplerParams& params) -> std::unique_ptr<Sampler> {
            return std::make_unique<LadiesSampler>(graph, params.list("samples"), !params.flag("exclude_frontier"));
          }};
}

}  // namespace matsamp
