// Temporal sampling over each row's entries in time order: the entries early
// enough are a prefix of it, found by a binary search, and the draw runs over
// that prefix as its_sample's does (RowSampler; for equal values sample_uniform,
// which picks what sample() would, in O(s)). Picks go out in column order.
#include <algorithm>
#include <utility>

#include "ops/its_sample_row.h"
#include "ops/op_checks.h"
#include "ops/ops.h"
#include "util/parallel.h"

namespace matsamp {

TimeOrder time_order(const CsrMatrix& a, const std::vector<int64_t>& entry_times) {
  MATSAMP_CHECK(static_cast<int64_t>(entry_times.size()) == a.nnz(), "time_order: ", entry_times.size(),
                " entry times for ", a.nnz(), " entries");
  TimeOrder out{std::vector<vid_t>(a.nnz()), std::vector<vid_t>(a.nnz())};
#pragma omp parallel for schedule(dynamic, 1024) num_threads(threads_for(a.nnz()))
  for (int64_t r = 0; r < a.rows; ++r) {
    const auto first = out.order.begin() + a.rowptr[r], last = out.order.begin() + a.rowptr[r + 1];
    for (auto it = first; it != last; ++it) *it = a.rowptr[r] + (it - first);
    std::sort(first, last, [&](vid_t x, vid_t y) {
      return entry_times[x] != entry_times[y] ? entry_times[x] < entry_times[y] : x < y;
    });
    for (auto it = first; it != last; ++it) out.sorted_times[it - out.order.begin()] = entry_times[*it];
  }
  return out;
}

std::vector<int64_t> column_times(const CsrMatrix& a, const std::vector<int64_t>& vertex_times) {
  MATSAMP_CHECK(static_cast<int64_t>(vertex_times.size()) == a.cols, "column_times: ", vertex_times.size(),
                " vertex times for ", a.cols, " columns");
  std::vector<int64_t> times(a.nnz());
#pragma omp parallel for schedule(static) num_threads(threads_for(a.nnz()))
  for (int64_t e = 0; e < a.nnz(); ++e) times[e] = vertex_times[a.colidx[e]];
  return times;
}

TemporalStrategy parse_temporal_strategy(const std::string& name) {
  if (name == "uniform") return TemporalStrategy::uniform;
  if (name == "last") return TemporalStrategy::last;
  fail("temporal strategy must be 'uniform' or 'last', got '", name, "'");
}

namespace {

// Row i's view for sample_rows_before: its entries in time order, the allowed
// prefix's length and sum (normalize_rows' arithmetic, in time order), whether
// its values are equal, and how many of them normalize to a positive value.
struct EarlyRow {
  const vid_t* order = nullptr;
  int64_t allowed = 0, positive = 0;
  double sum = 0;
  bool equal = true;
  const CsrMatrix* a = nullptr;

