// Inverse transform sampling of distinct entries per row.
//
// Values are quantized to integers relative to the row maximum, so the prefix
// sums are exact and order-independent: every backend that follows the same
// steps picks bit-identical samples.
#include <algorithm>
#include <cmath>

#include "core/philox.h"
#include "core/philox_batch.h"
#include "ops/its_sample_row.h"
#include "ops/op_checks.h"
#include "ops/ops.h"
#include "ops/prefetch.h"
#include "ops/prefix_sampling.h"
#include "util/parallel.h"

namespace matsamp {

namespace {

// Runs pick(row, its key, sampler) for every keyed row, in parallel over rows
// (threads_for(work)), one RowSampler per thread.
template <class Pick>
void for_each_keyed_row(const SampleKeys& keys, int64_t work, Pick pick) {
  const int64_t rows = keys.row_offsets.back();
#pragma omp parallel num_threads(threads_for(work))
  {
    RowSampler sampler;
#pragma omp for schedule(dynamic, row_chunk(rows, 256))
    for (int64_t r = 0; r < rows; ++r) pick(r, row_key(keys, r), sampler);
  }
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

// Rows sampled together, their picks' column ids gathered together (sample_rows_keyed).
constexpr int64_t kRowGroup = 16;

// The inclusive prefix of a row's quantized weights (relative to its maximum),
// as RowSampler builds it: what a read-only prefix draws from (prefix_sampling.h).
void quantized_prefix(const float* values, int64_t len, uint64_t* prefix) {
  float row_max = 0;
  for (int64_t j = 0; j < len; ++j) row_max = std::max(row_max, values[j]);
  uint64_t running = 0;
  for (int64_t j = 0; j < len; ++j) prefix[j] = running += quantized_weight(values[j], row_max);
}

// A row's guide (DrawTables): bucket j covers the targets [j, j + 1) << shift,
// about one bucket per kEntriesPerBucket entries; rows shorter than
// kGuidedLength are searched whole.
constexpr int64_t kGuidedLength = 32, kEntriesPerBucket = 4;

int guide_shift(int64_t len, uint64_t total) {
  const uint64_t units = std::max<uint64_t>(1, total / static_cast<uint64_t>(len / kEntriesPerBucket));
  return 63 - __builtin_clzll(units);
}

int64_t guide_length(int64_t len, uint64_t total) {
  if (len < kGuidedLength || total == 0) return 0;
  return static_cast<int64_t>((total - 1) >> guide_shift(len, total)) + 2;
}

// guide[j]: the first entry whose prefix exceeds j << shift (the last entry if
// none does). The first entry above a target t lies in [guide[j], guide[j + 1]]
// for j = t >> shift: its prefix exceeds t >= j << shift, and guide[j + 1]'s
// exceeds (j + 1) << shift > t.
void build_guide(const uint64_t* prefix, int64_t len, int32_t* guide, int64_t buckets) {
  const int shift = guide_shift(len, prefix[len - 1]);
  int64_t i = 0;
  for (int64_t j = 0; j < buckets; ++j) {
    const uint64_t start = static_cast<uint64_t>(j) << shift;
    while (i < len - 1 && prefix[i] <= start) ++i;
    guide[j] = static_cast<int32_t>(i);
  }
}

// Narrows [lo, hi] to the first entry above target by counting through it
// without branches when it spans at most kCountedEntries (the prefix ascends:
// the answer follows the entries at or below target), which leaves the search
// one predictable step; a longer range is left to the search.
constexpr int64_t kCountedEntries = 32;

inline void count_to_first_above(const uint64_t* pre, uint64_t target, int64_t* lo, int64_t* hi) {
  if (*hi - *lo > kCountedEntries) return;
  int64_t first = *lo;
  for (int64_t i = *lo; i < *hi; ++i) first += pre[i] <= target;
  *lo = *hi = first;
}

// A short row's stored prefix, counted through.
struct CountedPrefix {
  const uint64_t* pre;
  uint64_t at(int64_t i) const { return pre[i]; }
  void narrow(uint64_t target, int64_t* lo, int64_t* hi) const { count_to_first_above(pre, target, lo, hi); }
};

// A stored prefix with its row's guide: a draw's bucket, then counted through.
struct GuidedPrefix {
  const uint64_t* pre;
  const int32_t* guide;
  int shift;
  uint64_t at(int64_t i) const { return pre[i]; }
  void narrow(uint64_t target, int64_t* lo, int64_t* hi) const {
    const uint64_t j = target >> shift;
    *lo = std::max<int64_t>(*lo, guide[j]);
    *hi = std::min<int64_t>(*hi, guide[j + 1]);
    count_to_first_above(pre, target, lo, hi);
  }
};

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
#pragma omp parallel for reduction(&& : uniform) schedule(static) num_threads(threads_for(a.nnz()))
  for (int64_t r = 0; r < a.rows; ++r)
    for (int64_t e = a.rowptr[r]; e < a.rowptr[r + 1]; ++e)
      uniform = uniform && a.values[e] > 0 && a.values[e] == a.values[a.rowptr[r]];
  return uniform;
}

namespace {

// The rows sample_rows_keyed draws from: rows `rows` of a, row i without the
// entries its row of `mask` holds (when it holds any).
class SelectedRows {
 public:
  SelectedRows(const CsrMatrix& a, const std::vector<vid_t>& rows, const CsrMatrix* mask,
               const DrawTables* tables = nullptr)
      : a(a), rows(rows), tables(tables), mask_(mask), pattern_(a.values.empty()) {}

