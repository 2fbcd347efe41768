#include <algorithm>
#include <numeric>
#include <utility>

#include "ops/op_checks.h"
#include "ops/ops.h"

namespace matsamp {

RowRequests request_rows(const std::vector<vid_t>& rows, int64_t n, const SampleKeys& keys,
                         const std::vector<vid_t>& bounds) {
  const int64_t m = static_cast<int64_t>(rows.size());
  MATSAMP_CHECK(m == keys.row_offsets.back(), "request_rows: ", m, " rows but the keys name ", keys.row_offsets.back());
  MATSAMP_CHECK(!bounds.empty() && std::is_sorted(bounds.begin(), bounds.end()),
                "request_rows: the owners' bounds must ascend");
  check_ids_below(rows, n, "request_rows", "row id", std::to_string(n) + " rows");
  const vid_t lo = bounds.front(), hi = bounds.back();
  // The rows in range as (vertex - lo, position among them), sorted by vertex by
  // an LSD radix sort: stable, so ties stay in row order.
  std::vector<std::pair<uint64_t, int64_t>> keyed, scratch;
  std::vector<int64_t> in_range;  // rows in range, in row order
  for (int64_t r = 0; r < m; ++r)
    if (rows[r] >= lo && rows[r] < hi) {
      keyed.emplace_back(static_cast<uint64_t>(rows[r] - lo), static_cast<int64_t>(in_range.size()));
      in_range.push_back(r);
    }
  constexpr int kDigitBits = 11;
  constexpr uint64_t kDigit = (1 << kDigitBits) - 1;
  const uint64_t largest = hi > lo ? static_cast<uint64_t>(hi - lo - 1) : 0;
  scratch.resize(keyed.size());
  for (int shift = 0; shift < 64 && (largest >> shift) > 0; shift += kDigitBits) {
    std::vector<int64_t> start(kDigit + 2, 0);
    for (const auto& k : keyed) ++start[((k.first >> shift) & kDigit) + 1];
    std::partial_sum(start.begin(), start.end(), start.begin());
    for (const auto& k : keyed) scratch[start[(k.first >> shift) & kDigit]++] = k;
    keyed.swap(scratch);
  }
  RowRequests out;
  out.back.resize(in_range.size());
  out.words.reserve(2 * in_range.size());
  out.counts.assign(bounds.size() - 1, 0);
  size_t q = 0;
  for (size_t i = 0; i < keyed.size(); ++i) {
    const int64_t r = in_range[keyed[i].second];
    const RandomKey key = row_key(keys, r);
    MATSAMP_CHECK(key.row >> 32 == 0, "request_rows: row ", key.row, " of a minibatch does not fit a request");
    out.words.push_back(request_word_minibatch(key.minibatch));
    out.words.push_back(request_word_row(key.row, rows[r]));
    out.back[keyed[i].second] = static_cast<vid_t>(i);
    while (rows[r] >= bounds[q + 1]) ++q;
    ++out.counts[q];
  }
  return out;
}

CsrMatrix sample_requested_rows(const CsrMatrix& block, const std::vector<int64_t>& words, vid_t first_row, int64_t s,
                                const RandomKey& base, RowDraw draw, bool uniform_rows) {
  MATSAMP_CHECK(words.size() % 2 == 0, "sample_requested_rows: ", words.size(), " words are not whole requests");
  const size_t count = words.size() / 2;
  std::vector<vid_t> local(count);
  std::vector<RandomKey> keys(count, base);
  for (size_t i = 0; i < count; ++i) {
    const vid_t v = requested_vertex(words[2 * i + 1]);
    MATSAMP_CHECK(v >= first_row && v < first_row + block.rows, "distributed product: row ", v,
                  " was asked of the block [", first_row, ", ", first_row + block.rows, ")");
    local[i] = v - first_row;
    keys[i].minibatch = static_cast<uint64_t>(words[2 * i]);
    keys[i].row = requested_row(words[2 * i + 1]);
  }
  return draw == RowDraw::labor ? labor_sample_rows(block, local, s, keys, uniform_rows)
                                : sample_rows(block, local, s, keys, uniform_rows);
}

}  // namespace matsamp
