// Layers a backend holds in its own memory (BulkSample::held), played here by a
// backend that holds them on the host: what BulkSample and the samplers promise
// around them, without a GPU. The CUDA backend's own holding is a GPU test.
#include <gtest/gtest.h>

#include "epoch_compare.h"
#include "reference.h"
#include "sampling/backend.h"
#include "sampling/sampler.h"

namespace matsamp {
namespace {

// A backend's held layers, here on the host.
class FakeHeld final : public HeldLayers {
 public:
  explicit FakeHeld(std::vector<SampledLayer> layers = {}) : layers_(std::move(layers)) {}
  void add(SampledLayer layer) { layers_.push_back(std::move(layer)); }
  HeldLayerArrays layer(size_t l) const override {
    const SampledLayer& s = layers_.at(l);
    return {s.adj.rowptr.data(), s.adj.colidx.data(), s.adj.values.data(), s.vertices.data(), s.adj.nnz()};
  }
  void fetch(BulkSample& bulk) const override {
    for (size_t l = 0; l < layers_.size(); ++l) {
      bulk.layers[l].adj = layers_[l].adj;
      bulk.layers[l].vertices = layers_[l].vertices;
    }
  }

 private:
  std::vector<SampledLayer> layers_;
};

// The host layer of a held one: shape and offsets only.
SampledLayer shape_only(const SampledLayer& layer, bool keep_vertices) {
  SampledLayer out = layer;
  out.adj = CsrMatrix(layer.adj.rows, layer.adj.cols);
  out.adj.rowptr.clear();
  if (!keep_vertices) out.vertices.clear();
  return out;
}

// The CPU backend, except that layer-wise layers are held (as the CUDA backend
// holds them when asked): every op is the CPU's.
class HoldingBackend final : public Backend {
 public:
  std::string name() const override { return "holding"; }
  CsrMatrix spgemm(const CsrMatrix& a, const CsrMatrix& b) override { return cpu_->spgemm(a, b); }
  CsrMatrix select_rows(const CsrMatrix& a, const std::vector<vid_t>& rows) override {
    return cpu_->select_rows(a, rows);
  }
  CsrMatrix select_cols_blocked(const CsrMatrix& a, const Offsets& row_offsets, const std::vector<vid_t>& cols,
                                const Offsets& col_offsets, const std::vector<float>& weights) override {
    return cpu_->select_cols_blocked(a, row_offsets, cols, col_offsets, weights);
  }
  void normalize_rows(CsrMatrix& p, bool square_first) override { cpu_->normalize_rows(p, square_first); }
  CsrMatrix its_sample(const CsrMatrix& p, int64_t s, const SampleKeys& keys) override {
    return cpu_->its_sample(p, s, keys);
  }
  CsrMatrix sample_rows(const CsrMatrix& a, const std::vector<vid_t>& rows, int64_t s, const SampleKeys& keys,
                        bool uniform_rows) override {
    return cpu_->sample_rows(a, rows, s, keys, uniform_rows);
  }
  CompactResult compact_columns(CsrMatrix s, const Offsets& row_offsets, const std::vector<vid_t>& leading,
                                const Offsets& leading_offsets) override {
    return cpu_->compact_columns(std::move(s), row_offsets, leading, leading_offsets);
  }

  void append_weighted_layer(const CsrMatrix& a, const std::vector<vid_t>& frontier,
                             const std::vector<float>& weights, SampledLayer layer, BulkSample& bulk) override {
    if (!hold_) return Backend::append_weighted_layer(a, frontier, weights, std::move(layer), bulk);
    BulkSample scratch;
    Backend::append_weighted_layer(a, frontier, weights, std::move(layer), scratch);
    if (!bulk.held) bulk.held = std::make_shared<FakeHeld>();
    bulk.layers.push_back(shape_only(scratch.layers[0], /*keep_vertices=*/true));
    static_cast<FakeHeld&>(*bulk.held).add(std::move(scratch.layers[0]));
  }
  bool hold_results_on_device(bool hold) override {
    hold_ = hold;
    return true;
  }

