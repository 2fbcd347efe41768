// GraphSAGE as a matrix program: P = Q·A (Q selects the frontier), ITS picks
// fanout neighbours per row, compact_columns builds the next frontier. The
// first two run fused (sample_rows), so P is never formed; all layers are one
// backend call, so a GPU backend keeps its intermediates on the device.
// LABOR-0 is the same program with Poisson sampling of P's rows under
// randomness shared by a minibatch's rows (labor_sample_rows).
#include <algorithm>

#include "sampling/sampler.h"

namespace matsamp {

namespace {

class GraphSageSampler final : public Sampler {
 public:
  GraphSageSampler(const CsrMatrix& adj, std::vector<int64_t> fanouts, uint64_t seed, bool uniform_rows, bool labor)
      : adj_(adj), fanouts_(std::move(fanouts)), seed_(seed), uniform_rows_(uniform_rows), labor_(labor) {
    check_layer_sizes(fanouts_, labor ? "LABOR fanouts" : "GraphSAGE fanouts");
    MATSAMP_CHECK(adj_.rows == adj_.cols, name(), ": adjacency is not square (", adj_.shape(), ")");
  }

  std::string name() const override { return labor_ ? "labor" : "graphsage"; }
  int num_layers() const override { return static_cast<int>(fanouts_.size()); }

  BulkSample sample(const std::vector<vid_t>& seeds, const Offsets& seed_offsets,
                    int64_t first_minibatch, uint32_t epoch, Backend& backend,
                    StepStats* times) const override {
    BulkSample bulk{first_minibatch, seeds, seed_offsets, {}, nullptr};
    if (labor_)
      backend.sample_labor_layers(adj_, fanouts_, seed_, epoch, bulk, times);
    else
      backend.sample_neighbour_layers(adj_, fanouts_, seed_, epoch, uniform_rows_, bulk, times);
    if (times) {
      // Reading a row's extent (a layer's rows are its frontier), then each
      // sampled column id: random gathers.
      times->gathers += bulk.sampled_edges();
      for (const SampledLayer& layer : bulk.layers) times->gathers += layer.adj.rows;
      if (!uniform_rows_ || labor_) {   // and rows read whole: the frontiers are needed here
        bulk.fetch();
        for (int l = 0; l < num_layers(); ++l)
          for (vid_t v : l == 0 ? bulk.seeds : bulk.layers[l - 1].vertices)
            times->streamed_bytes += adj_.row_nnz(v) * 8;
      }
    }
    return bulk;
  }

  int64_t bytes_per_minibatch(int64_t batch_size) const override {
    double rows = static_cast<double>(batch_size), bytes = 0;
    for (int64_t fanout : fanouts_) {
      rows = std::min(rows, static_cast<double>(adj_.rows));
      // The sample, its relabelled copy, the vertex list and per-row scratch;
      // P is never formed (weighted rows use a per-thread buffer).
      bytes += rows * (fanout * 24 + 48);
      rows *= 1 + fanout;
    }
    return static_cast<int64_t>(bytes);
  }

 private:
  const CsrMatrix& adj_;
  std::vector<int64_t> fanouts_;
  uint64_t seed_;
  bool uniform_rows_;   // unweighted: sampling a row costs O(fanout), not O(degree)
  bool labor_;          // LABOR-0 instead of ITS (every row costs O(degree))
};

}  // namespace

std::unique_ptr<Sampler> make_graphsage_sampler(const CsrMatrix& adj, std::vector<int64_t> fanouts,
                                                uint64_t seed, std::optional<bool> uniform_rows) {
  return std::make_unique<GraphSageSampler>(adj, std::move(fanouts), seed,
                                            uniform_rows ? *uniform_rows : has_uniform_rows(adj), false);
}

std::unique_ptr<Sampler> make_labor_sampler(const CsrMatrix& adj, std::vector<int64_t> fanouts, uint64_t seed) {
  return std::make_unique<GraphSageSampler>(adj, std::move(fanouts), seed, false, true);
}

}  // namespace matsamp
