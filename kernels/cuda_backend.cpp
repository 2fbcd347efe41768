// The CUDA backend: the Backend ops on device-resident handles. Host glue only
// (no CUDA here): it checks arguments as the CPU ops do (with their messages),
// keeps every handle's arrays in the engine's pool, and moves data across the
// bus only in the transfers (upload*, *to_host) and for the host-side checks of
// ids and block offsets that are small (k + 1 numbers).
#include <algorithm>
#include <memory>

#include "backend/resident_arrays.h"
#include "kernels/cuda_backend.h"
#include "kernels/device_ops.h"
#include "kernels/device_primitives.h"
#include "kernels/device_rates.h"
#include "ops/column_importance.h"
#include "ops/op_checks.h"

namespace matsamp {

namespace {

using gpu::DeviceArray;
using gpu::DeviceCsr;
using gpu::DeviceEngine;
using gpu::DeviceScope;

// A handle's storage: arrays in the engine's pool, given back on its device.
struct DeviceMatrix final : Resident {
  DeviceMatrix(DeviceEngine& e, DeviceCsr m) : engine(e), csr(std::move(m)) {}
  ~DeviceMatrix() override {
    const DeviceScope scope(engine);
    csr = DeviceCsr();
  }
  DeviceEngine& engine;
  DeviceCsr csr;
};

template <class T>
struct DeviceVector final : Resident {
  DeviceVector(DeviceEngine& e, DeviceArray<T> a) : engine(e), array(std::move(a)) {}
  ~DeviceVector() override {
    const DeviceScope scope(engine);
    array = DeviceArray<T>();
  }
  DeviceEngine& engine;
  DeviceArray<T> array;
};

class CudaBackend final : public Backend, public ResidentArrays {
 public:
  explicit CudaBackend(const CudaOptions& options)
      : options_(options),
        engine_(options.device, options.memory_limit_bytes, options.memory_source),
        spgemm_budget_(options.spgemm_budget_bytes > 0 ? options.spgemm_budget_bytes : default_budget()) {}
  ~CudaBackend() override {
    const DeviceScope scope(engine_);  // the kept importance goes back on its device
    importance_.ids.reset();
    importance_.weights.reset();
  }

  std::string name() const override { return "cuda"; }
  DeviceCounters device_counters() const override { return engine_.counters(); }
  void release_cached_memory() override { engine_.release_cached_memory(); }
  DeviceCsrArrays device_csr(const Matrix& m) override {
    const DeviceCsr& d = device(m, "device_csr");
    synchronize();  // the consumer reads them on a stream of its own
    return {d.rowptr.data(), d.colidx.data(), d.values.size() ? d.values.data() : nullptr};
  }
  const vid_t* device_ids(const Ids& ids) override {
    const vid_t* data = device(ids, "device_ids").data();
    synchronize();
    return data;
  }
  double copy_bandwidth() override { return gpu::measure_copy_bandwidth(engine_); }
  double gather_rate() override { return gpu::measure_gather_rate(engine_); }
  DeviceEngine& engine() { return engine_; }

  // ---- Ops
  Matrix spgemm(const Matrix& a, const Matrix& b) override {
    const DeviceScope scope(engine_);
    MATSAMP_CHECK(a.cols() == b.rows(), "spgemm: inner dimensions differ: A is ", a.shape(), ", B is ", b.shape());
    const gpu::CsrView da = device(a, "spgemm").view(), db = device(b, "spgemm").view();
    return wrap(options_.spgemm == GpuSpgemm::ordered ? gpu::spgemm_ordered(engine_, da, db, spgemm_budget_)
                                                      : gpu::spgemm_cusparse(engine_, da, db, spgemm_budget_));
  }

  Matrix select_rows(const Matrix& a, const Ids& rows) override {
    const DeviceScope scope(engine_);
    check_ids(rows, a.rows(), "select_rows", "row id", a.shape());
    const DeviceArray<vid_t>& drows = device(rows, "select_rows");
    return wrap(gpu::select_rows(engine_, device(a, "select_rows").view(), drows.data(), drows.size()));
  }

  Matrix select_cols_blocked(const Matrix& a, const Offsets& row_offsets, const BlockedIds& cols,
                             const Values& weights) override {
    const DeviceScope scope(engine_);
    check_select_cols(a, a.rows(), row_offsets, cols, weights);
    return wrap(select_cols_on_device(device(a, "select_cols").view(), row_offsets, cols, weights));
  }

  // R·Â stays on the device between the two selections.
  Matrix select_rows_cols_blocked(const Matrix& a, const BlockedIds& rows, const BlockedIds& cols,
                                  const Values& weights) override {
    const DeviceScope scope(engine_);
    check_ids(rows.ids, a.rows(), "select_rows", "row id", a.shape());
    check_select_cols(a, rows.ids.size(), rows.offsets, cols, weights);
    const DeviceArray<vid_t>& drows = device(rows.ids, "select_rows");
    const DeviceCsr selected = gpu::select_rows(engine_, device(a, "select_rows").view(), drows.data(), drows.size());
    return wrap(select_cols_on_device(selected.view(), rows.offsets, cols, weights));
  }