 private:
  std::unique_ptr<Backend> cpu_ = make_cpu_backend();
  bool hold_ = false;
};

TEST(HeldLayers, CountFetchAndRefuseExtractionBeforeTheFetch) {
  const CsrMatrix a = testing::random_csr(40, 40, 0.2, 5);
  auto sampler = make_graphsage_sampler(a, {3, 2}, 9);
  auto cpu = make_cpu_backend();
  EXPECT_FALSE(cpu->hold_results_on_device(true));   // the CPU backend's results are on the host
  EXPECT_TRUE(cpu->hold_results_on_device(false));
  BulkSample full = sampler->sample({1, 2, 3, 4}, {0, 2, 4}, 0, 0, *cpu);
  ASSERT_FALSE(full.held);
  const Minibatch expected = extract_minibatch(full, 1);

  BulkSample held = full;
  for (SampledLayer& layer : held.layers) layer = shape_only(layer, /*keep_vertices=*/false);
  held.held = std::make_shared<FakeHeld>(full.layers);
  EXPECT_EQ(held.sampled_edges(), full.sampled_edges());
  EXPECT_THROW(extract_minibatch(held, 1), Error);
  held.fetch();
  EXPECT_FALSE(held.held);
  EXPECT_EQ(held.sampled_edges(), full.sampled_edges());
  const Minibatch got = extract_minibatch(held, 1);
  EXPECT_EQ(got.seeds, expected.seeds);
  ASSERT_EQ(got.layers.size(), expected.layers.size());
  for (size_t l = 0; l < got.layers.size(); ++l) {
    EXPECT_TRUE(got.layers[l].adj == expected.layers[l].adj);
    EXPECT_EQ(got.layers[l].vertices, expected.layers[l].vertices);
  }
  held.fetch();   // nothing held: nothing changes
  EXPECT_EQ(held.sampled_edges(), full.sampled_edges());
}

// A layer-wise sampler on a backend that holds its layers: every layer is
// held, the next layer's frontier comes from the host vertex lists, and the
// fetched epoch is the CPU's, minibatch for minibatch.
TEST(HeldLayers, LayerWiseSamplersLeaveEveryLayerHeld) {
  const CsrMatrix a = testing::random_csr(300, 300, 0.03, 17);
  auto cpu = make_cpu_backend();
  HoldingBackend holding;
  for (const LayerWiseKind kind : {LayerWiseKind::ladies, LayerWiseKind::fastgcn}) {
    for (const bool include_frontier : {true, false}) {
      auto sampler = make_layerwise_sampler(kind, a, {24, 16}, 5, include_frontier);
      const std::string what = sampler->name() + (include_frontier ? "" : " without the frontier");
      const auto reference = testing::sample_epoch(*sampler, *cpu, a.rows, 20, 0);

      ASSERT_TRUE(holding.hold_results_on_device(true));
      EpochIterator epoch(*sampler, holding, testing::all_vertices(a.rows), {20, 4, int64_t{1} << 30, 42, 3});
      std::vector<Minibatch> fetched;
      BulkSample bulk;
      while (epoch.next(&bulk)) {
        ASSERT_TRUE(bulk.held) << what;
        ASSERT_EQ(bulk.layers.size(), 2u);
        for (const SampledLayer& layer : bulk.layers) {
          EXPECT_TRUE(layer.adj.colidx.empty()) << what;
          EXPECT_EQ(layer.vertices.size(), static_cast<size_t>(layer.adj.cols)) << what;
        }
        const int64_t edges = bulk.sampled_edges();
        EXPECT_GT(edges, 0) << what;
        EXPECT_THROW(extract_minibatch(bulk, 0), Error);
        bulk.fetch();
        EXPECT_EQ(bulk.sampled_edges(), edges) << what;
        for (int64_t g = 0; g < bulk.count(); ++g) fetched.push_back(extract_minibatch(bulk, g));
      }
      testing::expect_identical(reference, fetched, what.c_str());

      ASSERT_TRUE(holding.hold_results_on_device(false));
      testing::expect_identical(reference, testing::sample_epoch(*sampler, holding, a.rows, 20, 0),
                                (what + ", not held").c_str());
    }
  }
}

}  // namespace
}  // namespace matsamp
