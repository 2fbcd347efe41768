#include "core/philox_batch.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define MATSAMP_PHILOX_AVX2 1
#include <immintrin.h>
#endif

namespace matsamp {

namespace {

void scalar_uniforms(const RandomKey& key, uint32_t draw, const int32_t* rows, int64_t count, double* out) {
  RandomKey row_key = key;
  for (int64_t i = 0; i < count; ++i) {
    row_key.row = static_cast<uint64_t>(static_cast<int64_t>(rows[i]));
    out[i] = uniform01(random_bits(row_key, draw));
  }
}

#ifdef MATSAMP_PHILOX_AVX2
// One Philox round on eight counters: the 32x32 -> 64 bit products of even and
// odd lanes come from two _mm256_mul_epu32 each, then are split into hi and lo.
__attribute__((target("avx2"))) inline void avx2_round(__m256i& v0, __m256i& v1, __m256i& v2, __m256i& v3, __m256i k0,
                                                       __m256i k1) {
  const __m256i m0 = _mm256_set1_epi32(static_cast<int>(0xD2511F53u));
  const __m256i m1 = _mm256_set1_epi32(static_cast<int>(0xCD9E8D57u));
  const __m256i even0 = _mm256_mul_epu32(v0, m0), odd0 = _mm256_mul_epu32(_mm256_srli_epi64(v0, 32), m0);
  const __m256i even1 = _mm256_mul_epu32(v2, m1), odd1 = _mm256_mul_epu32(_mm256_srli_epi64(v2, 32), m1);
  const __m256i lo0 = _mm256_blend_epi32(even0, _mm256_slli_epi64(odd0, 32), 0xAA);
  const __m256i hi0 = _mm256_blend_epi32(_mm256_srli_epi64(even0, 32), odd0, 0xAA);
  const __m256i lo1 = _mm256_blend_epi32(even1, _mm256_slli_epi64(odd1, 32), 0xAA);
  const __m256i hi1 = _mm256_blend_epi32(_mm256_srli_epi64(even1, 32), odd1, 0xAA);
  v0 = _mm256_xor_si256(_mm256_xor_si256(hi1, v1), k0);
  v2 = _mm256_xor_si256(_mm256_xor_si256(hi0, v3), k1);
  v1 = lo1;
  v3 = lo0;
}

// Sixteen counters per step (two independent sets of eight hide the multiplies'
// latency); the rest by the scalar path.
__attribute__((target("avx2"))) void avx2_uniforms(const RandomKey& key, uint32_t draw, const int32_t* rows,
                                                   int64_t count, double* out) {
  const uint64_t mixed_key = philox_key(key);
  // random_bits' counter of row 0; a row r then sets word 1 to r and flips word 3
  // by r >> 32 (all ones for a negative 32-bit r).
  RandomKey row_zero = key;
  row_zero.row = 0;
  const Philox4x32 counter = philox_counter(row_zero, draw);
  const __m256i word0 = _mm256_set1_epi32(static_cast<int>(counter.v[0]));
  const __m256i word2 = _mm256_set1_epi32(static_cast<int>(counter.v[2]));
  const __m256i word3 = _mm256_set1_epi32(static_cast<int>(counter.v[3]));
  int64_t i = 0;
  for (; i + 16 <= count; i += 16) {
    const __m256i rows_a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(rows + i));
    const __m256i rows_b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(rows + i + 8));
    __m256i a0 = word0, a1 = rows_a, a2 = word2, a3 = _mm256_xor_si256(word3, _mm256_srai_epi32(rows_a, 31));
    __m256i b0 = word0, b1 = rows_b, b2 = word2, b3 = _mm256_xor_si256(word3, _mm256_srai_epi32(rows_b, 31));
    uint32_t k0 = static_cast<uint32_t>(mixed_key), k1 = static_cast<uint32_t>(mixed_key >> 32);
    for (int round = 0; round < 10; ++round) {
      const __m256i key0 = _mm256_set1_epi32(static_cast<int>(k0)), key1 = _mm256_set1_epi32(static_cast<int>(k1));
      avx2_round(a0, a1, a2, a3, key0, key1);
      avx2_round(b0, b1, b2, b3, key0, key1);
      k0 += 0x9E3779B9u;
      k1 += 0xBB67AE85u;
    }
    alignas(32) uint32_t high[16], low[16];
    _mm256_store_si256(reinterpret_cast<__m256i*>(high), a0);
    _mm256_store_si256(reinterpret_cast<__m256i*>(high + 8), b0);
    _mm256_store_si256(reinterpret_cast<__m256i*>(low), a1);
    _mm256_store_si256(reinterpret_cast<__m256i*>(low + 8), b1);
    for (int j = 0; j < 16; ++j) out[i + j] = uniform01((static_cast<uint64_t>(high[j]) << 32) | low[j]);
  }
  scalar_uniforms(key, draw, rows + i, count - i, out + i);
}