  Matrix mask_entries(Matrix p, const Matrix& mask) override {
    const DeviceScope scope(engine_);
    MATSAMP_CHECK(mask.rows() == p.rows() && mask.cols() == p.cols(), "mask_entries: the mask is ", mask.rows(), " x ",
                  mask.cols(), ", the matrix ", p.rows(), " x ", p.cols());
    return wrap(gpu::mask_entries(engine_, device(p, "mask_entries").view(), device(mask, "mask_entries").view()));
  }

  Matrix select_rows_by_key(const Matrix& m, const BlockedIds& keys, const BlockedIds& rows) override {
    const DeviceScope scope(engine_);
    const char* op = "select_rows_by_key";
    check_select_rows_by_key(m.rows(), keys.ids.size(), keys.offsets, rows.ids.size(), rows.offsets);
    const DeviceArray<int64_t> dkey_offsets = gpu::to_device(engine_, keys.offsets);
    const DeviceArray<int64_t> drow_offsets = gpu::to_device(engine_, rows.offsets);
    return wrap(gpu::select_rows_by_key(engine_, device(m, op).view(), device(keys.ids, op).data(),
                                        {dkey_offsets.data(), keys.blocks(), keys.ids.size()},
                                        device(rows.ids, op).data(),
                                        {drow_offsets.data(), rows.blocks(), rows.ids.size()}));
  }

  Matrix pad_row_blocks(Matrix m, const Offsets& row_offsets, const Offsets& padded_offsets) override {
    const DeviceScope scope(engine_);
    check_pad_row_blocks(m.rows(), row_offsets, padded_offsets);
    const DeviceArray<int64_t> drow_offsets = gpu::to_device(engine_, row_offsets);
    const DeviceArray<int64_t> dpadded_offsets = gpu::to_device(engine_, padded_offsets);
    const int64_t blocks = static_cast<int64_t>(row_offsets.size()) - 1;
    return wrap(gpu::pad_row_blocks(engine_, copy_or_take(std::move(m), "pad_row_blocks"),
                                    {drow_offsets.data(), blocks, row_offsets.back()},
                                    {dpadded_offsets.data(), blocks, padded_offsets.back()}));
  }

  Ids sequence_ids(int64_t n) override {
    const DeviceScope scope(engine_);
    MATSAMP_CHECK(n >= 0, "sequence_ids: a negative count ", n);
    return wrap_array(gpu::sequence_ids(engine_, n)).set_bound(n);
  }

  Ids sequence_runs(const std::vector<int64_t>& starts, const Offsets& run_offsets) override {
    const DeviceScope scope(engine_);
    const int64_t bound = check_sequence_runs(starts, run_offsets);  // from the host's run list
    const DeviceArray<int64_t> dstarts = gpu::to_device(engine_, starts);
    const DeviceArray<int64_t> doffsets = gpu::to_device(engine_, run_offsets);
    return wrap_array(gpu::sequence_runs(engine_, dstarts.data(),
                                         {doffsets.data(), static_cast<int64_t>(starts.size()), run_offsets.back()}))
        .set_bound(bound);
  }

  Ids gather_ids(const Ids& ids, const Ids& at) override {
    const DeviceScope scope(engine_);
    check_ids(at, ids.size(), "gather_ids", "position", std::to_string(ids.size()) + " ids");
    return wrap_array(
               gpu::gather_ids(engine_, device(ids, "gather_ids").data(), device(at, "gather_ids").data(), at.size()))
        .set_bound(ids.bound());
  }

  Ids range_positions(const Ids& ids, const std::vector<vid_t>& bounds) override {
    const DeviceScope scope(engine_);
    MATSAMP_CHECK(!bounds.empty() && std::is_sorted(bounds.begin(), bounds.end()),
                  "range_positions: the bounds must ascend");
    return wrap_array(gpu::range_positions(engine_, device(ids, "range_positions").data(), ids.size(), bounds))
        .set_bound(ids.size());
  }

  Matrix add_entries(const Matrix& a, const Matrix& b) override {
    const DeviceScope scope(engine_);
    MATSAMP_CHECK(a.rows() == b.rows() && a.cols() == b.cols(), "add_entries: A is ", a.shape(), ", B is ", b.shape());
    return wrap(gpu::add_entries(engine_, device(a, "add_entries").view(), device(b, "add_entries").view()));
  }

