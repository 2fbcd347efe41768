// Temporal sampling over each row's entries in time order: the entries early
// enough are a prefix of it, found by a binary search, and the draw runs over
// that prefix as its_sample's does (RowSampler; for equal values sample_uniform,
// which picks what sample() would, in O(s)). Picks go out in column order.
#include <algorithm>
#include <utility>

#include "ops/build_rows.h"
#include "ops/its_sample_row.h"
#include "ops/op_checks.h"
#include "ops/ops.h"

namespace matsamp {

TimeOrder time_order(const CsrMatrix& a, const std::vector<int64_t>& entry_times) {
  MATSAMP_CHECK(static_cast<int64_t>(entry_times.size()) == a.nnz(), "time_order: ", entry_times.size(),
                " entry times for ", a.nnz(), " entries");
  TimeOrder out{std::vector<vid_t>(a.nnz()), std::vector<vid_t>(a.nnz())};
#pragma omp parallel for schedule(dynamic, 1024)
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

TemporalStrategy parse_temporal_strategy(const std::string& name) {
  if (name == "uniform") return TemporalStrategy::uniform;
  if (name == "last") return TemporalStrategy::last;
  fail("temporal strategy must be 'uniform' or 'last', got '", name, "'");
}

CsrMatrix sample_rows_before(const CsrMatrix& a, const std::vector<vid_t>& rows, int64_t s, const SampleKeys& keys,
                             const std::vector<vid_t>& order, const std::vector<vid_t>& sorted_times,
                             const std::vector<int64_t>& bounds, TemporalStrategy strategy,
                             std::vector<vid_t>* positions) {
  const int64_t m = static_cast<int64_t>(rows.size());
  check_sample_rows(m, s, keys, "sample_rows_before");
  MATSAMP_CHECK(static_cast<int64_t>(order.size()) == a.nnz() && sorted_times.size() == order.size(),
                "sample_rows_before: a time order of ", order.size(), " entries for ", a.nnz(), " entries");
  MATSAMP_CHECK(bounds.size() + 1 == keys.row_offsets.size(), "sample_rows_before: ", bounds.size(),
                " time bounds for ", keys.row_offsets.size() - 1, " blocks");
  check_row_ids(a, rows, "sample_rows_before");
  const Offsets& offsets = keys.row_offsets;
  const bool pattern = a.values.empty();
  return build_rows_once(
      m, a.cols, 256,
      [&] {
        return [&, sampler = RowSampler(), prefix = std::vector<float>(),
                picks = std::vector<std::pair<vid_t, float>>()](int64_t i, auto&& emit) mutable {
          const int64_t g = std::upper_bound(offsets.begin(), offsets.end(), i) - offsets.begin() - 1;
          const int64_t begin = a.rowptr[rows[i]];
          const vid_t* in_order = order.data() + begin;
          const vid_t* sorted = sorted_times.data() + begin;
          const int64_t c = std::upper_bound(sorted, sorted + (a.rowptr[rows[i] + 1] - begin), bounds[g]) - sorted;
          const auto value = [&](int64_t j) { return pattern ? 1.0 : static_cast<double>(a.values[in_order[j]]); };
          double sum = pattern ? static_cast<double>(c) : 0;  // normalize_rows' arithmetic, in time order
          bool equal = true;
          for (int64_t j = 0; j < c && !pattern; ++j) {
            sum += value(j);
            equal &= value(j) == value(0);
          }
          const auto normalized = [&](int64_t j) { return static_cast<float>(value(j) / sum); };
          picks.clear();
          if (strategy == TemporalStrategy::last) {
            for (int64_t j = c - 1; j >= 0 && static_cast<int64_t>(picks.size()) < s; --j)
              if (value(j) > 0) picks.emplace_back(in_order[j], normalized(j));
          } else if (c > 0 && equal && value(0) > 0) {
            sampler.sample_uniform(c, s, row_key(keys, i));
            for (int64_t j : sampler.picked()) picks.emplace_back(in_order[j], normalized(j));
          } else if (c > 0) {
            prefix.resize(c);
            for (int64_t j = 0; j < c; ++j) prefix[j] = sum > 0 ? normalized(j) : 0.0f;
            sampler.sample(prefix.data(), c, s, row_key(keys, i));
            for (int64_t j : sampler.picked()) picks.emplace_back(in_order[j], prefix[j]);
          }
          std::sort(picks.begin(), picks.end());
          for (const auto& [e, v] : picks) emit(a.colidx[e], v, e);
        };
      },
      positions);
}

}  // namespace matsamp