  int64_t count() const { return static_cast<int64_t>(rows.size()); }
  bool masked() const { return mask_ != nullptr; }
  bool masked_row(int64_t i) const { return mask_ && mask_->row_nnz(i) > 0; }
  float value(int64_t e) const { return pattern_ ? 1.0f : a.values[e]; }
  int64_t begin(int64_t i) const { return a.rowptr[rows[i]]; }
  // The positions (within the row) of row i's entries that its mask keeps, in
  // `kept`; null when row i is not masked (all its entries are kept).
  const std::vector<int64_t>* kept_positions(int64_t i, std::vector<int64_t>& kept) const {
    if (!masked_row(i)) return nullptr;
    const int64_t len = a.row_nnz(rows[i]);
    const auto mask_begin = mask_->colidx.begin() + mask_->rowptr[i],
               mask_end = mask_->colidx.begin() + mask_->rowptr[i + 1];
    kept.clear();
    for (int64_t j = 0; j < len; ++j)
      if (!std::binary_search(mask_begin, mask_end, a.colidx[begin(i) + j])) kept.push_back(j);
    return &kept;
  }
  int64_t length(int64_t i, const std::vector<int64_t>* kept) const {
    return kept ? static_cast<int64_t>(kept->size()) : a.row_nnz(rows[i]);
  }
  // Row i of normalize_rows(select_rows(a, rows)) (its kept entries when
  // masked), with normalize_rows' arithmetic (a double sum in row order, then
  // float(v / sum)); returns how many of its values are positive (tiny weights
  // may underflow to 0).
  int64_t normalized_row(int64_t i, const std::vector<int64_t>* kept, std::vector<float>& out_values) const {
    const int64_t first = begin(i), len = length(i, kept);
    auto entry = [&](int64_t j) { return value(first + (kept ? (*kept)[j] : j)); };
    double sum = 0;
    for (int64_t j = 0; j < len; ++j) sum += entry(j);
    out_values.resize(len);
    int64_t positive = 0;
    for (int64_t j = 0; j < len; ++j) {
      out_values[j] = sum == 0 ? entry(j) : static_cast<float>(entry(j) / sum);
      positive += out_values[j] > 0;
    }
    return positive;
  }

  const CsrMatrix& a;
  const std::vector<vid_t>& rows;
  const DrawTables* tables;  // a's, or null: weighted rows normalized per draw