  Ids first_columns(const Matrix& m, const Ids& fallback) override {
    const DeviceScope scope(engine_);
    MATSAMP_CHECK(fallback.size() == m.rows(), "first_columns: ", fallback.size(), " fallback ids for a matrix of ",
                  m.rows(), " rows");
    const int64_t bound = fallback.bound() >= 0 ? std::max(fallback.bound(), m.cols()) : -1;
    return wrap_array(
               gpu::first_columns(engine_, device(m, "first_columns").view(), device(fallback, "first_columns").data()))
        .set_bound(bound);
  }

  Matrix normalize_rows(Matrix p, RowScale scale) override {
    const DeviceScope scope(engine_);
    DeviceCsr out = copy_or_take(std::move(p), "normalize_rows");
    if (scale == RowScale::mean) gpu::fill_values(engine_, out, 1.0f);
    gpu::normalize_rows(engine_, out, scale == RowScale::by_sum_of_squares);
    return wrap(std::move(out));
  }

  Values reciprocals(const Values& values, float factor) override {
    const DeviceScope scope(engine_);
    const DeviceArray<float>& dvalues = device(values, "reciprocals");
    return wrap_array(gpu::reciprocals(engine_, dvalues.data(), dvalues.size(), factor));
  }

  Matrix block_indicator(const BlockedIds& ids, int64_t cols) override {
    const DeviceScope scope(engine_);
    check_block_indicator(ids.ids.size(), ids.offsets, cols);
    check_ids(ids.ids, cols, "block_indicator", "id", std::to_string(cols) + " columns");
    const DeviceArray<int64_t> doffsets = gpu::to_device(engine_, ids.offsets);
    return wrap(gpu::block_indicator(engine_, device(ids.ids, "block_indicator").data(),
                                     {doffsets.data(), ids.blocks(), ids.ids.size()}, cols));
  }

  Matrix its_sample(const Matrix& p, int64_t s, const SampleKeys& keys) override {
    const DeviceScope scope(engine_);
    const DeviceCsr& dp = device(p, "its_sample");
    check_sample_keys(keys, s, "its_sample");
    MATSAMP_CHECK(dp.values.size() > 0 || dp.nnz() == 0, "its_sample: P (", p.shape(),
                  ") has no values; normalize it first");
    check_its_sample_rows(p.rows(), p.cols(), p.nnz(), keys);
    const DeviceArray<int64_t> doffsets = gpu::to_device(engine_, keys.row_offsets);
    return wrap(gpu::its_sample(engine_, dp.view(), s, device_keys(keys, doffsets)));
  }

  Matrix sample_rows(const Matrix& a, const Ids& rows, int64_t s, const SampleKeys& keys,
                     Ids* positions = nullptr) override {
    const DeviceScope scope(engine_);
    check_sample_rows(rows.size(), s, keys);
    check_ids(rows, a.rows(), "sample_rows", "row id", a.shape());
    const DeviceArray<int64_t> doffsets = gpu::to_device(engine_, keys.row_offsets);
    const gpu::CsrView da = device(a, "sample_rows").view();
    const vid_t* drows = device(rows, "sample_rows").data();
    gpu::DeviceCsr drawn = gpu::sample_rows(engine_, da, drows, s, device_keys(keys, doffsets), a.uniform_rows());
    // Each pick found again in its (sorted) row of A: on the device, a search per entry.
    if (positions) *positions = wrap_array(gpu::entry_positions(engine_, da, drows, drawn.view(), nullptr));
    return wrap(std::move(drawn));
  }

  Matrix sample_rows_with_replacement(const Matrix& a, const Ids& rows, int64_t s, const SampleKeys& keys,
                                      Ids* positions = nullptr) override {
    const DeviceScope scope(engine_);
    const char* op = "sample_rows_with_replacement";
    check_sample_rows(rows.size(), s, keys, op);
    check_ids(rows, a.rows(), op, "row id", a.shape());
    const DeviceArray<int64_t> doffsets = gpu::to_device(engine_, keys.row_offsets);
    const gpu::CsrView da = device(a, op).view();
    const vid_t* drows = device(rows, op).data();
    gpu::DeviceCsr drawn =
        gpu::sample_rows_with_replacement(engine_, da, drows, s, device_keys(keys, doffsets), a.uniform_rows());
    if (positions) *positions = wrap_array(gpu::entry_positions(engine_, da, drows, drawn.view(), nullptr));
    return wrap(std::move(drawn));
  }

