// Temporal sampling: sample_rows over rows whose later entries count as zero.
// A row is read whole (its entries' times decide which may be drawn); the draws
// are RowSampler's over the masked, normalized values, so a row whose entries
// are all early enough gives sample_rows' picks.
#include <algorithm>

#include "ops/its_sample_row.h"
#include "ops/op_checks.h"
#include "ops/ops.h"
#include "util/parallel.h"

namespace matsamp {

namespace {

// The row's values with entries later than `bound` zeroed, divided by the sum
// of the rest (in double, in row order, as normalize_rows divides).
void masked_normalized(const CsrMatrix& a, vid_t row, const int64_t* times, int64_t bound, std::vector<float>& out) {
  const int64_t begin = a.rowptr[row], len = a.rowptr[row + 1] - begin;
  out.resize(len);
  double sum = 0;
  for (int64_t j = 0; j < len; ++j) {
    out[j] = times[begin + j] <= bound ? (a.values.empty() ? 1.0f : a.values[begin + j]) : 0.0f;
    sum += out[j];
  }
  if (sum != 0)
    for (float& v : out) v = static_cast<float>(v / sum);
}

// The positions (in the row) of the min(s, allowed) allowed entries of the
// latest times, later positions first among equal times, in ascending order.
void latest_entries(const std::vector<float>& values, const int64_t* times, int64_t s, std::vector<int64_t>& picked) {
  picked.clear();
  for (int64_t j = 0; j < static_cast<int64_t>(values.size()); ++j)
    if (values[j] > 0) picked.push_back(j);
  const auto later = [times](int64_t x, int64_t y) { return times[x] != times[y] ? times[x] > times[y] : x > y; };
  if (static_cast<int64_t>(picked.size()) > s) {
    std::nth_element(picked.begin(), picked.begin() + s, picked.end(), later);
    picked.resize(s);
  }
  std::sort(picked.begin(), picked.end());
}

}  // namespace

TemporalStrategy parse_temporal_strategy(const std::string& name) {
  if (name == "uniform") return TemporalStrategy::uniform;
  if (name == "last") return TemporalStrategy::last;
  fail("temporal strategy must be 'uniform' or 'last', got '", name, "'");
}

CsrMatrix sample_rows_before(const CsrMatrix& a, const std::vector<vid_t>& rows, int64_t s, const SampleKeys& keys,
                             const std::vector<int64_t>& entry_times, const std::vector<int64_t>& bounds,
                             TemporalStrategy strategy, std::vector<vid_t>* positions) {
  const int64_t m = static_cast<int64_t>(rows.size());
  check_sample_rows(m, s, keys, "sample_rows_before");
  MATSAMP_CHECK(static_cast<int64_t>(entry_times.size()) == a.nnz(), "sample_rows_before: ", entry_times.size(),
                " entry times for ", a.nnz(), " entries");
  MATSAMP_CHECK(bounds.size() + 1 == keys.row_offsets.size(), "sample_rows_before: ", bounds.size(),
                " time bounds for ", keys.row_offsets.size() - 1, " blocks");
  check_row_ids(a, rows, "sample_rows_before");
  // Per row its picks (positions in the row) and their values, then stacked.
  std::vector<std::vector<int64_t>> picks(m);
  std::vector<std::vector<float>> values(m);
#pragma omp parallel
  {
    RowSampler sampler;
    std::vector<float> row;
#pragma omp for schedule(dynamic, row_chunk(m, 256))
    for (int64_t i = 0; i < m; ++i) {
      const int64_t g = std::upper_bound(keys.row_offsets.begin(), keys.row_offsets.end(), i) -
                        keys.row_offsets.begin() - 1;
      const int64_t* times = entry_times.data() + a.rowptr[rows[i]];
      masked_normalized(a, rows[i], entry_times.data(), bounds[g], row);
      if (strategy == TemporalStrategy::last) {
        latest_entries(row, times, s, picks[i]);
      } else {
        sampler.sample(row.data(), static_cast<int64_t>(row.size()), s, row_key(keys, i));
        picks[i] = sampler.picked();
      }
      for (int64_t j : picks[i]) values[i].push_back(row[j]);
    }
  }
  CsrMatrix out(m, a.cols);
  for (int64_t i = 0; i < m; ++i) out.rowptr[i + 1] = out.rowptr[i] + static_cast<int64_t>(picks[i].size());
  out.colidx.resize(out.rowptr.back());
  out.values.resize(out.rowptr.back());
  if (positions) positions->resize(out.rowptr.back());
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < m; ++i)
    for (size_t t = 0; t < picks[i].size(); ++t) {
      const int64_t at = out.rowptr[i] + static_cast<int64_t>(t), e = a.rowptr[rows[i]] + picks[i][t];
      out.colidx[at] = a.colidx[e];
      out.values[at] = values[i][t];
      if (positions) (*positions)[at] = e;
    }
  return out;
}

}  // namespace matsamp
