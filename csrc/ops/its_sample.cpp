// Inverse transform sampling of distinct entries per row.
//
// Values are quantized to integers relative to the row maximum, so the prefix
// sums are exact and order-independent: every backend that follows the same
// steps picks bit-identical samples.
#include <algorithm>
#include <cmath>

#include "core/philox.h"
#include "ops/its_sample_row.h"
#include "ops/op_checks.h"
#include "ops/ops.h"

namespace matsamp {

namespace {

// Runs pick(row, key_of(row), sampler) for every row, in parallel over rows,
// one RowSampler per thread.
template <class KeyOf, class Pick>
void for_each_keyed_row(int64_t rows, KeyOf key_of, Pick pick) {
#pragma omp parallel
  {
    RowSampler sampler;
#pragma omp for schedule(dynamic, 256)
    for (int64_t r = 0; r < rows; ++r) pick(r, key_of(r), sampler);
  }
}

template <class Pick>
void for_each_keyed_row(const SampleKeys& keys, Pick pick) {
  for_each_keyed_row(keys.row_offsets.back(), [&](int64_t r) { return row_key(keys, r); }, pick);
}

// The normalized value of each entry of a row of len equal values v > 0:
// float(v / (len·v)), as normalize_rows computes it. Below 2^29 entries len·v is
// exact in double, so the quotient is 1/len correctly rounded whatever v, and
// the row's value need not be read (a cache miss per row saved).
template <class ValueOf>
float uniform_weight(int64_t len, ValueOf value_of) {
  if (len == 0) return 0;
  if (len < (int64_t{1} << 29)) return static_cast<float>(1.0 / static_cast<double>(len));
  const double v = value_of();
  return static_cast<float>(v / (v * static_cast<double>(len)));
}

}  // namespace

RandomKey row_key(const SampleKeys& keys, int64_t r) {
  const Offsets& offsets = keys.row_offsets;
  const int64_t g = std::upper_bound(offsets.begin(), offsets.end(), r) - offsets.begin() - 1;
  return {keys.seed, keys.epoch, keys.layer, static_cast<uint64_t>(keys.first_minibatch + g),
          static_cast<uint64_t>(r - offsets[g])};
}

bool has_uniform_rows(const CsrMatrix& a) {
  if (a.values.empty()) return true;
  bool uniform = true;
#pragma omp parallel for reduction(&& : uniform) schedule(static)
  for (int64_t r = 0; r < a.rows; ++r)
    for (int64_t e = a.rowptr[r]; e < a.rowptr[r + 1]; ++e)
      uniform = uniform && a.values[e] > 0 && a.values[e] == a.values[a.rowptr[r]];
  return uniform;
}

namespace {

// sample_rows with row i drawn under key_of(i); the callers check s and the keys.
template <class KeyOf>
CsrMatrix sample_rows_keyed(const CsrMatrix& a, const std::vector<vid_t>& rows, int64_t s, KeyOf key_of,
                            bool uniform_rows) {
  const int64_t m = static_cast<int64_t>(rows.size());
  for (vid_t v : rows)
    MATSAMP_CHECK(v >= 0 && v < a.rows, "sample_rows: row id ", v, " out of range for ", a.shape());
  const bool pattern = a.values.empty();
  auto value = [&](int64_t e) { return pattern ? 1.0f : a.values[e]; };

  // Row i of normalize_rows(select_rows(a, rows)), with normalize_rows'
  // arithmetic (a double sum in row order, then float(v / sum)); returns how
  // many of its values are positive (tiny weights may underflow to 0).
  auto normalized_row = [&](int64_t i, std::vector<float>& out_values) {
    const int64_t begin = a.rowptr[rows[i]], len = a.row_nnz(rows[i]);
    double sum = 0;
    for (int64_t e = begin; e < begin + len; ++e) sum += value(e);
    out_values.resize(len);
    int64_t positive = 0;
    for (int64_t j = 0; j < len; ++j) {
      out_values[j] = sum == 0 ? value(begin + j) : static_cast<float>(value(begin + j) / sum);
      positive += out_values[j] > 0;
    }
    return positive;
  };

  CsrMatrix out(m, a.cols);
#pragma omp parallel
  {
    std::vector<float> scratch;
#pragma omp for schedule(dynamic, 1024)
    for (int64_t i = 0; i < m; ++i)
      out.rowptr[i + 1] = std::min(s, uniform_rows ? a.row_nnz(rows[i]) : normalized_row(i, scratch));
  }
  for (int64_t i = 0; i < m; ++i) out.rowptr[i + 1] += out.rowptr[i];
  out.colidx.resize(out.rowptr.back());
  out.values.resize(out.rowptr.back());

  for_each_keyed_row(m, key_of, [&](int64_t i, const RandomKey& key, RowSampler& sampler) {
    const int64_t begin = a.rowptr[rows[i]], len = a.row_nnz(rows[i]);
    thread_local std::vector<float> normalized;
    int64_t chosen;
    if (uniform_rows) {
      chosen = sampler.sample_uniform(len, s, key);
      normalized.assign(1, uniform_weight(len, [&] { return value(begin); }));
    } else {
      normalized_row(i, normalized);
      chosen = sampler.sample(normalized.data(), len, s, key);
    }
    for (int64_t j = 0; j < chosen; ++j) {
      const int64_t e = begin + sampler.picked()[j];
      out.colidx[out.rowptr[i] + j] = a.colidx[e];
      out.values[out.rowptr[i] + j] = normalized[uniform_rows ? 0 : sampler.picked()[j]];
    }
  });
  return out;
}

}  // namespace

CsrMatrix sample_rows(const CsrMatrix& a, const std::vector<vid_t>& rows, int64_t s,
                      const SampleKeys& keys, bool uniform_rows) {
  check_sample_keys(keys, s, "sample_rows");
  MATSAMP_CHECK(static_cast<int64_t>(rows.size()) == keys.row_offsets.back(), "sample_rows: ", rows.size(),
                " rows selected but the keys name ", keys.row_offsets.back());
  return sample_rows_keyed(a, rows, s, [&](int64_t r) { return row_key(keys, r); }, uniform_rows);
}

CsrMatrix sample_rows(const CsrMatrix& a, const std::vector<vid_t>& rows, int64_t s,
                      const std::vector<RandomKey>& keys, bool uniform_rows) {
  MATSAMP_CHECK(s > 0, "sample_rows: sample count must be positive, got ", s);
  MATSAMP_CHECK(rows.size() == keys.size(), "sample_rows: ", rows.size(), " rows selected but ", keys.size(),
                " keys given");
  return sample_rows_keyed(a, rows, s, [&](int64_t r) { return keys[r]; }, uniform_rows);
}

CsrMatrix its_sample(const CsrMatrix& p, int64_t s, const SampleKeys& keys) {
  check_sample_keys(keys, s, "its_sample");
  MATSAMP_CHECK(p.values.size() == p.colidx.size(), "its_sample: P (", p.shape(),
                ") has no values; normalize it first");
  const Offsets& offsets = keys.row_offsets;
  const int64_t rows = offsets.back();
  const bool shared_row = p.rows == 1 && rows != 1;
  MATSAMP_CHECK(shared_row || p.rows == rows, "its_sample: P is ", p.shape(), " but the keys name ",
                rows, " rows");

  // Pass 1: the sample size of every row; pass 2 samples into place.
  CsrMatrix out(rows, p.cols);
  auto source_row = [&](int64_t r) { return shared_row ? 0 : r; };
#pragma omp parallel for schedule(dynamic, 1024)
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t src = source_row(r);
    int64_t positive = 0;
    for (int64_t e = p.rowptr[src]; e < p.rowptr[src + 1]; ++e) positive += p.values[e] > 0;
    out.rowptr[r + 1] = std::min(s, positive);
  }
  for (int64_t r = 0; r < rows; ++r) out.rowptr[r + 1] += out.rowptr[r];
  out.colidx.resize(out.rowptr.back());
  out.values.resize(out.rowptr.back());

  for_each_keyed_row(keys, [&](int64_t r, const RandomKey& key, RowSampler& sampler) {
    const int64_t src = source_row(r);
    const int64_t begin = p.rowptr[src], len = p.rowptr[src + 1] - begin;
    const int64_t chosen = sampler.sample(p.values.data() + begin, len, s, key);
    for (int64_t i = 0; i < chosen; ++i) {
      const int64_t e = begin + sampler.picked()[i];
      out.colidx[out.rowptr[r] + i] = p.colidx[e];
      out.values[out.rowptr[r] + i] = p.values[e];
    }
  });
  return out;
}

}  // namespace matsamp