  Matrix sample_rows_before(const Matrix& a, const Ids& rows, int64_t s, const SampleKeys& keys, const Ids& order,
                            const Ids& sorted_times, const std::vector<int64_t>& bounds, TemporalStrategy strategy,
                            Ids* positions = nullptr) override {
    const DeviceScope scope(engine_);
    const char* op = "sample_rows_before";
    check_sample_rows(rows.size(), s, keys, op);
    check_ids(rows, a.rows(), op, "row id", a.shape());
    MATSAMP_CHECK(order.size() == a.nnz() && sorted_times.size() == a.nnz(), op, ": a time order of ", order.size(),
                  " entries for ", a.nnz(), " entries");
    MATSAMP_CHECK(bounds.size() + 1 == keys.row_offsets.size(), op, ": ", bounds.size(), " time bounds for ",
                  keys.row_offsets.size() - 1, " blocks");
    const DeviceArray<int64_t> doffsets = gpu::to_device(engine_, keys.row_offsets);
    const DeviceArray<int64_t> dbounds = gpu::to_device(engine_, bounds);
    const gpu::CsrView da = device(a, op).view();
    const vid_t* drows = device(rows, op).data();
    gpu::DeviceCsr drawn = gpu::sample_rows_before(engine_, da, drows, s, device_keys(keys, doffsets),
                                                   device(order, op).data(), device(sorted_times, op).data(),
                                                   dbounds.data(), strategy == TemporalStrategy::last);
    if (positions) *positions = wrap_array(gpu::entry_positions(engine_, da, drows, drawn.view(), nullptr));
    return wrap(std::move(drawn));
  }

  Matrix select_rows_before(const Matrix& a, const Ids& rows, const Offsets& row_offsets, const Ids& order,
                            const Ids& sorted_times, const std::vector<int64_t>& bounds) override {
    const DeviceScope scope(engine_);
    const char* op = "select_rows_before";
    check_ids(rows, a.rows(), op, "row id", a.shape());
    MATSAMP_CHECK(!row_offsets.empty() && row_offsets.back() == rows.size(), op, ": row blocks end at ",
                  row_offsets.empty() ? 0 : row_offsets.back(), " for ", rows.size(), " rows");
    MATSAMP_CHECK(order.size() == a.nnz() && sorted_times.size() == a.nnz(), op, ": a time order of ", order.size(),
                  " entries for ", a.nnz(), " entries");
    MATSAMP_CHECK(bounds.size() + 1 == row_offsets.size(), op, ": ", bounds.size(), " time bounds for ",
                  row_offsets.size() - 1, " blocks");
    const DeviceArray<int64_t> doffsets = gpu::to_device(engine_, row_offsets);
    const DeviceArray<int64_t> dbounds = gpu::to_device(engine_, bounds);
    const gpu::DeviceOffsets blocks{doffsets.data(), doffsets.size() - 1, row_offsets.back()};
    return wrap(gpu::select_rows_before(engine_, device(a, op).view(), device(rows, op).data(), blocks,
                                        device(order, op).data(), device(sorted_times, op).data(), dbounds.data()));
  }
  Matrix labor_sample_rows(const Matrix& a, const Ids& rows, int64_t s, const SampleKeys& keys,
                           Ids* positions = nullptr) override {
    const DeviceScope scope(engine_);
    check_sample_rows(rows.size(), s, keys, "labor_sample_rows");
    check_ids(rows, a.rows(), "labor_sample_rows", "row id", a.shape());
    const DeviceArray<int64_t> doffsets = gpu::to_device(engine_, keys.row_offsets);
    const gpu::CsrView da = device(a, "labor_sample_rows").view();
    const vid_t* drows = device(rows, "labor_sample_rows").data();
    gpu::DeviceCsr drawn = gpu::labor_sample_rows(engine_, da, drows, s, device_keys(keys, doffsets));
    if (positions) *positions = wrap_array(gpu::entry_positions(engine_, da, drows, drawn.view(), nullptr));
    return wrap(std::move(drawn));
  }

  RequestedRows request_rows(const Ids& rows, int64_t n, const SampleKeys& keys,
                             const std::vector<vid_t>& bounds) override {
    const DeviceScope scope(engine_);
    const char* op = "request_rows";
    MATSAMP_CHECK(rows.size() == keys.row_offsets.back(), op, ": ", rows.size(), " rows but the keys name ",
                  keys.row_offsets.back());
    MATSAMP_CHECK(!bounds.empty() && std::is_sorted(bounds.begin(), bounds.end()), op,
                  ": the owners' bounds must ascend");
    for (size_t g = 0; g + 1 < keys.row_offsets.size(); ++g)
      MATSAMP_CHECK((keys.row_offsets[g + 1] - keys.row_offsets[g]) >> 32 == 0, op, ": a minibatch of ",
                    keys.row_offsets[g + 1] - keys.row_offsets[g], " rows does not fit a request");
    check_ids(rows, n, op, "row id", std::to_string(n) + " rows");
    const DeviceArray<int64_t> doffsets = gpu::to_device(engine_, keys.row_offsets);
    gpu::DeviceRequests r =
        gpu::request_rows(engine_, device(rows, op).data(), rows.size(), device_keys(keys, doffsets), bounds);
    const int64_t count = r.back.size();
    return {wrap_array(std::move(r.words)), wrap_array(std::move(r.back)).set_bound(count), std::move(r.counts)};
  }

