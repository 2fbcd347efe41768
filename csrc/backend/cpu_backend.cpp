// The CPU backend: every op is the reference op of ops/ (OpenMP) on host arrays.
// Results are moved into handles and out of them, never copied, unless a handle
// is shared or borrowed.
#include "backend/cpu_backend.h"

#include <algorithm>
#include <numeric>
#include <utility>

#include "backend/resident_arrays.h"

namespace matsamp {

namespace {

class CpuBackend final : public Backend, public ResidentArrays {
 public:
  std::string name() const override { return "cpu"; }

  Matrix spgemm(const Matrix& a, const Matrix& b) override {
    return wrap(matsamp::spgemm(host(a, "spgemm"), host(b, "spgemm")));
  }
  Matrix select_rows(const Matrix& a, const Ids& rows) override {
    return wrap(matsamp::select_rows(host(a, "select_rows"), host(rows, "select_rows")));
  }
  Matrix select_cols_blocked(const Matrix& a, const Offsets& row_offsets, const BlockedIds& cols,
                             const Values& weights) override {
    return wrap(matsamp::select_cols_blocked(host(a, "select_cols"), row_offsets, host(cols.ids, "select_cols"),
                                             cols.offsets, host_or_empty(weights, "select_cols")));
  }
  Matrix select_rows_cols_blocked(const Matrix& a, const BlockedIds& rows, const BlockedIds& cols,
                                  const Values& weights) override {
    const char* op = "select_rows_cols";
    return wrap(matsamp::select_rows_cols_blocked(host(a, op), host(rows.ids, op), rows.offsets, host(cols.ids, op),
                                                  cols.offsets, host_or_empty(weights, op)));
  }
  Matrix normalize_rows(Matrix p, RowScale scale) override {
    CsrMatrix m = take(std::move(p), "normalize_rows");
    if (scale == RowScale::mean) std::fill(m.values.begin(), m.values.end(), 1.0f);
    matsamp::normalize_rows(m, scale == RowScale::by_sum_of_squares);
    return wrap(std::move(m));
  }
  Matrix mask_entries(Matrix p, const Matrix& mask) override {
    return wrap(matsamp::mask_entries(take(std::move(p), "mask_entries"), host(mask, "mask_entries")));
  }
  Matrix select_rows_by_key(const Matrix& m, const BlockedIds& keys, const BlockedIds& rows) override {
    const char* op = "select_rows_by_key";
    return wrap(
        matsamp::select_rows_by_key(host(m, op), host(keys.ids, op), keys.offsets, host(rows.ids, op), rows.offsets));
  }
  Matrix pad_row_blocks(Matrix m, const Offsets& row_offsets, const Offsets& padded_offsets) override {
    return wrap(matsamp::pad_row_blocks(take(std::move(m), "pad_row_blocks"), row_offsets, padded_offsets));
  }
  Ids sequence_ids(int64_t n) override { return wrap_array(matsamp::sequence_ids(n)); }
  Ids sequence_runs(const std::vector<int64_t>& starts, const Offsets& run_offsets) override {
    return wrap_array(matsamp::sequence_runs(starts, run_offsets));
  }
  Ids range_positions(const Ids& ids, const std::vector<vid_t>& bounds) override {
    return wrap_array(matsamp::range_positions(host(ids, "range_positions"), bounds));
  }
  Ids gather_ids(const Ids& ids, const Ids& at) override {
    return wrap_array(matsamp::gather_ids(host(ids, "gather_ids"), host(at, "gather_ids")));
  }
  Matrix add_entries(const Matrix& a, const Matrix& b) override {
    return wrap(matsamp::add_entries(host(a, "add_entries"), host(b, "add_entries")));
  }
  Ids first_columns(const Matrix& m, const Ids& fallback) override {
    return wrap_array(matsamp::first_columns(host(m, "first_columns"), host(fallback, "first_columns")));
  }
  Values reciprocals(const Values& values, float factor) override {
    return wrap_array(matsamp::reciprocals(host(values, "reciprocals"), factor));
  }
  Matrix block_indicator(const BlockedIds& ids, int64_t cols) override {
    return wrap(matsamp::block_indicator(host(ids.ids, "block_indicator"), ids.offsets, cols));
  }
  Matrix its_sample(const Matrix& p, int64_t s, const SampleKeys& keys) override {
    return wrap(matsamp::its_sample(host(p, "its_sample"), s, keys));
  }
  Matrix sample_rows(const Matrix& a, const Ids& rows, int64_t s, const SampleKeys& keys,
                     Ids* positions = nullptr) override {
    return drawn_with_positions(positions, [&](std::vector<vid_t>* at) {
      const DrawTables* tables = a.uniform_rows() ? nullptr : stored(a, "sample_rows").draw_tables();
      return matsamp::sample_rows(host(a, "sample_rows"), host(rows, "sample_rows"), s, keys, a.uniform_rows(), at,
                                  tables);
    });
  }
  Matrix sample_rows_with_replacement(const Matrix& a, const Ids& rows, int64_t s, const SampleKeys& keys,
                                      Ids* positions = nullptr) override {
    const char* op = "sample_rows_with_replacement";
    return drawn_with_positions(positions, [&](std::vector<vid_t>* at) {
      return matsamp::sample_rows_with_replacement(host(a, op), host(rows, op), s, keys, a.uniform_rows(), at);
    });
  }
  Matrix sample_rows_masked(const Matrix& a, const Ids& rows, int64_t s, const SampleKeys& keys, const Matrix& mask,
                            Ids* positions = nullptr) override {
    const char* op = "sample_rows_masked";
    return drawn_with_positions(positions, [&](std::vector<vid_t>* at) {
      return matsamp::sample_rows_masked(host(a, op), host(rows, op), s, keys, a.uniform_rows(), host(mask, op), at);
    });
  }
  Matrix sample_rows_before(const Matrix& a, const Ids& rows, int64_t s, const SampleKeys& keys, const Ids& order,
                            const Ids& sorted_times, const std::vector<int64_t>& bounds, TemporalStrategy strategy,
                            Ids* positions = nullptr) override {
    const char* op = "sample_rows_before";
    return drawn_with_positions(positions, [&](std::vector<vid_t>* at) {
      return matsamp::sample_rows_before(host(a, op), host(rows, op), s, keys, host(order, op), host(sorted_times, op),
                                         bounds, strategy, a.uniform_rows(), at);
    });
  }
  Matrix select_rows_before(const Matrix& a, const Ids& rows, const Offsets& row_offsets, const Ids& order,
                            const Ids& sorted_times, const std::vector<int64_t>& bounds) override {
    const char* op = "select_rows_before";
    return wrap(matsamp::select_rows_before(host(a, op), host(rows, op), row_offsets, host(order, op),
                                            host(sorted_times, op), bounds));
  }
  Matrix labor_sample_rows(const Matrix& a, const Ids& rows, int64_t s, const SampleKeys& keys,
                           Ids* positions = nullptr) override {
    return drawn_with_positions(positions, [&](std::vector<vid_t>* at) {
      return matsamp::labor_sample_rows(host(a, "labor_sample_rows"), host(rows, "labor_sample_rows"), s, keys, at,
                                        a.uniform_rows());
    });
  }
  Matrix guided_sample_rows(const Matrix& a, const Ids& rows, int64_t s, const ColumnImportance& importance,
                            const SampleKeys& keys) override {
    const char* op = "guided_sample_rows";
    return wrap(matsamp::guided_sample_rows(host(a, op), host(rows, op), s, importance, keys));
  }
  SharedCompacted compact_columns_shared(std::vector<Matrix> parts, const std::vector<Offsets>& row_offsets,
                                         const BlockedIds& leading, std::vector<Ids>* carried = nullptr) override {
    const char* op = "compact_columns";
    std::vector<CsrMatrix> owned;
    for (Matrix& m : parts) owned.push_back(take(std::move(m), op));
    std::vector<std::vector<vid_t>> moved(carried ? carried->size() : 0);
    std::vector<std::vector<vid_t>*> moving;
    for (size_t i = 0; i < moved.size(); ++i) {
      const bool defined = (*carried)[i].defined();
      if (defined) moved[i] = take_array(std::move((*carried)[i]), op);
      moving.push_back(defined ? &moved[i] : nullptr);
    }
    SharedCompactResult c = matsamp::compact_columns_shared(std::move(owned), row_offsets,
                                                            host_or_empty(leading.ids, op), leading.offsets, moving);
    for (size_t i = 0; i < moved.size(); ++i)
      if (moving[i]) (*carried)[i] = wrap_array(std::move(moved[i]));
    SharedCompacted out{{}, {wrap_array(std::move(c.vertices)), std::move(c.col_offsets)}};
    for (CsrMatrix& m : c.adj) out.adj.push_back(wrap(std::move(m)));
    return out;
  }
  Values gather(const Matrix& p, const BlockedIds& at) override {
    return wrap_array(matsamp::entries_at(host(p, "gather"), host(at.ids, "gather"), at.offsets));
  }
  Ids entry_positions(const Matrix& a, const Ids& rows, const Matrix& s, const Ids& columns) override {
    const char* op = "entry_positions";
    return wrap_array(matsamp::entry_positions(host(a, op), host(rows, op), host(s, op), host(columns, op)));
  }
  Counts tally_ids(Counts counts, int64_t n, const Ids& ids) override {
    return wrap_array(matsamp::tally_ids(take_or_zeros(std::move(counts), n, "tally_ids"), host(ids, "tally_ids")));
  }
  Counts tally_induced_entries(Counts counts, const Matrix& a, const BlockedIds& blocks) override {
    const char* op = "tally_induced_entries";
    return wrap_array(matsamp::tally_induced_entries(take_or_zeros(std::move(counts), a.nnz(), op), host(a, op),
                                                     host(blocks.ids, op), blocks.offsets));
  }
  Matrix normalize_rows_by_tallies(const Matrix& a, const Counts& row_tallies, const Counts& entry_tallies) override {
    const char* op = "normalize_rows_by_tallies";
    return wrap(matsamp::normalize_rows_by_tallies(host(a, op), host(row_tallies, op), host(entry_tallies, op)));
  }
  Matrix frontier_walk(const Matrix& adj, const BlockedIds& roots, int64_t steps, const FrontierKeys& keys,
                       double enlargement) override {
    const CsrMatrix& a = host(adj, "frontier_walk");
    return wrap(popped_sets(
        frontier_sample(a, host(roots.ids, "frontier_walk"), roots.offsets, steps, keys, enlargement), a.cols));
  }
  RequestedRows request_rows(const Ids& rows, int64_t n, const SampleKeys& keys,
                             const std::vector<vid_t>& bounds) override {
    RowRequests r = matsamp::request_rows(host(rows, "request_rows"), n, keys, bounds);
    return {wrap_array(std::move(r.words)), wrap_array(std::move(r.back)), std::move(r.counts)};
  }
  AnsweredRows sample_requested_rows(const Matrix& block, const Ids& words, const std::vector<int64_t>& segments,
                                     vid_t first_row, int64_t s, const RandomKey& base, RowDraw draw) override {
    const char* op = "sample_requested_rows";
    CsrMatrix rows = matsamp::sample_requested_rows(host(block, op), host(words, op), first_row, s, base, draw,
                                                    block.uniform_rows());
    AnsweredRows out{{}, std::vector<int64_t>(segments.size(), 0)};
    int64_t at = 0;
    for (size_t q = 0; q < segments.size(); ++q) {
      MATSAMP_CHECK(segments[q] >= 0 && at + segments[q] <= rows.rows, op, ": segments of ", segments.size(),
                    " askers do not fit ", rows.rows, " requests");
      out.entries[q] = rows.rowptr[at + segments[q]] - rows.rowptr[at];
      at += segments[q];
    }
    MATSAMP_CHECK(at == rows.rows, op, ": segments name ", at, " of ", rows.rows, " requests");
    out.rows = wrap(std::move(rows));
    return out;
  }

