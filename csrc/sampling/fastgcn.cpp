// FastGCN (Chen et al., ICLR 2018) as the layer-wise program (layer_wise.h) with
//   P = normalize_rows(1ᵀ·(Â∘Â))        p(v) ∝ ‖Â[:,v]‖², one row all minibatches share
#include "sampling/layer_wise.h"
#include "sampling/registry.h"

namespace matsamp {

namespace {

class FastGcnSampler final : public LayerWiseSampler {
 public:
  FastGcnSampler(SamplingGraph& graph, std::vector<int64_t> sizes, bool include_frontier)
      : LayerWiseSampler(graph, std::move(sizes), include_frontier, "FastGCN samples per layer"),
        column_norms_(graph.column_norms()) {}
  std::string name() const override { return "fastgcn"; }

 protected:
  Matrix probability(Context&, const BlockedIds&) const override { return column_norms_; }
  bool reads_frontier_rows() const override { return false; }

 private:
  Matrix column_norms_;
};

}  // namespace

SamplerSpec fastgcn_sampler() {
  return {"fastgcn",
          "FastGCN (layer-wise): samples[l] vertices per minibatch, p(v) ∝ ‖Â[:,v]‖²",
          SamplerFamily::layer_wise,
          FirstProduct::whole_rows,
          kEdgeSeeds | kPartitioned,
          {option::samples(), option::exclude_frontier()},
          "samples",
          {GraphMatrix::normalized, GraphMatrix::column_norms},
          [](SamplingGraph& graph, const SamplerParams& params) -> std::unique_ptr<Sampler> {
            return std::make_unique<FastGcnSampler>(graph, params.list("samples"), !params.flag("exclude_frontier"));
          }};
}

}  // namespace matsamp