  AnsweredRows sample_requested_rows(const Matrix& block, const Ids& words, const std::vector<int64_t>& segments,
                                     vid_t first_row, int64_t s, const RandomKey& base, RowDraw draw) override {
    const DeviceScope scope(engine_);
    const char* op = "sample_requested_rows";
    MATSAMP_CHECK(words.size() % 2 == 0, op, ": ", words.size(), " words are not whole requests");
    const int64_t count = words.size() / 2;
    const int64_t* dwords = device(words, op).data();
    const DeviceArray<vid_t> rows = gpu::requested_local_rows(engine_, dwords, count, first_row, block.rows());
    gpu::DeviceKeys keys{base.seed, base.epoch, base.layer, 0, {nullptr, 0, count}, dwords};
    const gpu::CsrView da = device(block, op).view();
    gpu::DeviceCsr drawn = draw == RowDraw::labor
                               ? gpu::labor_sample_rows(engine_, da, rows.data(), s, keys)
                               : gpu::sample_rows(engine_, da, rows.data(), s, keys, block.uniform_rows());
    std::vector<int64_t> ends(segments.size() + 1, 0);
    for (size_t q = 0; q < segments.size(); ++q) ends[q + 1] = ends[q] + segments[q];
    MATSAMP_CHECK(ends.back() == count, op, ": segments name ", ends.back(), " of ", count, " requests");
    const std::vector<int64_t> at = gpu::row_pointers_at(engine_, drawn.rowptr.data(), ends);
    AnsweredRows out{{}, std::vector<int64_t>(segments.size())};
    for (size_t q = 0; q < segments.size(); ++q) out.entries[q] = at[q + 1] - at[q];
    out.rows = wrap(std::move(drawn));
    return out;
  }

  // ---- Device memory, for a transport (NCCL) that moves it in place
  ResidentArrays* resident_arrays() override { return this; }
  Memory memory() const override { return Memory::device; }
  Ids allocate_ids(int64_t n) override {
    const DeviceScope scope(engine_);
    return wrap_array(DeviceArray<vid_t>(engine_, n));
  }
  Matrix allocate_rows(int64_t rows, int64_t cols, int64_t nnz) override {
    const DeviceScope scope(engine_);
    DeviceCsr m(engine_, rows, cols, nnz);
    engine_.fill_zero(m.rowptr.data(), sizeof(int64_t));
    return wrap(std::move(m));
  }
  Matrix rows_from_lengths(Matrix m) override {
    const DeviceScope scope(engine_);
    DeviceCsr d = copy_or_take(std::move(m), "rows_from_lengths");
    gpu::inclusive_sum(engine_, d.rowptr.data(), d.rows + 1);
    const int64_t total = gpu::read_one(engine_, d.rowptr.data() + d.rows);
    MATSAMP_CHECK(total == d.nnz(), "rows_from_lengths: the lengths sum to ", total, " but ", d.nnz(), " entries came");
    return wrap(std::move(d));
  }
  Ids row_lengths(const Matrix& m) override {
    const DeviceScope scope(engine_);
    const DeviceCsr& d = device(m, "row_lengths");
    return wrap_array(gpu::row_lengths(engine_, d.rowptr.data(), d.rows));
  }
  WritableCsrArrays arrays(const Matrix& m) override {
    const DeviceCsr& d = device(m, "arrays");
    MATSAMP_CHECK(d.values.size() == d.nnz(), "arrays: a matrix without values (", m.shape(), ")");
    synchronize();  // the transport runs on a stream of its own
    return {const_cast<int64_t*>(d.rowptr.data()), const_cast<col_t*>(d.colidx.data()),
            const_cast<float*>(d.values.data())};
  }
  vid_t* arrays(const Ids& ids) override {
    vid_t* data = const_cast<vid_t*>(device(ids, "arrays").data());
    synchronize();
    return data;
  }

  Matrix guided_sample_rows(const Matrix& a, const Ids& rows, int64_t s, const ColumnImportance& importance,
                            const SampleKeys& keys) override {
    const DeviceScope scope(engine_);
    check_sample_rows(rows.size(), s, keys, "guided_sample_rows");
    check_ids(rows, a.rows(), "guided_sample_rows", "row id", a.shape());
    const DeviceArray<int64_t> doffsets = gpu::to_device(engine_, keys.row_offsets);
    return wrap(gpu::guided_sample_rows(engine_, device(a, "guided_sample_rows").view(),
                                        device(rows, "guided_sample_rows").data(), s, on_device(importance),
                                        device_keys(keys, doffsets)));
  }

