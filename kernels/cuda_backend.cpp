// The CUDA backend: the Backend interface on top of the device ops. Host glue
// only (no CUDA here): it checks arguments as the CPU ops do, keeps graph
// matrices resident, moves the rest across, and runs a GraphSAGE layer and a
// layer-wise layer's extraction entirely on the device.
#include <algorithm>
#include <memory>

#include "kernels/cuda_backend.h"
#include "kernels/device_ops.h"
#include "kernels/device_rates.h"
#include "kernels/resident_matrices.h"
#include "ops/op_checks.h"
#include "sampling/sampler.h"
#include "util/timer.h"

namespace matsamp {

namespace {

using gpu::DeviceArray;
using gpu::DeviceCsr;
using gpu::DeviceEngine;
using gpu::DeviceScope;
using gpu::DeviceOffsets;

// Graph matrices a sampler reads: adjacency, Â, Â∘Â and FastGCN's column norms.
constexpr size_t kResidentCapacity = 4;

// A relabelled layer, adjacency and vertex list, copied to the host.
CompactResult download(DeviceEngine& engine, const gpu::DeviceCompact& c) {
  CompactResult out;
  out.adj = gpu::download(engine, c.adj);
  out.vertices = gpu::to_host(engine, c.vertices);
  out.col_offsets = c.col_offsets;
  return out;
}

// A bulk's layers on the device (adjacency, vertex list per layer).
class HeldOnDevice final : public HeldLayers {
 public:
  explicit HeldOnDevice(DeviceEngine& engine) : engine_(engine) {}
  ~HeldOnDevice() override {
    const DeviceScope scope(engine_);   // the arrays go back to this device's pool
    layers.clear();
  }
  HeldLayerArrays layer(size_t l) const override {
    const gpu::DeviceCompact& c = layers.at(l);
    engine_.synchronize();   // the consumer reads them on a stream of its own
    return {c.adj.rowptr.data(), c.adj.colidx.data(), c.adj.values.data(), c.vertices.data(), c.adj.nnz()};
  }
  void fetch(BulkSample& bulk) const override {
    const DeviceScope scope(engine_);
    MATSAMP_CHECK(bulk.layers.size() == layers.size(), "held layers: the bulk has ", bulk.layers.size(),
                  " layers, the device ", layers.size());
    for (size_t l = 0; l < layers.size(); ++l) {
      CompactResult host = download(engine_, layers[l]);
      bulk.layers[l].adj = std::move(host.adj);
      bulk.layers[l].vertices = std::move(host.vertices);
    }
  }
  const DeviceEngine& engine() const { return engine_; }
  std::vector<gpu::DeviceCompact> layers;

 private:
  DeviceEngine& engine_;
};

// A host layer whose matrix is held elsewhere: its shape only.
CsrMatrix shape_of(const DeviceCsr& m) {
  CsrMatrix shape(m.rows, m.cols);
  shape.rowptr.clear();   // its arrays are still on the device
  return shape;
}

class CudaBackend final : public Backend {
 public:
  explicit CudaBackend(const CudaOptions& options)
      : options_(options),
        engine_(options.device, options.memory_limit_bytes),
        resident_(engine_, kResidentCapacity),
        spgemm_budget_(options.spgemm_budget_bytes > 0 ? options.spgemm_budget_bytes : default_budget()) {}

  ~CudaBackend() override {
    const DeviceScope scope(engine_);   // the resident arrays go back to this device's pool
    resident_.clear();
  }

  std::string name() const override { return "cuda"; }
  CudaCounters counters() const { return engine_.counters(); }
  DeviceEngine& engine() { return engine_; }

  CsrMatrix spgemm(const CsrMatrix& a, const CsrMatrix& b) override {
    const DeviceScope scope(engine_);
    MATSAMP_CHECK(a.cols == b.rows, "spgemm: inner dimensions differ: A is ", a.shape(), ", B is ", b.shape());
    const DeviceCsr& db = resident_.get(b);
    return gpu::download(engine_, multiply(gpu::upload(engine_, a), db));
  }