 private:
  const CsrMatrix* mask_;
  bool pattern_;
};

// The result's shape: min(s, the row's entries that can be drawn) per row.
CsrMatrix sized_for_picks(const SelectedRows& view, int64_t s, bool uniform_rows) {
  const int64_t m = view.count();
  CsrMatrix out(m, view.a.cols);
#pragma omp parallel num_threads(threads_for(m* s))
  {
    std::vector<float> scratch;
    std::vector<int64_t> kept;
#pragma omp for schedule(dynamic, row_chunk(m, 1024))
    for (int64_t i = 0; i < m; ++i) {
      prefetch_row_pointer_ahead(view.a, view.rows.data(), m, i);
      const std::vector<int64_t>* row_kept = view.kept_positions(i, kept);
      const int64_t len = view.length(i, row_kept);
      const int64_t drawable = uniform_rows               ? len
                               : view.tables && !row_kept ? view.tables->positive[view.rows[i]]
                                                          : view.normalized_row(i, row_kept, scratch);
      out.rowptr[i + 1] = std::min(s, drawable);
    }
  }
  for (int64_t i = 0; i < m; ++i) out.rowptr[i + 1] += out.rowptr[i];
  out.colidx.resize(out.rowptr.back());
  out.values.resize(out.rowptr.back());
  return out;
}

// Scratch of one thread drawing rows.
struct DrawScratch {
  RowSampler sampler;
  std::vector<float> normalized;
  std::vector<int64_t> kept;
  std::vector<int32_t> picked;    // a drawn row's picks (prefix_sampling.h)
  std::vector<float> exclusions;  // its exclusion list while drawing
  // warm_guided_rows': the group's random bits of the first draws, where each
  // row has its own (-1: none), and the guided rows' prefixes with their draws' buckets.
  std::vector<uint64_t> bits;
  std::vector<int64_t> bits_at;
  std::vector<const uint64_t*> bucketed;
  std::vector<const int32_t*> buckets;
};

// Whether row r of the tables' matrix has a guide (32 entries or more).
bool has_guide(const DrawTables& tables, vid_t r) { return tables.guide_begin[r] != tables.guide_begin[r + 1]; }

// A row whose quantized weights are all equal (2^24 each) gets the same picks
// from the unweighted draw, which needs no search of the prefix.
bool equal_weights(const DrawTables& tables, vid_t row, int64_t begin, int64_t len) {
  return len > 0 && tables.positive[row] == len && tables.prefix[begin + len - 1] == static_cast<uint64_t>(len) << 24;
}

// A weighted row drawn from a's draw tables: what RowSampler::sample picks on
// the row of normalize_rows(a), read from the kept prefix. Returns the picks'
// count; their positions in t.picked.
int64_t draw_from_tables(const DrawTables& tables, int64_t row, int64_t begin, int64_t len, int64_t positive, int64_t s,
                         const RandomKey& key, const uint64_t* first_bits, DrawScratch& t) {
  t.picked.clear();
  if (positive <= s) {  // every positive entry, no randomness
    for (int64_t j = 0; j < len; ++j)
      if (tables.normalized[begin + j] > 0) t.picked.push_back(static_cast<int32_t>(j));
    return positive;
  }
  t.picked.resize(s);
  t.exclusions.resize(s);
  const uint64_t* prefix = tables.prefix.data() + begin;
  const int64_t guide = tables.guide_begin[row];
  if (!has_guide(tables, row)) {
    sample_row(CountedPrefix{prefix}, len, s, key, t.picked.data(), t.exclusions.data(), first_bits);
    return s;
  }
  sample_row(GuidedPrefix{prefix, tables.guide.data() + guide, guide_shift(len, prefix[len - 1])}, len, s, key,
             t.picked.data(), t.exclusions.data(), first_bits);
  return s;
}

// Before a group of weighted rows is drawn from its tables: the lines their
// first s draws read (no exclusion comes before s + 1 draws, so they search the
// whole row's weight), fetched in three waves over the group — each row's last
// prefix entry (its total), the guide buckets the draws land in (a short row:
// its prefix), the prefix entries those name — so the group waits for memory
// three times instead of twice a draw.
template <class KeyOf>
void warm_guided_rows(const SelectedRows& view, int64_t s, const KeyOf& key_of, int64_t first, int64_t last,
                      DrawScratch& t) {
  const DrawTables& tables = *view.tables;
  for (int64_t i = first; i < last; ++i) {
    const vid_t r = view.rows[i];
    __builtin_prefetch(tables.prefix.data() + view.a.rowptr[r + 1] - 1);
    __builtin_prefetch(tables.guide_begin.data() + r);
    __builtin_prefetch(tables.positive.data() + r);
  }
  t.bits.clear();
  t.bits_at.assign(last - first, -1);
  t.bucketed.clear();
  t.buckets.clear();
  for (int64_t i = first; i < last; ++i) {
    const vid_t r = view.rows[i];
    const int64_t begin = view.a.rowptr[r], len = view.a.row_nnz(r);
    if (tables.positive[r] <= s || equal_weights(tables, r, begin, len)) continue;  // no search
    const int64_t at = static_cast<int64_t>(t.bits.size());                         // the draws' bits, kept for drawing
    t.bits_at[i - first] = at;
    t.bits.resize(at + s);
    random_bits_of_draws(key_of(i), 0, s, t.bits.data() + at);
    if (!has_guide(tables, r)) {  // a short row: its few prefix lines whole
      for (int64_t e = 0; e < len; e += 8) __builtin_prefetch(tables.prefix.data() + begin + e);
      continue;
    }
    const uint64_t total = tables.prefix[begin + len - 1];
    const int shift = guide_shift(len, total);
    const int32_t* guide = tables.guide.data() + tables.guide_begin[r];
    t.bucketed.push_back(tables.prefix.data() + begin);
    for (int64_t d = 0; d < s; ++d) {
      t.buckets.push_back(guide + (scale_to(t.bits[at + d], total) >> shift));
      __builtin_prefetch(t.buckets.back());
    }
  }
  size_t at = 0;
  for (const uint64_t* prefix : t.bucketed)
    for (int64_t d = 0; d < s; ++d, ++at) {  // the bucket's entries may straddle two lines
      __builtin_prefetch(prefix + t.buckets[at][0]);
      __builtin_prefetch(prefix + t.buckets[at][1]);
    }
}

// Rows [first, last) drawn into `out`: every row's picks first (their positions
// parked in the output, their lines prefetched), then the column ids gathered,
// so the gathers of a group overlap instead of stalling one after another.
template <class KeyOf>
void draw_row_group(const SelectedRows& view, int64_t s, const KeyOf& key_of, bool uniform_rows, int64_t first,
                    int64_t last, DrawScratch& t, CsrMatrix& out, std::vector<vid_t>* positions) {
  const CsrMatrix& a = view.a;
  // A row is drawn from the tables unless the graph's rows are uniform or its mask changes it.
  const auto from_tables = [&](int64_t i) { return !uniform_rows && view.tables && !view.masked_row(i); };
  const bool warmed = !uniform_rows && view.tables && !view.masked();
  if (warmed) warm_guided_rows(view, s, key_of, first, last, t);
  for (int64_t i = first; i < last; ++i) {
    prefetch_row_pointer_ahead(a, view.rows.data(), view.count(), i);
    const std::vector<int64_t>* row_kept = view.kept_positions(i, t.kept);
    const int64_t begin = view.begin(i), len = view.length(i, row_kept);
    if (from_tables(i)) {
      const int64_t positive = view.tables->positive[view.rows[i]];
      const bool equal = equal_weights(*view.tables, view.rows[i], begin, len);
      const int64_t chosen =
          equal ? t.sampler.sample_uniform(len, s, key_of(i))
                : draw_from_tables(*view.tables, view.rows[i], begin, len, positive, s, key_of(i),
                                   warmed && t.bits_at[i - first] >= 0 ? t.bits.data() + t.bits_at[i - first] : nullptr,
                                   t);
      for (int64_t j = 0; j < chosen; ++j) {  // values read with the column ids, below
        const int64_t position = equal ? t.sampler.picked()[j] : t.picked[j];
        __builtin_prefetch(a.colidx.data() + begin + position);
        __builtin_prefetch(view.tables->normalized.data() + begin + position);
        out.colidx[out.rowptr[i] + j] = static_cast<col_t>(position);
      }
      continue;
    }
    int64_t chosen;
    if (uniform_rows) {
      chosen = t.sampler.sample_uniform(len, s, key_of(i));
      t.normalized.assign(1, uniform_weight(len, [&] { return view.value(begin); }));
    } else {
      view.normalized_row(i, row_kept, t.normalized);
      chosen = t.sampler.sample(t.normalized.data(), len, s, key_of(i));
    }
    for (int64_t j = 0; j < chosen; ++j) {
      const int64_t picked = t.sampler.picked()[j];
      const int64_t position = row_kept ? t.kept[picked] : picked;  // within the row of a
      __builtin_prefetch(a.colidx.data() + begin + position);
      out.colidx[out.rowptr[i] + j] = static_cast<col_t>(position);
      out.values[out.rowptr[i] + j] = t.normalized[uniform_rows ? 0 : picked];
    }
  }
  for (int64_t i = first; i < last; ++i) {
    const int64_t begin = view.begin(i);
    const col_t* row = a.colidx.data() + begin;
    if (from_tables(i))
      for (int64_t e = out.rowptr[i]; e < out.rowptr[i + 1]; ++e)
        out.values[e] = view.tables->normalized[begin + out.colidx[e]];
    for (int64_t e = out.rowptr[i]; e < out.rowptr[i + 1]; ++e) {
      if (positions) (*positions)[e] = begin + out.colidx[e];
      out.colidx[e] = row[out.colidx[e]];
    }
  }
}

// sample_rows with row i drawn under key_of(i); the callers check s and the keys.
// With a mask (row i of it masks row rows[i] of a: mask_entries), a masked row
// is sampled as the row of its kept entries, in order: the result is that of
// sample_rows over mask_entries(select_rows(a, rows), mask), never formed.
template <class KeyOf>
CsrMatrix sample_rows_keyed(const CsrMatrix& a, const std::vector<vid_t>& rows, int64_t s, KeyOf key_of,
                            bool uniform_rows, const CsrMatrix* mask = nullptr, std::vector<vid_t>* positions = nullptr,
                            const DrawTables* tables = nullptr) {
  check_row_ids(a, rows, "sample_rows");
  MATSAMP_CHECK(!tables || static_cast<int64_t>(tables->positive.size()) == a.rows, "sample_rows: draw tables of ",
                tables ? tables->positive.size() : 0, " rows for ", a.shape());
  const SelectedRows view(a, rows, mask, tables);
  CsrMatrix out = sized_for_picks(view, s, uniform_rows);
  if (positions) positions->assign(out.nnz(), 0);
  const int64_t m = view.count(), groups = (m + kRowGroup - 1) / kRowGroup;
#pragma omp parallel num_threads(threads_for(m* s))
  {
    DrawScratch scratch;
#pragma omp for schedule(dynamic, row_chunk(groups, 16))
    for (int64_t group = 0; group < groups; ++group)
      draw_row_group(view, s, key_of, uniform_rows, group * kRowGroup, std::min(m, (group + 1) * kRowGroup), scratch,
                     out, positions);
  }
  return out;
}

}  // namespace

CsrMatrix sample_rows(const CsrMatrix& a, const std::vector<vid_t>& rows, int64_t s, const SampleKeys& keys,
                      bool uniform_rows, std::vector<vid_t>* positions, const DrawTables* tables) {
  check_sample_rows(static_cast<int64_t>(rows.size()), s, keys);
  return sample_rows_keyed(
      a, rows, s, [&](int64_t r) { return row_key(keys, r); }, uniform_rows, nullptr, positions, tables);
}

CsrMatrix sample_rows_with_replacement(const CsrMatrix& a, const std::vector<vid_t>& rows, int64_t s,
                                       const SampleKeys& keys, bool uniform_rows, std::vector<vid_t>* positions) {
  const int64_t m = static_cast<int64_t>(rows.size());
  check_sample_rows(m, s, keys, "sample_rows_with_replacement");
  check_row_ids(a, rows, "sample_rows_with_replacement");
  const SelectedRows view(a, rows, nullptr);
  CsrMatrix out(m, a.cols);
#pragma omp parallel num_threads(threads_for(m* s))
  {
    std::vector<float> row;
#pragma omp for schedule(dynamic, row_chunk(m, 1024))
    for (int64_t i = 0; i < m; ++i) {
      const bool drawn = uniform_rows ? a.row_nnz(rows[i]) > 0 : view.normalized_row(i, nullptr, row) > 0;
      out.rowptr[i + 1] = drawn ? s : 0;
    }
  }
  for (int64_t i = 0; i < m; ++i) out.rowptr[i + 1] += out.rowptr[i];
  out.colidx.resize(out.rowptr.back());
  out.values.resize(out.rowptr.back());
  if (positions) positions->resize(out.rowptr.back());
#pragma omp parallel num_threads(threads_for(m* s))
  {
    std::vector<float> row;
    std::vector<uint64_t> prefix;
    std::vector<int64_t> picks(s);
#pragma omp for schedule(dynamic, row_chunk(m, 256))
    for (int64_t i = 0; i < m; ++i) {
      if (out.row_nnz(i) == 0) continue;
      const RandomKey key = row_key(keys, i);
      const int64_t first = view.begin(i), len = a.row_nnz(rows[i]);
      float uniform = 0;  // every entry's normalized value in a uniform row
      if (uniform_rows) {
        uniform = uniform_weight(len, [&] { return view.value(first); });
        const uint64_t total = UniformPrefix{}.at(len - 1);
        for (int64_t t = 0; t < s; ++t)
          picks[t] = static_cast<int64_t>(scale_to(random_bits(key, static_cast<uint32_t>(t)), total) >> 24);
      } else {
        view.normalized_row(i, nullptr, row);
        prefix.resize(len);
        quantized_prefix(row.data(), len, prefix.data());
        for (int64_t t = 0; t < s; ++t)
          picks[t] = first_above(StoredPrefix{prefix.data()}, 0, len - 1,
                                 scale_to(random_bits(key, static_cast<uint32_t>(t)), prefix[len - 1]));
      }
      std::sort(picks.begin(), picks.end());
      for (int64_t t = 0; t < s; ++t) {
        const int64_t at = out.rowptr[i] + t;
        out.colidx[at] = a.colidx[first + picks[t]];
        out.values[at] = uniform_rows ? uniform : row[picks[t]];
        if (positions) (*positions)[at] = first + picks[t];
      }
    }
  }
  return out;
}

DrawTables draw_tables(const CsrMatrix& a) {
  DrawTables t{std::vector<float>(a.nnz()), std::vector<uint64_t>(a.nnz()), std::vector<int64_t>(a.rows), {}, {}};
  const std::vector<vid_t> every_row = sequence_ids(a.rows);
  const SelectedRows view(a, every_row, nullptr);
#pragma omp parallel num_threads(threads_for(a.nnz()))
  {
    std::vector<float> row;
#pragma omp for schedule(dynamic, 1024)
    for (int64_t r = 0; r < a.rows; ++r) {
      t.positive[r] = view.normalized_row(r, nullptr, row);  // what a draw without tables reads
      std::copy(row.begin(), row.end(), t.normalized.begin() + a.rowptr[r]);
      quantized_prefix(row.data(), a.row_nnz(r), t.prefix.data() + a.rowptr[r]);
    }
  }
  t.guide_begin.assign(a.rows + 1, 0);
  for (int64_t r = 0; r < a.rows; ++r) {
    const int64_t len = a.row_nnz(r);
    t.guide_begin[r + 1] = t.guide_begin[r] + (len > 0 ? guide_length(len, t.prefix[a.rowptr[r + 1] - 1]) : 0);
  }
  t.guide.resize(t.guide_begin.back());
#pragma omp parallel for schedule(dynamic, 1024) num_threads(threads_for(a.nnz()))
  for (int64_t r = 0; r < a.rows; ++r)
    if (const int64_t buckets = t.guide_begin[r + 1] - t.guide_begin[r]; buckets > 0)
      build_guide(t.prefix.data() + a.rowptr[r], a.row_nnz(r), t.guide.data() + t.guide_begin[r], buckets);
  return t;
}

CsrMatrix sample_rows_masked(const CsrMatrix& a, const std::vector<vid_t>& rows, int64_t s, const SampleKeys& keys,
                             bool uniform_rows, const CsrMatrix& mask, std::vector<vid_t>* positions) {
  check_sample_rows(static_cast<int64_t>(rows.size()), s, keys);
  MATSAMP_CHECK(mask.rows == static_cast<int64_t>(rows.size()) && mask.cols == a.cols,
                "sample_rows_masked: the mask is ", mask.rows, " x ", mask.cols, " for ", rows.size(), " rows of ",
                a.cols, " columns");
  return sample_rows_keyed(
      a, rows, s, [&](int64_t r) { return row_key(keys, r); }, uniform_rows, &mask, positions);
}

CsrMatrix sample_rows(const CsrMatrix& a, const std::vector<vid_t>& rows, int64_t s, const std::vector<RandomKey>& keys,
                      bool uniform_rows) {
  MATSAMP_CHECK(s > 0, "sample_rows: sample count must be positive, got ", s);
  MATSAMP_CHECK(rows.size() == keys.size(), "sample_rows: ", rows.size(), " rows selected but ", keys.size(),
                " keys given");
  return sample_rows_keyed(
      a, rows, s, [&](int64_t r) { return keys[r]; }, uniform_rows);
}

namespace {

// its_sample of one row of P for every keyed row (FastGCN: one distribution for
// all minibatches). The row's prefix is built once and only read: the draws
// follow prefix_sampling.h, which picks what RowSampler would for each row,
// without RowSampler's O(len) work per row.
CsrMatrix its_sample_shared_row(const CsrMatrix& p, int64_t s, const SampleKeys& keys) {
  const int64_t rows = keys.row_offsets.back();
  const int64_t begin = p.rowptr[0], len = p.rowptr[1] - begin;
  const float* values = p.values.data() + begin;
  const int64_t positive = std::count_if(values, values + len, [](float v) { return v > 0; });
  const int64_t chosen = std::min(s, positive);
  CsrMatrix out(rows, p.cols);
  for (int64_t r = 0; r < rows; ++r) out.rowptr[r + 1] = (r + 1) * chosen;
  out.colidx.resize(out.rowptr.back());
  out.values.resize(out.rowptr.back());
  auto write = [&](int64_t r, int64_t i, int64_t position) {
    out.colidx[r * chosen + i] = p.colidx[begin + position];
    out.values[r * chosen + i] = values[position];
  };

  if (positive <= s) {  // every row takes every positive entry
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t j = 0, i = 0; j < len; ++j)
        if (values[j] > 0) write(r, i++, j);
    return out;
  }
  std::vector<uint64_t> prefix(len);
  quantized_prefix(values, len, prefix.data());
#pragma omp parallel num_threads(threads_for(rows* s))
  {
    std::vector<int32_t> picked(s);
    std::vector<float> exclusions(s);
#pragma omp for schedule(dynamic, row_chunk(rows, 64))
    for (int64_t r = 0; r < rows; ++r) {
      sample_row(StoredPrefix{prefix.data()}, len, s, row_key(keys, r), picked.data(), exclusions.data());
      for (int64_t i = 0; i < s; ++i) write(r, i, picked[i]);
    }
  }
  return out;
}

}  // namespace

CsrMatrix its_sample(const CsrMatrix& p, int64_t s, const SampleKeys& keys) {
  check_its_sample(p, s, keys);
  const int64_t rows = keys.row_offsets.back();
  if (p.rows == 1 && rows != 1) return its_sample_shared_row(p, s, keys);

  // Pass 1: the sample size of every row; pass 2 samples into place.
  CsrMatrix out(rows, p.cols);
#pragma omp parallel for schedule(dynamic, row_chunk(rows, 1024)) num_threads(threads_for(p.nnz()))
  for (int64_t r = 0; r < rows; ++r) {
    int64_t positive = 0;
    for (int64_t e = p.rowptr[r]; e < p.rowptr[r + 1]; ++e) positive += p.values[e] > 0;
    out.rowptr[r + 1] = std::min(s, positive);
  }
  for (int64_t r = 0; r < rows; ++r) out.rowptr[r + 1] += out.rowptr[r];
  out.colidx.resize(out.rowptr.back());
  out.values.resize(out.rowptr.back());

  for_each_keyed_row(keys, p.nnz() + rows * s, [&](int64_t r, const RandomKey& key, RowSampler& sampler) {
    const int64_t begin = p.rowptr[r], len = p.rowptr[r + 1] - begin;
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