  SharedCompacted compact_columns_shared(std::vector<Matrix> parts, const std::vector<Offsets>& row_offsets,
                                         const BlockedIds& leading, std::vector<Ids>* carried = nullptr) override {
    const DeviceScope scope(engine_);
    const char* op = "compact_columns";
    MATSAMP_CHECK(!parts.empty() && parts.size() == row_offsets.size(), "compact_columns: ", parts.size(),
                  " matrices and ", row_offsets.size(), " row offset lists (one each, at least one)");
    MATSAMP_CHECK(!carried || carried->size() == parts.size(), "compact_columns: carried values for ",
                  carried ? carried->size() : 0, " matrices, not ", parts.size());
    const bool leads = leading.ids.defined();  // else no block has leading columns
    std::vector<const DeviceCsr*> dparts;
    std::vector<DeviceArray<int64_t>> drow_offsets;
    std::vector<gpu::DeviceOffsets> row_blocks;
    std::vector<DeviceArray<vid_t>> moved(parts.size());
    std::vector<DeviceArray<vid_t>*> moving;
    const int64_t blocks = static_cast<int64_t>(leading.offsets.size()) - 1;
    for (size_t i = 0; i < parts.size(); ++i) {
      check_compact_blocks(parts[i].rows(), row_offsets[i], leading.ids.size(), leading.offsets);
      if (leads) check_ids(leading.ids, parts[i].cols(), op, "leading vertex", parts[i].shape());
      MATSAMP_CHECK(parts[i].cols() == parts[0].cols(), "compact_columns: the matrices' columns differ (",
                    parts[0].cols(), " and ", parts[i].cols(), "): they share one vertex list");
      dparts.push_back(&device(parts[i], op));
      drow_offsets.push_back(gpu::to_device(engine_, row_offsets[i]));
      row_blocks.push_back({drow_offsets.back().data(), blocks, parts[i].rows()});
      const bool carries = carried && (*carried)[i].defined();
      MATSAMP_CHECK(!carries || (*carried)[i].size() == parts[i].nnz(), "compact_columns: ", (*carried)[i].size(),
                    " carried values for ", parts[i].nnz(), " entries");
      if (carries) moved[i] = take_or_zeros(std::move((*carried)[i]), parts[i].nnz(), op);
      moving.push_back(carries ? &moved[i] : nullptr);
    }
    const DeviceArray<int64_t> dleading_offsets = gpu::to_device(engine_, leading.offsets);
    gpu::DeviceSharedCompact c =
        gpu::compact_columns_shared(engine_, dparts, row_blocks, leads ? device(leading.ids, op).data() : nullptr,
                                    {dleading_offsets.data(), blocks, leading.ids.size()}, moving);
    for (size_t i = 0; i < moving.size(); ++i)
      if (moving[i]) (*carried)[i] = wrap_array(std::move(moved[i]));
    const int64_t cols = parts[0].cols();  // every vertex is a column of the parts
    SharedCompacted out{{}, {wrap_array(std::move(c.vertices)).set_bound(cols), std::move(c.col_offsets)}};
    for (DeviceCsr& m : c.adj) out.adj.push_back(wrap(std::move(m)));
    return out;
  }

  Counts tally_ids(Counts counts, int64_t n, const Ids& ids) override {
    const DeviceScope scope(engine_);
    check_ids(ids, n, "tally_ids", "id", std::to_string(n) + " tallies");
    DeviceArray<int64_t> out = take_or_zeros(std::move(counts), n, "tally_ids");
    gpu::tally_ids(engine_, out.data(), device(ids, "tally_ids").data(), ids.size());
    return wrap_array(std::move(out));
  }

  Counts tally_induced_entries(Counts counts, const Matrix& a, const BlockedIds& blocks) override {
    const DeviceScope scope(engine_);
    const char* op = "tally_induced_entries";
    MATSAMP_CHECK(a.rows() == a.cols(), "tally_induced_entries: the matrix is not square (", a.shape(), ")");
    check_ids(blocks.ids, a.rows(), op, "id", a.shape());
    check_block_offsets(blocks.offsets, blocks.ids.size(), op, "block offsets");
    DeviceArray<int64_t> out = take_or_zeros(std::move(counts), a.nnz(), op);
    const DeviceArray<int64_t> doffsets = gpu::to_device(engine_, blocks.offsets);
    gpu::tally_induced_entries(engine_, out.data(), device(a, op).view(), device(blocks.ids, op).data(),
                               {doffsets.data(), blocks.blocks(), blocks.ids.size()});
    return wrap_array(std::move(out));
  }

  Matrix normalize_rows_by_tallies(const Matrix& a, const Counts& row_tallies, const Counts& entry_tallies) override {
    const DeviceScope scope(engine_);
    const char* op = "normalize_rows_by_tallies";
    MATSAMP_CHECK(row_tallies.size() == a.rows() && entry_tallies.size() == a.nnz(), op, ": ", row_tallies.size(),
                  " row and ", entry_tallies.size(), " entry tallies for ", a.shape());
    return wrap(gpu::normalize_rows_by_tallies(engine_, device(a, op).view(), device(row_tallies, op).data(),
                                               device(entry_tallies, op).data()));
  }