  CsrMatrix select_rows(const CsrMatrix& a, const std::vector<vid_t>& rows) override {
    const DeviceScope scope(engine_);
    check_row_ids(a, rows, "select_rows");
    const DeviceCsr& da = resident_.get(a);
    const DeviceArray<vid_t> drows = gpu::to_device(engine_, rows);
    return gpu::download(engine_, gpu::select_rows(engine_, da.view(), drows.data(), drows.size()));
  }

  CsrMatrix select_cols_blocked(const CsrMatrix& a, const Offsets& row_offsets, const std::vector<vid_t>& cols,
                                const Offsets& col_offsets, const std::vector<float>& weights) override {
    const DeviceScope scope(engine_);
    check_select_cols(a, a.rows, row_offsets, cols, col_offsets, weights);
    const DeviceCsr da = gpu::upload(engine_, a);
    return gpu::download(engine_, select_cols_on_device(da, row_offsets, cols, col_offsets, weights));
  }

  CsrMatrix select_rows_cols_blocked(const CsrMatrix& a, const std::vector<vid_t>& rows, const Offsets& row_offsets,
                                     const std::vector<vid_t>& cols, const Offsets& col_offsets,
                                     const std::vector<float>& weights) override {
    const DeviceScope scope(engine_);
    return gpu::download(engine_, rows_cols_on_device(a, rows, row_offsets, cols, col_offsets, weights));
  }

  // The layer's matrix is normalized on the device and comes down only when
  // results are not held.
  void append_weighted_layer(const CsrMatrix& a, const std::vector<vid_t>& frontier,
                             const std::vector<float>& weights, SampledLayer layer, BulkSample& bulk) override {
    const DeviceScope scope(engine_);
    DeviceCsr m = rows_cols_on_device(a, frontier, layer.row_offsets, layer.vertices, layer.col_offsets, weights);
    gpu::normalize_rows(engine_, m, false);
    if (!hold_results_) {
      layer.adj = gpu::download(engine_, m);
      bulk.layers.push_back(std::move(layer));
      return;
    }
    HeldOnDevice& held = held_layers(bulk);
    layer.adj = shape_of(m);
    held.layers.push_back({std::move(m), gpu::to_device(engine_, layer.vertices), layer.col_offsets});
    bulk.layers.push_back(std::move(layer));
    engine_.synchronize();   // finished within the sampler's extraction time, as a download would be
  }

  void normalize_rows(CsrMatrix& p, bool square_first) override {
    const DeviceScope scope(engine_);
    DeviceCsr dp = gpu::upload(engine_, p);
    gpu::normalize_rows(engine_, dp, square_first);
    p.values = gpu::to_host(engine_, dp.values);   // the pattern is unchanged
  }

  CsrMatrix its_sample(const CsrMatrix& p, int64_t s, const SampleKeys& keys) override {
    const DeviceScope scope(engine_);
    check_its_sample(p, s, keys);
    const DeviceCsr dp = gpu::upload(engine_, p);
    const DeviceArray<int64_t> doffsets = gpu::to_device(engine_, keys.row_offsets);
    return gpu::download(engine_, gpu::its_sample(engine_, dp.view(), s, device_keys(keys, doffsets)));
  }

  // P stays on the device from the product to the draw and the lookups: only Q
  // goes up, and the chosen columns and the frontier's probabilities come down.
  ColumnDraw draw_columns(const CsrMatrix* q, const CsrMatrix& b, int64_t s, const SampleKeys& keys,
                          const std::vector<vid_t>* frontier, const Offsets& offsets, StepStats* times) override {
    const DeviceScope scope(engine_);
    if (q) MATSAMP_CHECK(q->cols == b.rows, "spgemm: inner dimensions differ: A is ", q->shape(), ", B is ", b.shape());
    else check_its_sample(b, s, keys);
    const DeviceCsr* db = nullptr;
    DeviceCsr product;
    {
      ScopedTimer t(times ? &times->probability : nullptr);   // B's first upload included, as in spgemm
      db = &resident_.get(b);
      if (q) {
        product = multiply(gpu::upload(engine_, *q), *db);
        gpu::normalize_rows(engine_, product, false);
      }
      if (times) engine_.synchronize();
    }
    const DeviceCsr& p = q ? product : *db;
    if (q) {   // normalize_rows gave P values, so its_sample's "no values" check cannot fail
      check_sample_keys(keys, s, "its_sample");
      check_its_sample_rows(p.rows, p.cols, p.nnz(), keys);
    }
    ColumnDraw draw;
    draw.probability_nnz = p.nnz();
    {
      ScopedTimer t(times ? &times->sampling : nullptr);
      const DeviceArray<int64_t> doffsets = gpu::to_device(engine_, keys.row_offsets);
      draw.chosen = gpu::download(engine_, gpu::its_sample(engine_, p.view(), s, device_keys(keys, doffsets)));
    }
    if (frontier) {
      ScopedTimer t(times ? &times->extraction : nullptr);
      check_frontier_blocks(p.rows, p.cols, *frontier, offsets);
      const DeviceArray<vid_t> dfrontier = gpu::to_device(engine_, *frontier);
      const DeviceArray<int64_t> doffsets = gpu::to_device(engine_, offsets);
      const int64_t blocks = static_cast<int64_t>(offsets.size()) - 1;
      draw.frontier_probability = gpu::to_host(
          engine_, gpu::entries_at(engine_, p.view(), {doffsets.data(), blocks, dfrontier.size()}, dfrontier.data()));
    }
    return draw;
  }

