// Philox4x32-10 against Random123's known answers, and the batched numbers
// (philox_batch.h) against the one-at-a-time ones.
#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <vector>

#include "core/philox.h"
#include "core/philox_batch.h"

namespace matsamp {
namespace {

// Random123's tests/kat_vectors, the three "philox4x32 10" lines: counter, key, output.
TEST(Philox, MatchesRandom123KnownAnswers) {
  struct Case {
    Philox4x32 counter;
    uint64_t key;  // high word: key[1]
    Philox4x32 want;
  };
  const Case cases[] = {
      {{{0, 0, 0, 0}}, 0, {{0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u}}},
      {{{0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu}},
       0xffffffffffffffffull,
       {{0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu}}},
      {{{0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u}},
       0x299f31d0a4093822ull,
       {{0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u}}},
  };
  for (const Case& c : cases) {
    const Philox4x32 got = philox4x32_10(c.counter, c.key);
    for (int w = 0; w < 4; ++w) EXPECT_EQ(got.v[w], c.want.v[w]) << "word " << w << " of key " << c.key;
  }
}

// Every length (the vector path's blocks of 16 and the scalar rest), rows of
// any sign, and keys with high minibatch bits: the same numbers as uniform01(random_bits).
TEST(PhiloxBatch, EqualsOneNumberAtATime) {
  std::mt19937_64 generator(5);
  std::uniform_int_distribution<int32_t> any_row(std::numeric_limits<int32_t>::min(),
                                                 std::numeric_limits<int32_t>::max());
  for (const RandomKey& key : {RandomKey{1, 0, 0, 0, 0}, RandomKey{0xDEADBEEFCAFEull, 7, 3, (uint64_t{5} << 32) + 9, 4},
                               RandomKey{42, 1, 255, 123456, 99}}) {
    for (int64_t count : {0, 1, 15, 16, 17, 33, 1000}) {
      std::vector<int32_t> rows(count);
      for (int32_t& r : rows) r = any_row(generator);
      if (count > 2) rows[0] = 0, rows[1] = -1, rows[2] = std::numeric_limits<int32_t>::max();
      std::vector<double> got(count, -1.0);
      uniform01_of_rows(key, 0xFFFFFFFFu, rows.data(), count, got.data());
      for (int64_t i = 0; i < count; ++i) {
        RandomKey row_key = key;
        row_key.row = static_cast<uint64_t>(static_cast<int64_t>(rows[i]));
        ASSERT_EQ(got[i], uniform01(random_bits(row_key, 0xFFFFFFFFu)))
            << "row " << rows[i] << " at " << i << " of " << count << (philox_batch_uses_avx2() ? " (AVX2)" : "");
      }
    }
  }
}

// A row's consecutive draws: every length around the vector path's blocks of 8,
// from draw 0 and from a draw near the counter's wrap.
TEST(PhiloxBatch, DrawsEqualOneDrawAtATime) {
  for (const RandomKey& key :
       {RandomKey{1, 0, 0, 0, 0}, RandomKey{0xDEADBEEFCAFEull, 7, 3, (uint64_t{5} << 32) + 9, (uint64_t{3} << 32) + 11},
        RandomKey{42, 1, 255, 123456, 99}}) {
    for (uint32_t first : {0u, 17u, 0xFFFFFFF0u}) {
      for (int64_t count : {0, 1, 5, 7, 8, 9, 15, 16, 17, 100}) {
        std::vector<uint64_t> got(count + 1, 0);
        random_bits_of_draws(key, first, count, got.data());
        for (int64_t d = 0; d < count; ++d)
          ASSERT_EQ(got[d], random_bits(key, first + static_cast<uint32_t>(d)))
              << "draw " << first + d << " of " << count << (philox_batch_uses_avx2() ? " (AVX2)" : "");
        EXPECT_EQ(got[count], 0u) << "wrote past " << count;
      }
    }
  }
}

}  // namespace
}  // namespace matsamp