  double value(int64_t j) const { return a->values.empty() ? 1.0 : static_cast<double>(a->values[order[j]]); }
  float normalized(int64_t j) const {
    return sum == 0 ? static_cast<float>(value(j)) : static_cast<float>(value(j) / sum);
  }
};

// How many of row's entries are no later than bound: a prefix of its time order.
int64_t allowed_entries(const CsrMatrix& a, vid_t row, const std::vector<vid_t>& sorted_times, int64_t bound) {
  const vid_t* sorted = sorted_times.data() + a.rowptr[row];
  return std::upper_bound(sorted, sorted + a.row_nnz(row), bound) - sorted;
}

// Row's view with its first `allowed` entries in time order allowed (allowed_entries').
EarlyRow early_row(const CsrMatrix& a, vid_t row, const std::vector<vid_t>& order, int64_t allowed, bool uniform_rows) {
  EarlyRow r;
  r.a = &a;
  r.order = order.data() + a.rowptr[row];
  r.allowed = allowed;
  if (uniform_rows) {  // equal positive values: the sum of c of them is c·v, exactly (c < 2^29)
    r.sum = r.allowed > 0 ? static_cast<double>(r.allowed) * r.value(0) : 0;
    r.positive = r.allowed;
    return r;
  }
  for (int64_t j = 0; j < r.allowed; ++j) {
    r.sum += r.value(j);
    r.equal &= r.value(j) == r.value(0);
  }
  for (int64_t j = 0; j < r.allowed; ++j) r.positive += r.normalized(j) > 0;
  return r;
}

// Row i's bound: that of its block.
int64_t bound_of_row(const Offsets& offsets, const std::vector<int64_t>& bounds, int64_t i) {
  return bounds[std::upper_bound(offsets.begin(), offsets.end(), i) - offsets.begin() - 1];
}

void check_time_order(const CsrMatrix& a, const std::vector<vid_t>& order, const std::vector<vid_t>& sorted_times,
                      const char* op) {
  MATSAMP_CHECK(static_cast<int64_t>(order.size()) == a.nnz() && sorted_times.size() == order.size(), op,
                ": a time order of ", order.size(), " entries for ", a.nnz(), " entries");
}

}  // namespace

CsrMatrix select_rows_before(const CsrMatrix& a, const std::vector<vid_t>& rows, const Offsets& row_offsets,
                             const std::vector<vid_t>& order, const std::vector<vid_t>& sorted_times,
                             const std::vector<int64_t>& bounds) {
  const int64_t m = static_cast<int64_t>(rows.size());
  check_time_order(a, order, sorted_times, "select_rows_before");
  MATSAMP_CHECK(!row_offsets.empty() && row_offsets.front() == 0 && row_offsets.back() == m,
                "select_rows_before: row blocks end at ", row_offsets.empty() ? 0 : row_offsets.back(), " for ", m,
                " rows");
  MATSAMP_CHECK(bounds.size() + 1 == row_offsets.size(), "select_rows_before: ", bounds.size(), " time bounds for ",
                row_offsets.size() - 1, " blocks");
  check_row_ids(a, rows, "select_rows_before");
  CsrMatrix out(m, a.cols);
#pragma omp parallel for schedule(dynamic, row_chunk(m, 1024)) num_threads(threads_for(m))
  for (int64_t i = 0; i < m; ++i)
    out.rowptr[i + 1] = allowed_entries(a, rows[i], sorted_times, bound_of_row(row_offsets, bounds, i));
  for (int64_t i = 0; i < m; ++i) out.rowptr[i + 1] += out.rowptr[i];
  out.colidx.resize(out.rowptr.back());
  if (!a.values.empty()) out.values.resize(out.rowptr.back());
    // The allowed positions back in a's order: each row's prefix of the time order,
    // sorted when short, else marked and the row scanned (O(d), no sort of a hub's row).
#pragma omp parallel num_threads(threads_for(m + out.nnz()))
  {
    std::vector<vid_t> picked;
    std::vector<char> marked;
#pragma omp for schedule(dynamic, row_chunk(m, 256))
    for (int64_t i = 0; i < m; ++i) {
      const int64_t begin = a.rowptr[rows[i]], len = a.row_nnz(rows[i]), count = out.row_nnz(i);
      const vid_t* first = order.data() + begin;
      picked.clear();
      if (count <= 64) {
        picked.assign(first, first + count);
        std::sort(picked.begin(), picked.end());
      } else {
        marked.assign(len, 0);
        for (int64_t j = 0; j < count; ++j) marked[first[j] - begin] = 1;
        for (int64_t j = 0; j < len; ++j)
          if (marked[j]) picked.push_back(begin + j);
      }
      for (int64_t t = 0; t < count; ++t) {
        out.colidx[out.rowptr[i] + t] = a.colidx[picked[t]];
        if (!a.values.empty()) out.values[out.rowptr[i] + t] = a.values[picked[t]];
      }
    }
  }
  return out;
}

CsrMatrix sample_rows_before(const CsrMatrix& a, const std::vector<vid_t>& rows, int64_t s, const SampleKeys& keys,
                             const std::vector<vid_t>& order, const std::vector<vid_t>& sorted_times,
                             const std::vector<int64_t>& bounds, TemporalStrategy strategy, bool uniform_rows,
                             std::vector<vid_t>* positions) {
  const int64_t m = static_cast<int64_t>(rows.size());
  check_sample_rows(m, s, keys, "sample_rows_before");
  check_time_order(a, order, sorted_times, "sample_rows_before");
  MATSAMP_CHECK(bounds.size() + 1 == keys.row_offsets.size(), "sample_rows_before: ", bounds.size(),
                " time bounds for ", keys.row_offsets.size() - 1, " blocks");
  check_row_ids(a, rows, "sample_rows_before");
  const auto bound_of = [&](int64_t i) { return bound_of_row(keys.row_offsets, bounds, i); };
  // Two passes, as sample_rows: the rows' sizes (min(s, positive allowed)), then the draws in
  // place; the first keeps each row's view (a binary search of its times and, unless its values
  // are uniform, a scan of its allowed ones: too costly to do twice).
  CsrMatrix out(m, a.cols);
  std::vector<EarlyRow> early(m);
#pragma omp parallel for schedule(dynamic, row_chunk(m, 1024)) num_threads(threads_for(m* s))
  for (int64_t i = 0; i < m; ++i) {
    early[i] = early_row(a, rows[i], order, allowed_entries(a, rows[i], sorted_times, bound_of(i)), uniform_rows);
    out.rowptr[i + 1] = std::min(s, early[i].positive);
  }
  for (int64_t i = 0; i < m; ++i) out.rowptr[i + 1] += out.rowptr[i];
  out.colidx.resize(out.rowptr.back());
  out.values.resize(out.rowptr.back());
  if (positions) positions->resize(out.rowptr.back());
#pragma omp parallel num_threads(threads_for(m* s))
  {
    RowSampler sampler;
    std::vector<float> prefix;
    std::vector<std::pair<vid_t, float>> picks;  // position in a, value
#pragma omp for schedule(dynamic, row_chunk(m, 256))
    for (int64_t i = 0; i < m; ++i) {
      const EarlyRow& r = early[i];
      picks.clear();
      if (strategy == TemporalStrategy::last) {
        for (int64_t j = r.allowed - 1; j >= 0 && static_cast<int64_t>(picks.size()) < s; --j)
          if (r.normalized(j) > 0) picks.emplace_back(r.order[j], r.normalized(j));
      } else if (r.equal && r.positive == r.allowed && r.allowed > 0) {
        sampler.sample_uniform(r.allowed, s, row_key(keys, i));
        for (int64_t j : sampler.picked()) picks.emplace_back(r.order[j], r.normalized(j));
      } else if (r.positive > 0) {
        prefix.resize(r.allowed);
        for (int64_t j = 0; j < r.allowed; ++j) prefix[j] = r.normalized(j);
        sampler.sample(prefix.data(), r.allowed, s, row_key(keys, i));
        for (int64_t j : sampler.picked()) picks.emplace_back(r.order[j], prefix[j]);
      }
      std::sort(picks.begin(), picks.end());
      for (size_t t = 0; t < picks.size(); ++t) {
        const int64_t at = out.rowptr[i] + static_cast<int64_t>(t);
        out.colidx[at] = a.colidx[picks[t].first];
        out.values[at] = picks[t].second;
        if (positions) (*positions)[at] = picks[t].first;
      }
    }
  }
  return out;
}

}  // namespace matsamp