  Matrix frontier_walk(const Matrix& adj, const BlockedIds& roots, int64_t steps, const FrontierKeys& keys,
                       double enlargement) override {
    const DeviceScope scope(engine_);
    check_frontier_walk(adj.rows(), adj.cols(), roots.ids.size(), roots.offsets, steps, enlargement);
    check_ids(roots.ids, adj.rows(), "frontier_sample", "root", "the adjacency");
    const DeviceArray<int64_t> doffsets = gpu::to_device(engine_, roots.offsets);
    return wrap(gpu::frontier_sample(
        engine_, device(adj, "frontier_walk").view(), device(roots.ids, "frontier_walk").data(),
        {doffsets.data(), roots.blocks(), roots.ids.size()}, roots.offsets, steps, keys, enlargement));
  }

  Values gather(const Matrix& p, const BlockedIds& at) override {
    const DeviceScope scope(engine_);
    const DeviceCsr& dp = device(p, "gather");
    check_ids(at.ids, p.cols(), "gather", "id", std::to_string(p.cols()) + " columns");
    check_gather_blocks(p.rows(), at.ids.size(), at.offsets);
    const DeviceArray<int64_t> doffsets = gpu::to_device(engine_, at.offsets);
    return wrap_array(gpu::entries_at(engine_, dp.view(), {doffsets.data(), at.blocks(), at.ids.size()},
                                      device(at.ids, "gather").data()));
  }

  Ids entry_positions(const Matrix& a, const Ids& rows, const Matrix& s, const Ids& columns) override {
    const DeviceScope scope(engine_);
    const char* op = "entry_positions";
    check_entry_positions(s.rows(), s.cols(), rows.size(), columns.size());
    check_ids(rows, a.rows(), op, "row id", a.shape());
    check_ids(columns, a.cols(), op, "column id", a.shape());
    return wrap_array(gpu::entry_positions(engine_, device(a, op).view(), device(rows, op).data(), device(s, op).view(),
                                           device(columns, op).data()));
  }

  const DeviceCsr& device(const Matrix& m, const char* op) const {
    check_mine(m, op);
    return static_cast<const DeviceMatrix*>(m.storage())->csr;
  }
  template <class T>
  const DeviceArray<T>& device(const Array<T>& a, const char* op) const {
    check_mine(a, op);
    return static_cast<const DeviceVector<T>*>(a.storage())->array;
  }

 protected:
  // ---- Transfers (counted by Backend)
  Matrix register_graph_impl(const CsrMatrix& a) override {
    const DeviceScope scope(engine_);
    Matrix m = wrap(gpu::upload(engine_, a));
    resident_bytes_ += device(m, "register_graph").bytes();
    engine_.set_resident_bytes(resident_bytes_);
    return m.set_uniform_rows(has_uniform_rows(a));
  }
  Matrix upload_impl(CsrMatrix m) override {
    const DeviceScope scope(engine_);
    return wrap(gpu::upload(engine_, m));
  }
  Ids upload_ids_impl(std::vector<vid_t> ids) override {
    const DeviceScope scope(engine_);
    const auto [low, high] = std::minmax_element(ids.begin(), ids.end());
    const int64_t bound = ids.empty() ? 0 : *low < 0 ? -1 : *high + 1;
    return wrap_array(gpu::to_device(engine_, ids)).set_bound(bound);
  }
  Values upload_values_impl(std::vector<float> values) override {
    const DeviceScope scope(engine_);
    return wrap_array(gpu::to_device(engine_, values));
  }
  CsrMatrix to_host_impl(Matrix m) override {
    const DeviceScope scope(engine_);
    return gpu::download(engine_, device(m, "to_host"));
  }
  std::vector<vid_t> ids_to_host_impl(Ids ids) override {
    const DeviceScope scope(engine_);
    return gpu::to_host(engine_, device(ids, "ids_to_host"));
  }
  std::vector<float> values_to_host_impl(Values values) override {
    const DeviceScope scope(engine_);
    return gpu::to_host(engine_, device(values, "values_to_host"));
  }
  void synchronize_impl() override {
    const DeviceScope scope(engine_);
    engine_.synchronize();
  }

 private:
  Matrix wrap(DeviceCsr m) {
    const int64_t rows = m.rows, cols = m.cols, nnz = m.nnz();
    return Matrix(this, std::make_shared<DeviceMatrix>(engine_, std::move(m)), rows, cols, nnz);
  }
  template <class T>
  Array<T> wrap_array(DeviceArray<T> a) {
    const int64_t size = a.size();
    return Array<T>(this, std::make_shared<DeviceVector<T>>(engine_, std::move(a)), size);
  }