// Eight draws per step (word 0 of the counter is the draw); the last step's
// lanes past count are computed and dropped.
__attribute__((target("avx2"))) void avx2_draws(const RandomKey& key, uint32_t first_draw, int64_t count,
                                                uint64_t* out) {
  const uint64_t mixed_key = philox_key(key);
  const Philox4x32 counter = philox_counter(key, first_draw);
  const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  const __m256i word1 = _mm256_set1_epi32(static_cast<int>(counter.v[1]));
  const __m256i word2 = _mm256_set1_epi32(static_cast<int>(counter.v[2]));
  const __m256i word3 = _mm256_set1_epi32(static_cast<int>(counter.v[3]));
  for (int64_t i = 0; i < count; i += 8) {
    __m256i v0 = _mm256_add_epi32(_mm256_set1_epi32(static_cast<int>(first_draw + static_cast<uint32_t>(i))), lanes);
    __m256i v1 = word1, v2 = word2, v3 = word3;
    uint32_t k0 = static_cast<uint32_t>(mixed_key), k1 = static_cast<uint32_t>(mixed_key >> 32);
    for (int round = 0; round < 10; ++round) {
      avx2_round(v0, v1, v2, v3, _mm256_set1_epi32(static_cast<int>(k0)), _mm256_set1_epi32(static_cast<int>(k1)));
      k0 += 0x9E3779B9u;
      k1 += 0xBB67AE85u;
    }
    alignas(32) uint32_t high[8], low[8];
    _mm256_store_si256(reinterpret_cast<__m256i*>(high), v0);
    _mm256_store_si256(reinterpret_cast<__m256i*>(low), v1);
    for (int64_t j = 0; j < 8 && i + j < count; ++j) out[i + j] = (static_cast<uint64_t>(high[j]) << 32) | low[j];
  }
}
#endif

}  // namespace

bool philox_batch_uses_avx2() {
#ifdef MATSAMP_PHILOX_AVX2
  static const bool avx2 = __builtin_cpu_supports("avx2");
  return avx2;
#else
  return false;
#endif
}

void uniform01_of_rows(const RandomKey& key, uint32_t draw, const int32_t* rows, int64_t count, double* out) {
#ifdef MATSAMP_PHILOX_AVX2
  if (philox_batch_uses_avx2()) return avx2_uniforms(key, draw, rows, count, out);
#endif
  scalar_uniforms(key, draw, rows, count, out);
}

void random_bits_of_draws(const RandomKey& key, uint32_t first_draw, int64_t count, uint64_t* out) {
#ifdef MATSAMP_PHILOX_AVX2
  if (philox_batch_uses_avx2()) return avx2_draws(key, first_draw, count, out);
#endif
  for (int64_t d = 0; d < count; ++d) out[d] = random_bits(key, first_draw + static_cast<uint32_t>(d));
}

}  // namespace matsamp
