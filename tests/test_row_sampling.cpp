// The per-row sampler over a read-only prefix (ops/prefix_sampling.h), which the
// CUDA backend runs per row and the CPU for FastGCN's shared row, must pick
// exactly what RowSampler picks, rebuilds included.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "ops/its_sample_row.h"
#include "ops/prefix_sampling.h"

namespace matsamp {
namespace {

// The GPU sampler's picks for a row of values, or all positives when few.
std::vector<int64_t> gpu_picks(const std::vector<float>& values, int64_t s, const RandomKey& key) {
  float row_max = 0;
  int64_t positive = 0;
  for (float v : values) {
    row_max = std::max(row_max, v);
    positive += v > 0;
  }
  std::vector<int64_t> out;
  if (positive <= s) {
    for (size_t j = 0; j < values.size(); ++j)
      if (values[j] > 0) out.push_back(static_cast<int64_t>(j));
    return out;
  }
  std::vector<uint64_t> prefix(values.size());
  uint64_t running = 0;
  for (size_t j = 0; j < values.size(); ++j) prefix[j] = running += quantized_weight(values[j], row_max);
  std::vector<int32_t> picked(s);
  std::vector<float> scratch(s);
  sample_row(StoredPrefix{prefix.data()}, static_cast<int64_t>(values.size()), s, key, picked.data(), scratch.data());
  return {picked.begin(), picked.end()};
}

// The weights every prefix is built from: ceil(value / row_max · 2^24), exactly.
TEST(QuantizedWeight, IsTheExactCeiling) {
  const auto reference = [](float value, float row_max) -> uint64_t {
    return value > 0 ? static_cast<uint64_t>(std::ceil(static_cast<double>(value) / row_max * 16777216.0)) : 0;
  };
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  std::uniform_int_distribution<int> exponent(-60, 60);
  for (int i = 0; i < 200000; ++i) {
    const float row_max = std::ldexp(0.5f + unit(rng), exponent(rng));
    const float value = row_max * unit(rng);
    ASSERT_EQ(quantized_weight(value, row_max), reference(value, row_max)) << value << " / " << row_max;
  }
  // Exact multiples of 2^-24 of the maximum, tiny values, the maximum itself, non-positives.
  for (float row_max : {1.0f, 3.0f, 1e-30f, 7e30f}) {
    for (float fraction : {1.0f, 0.5f, 0.25f, 0x1p-24f, 0x1p-25f, 1e-20f, 0.3f})
      EXPECT_EQ(quantized_weight(row_max * fraction, row_max), reference(row_max * fraction, row_max))
          << fraction << " of " << row_max;
    EXPECT_EQ(quantized_weight(row_max, row_max), uint64_t{1} << 24);
  }
  EXPECT_EQ(quantized_weight(0.0f, 1.0f), 0u);
  EXPECT_EQ(quantized_weight(-2.0f, 1.0f), 0u);
  EXPECT_EQ(quantized_weight(std::nanf(""), 1.0f), 0u);
}

TEST(PrefixSampler, PicksWhatRowSamplerPicks) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  RowSampler cpu;
  int checked = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const int64_t len = 1 + static_cast<int64_t>(rng() % 300);
    std::vector<float> values(len);
    const int kind = trial % 4;  // uniform-ish, random, with zeros, one dominant entry
    for (int64_t j = 0; j < len; ++j) {
      values[j] = kind == 0 ? 1.0f : 0.01f + unit(rng);
      if (kind == 2 && unit(rng) < 0.3f) values[j] = 0;
      if (kind == 3) values[j] = 1e-6f;
    }
    if (kind == 3) values[rng() % len] = 1.0f;
    const int64_t s = 1 + static_cast<int64_t>(rng() % (len + 5));
    const RandomKey key{rng(), static_cast<uint32_t>(trial), 1, 3, static_cast<uint64_t>(trial)};
    const int64_t chosen = cpu.sample(values.data(), len, s, key);
    const std::vector<int64_t> want(cpu.picked().begin(), cpu.picked().begin() + chosen);
    ASSERT_EQ(gpu_picks(values, s, key), want) << "trial " << trial << " len " << len << " s " << s;
    ++checked;
  }
  EXPECT_EQ(checked, 400);
}

TEST(PrefixSampler, UniformPrefixPicksWhatSampleUniformPicks) {
  RowSampler cpu;
  for (int64_t len : {2, 3, 16, 17, 40, 1000})
    for (int64_t s : {1, 2, 5, 15, 16, 39}) {
      if (len <= s) continue;
      for (uint64_t seed = 1; seed <= 20; ++seed) {
        const RandomKey key{seed, 2, 0, 9, static_cast<uint64_t>(len)};
        cpu.sample_uniform(len, s, key);
        std::vector<int32_t> picked(s);
        std::vector<float> scratch(s);
        sample_row(UniformPrefix{}, len, s, key, picked.data(), scratch.data());
        ASSERT_EQ(std::vector<int64_t>(picked.begin(), picked.end()), cpu.picked())
            << "len " << len << " s " << s << " seed " << seed;
      }
    }
}

}  // namespace
}  // namespace matsamp