  CsrMatrix sample_rows(const CsrMatrix& a, const std::vector<vid_t>& rows, int64_t s, const SampleKeys& keys,
                        bool uniform_rows) override {
    const DeviceScope scope(engine_);
    check_sample_rows(static_cast<int64_t>(rows.size()), s, keys);
    check_row_ids(a, rows, "sample_rows");
    return gpu::download(engine_, sample_on_device(a, gpu::to_device(engine_, rows), s, keys, uniform_rows));
  }

  CompactResult compact_columns(CsrMatrix s, const Offsets& row_offsets, const std::vector<vid_t>& leading,
                                const Offsets& leading_offsets) override {
    const DeviceScope scope(engine_);
    check_compact_columns(s, row_offsets, leading, leading_offsets);
    const DeviceCsr ds = gpu::upload(engine_, s);
    return download(engine_, compact_on_device(ds, row_offsets, gpu::to_device(engine_, leading), leading_offsets));
  }

  // The layer stays on the device from the sample to the relabelled adjacency;
  // only the frontier goes up and the finished layer comes down.
  SampledLayer sample_neighbour_layer(const CsrMatrix& adj, const std::vector<vid_t>& frontier,
                                      const Offsets& offsets, int64_t fanout, const SampleKeys& keys,
                                      bool uniform_rows, StepStats* times) override {
    const DeviceScope scope(engine_);
    // The frontier leads the columns.
    check_compact_blocks(static_cast<int64_t>(frontier.size()), offsets, frontier, offsets);
    check_sample_rows(static_cast<int64_t>(frontier.size()), fanout, keys);
    check_row_ids(adj, frontier, "sample_rows");
    gpu::DeviceCompact c =
        layer_on_device(adj, gpu::to_device(engine_, frontier), offsets, fanout, keys, uniform_rows, times);
    ScopedTimer t(times ? &times->extraction : nullptr);
    CompactResult host = download(engine_, c);
    return {std::move(host.adj), offsets, std::move(host.col_offsets), std::move(host.vertices)};
  }

  // Every layer on the device: each layer's vertex list stays there as the next
  // frontier, so only the seeds go up (and are checked on the host). The layers
  // come down at the end, or stay (BulkSample::held) when results are held.
  void sample_neighbour_layers(const CsrMatrix& adj, const std::vector<int64_t>& fanouts, uint64_t seed,
                               uint32_t epoch, bool uniform_rows, BulkSample& bulk, StepStats* times) override {
    const DeviceScope scope(engine_);
    MATSAMP_CHECK(adj.rows == adj.cols, "GraphSAGE: adjacency is not square (", adj.shape(), ")");
    check_compact_blocks(static_cast<int64_t>(bulk.seeds.size()), bulk.seed_offsets, bulk.seeds, bulk.seed_offsets);
    check_row_ids(adj, bulk.seeds, "sample_rows");
    auto held = std::make_shared<HeldOnDevice>(engine_);
    held->layers.reserve(fanouts.size());                      // frontier points into the previous layer
    bulk.layers.reserve(bulk.layers.size() + fanouts.size());   // offsets too
    DeviceArray<vid_t> seeds = gpu::to_device(engine_, bulk.seeds);
    const DeviceArray<vid_t>* frontier = &seeds;
    const Offsets* offsets = &bulk.seed_offsets;
    for (size_t l = 0; l < fanouts.size(); ++l) {
      const SampleKeys keys{seed, epoch, static_cast<uint32_t>(l), bulk.first_minibatch, *offsets};
      check_sample_rows(frontier->size(), fanouts[l], keys);
      gpu::DeviceCompact c = layer_on_device(adj, *frontier, *offsets, fanouts[l], keys, uniform_rows, times);
      SampledLayer layer;
      layer.adj = shape_of(c.adj);
      layer.row_offsets = *offsets;
      layer.col_offsets = std::move(c.col_offsets);
      held->layers.push_back(std::move(c));
      bulk.layers.push_back(std::move(layer));
      frontier = &held->layers.back().vertices;
      offsets = &bulk.layers.back().col_offsets;
    }
    bulk.held = std::move(held);
    if (!hold_results_) {
      ScopedTimer t(times ? &times->extraction : nullptr);   // the download is part of the host's result
      bulk.fetch();
    }
  }