  // ---- The host arrays, for a transport
  ResidentArrays* resident_arrays() override { return this; }
  Memory memory() const override { return Memory::host; }
  Ids allocate_ids(int64_t n) override { return wrap_array(std::vector<vid_t>(n)); }
  Matrix allocate_rows(int64_t rows, int64_t cols, int64_t nnz) override {
    CsrMatrix m(rows, cols);
    m.colidx.resize(nnz);
    m.values.resize(nnz);
    return wrap(std::move(m));
  }
  Matrix rows_from_lengths(Matrix m) override {
    CsrMatrix h = take(std::move(m), "rows_from_lengths");
    std::partial_sum(h.rowptr.begin(), h.rowptr.end(), h.rowptr.begin());
    MATSAMP_CHECK(h.rowptr.back() == h.nnz(), "rows_from_lengths: the lengths sum to ", h.rowptr.back(), " but ",
                  h.nnz(), " entries came");
    return wrap(std::move(h));
  }
  Ids row_lengths(const Matrix& m) override {
    const CsrMatrix& h = host(m, "row_lengths");
    std::vector<vid_t> lengths(h.rows);
    for (int64_t r = 0; r < h.rows; ++r) lengths[r] = h.rowptr[r + 1] - h.rowptr[r];
    return wrap_array(std::move(lengths));
  }
  WritableCsrArrays arrays(const Matrix& m) override {
    // Writable for handles of allocate_rows only (they own their arrays): the contract.
    auto& h = const_cast<CsrMatrix&>(host(m, "arrays"));
    return {h.rowptr.data(), h.colidx.data(), h.values.data()};
  }
  vid_t* arrays(const Ids& ids) override {
    check_mine(ids, "arrays");
    return static_cast<HostArray<vid_t>*>(ids.storage())->data.data();
  }