  // The handle's device matrix: its arrays when no other handle shares them, else a copy.
  DeviceCsr copy_or_take(Matrix m, const char* op) {
    const DeviceCsr& d = device(m, op);
    if (m.sole_owner()) return std::move(static_cast<DeviceMatrix*>(m.storage())->csr);
    DeviceCsr copy(engine_, d.rows, d.cols, d.nnz(), d.values.size() > 0);
    engine_.copy_on_device(copy.rowptr.data(), d.rowptr.data(), d.rowptr.bytes());
    engine_.copy_on_device(copy.colidx.data(), d.colidx.data(), d.colidx.bytes());
    if (d.values.size()) engine_.copy_on_device(copy.values.data(), d.values.data(), d.values.bytes());
    return copy;
  }

  // n tallies to add to in place: the handle's arrays when no other handle shares
  // them, else a copy; zeros when it is undefined.
  DeviceArray<int64_t> take_or_zeros(Counts counts, int64_t n, const char* op) {
    DeviceArray<int64_t> out;
    if (!counts.defined()) {
      out = DeviceArray<int64_t>(engine_, n);
      engine_.fill_zero(out.data(), out.bytes());
      return out;
    }
    MATSAMP_CHECK(counts.size() == n, op, ": ", counts.size(), " tallies where ", n, " are kept");
    const DeviceArray<int64_t>& d = device(counts, op);
    if (counts.sole_owner()) return std::move(static_cast<DeviceVector<int64_t>*>(counts.storage())->array);
    out = DeviceArray<int64_t>(engine_, n);
    engine_.copy_on_device(out.data(), d.data(), out.bytes());
    return out;
  }

  // Ids in [0, bound), with the CPU ops' message (check_ids_below): by the bound
  // the handle carries when it is known, else read on the host.
  void check_ids(const Ids& ids, int64_t bound, const char* op, const char* what, const std::string& of) {
    if (ids.bound() >= 0 && ids.bound() <= bound) return;
    check_ids_below(gpu::to_host(engine_, device(ids, op)), bound, op, what, of);
  }

  // select_cols_blocked's checks, the counts on the host and the column ids by their bound.
  void check_select_cols(const Matrix& a, int64_t rows, const Offsets& row_offsets, const BlockedIds& cols,
                         const Values& weights) {
    check_select_cols_blocks(rows, row_offsets, cols.ids.size(), cols.offsets, weights.defined() ? weights.size() : 0);
    check_ids(cols.ids, a.cols(), "select_cols", "column id", a.shape());
  }

  // A quarter of the memory the backend may use.
  int64_t default_budget() const {
    int64_t usable = engine_.memory().free_bytes;
    if (options_.memory_limit_bytes > 0) usable = std::min(usable, options_.memory_limit_bytes);
    return std::max<int64_t>(1, usable / 4);
  }

  static gpu::DeviceKeys device_keys(const SampleKeys& keys, const DeviceArray<int64_t>& offsets) {
    return {keys.seed,
            keys.epoch,
            keys.layer,
            keys.first_minibatch,
            {offsets.data(), offsets.size() - 1, keys.row_offsets.back()}};
  }

  // The importance's list on the device: uploaded when the one kept there is another
  // (DGS swaps its importance every few hundred draws; the list can be long).
  gpu::DeviceImportance on_device(const ColumnImportance& importance) {
    if (importance.serial() != importance_.serial) {
      importance_.ids = gpu::to_device(engine_, importance.ids());
      importance_.weights = gpu::to_device(engine_, importance.weights());
      importance_.serial = importance.serial();
    }
    return {importance_.ids.data(), importance_.weights.data(), importance_.ids.size(),
            importance.own_first(), importance.own_end(),       importance.elsewhere()};
  }

  // select_cols_blocked on the device of a matrix already there (arguments checked).
  DeviceCsr select_cols_on_device(const gpu::CsrView& a, const Offsets& row_offsets, const BlockedIds& cols,
                                  const Values& weights) {
    const DeviceArray<int64_t> drow_offsets = gpu::to_device(engine_, row_offsets);
    const DeviceArray<int64_t> dcol_offsets = gpu::to_device(engine_, cols.offsets);
    const int64_t blocks = static_cast<int64_t>(row_offsets.size()) - 1;
    return gpu::select_cols_blocked(engine_, a, {drow_offsets.data(), blocks, a.rows},
                                    device(cols.ids, "select_cols").data(),
                                    {dcol_offsets.data(), blocks, cols.ids.size()},
                                    weights.defined() ? device(weights, "select_cols").data() : nullptr);
  }

  CudaOptions options_;
  DeviceEngine engine_;
  int64_t spgemm_budget_;
  int64_t resident_bytes_ = 0;  // registered graph matrices (reported when memory runs out)
  struct {
    uint64_t serial = 0;  // of the ColumnImportance these are (0: none)
    DeviceArray<vid_t> ids;
    DeviceArray<float> weights;
  } importance_;
};

}  // namespace

std::unique_ptr<Backend> make_cuda_backend(const CudaOptions& options) {
  std::string why;
  MATSAMP_CHECK(cuda_available(&why), why);
  return std::make_unique<CudaBackend>(options);
}

}  // namespace matsamp
