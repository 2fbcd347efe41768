// A backend's ops on host operands: each operand uploaded, the result brought
// back, so that one test compares backends op by op on CsrMatrix inputs.
#pragma once
#include <utility>
#include <vector>

#include "backend/backend.h"
#include "ops/column_importance.h"

namespace matsamp::testing {

class HostOps {
 public:
  explicit HostOps(Backend& backend) : b_(backend) {}

  CsrMatrix spgemm(const CsrMatrix& a, const CsrMatrix& c) { return b_.to_host(b_.spgemm(b_.upload(a), b_.upload(c))); }
  CsrMatrix select_rows(const CsrMatrix& a, const std::vector<vid_t>& rows) {
    return b_.to_host(b_.select_rows(b_.upload(a), b_.upload_ids(rows)));
  }
  CsrMatrix select_cols_blocked(const CsrMatrix& a, const Offsets& row_offsets, const std::vector<vid_t>& cols,
                                const Offsets& col_offsets, const std::vector<float>& weights = {}) {
    return b_.to_host(
        b_.select_cols_blocked(b_.upload(a), row_offsets, {b_.upload_ids(cols), col_offsets}, weights_of(weights)));
  }
  CsrMatrix select_rows_cols_blocked(const CsrMatrix& a, const std::vector<vid_t>& rows, const Offsets& row_offsets,
                                     const std::vector<vid_t>& cols, const Offsets& col_offsets,
                                     const std::vector<float>& weights = {}) {
    return b_.to_host(b_.select_rows_cols_blocked(b_.upload(a), {b_.upload_ids(rows), row_offsets},
                                                  {b_.upload_ids(cols), col_offsets}, weights_of(weights)));
  }
  void normalize_rows(CsrMatrix& p, bool square_first) {
    p = b_.to_host(b_.normalize_rows(b_.upload(p), square_first ? RowScale::by_sum_of_squares : RowScale::by_sum));
  }
  CsrMatrix its_sample(const CsrMatrix& p, int64_t s, const SampleKeys& keys) {
    return b_.to_host(b_.its_sample(b_.upload(p), s, keys));
  }
  // `a` as a graph whose rows are uniform when uniform_rows says so.
  CsrMatrix sample_rows(const CsrMatrix& a, const std::vector<vid_t>& rows, int64_t s, const SampleKeys& keys,
                        bool uniform_rows) {
    return b_.to_host(b_.sample_rows(b_.upload(a).set_uniform_rows(uniform_rows), b_.upload_ids(rows), s, keys));
  }
  // sample_rows_with_replacement's picks and their positions.
  std::pair<CsrMatrix, std::vector<vid_t>> sample_rows_with_replacement(const CsrMatrix& a,
                                                                        const std::vector<vid_t>& rows, int64_t s,
                                                                        const SampleKeys& keys, bool uniform_rows) {
    Ids positions;
    const Matrix drawn = b_.sample_rows_with_replacement(b_.upload(a).set_uniform_rows(uniform_rows),
                                                         b_.upload_ids(rows), s, keys, &positions);
    return {b_.to_host(drawn), b_.ids_to_host(std::move(positions))};
  }
  // sample_rows' (or, with a mask, sample_rows_masked's) positions of its picks in a.
  std::vector<vid_t> sample_rows_positions(const CsrMatrix& a, const std::vector<vid_t>& rows, int64_t s,
                                           const SampleKeys& keys, bool uniform_rows, const CsrMatrix* mask = nullptr) {
    const Matrix da = b_.upload(a).set_uniform_rows(uniform_rows);
    Ids positions;
    if (mask) b_.sample_rows_masked(da, b_.upload_ids(rows), s, keys, b_.upload(*mask), &positions);
    else b_.sample_rows(da, b_.upload_ids(rows), s, keys, &positions);
    return b_.ids_to_host(std::move(positions));
  }
  // compact_columns with `carried` moved along (in place).
  CompactResult compact_columns_carrying(CsrMatrix s, const Offsets& row_offsets, const std::vector<vid_t>& leading,
                                         const Offsets& leading_offsets, std::vector<vid_t>& carried) {
    Ids moved = b_.upload_ids(carried);
    Compacted c =
        b_.compact_columns(b_.upload(std::move(s)), row_offsets, {b_.upload_ids(leading), leading_offsets}, &moved);
    carried = b_.ids_to_host(std::move(moved));
    return {b_.to_host(std::move(c.adj)), b_.ids_to_host(std::move(c.vertices.ids)), std::move(c.vertices.offsets)};
  }
  // sample_rows_before's picks and their positions.
  std::pair<CsrMatrix, std::vector<vid_t>> sample_rows_before(const CsrMatrix& a, const std::vector<vid_t>& rows,
                                                              int64_t s, const SampleKeys& keys,
                                                              const std::vector<int64_t>& times,
                                                              const std::vector<int64_t>& bounds,
                                                              TemporalStrategy strategy) {
    Ids positions;
    TimeOrder order = time_order(a, times);
    const Matrix drawn =
        b_.sample_rows_before(b_.upload(a), b_.upload_ids(rows), s, keys, b_.upload_ids(std::move(order.order)),
                              b_.upload_ids(std::move(order.sorted_times)), bounds, strategy, &positions);
    return {b_.to_host(drawn), b_.ids_to_host(std::move(positions))};
  }
  CsrMatrix select_rows_before(const CsrMatrix& a, const std::vector<vid_t>& rows, const Offsets& row_offsets,
                               const std::vector<int64_t>& times, const std::vector<int64_t>& bounds) {
    TimeOrder order = time_order(a, times);
    return b_.to_host(b_.select_rows_before(b_.upload(a), b_.upload_ids(rows), row_offsets,
                                            b_.upload_ids(std::move(order.order)),
                                            b_.upload_ids(std::move(order.sorted_times)), bounds));
  }
  std::vector<vid_t> labor_sample_rows_positions(const CsrMatrix& a, const std::vector<vid_t>& rows, int64_t s,
                                                 const SampleKeys& keys) {
    Ids positions;
    b_.labor_sample_rows(b_.upload(a), b_.upload_ids(rows), s, keys, &positions);
    return b_.ids_to_host(std::move(positions));
  }
  CsrMatrix labor_sample_rows(const CsrMatrix& a, const std::vector<vid_t>& rows, int64_t s, const SampleKeys& keys) {
    return b_.to_host(b_.labor_sample_rows(b_.upload(a), b_.upload_ids(rows), s, keys));
  }
  CsrMatrix guided_sample_rows(const CsrMatrix& a, const std::vector<vid_t>& rows, int64_t s,
                               const ColumnImportance& importance, const SampleKeys& keys) {
    return b_.to_host(b_.guided_sample_rows(b_.upload(a), b_.upload_ids(rows), s, importance, keys));
  }
  CompactResult compact_columns(CsrMatrix s, const Offsets& row_offsets, const std::vector<vid_t>& leading,
                                const Offsets& leading_offsets) {
    Compacted c = b_.compact_columns(b_.upload(std::move(s)), row_offsets, {b_.upload_ids(leading), leading_offsets});
    return {b_.to_host(std::move(c.adj)), b_.ids_to_host(std::move(c.vertices.ids)), std::move(c.vertices.offsets)};
  }
  // With no_leading, no block has leading columns (an undefined leading handle).
  CompactResult compact_columns_without_leading(CsrMatrix s, const Offsets& row_offsets) {
    Compacted c = b_.compact_columns(b_.upload(std::move(s)), row_offsets, {Ids{}, Offsets(row_offsets.size(), 0)});
    return {b_.to_host(std::move(c.adj)), b_.ids_to_host(std::move(c.vertices.ids)), std::move(c.vertices.offsets)};
  }
  CsrMatrix block_indicator(const std::vector<vid_t>& ids, const Offsets& offsets, int64_t cols) {
    return b_.to_host(b_.block_indicator({b_.upload_ids(ids), offsets}, cols));
  }
  std::vector<float> reciprocals(const std::vector<float>& values, float factor) {
    return b_.values_to_host(b_.reciprocals(b_.upload_values(values), factor));
  }
  std::vector<float> gather(const CsrMatrix& p, const std::vector<vid_t>& at, const Offsets& offsets) {
    return b_.values_to_host(b_.gather(b_.upload(p), {b_.upload_ids(at), offsets}));
  }
  std::vector<vid_t> entry_positions(const CsrMatrix& a, const std::vector<vid_t>& rows, const CsrMatrix& s,
                                     const std::vector<vid_t>& columns) {
    return b_.ids_to_host(b_.entry_positions(b_.upload(a), b_.upload_ids(rows), b_.upload(s), b_.upload_ids(columns)));
  }
  CsrMatrix select_rows_by_key(const CsrMatrix& m, const std::vector<vid_t>& keys, const Offsets& key_offsets,
                               const std::vector<vid_t>& rows, const Offsets& row_offsets) {
    return b_.to_host(
        b_.select_rows_by_key(b_.upload(m), {b_.upload_ids(keys), key_offsets}, {b_.upload_ids(rows), row_offsets}));
  }
  CsrMatrix mask_entries(const CsrMatrix& p, const CsrMatrix& mask) {
    return b_.to_host(b_.mask_entries(b_.upload(p), b_.upload(mask)));
  }
  CsrMatrix pad_row_blocks(const CsrMatrix& m, const Offsets& row_offsets, const Offsets& padded_offsets) {
    return b_.to_host(b_.pad_row_blocks(b_.upload(m), row_offsets, padded_offsets));
  }
  std::vector<vid_t> sequence_ids(int64_t n) { return b_.ids_to_host(b_.sequence_ids(n)); }
  std::vector<vid_t> sequence_runs(const std::vector<int64_t>& starts, const Offsets& run_offsets) {
    return b_.ids_to_host(b_.sequence_runs(starts, run_offsets));
  }
  std::vector<vid_t> range_positions(const std::vector<vid_t>& ids, const std::vector<vid_t>& bounds) {
    return b_.ids_to_host(b_.range_positions(b_.upload_ids(ids), bounds));
  }
  std::vector<vid_t> gather_ids(const std::vector<vid_t>& ids, const std::vector<vid_t>& at) {
    return b_.ids_to_host(b_.gather_ids(b_.upload_ids(ids), b_.upload_ids(at)));
  }
  CsrMatrix add_entries(const CsrMatrix& a, const CsrMatrix& c) {
    return b_.to_host(b_.add_entries(b_.upload(a), b_.upload(c)));
  }
  std::vector<vid_t> first_columns(const CsrMatrix& m, const std::vector<vid_t>& fallback) {
    return b_.ids_to_host(b_.first_columns(b_.upload(m), b_.upload_ids(fallback)));
  }

 private:
  Values weights_of(const std::vector<float>& weights) {
    return weights.empty() ? Values{} : b_.upload_values(weights);
  }
  Backend& b_;
};

}  // namespace matsamp::testing