  bool hold_results_on_device(bool hold) override {
    hold_results_ = hold;
    return true;
  }

 private:
  // A quarter of the memory the backend may use.
  int64_t default_budget() const {
    int64_t usable = engine_.memory().free_bytes;
    if (options_.memory_limit_bytes > 0) usable = std::min(usable, options_.memory_limit_bytes);
    return std::max<int64_t>(1, usable / 4);
  }

  // The bulk's held layers, started with its first layer: a bulk is held whole or not at all.
  HeldOnDevice& held_layers(BulkSample& bulk) {
    if (!bulk.held) {
      MATSAMP_CHECK(bulk.layers.empty(), "held layers: the bulk's first ", bulk.layers.size(),
                    " layers are on the host already");
      bulk.held = std::make_shared<HeldOnDevice>(engine_);
    }
    auto* held = dynamic_cast<HeldOnDevice*>(bulk.held.get());
    MATSAMP_CHECK(held && &held->engine() == &engine_ && held->layers.size() == bulk.layers.size(),
                  "held layers: the bulk's layers are held by another backend");
    return *held;
  }

  static gpu::DeviceKeys device_keys(const SampleKeys& keys, const DeviceArray<int64_t>& offsets) {
    return {keys.seed, keys.epoch, keys.layer, keys.first_minibatch,
            {offsets.data(), offsets.size() - 1, keys.row_offsets.back()}};
  }

  // C = A·B on the device by the configured method.
  DeviceCsr multiply(const DeviceCsr& a, const DeviceCsr& b) {
    return options_.spgemm == GpuSpgemm::ordered ? gpu::spgemm_ordered(engine_, a.view(), b.view(), spgemm_budget_)
                                                 : gpu::spgemm_cusparse(engine_, a.view(), b.view(), spgemm_budget_);
  }

  // sample_rows on the device of rows already there (checked by the caller).
  DeviceCsr sample_on_device(const CsrMatrix& a, const DeviceArray<vid_t>& rows, int64_t s, const SampleKeys& keys,
                             bool uniform_rows) {
    const DeviceCsr& da = resident_.get(a);
    const DeviceArray<int64_t> doffsets = gpu::to_device(engine_, keys.row_offsets);
    return gpu::sample_rows(engine_, da.view(), rows.data(), s, device_keys(keys, doffsets), uniform_rows);
  }

  // One GraphSAGE layer with its rows (the frontier, checked) on the device: sample,
  // mean weights, relabel with the frontier leading. Synchronized when timed.
  gpu::DeviceCompact layer_on_device(const CsrMatrix& adj, const DeviceArray<vid_t>& frontier,
                                     const Offsets& offsets, int64_t fanout, const SampleKeys& keys,
                                     bool uniform_rows, StepStats* times) {
    DeviceCsr s;
    {
      ScopedTimer t(times ? &times->sampling : nullptr);
      s = sample_on_device(adj, frontier, fanout, keys, uniform_rows);
      if (times) engine_.synchronize();
    }
    ScopedTimer t(times ? &times->extraction : nullptr);
    gpu::fill_values(engine_, s, 1.0f);   // mean aggregation weights
    gpu::normalize_rows(engine_, s, false);
    gpu::DeviceCompact c = compact_on_device(s, offsets, frontier, offsets);
    if (times) engine_.synchronize();
    return c;
  }