 protected:
  Matrix register_graph_impl(const CsrMatrix& a) override {
    auto storage = std::make_shared<HostMatrix>();
    storage->borrowed = &a;
    return Matrix(this, std::move(storage), a.rows, a.cols, a.nnz()).set_uniform_rows(has_uniform_rows(a));
  }
  Matrix upload_impl(CsrMatrix m) override { return wrap(std::move(m)); }
  Ids upload_ids_impl(std::vector<vid_t> ids) override { return wrap_array(std::move(ids)); }
  Values upload_values_impl(std::vector<float> values) override { return wrap_array(std::move(values)); }
  CsrMatrix to_host_impl(Matrix m) override { return take(std::move(m), "to_host"); }
  std::vector<vid_t> ids_to_host_impl(Ids ids) override { return take_array(std::move(ids), "ids_to_host"); }
  std::vector<float> values_to_host_impl(Values values) override {
    return take_array(std::move(values), "values_to_host");
  }

 private:
  Matrix wrap(CsrMatrix m) {
    auto storage = std::make_shared<HostMatrix>();
    storage->owned = std::move(m);
    const CsrMatrix& h = storage->owned;
    return Matrix(this, std::move(storage), h.rows, h.cols, h.nnz());
  }
  template <class T>
  Array<T> wrap_array(std::vector<T> data) {
    auto storage = std::make_shared<HostArray<T>>();
    storage->data = std::move(data);
    const int64_t size = static_cast<int64_t>(storage->data.size());
    return Array<T>(this, std::move(storage), size);
  }

