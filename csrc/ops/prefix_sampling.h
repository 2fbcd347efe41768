// RowSampler (its_sample_row.h) for one row in one thread, host and device,
// over a read-only prefix: the same keys, quantized integer weights,
// upper_bound, redraws on repeats and prefix rebuild after more than s misses,
// hence the same picks. The CUDA backend runs it per row on the device; the CPU
// runs it for a row shared by many (FastGCN), whose prefix is built once; a
// unit test checks it against RowSampler.
//
// The rebuild is not a rewrite of the prefix: the entries picked so far become
// an exclusion list, and a draw searches the prefix with their weights taken
// out. That leaves the prefix read-only, so one prefix can serve many rows
// (FastGCN's shared row) and uniform rows need none at all.
#pragma once
#include <cstdint>
#include <cstring>

#include "core/philox.h"
#include "ops/its_sample_row.h"

namespace matsamp {

// Inclusive prefix of a row's quantized weights, stored. narrow() may shrink the
// range [lo, hi] a search for the first entry above a target looks in, to one
// that still holds it (GuidedPrefix does; these search it whole).
struct StoredPrefix {
  const uint64_t* pre;
  MATSAMP_HD uint64_t at(int64_t i) const { return pre[i]; }
  MATSAMP_HD void narrow(uint64_t, int64_t*, int64_t*) const {}
};

// Every weight is 2^24 (a row of equal positive values).
struct UniformPrefix {
  MATSAMP_HD uint64_t at(int64_t i) const { return static_cast<uint64_t>(i + 1) << 24; }
  MATSAMP_HD void narrow(uint64_t, int64_t*, int64_t*) const {}
};

// The bits of `from` read as a To of the same size, on host and device.
template <class To, class From>
MATSAMP_HD To bit_cast(From from) {
  static_assert(sizeof(To) == sizeof(From), "bit_cast: sizes differ");
  To to;
  memcpy(&to, &from, sizeof to);
  return to;
}

// The exclusion list lives in float slots (the result's values, unused while
// drawing): positions are stored as bit patterns.
MATSAMP_HD float position_as_float(int32_t position) { return bit_cast<float>(position); }
MATSAMP_HD int32_t float_as_position(float f) { return bit_cast<int32_t>(f); }

template <class Prefix>
MATSAMP_HD uint64_t weight_at(const Prefix& p, int64_t i) {
  return p.at(i) - (i > 0 ? p.at(i - 1) : 0);
}

// First i in [lo, hi] with p.at(i) > target (the caller knows one exists).
template <class Prefix>
MATSAMP_HD int64_t first_above(const Prefix& p, int64_t lo, int64_t hi, uint64_t target) {
  p.narrow(target, &lo, &hi);
  int64_t l = lo, h = hi + 1;
  while (l < h) {
    const int64_t mid = l + (h - l) / 2;
    if (p.at(mid) > target) h = mid;
    else l = mid + 1;
  }
  return l;
}

// The entry a draw lands on: upper_bound of target in the prefix rebuilt
// without the m excluded entries (ascending). Between consecutive excluded
// entries the rebuilt prefix is the stored one less the excluded weight before.
template <class Prefix>
MATSAMP_HD int64_t draw_index(const Prefix& p, int64_t len, const float* excluded, int64_t m, uint64_t target) {
  uint64_t removed = 0;
  int64_t start = 0;
  for (int64_t q = 0; q <= m; ++q) {
    const int64_t end = q < m ? float_as_position(excluded[q]) : len;  // segment [start, end)
    if (end > start && p.at(end - 1) - removed > target) return first_above(p, start, end - 1, target + removed);
    if (q < m) {
      removed += weight_at(p, end);
      start = end + 1;
    }
  }
  return len - 1;  // not reached: target < the weight left
}

// Draws s distinct entries of a row of len entries of which more than s have a
// positive weight. picked (s slots) ends sorted ascending; scratch (s slots)
// holds the exclusion list while drawing. first_bits, when given, holds
// random_bits(key, d) for the draws d < s (a caller that computed them in a batch).
template <class Prefix>
MATSAMP_HD void sample_row(const Prefix& p, int64_t len, int64_t s, const RandomKey& key, int32_t* picked,
                           float* scratch, const uint64_t* first_bits = nullptr) {
  const uint64_t total = p.at(len - 1);
  uint64_t excluded_weight = 0;
  int64_t count = 0, excluded = 0, misses = 0;
  uint32_t draw = 0;
  while (count < s) {
    const uint64_t bits = first_bits && draw < s ? first_bits[draw] : random_bits(key, draw);
    ++draw;
    const uint64_t target = scale_to(bits, total - excluded_weight);
    const int32_t i = static_cast<int32_t>(draw_index(p, len, scratch, excluded, target));
    int64_t at = 0, hi = count;  // lower_bound of i among the picks
    while (at < hi) {
      const int64_t mid = at + (hi - at) / 2;
      if (picked[mid] < i) at = mid + 1;
      else hi = mid;
    }
    if (at == count || picked[at] != i) {
      for (int64_t t = count; t > at; --t) picked[t] = picked[t - 1];
      picked[at] = i;
      ++count;
    } else if (++misses > s) {  // the CPU rebuilds its prefix without the picked entries here
      excluded_weight = 0;
      for (int64_t t = 0; t < count; ++t) {
        scratch[t] = position_as_float(picked[t]);
        excluded_weight += weight_at(p, picked[t]);
      }
      excluded = count;
      misses = 0;
    }
  }
}

}  // namespace matsamp
