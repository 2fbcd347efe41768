// Philox4x32-10 (Salmon et al., SC'11; the generator of cuRAND and Random123).
// Counter-based: the same (key, counter) gives the same numbers on any backend,
// which is what makes sampling independent of threads, bulk size and processes.
#pragma once
#include <cstdint>

#if defined(__CUDACC__)
#define MATSAMP_HD __host__ __device__ __forceinline__
#else
#define MATSAMP_HD inline
#endif

namespace matsamp {

struct Philox4x32 {
  uint32_t v[4];
};

MATSAMP_HD uint32_t mulhilo32(uint32_t a, uint32_t b, uint32_t* hi) {
  const uint64_t product = static_cast<uint64_t>(a) * b;
  *hi = static_cast<uint32_t>(product >> 32);
  return static_cast<uint32_t>(product);
}

MATSAMP_HD Philox4x32 philox4x32_10(Philox4x32 ctr, uint64_t key64) {
  uint32_t k0 = static_cast<uint32_t>(key64), k1 = static_cast<uint32_t>(key64 >> 32);
  for (int round = 0; round < 10; ++round) {
    uint32_t hi0, hi1;
    const uint32_t lo0 = mulhilo32(0xD2511F53u, ctr.v[0], &hi0);
    const uint32_t lo1 = mulhilo32(0xCD9E8D57u, ctr.v[2], &hi1);
    ctr = Philox4x32{{hi1 ^ ctr.v[1] ^ k0, lo1, hi0 ^ ctr.v[3] ^ k1, lo0}};
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  return ctr;
}

// Where a random number sits in the sampling process. Every draw of the engine
// is named by such a key, never by a position in a stream.
struct RandomKey {
  uint64_t seed = 0;
  uint32_t epoch = 0;
  uint32_t layer = 0;      // or a purpose tag (shuffle, generator)
  uint64_t minibatch = 0;  // global minibatch id
  uint64_t row = 0;        // row within the minibatch
};

// The Philox key and counter of draw number `draw` of the row named by `key`
// (the row enters word 1 and, its high half, word 3).
MATSAMP_HD uint64_t philox_key(const RandomKey& key) {
  return key.seed ^ (static_cast<uint64_t>(key.epoch) * 0x9E3779B97F4A7C15ull);
}
MATSAMP_HD Philox4x32 philox_counter(const RandomKey& key, uint32_t draw) {
  return {
      {draw, static_cast<uint32_t>(key.row), static_cast<uint32_t>(key.minibatch),
       (key.layer << 24) ^ static_cast<uint32_t>(key.row >> 32) ^ (static_cast<uint32_t>(key.minibatch >> 32) << 12)}};
}

// The draw number of LABOR's per-column uniforms (row = the column; no
// its_sample row reaches it), on the host and on the device alike.
inline constexpr uint32_t kLaborDraw = 0xFFFFFFFFu;

// 64 random bits for draw number `draw` of the row named by `key`.
MATSAMP_HD uint64_t random_bits(const RandomKey& key, uint32_t draw) {
  const Philox4x32 out = philox4x32_10(philox_counter(key, draw), philox_key(key));
  return (static_cast<uint64_t>(out.v[0]) << 32) | out.v[1];
}

// A uniform integer in [0, bound) from 64 random bits (multiply-high; bias < bound / 2^64).
MATSAMP_HD uint64_t scale_to(uint64_t bits, uint64_t bound) {
#if defined(__CUDA_ARCH__)
  return __umul64hi(bits, bound);
#else
  return static_cast<uint64_t>((static_cast<unsigned __int128>(bits) * bound) >> 64);
#endif
}

// A double in [0, 1) with 53 random bits.
MATSAMP_HD double uniform01(uint64_t bits) { return static_cast<double>(bits >> 11) * 0x1.0p-53; }

}  // namespace matsamp
