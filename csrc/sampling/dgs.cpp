// DGS's guided neighbour draw (dgs.txt): the node-wise program with
//   S = guided_sample_rows(A, frontier, s_l, w)   column t kept in row i with chance
//                                                 π_it = min(1, s_l·a_it·w_t / Σ a_i·w),
//                                                 weighted p_it / π_it
//   A^l = compact_columns(S)                      those weights, not the mean: each layer
//                                                 estimates P's rows without bias
// w: the column importance (ops/column_importance.h), 1 for every column until
// set_column_importance gives another (DGS's mask of a partition's remote vertices);
// with w = 1 the kept entries are LABOR-0's.
#include <atomic>

#include "ops/column_importance.h"
#include "sampling/node_wise.h"
#include "sampling/registry.h"

namespace matsamp {

namespace {

class DgsSampler final : public NodeWiseSampler, public ImportanceGuidedSampler {
 public:
  DgsSampler(SamplingGraph& graph, std::vector<int64_t> fanouts, bool expand_new_only)
      : NodeWiseSampler(graph, std::move(fanouts), "DGS fanouts", expand_new_only),
        importance_(std::make_shared<const ColumnImportance>()) {}
  std::string name() const override { return "dgs"; }
  void count_traffic(const BulkSample& bulk, StepStats& stats) const override {
    count_node_wise_traffic(bulk, /*rows_read_whole=*/true, stats);
  }
  void set_column_importance(std::shared_ptr<const ColumnImportance> importance) const override {
    MATSAMP_CHECK(importance, "dgs: no column importance given");
    std::atomic_store(&importance_, std::move(importance));
  }

 protected:
  Matrix draw(Backend& backend, const Matrix& a, const Ids& rows, int64_t fanout, const SampleKeys& keys,
              Ids*) const override {
    const std::shared_ptr<const ColumnImportance> importance = std::atomic_load(&importance_);
    return backend.guided_sample_rows(a, rows, fanout, *importance, keys);
  }
  Matrix weigh(Backend&, Matrix drawn) const override { return drawn; }

 private:
  mutable std::shared_ptr<const ColumnImportance> importance_;  // swapped whole, read per draw
};

}  // namespace

SamplerSpec dgs_sampler() {
  return {"dgs",
          "DGS: GraphSAGE's layers drawn by column importance (LABOR-0's draws until a mask is set), each kept "
          "neighbour weighted by 1 / its chance so that every layer estimates the mean without bias",
          SamplerFamily::node_wise,
          FirstProduct::whole_rows,
          kEdgeSeeds | kPartitioned | kImportance,
          {option::fanouts(), option::expand_new_only()},
          "fanouts",
          {GraphMatrix::adjacency},
          [](SamplingGraph& graph, const SamplerParams& params) -> std::unique_ptr<Sampler> {
            return std::make_unique<DgsSampler>(graph, params.list("fanouts"), params.flag("expand_new_only"));
          }};
}

}  // namespace matsamp