  // select_cols_blocked on the device of a matrix already there (arguments checked).
  DeviceCsr select_cols_on_device(const DeviceCsr& a, const Offsets& row_offsets, const std::vector<vid_t>& cols,
                                  const Offsets& col_offsets, const std::vector<float>& weights) {
    const DeviceArray<int64_t> drow_offsets = gpu::to_device(engine_, row_offsets);
    const DeviceArray<int64_t> dcol_offsets = gpu::to_device(engine_, col_offsets);
    const DeviceArray<vid_t> dcols = gpu::to_device(engine_, cols);
    const DeviceArray<float> dweights = gpu::to_device(engine_, weights);
    const int64_t blocks = static_cast<int64_t>(row_offsets.size()) - 1;
    const int64_t total_cols = static_cast<int64_t>(cols.size());
    return gpu::select_cols_blocked(engine_, a.view(), {drow_offsets.data(), blocks, a.rows}, dcols.data(),
                                    {dcol_offsets.data(), blocks, total_cols},
                                    weights.empty() ? nullptr : dweights.data());
  }

  // select_rows_cols_blocked on the device (arguments checked here): R·Â stays
  // there between the two selections.
  DeviceCsr rows_cols_on_device(const CsrMatrix& a, const std::vector<vid_t>& rows, const Offsets& row_offsets,
                                const std::vector<vid_t>& cols, const Offsets& col_offsets,
                                const std::vector<float>& weights) {
    check_row_ids(a, rows, "select_rows");
    check_select_cols(a, static_cast<int64_t>(rows.size()), row_offsets, cols, col_offsets, weights);
    const DeviceCsr& da = resident_.get(a);
    const DeviceArray<vid_t> drows = gpu::to_device(engine_, rows);
    const DeviceCsr selected = gpu::select_rows(engine_, da.view(), drows.data(), drows.size());
    return select_cols_on_device(selected, row_offsets, cols, col_offsets, weights);
  }

  // compact_columns on the device, the leading vertices already there.
  gpu::DeviceCompact compact_on_device(const DeviceCsr& s, const Offsets& row_offsets,
                                       const DeviceArray<vid_t>& leading, const Offsets& leading_offsets) {
    const DeviceArray<int64_t> drow_offsets = gpu::to_device(engine_, row_offsets);
    const DeviceArray<int64_t> dleading_offsets = gpu::to_device(engine_, leading_offsets);
    const int64_t blocks = static_cast<int64_t>(row_offsets.size()) - 1;
    return gpu::compact_columns(engine_, s, {drow_offsets.data(), blocks, s.rows}, leading.data(),
                                {dleading_offsets.data(), blocks, leading.size()});
  }

  CudaOptions options_;
  DeviceEngine engine_;
  gpu::ResidentMatrices resident_;
  int64_t spgemm_budget_;
  bool hold_results_ = false;   // sampled layers stay on the device (BulkSample::held)
};

}  // namespace

std::unique_ptr<Backend> make_cuda_backend(const CudaOptions& options) {
  std::string why;
  MATSAMP_CHECK(cuda_available(&why), why);
  return std::make_unique<CudaBackend>(options);
}

void release_cached_gpu_memory(Backend& backend) {
  if (auto* cuda = dynamic_cast<CudaBackend*>(&backend)) cuda->engine().release_cached_memory();
}

CudaCounters cuda_counters(const Backend& backend) {
  const auto* cuda = dynamic_cast<const CudaBackend*>(&backend);
  return cuda ? cuda->counters() : CudaCounters{};
}

namespace {
DeviceEngine& engine_of(Backend& backend) {
  auto* cuda = dynamic_cast<CudaBackend*>(&backend);
  MATSAMP_CHECK(cuda, "GPU rates need the CUDA backend, not '", backend.name(), "'");
  return cuda->engine();
}
}  // namespace

double gpu_copy_bandwidth(Backend& backend) { return gpu::measure_copy_bandwidth(engine_of(backend)); }

double gpu_gather_rate(Backend& backend) { return gpu::measure_gather_rate(engine_of(backend)); }

}  // namespace matsamp