  // draw(at) of a draw op, with `at` the positions' vector when `positions` asks for them.
  template <class Draw>
  Matrix drawn_with_positions(Ids* positions, Draw draw) {
    std::vector<vid_t> at;
    Matrix drawn = wrap(draw(positions ? &at : nullptr));
    if (positions) *positions = wrap_array(std::move(at));
    return drawn;
  }

  const HostMatrix& stored(const Matrix& m, const char* op) const {
    check_mine(m, op);
    return *static_cast<const HostMatrix*>(m.storage());
  }
  const CsrMatrix& host(const Matrix& m, const char* op) const { return stored(m, op).get(); }
  template <class T>
  const std::vector<T>& host(const Array<T>& a, const char* op) const {
    check_mine(a, op);
    return static_cast<const HostArray<T>*>(a.storage())->data;
  }
  // An undefined handle's arrays are empty (weights of 1, no leading ids).
  template <class T>
  const std::vector<T>& host_or_empty(const Array<T>& a, const char* op) const {
    static const std::vector<T> none;
    return a.defined() ? host(a, op) : none;
  }

  // The handle's arrays: moved out when nothing else refers to them, else copied.
  CsrMatrix take(Matrix m, const char* op) const {
    const CsrMatrix& h = host(m, op);
    auto* storage = static_cast<HostMatrix*>(m.storage());
    if (m.sole_owner() && !storage->borrowed) return std::move(storage->owned);
    return h;
  }
  // n tallies: the handle's (of that size), or zeros when it is undefined.
  std::vector<int64_t> take_or_zeros(Counts counts, int64_t n, const char* op) const {
    if (!counts.defined()) return std::vector<int64_t>(n, 0);
    MATSAMP_CHECK(counts.size() == n, op, ": ", counts.size(), " tallies where ", n, " are kept");
    return take_array(std::move(counts), op);
  }
  template <class T>
  std::vector<T> take_array(Array<T> a, const char* op) const {
    const std::vector<T>& h = host(a, op);
    if (a.sole_owner()) return std::move(static_cast<HostArray<T>*>(a.storage())->data);
    return h;
  }
};

}  // namespace

std::unique_ptr<Backend> make_cpu_backend() { return std::make_unique<CpuBackend>(); }

}  // namespace matsamp
