// float16 conversions (core/half.h): every half survives the round trip through
// float, and floats round to the nearest half, ties to even.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "core/half.h"

namespace matsamp {
namespace {

TEST(Half, EveryHalfSurvivesTheRoundTripThroughFloat) {
  for (uint32_t bits = 0; bits < 65536; ++bits) {
    const uint16_t h = static_cast<uint16_t>(bits);
    const float f = half_to_float(h);
    if (std::isnan(f)) {
      EXPECT_TRUE((h & 0x7C00u) == 0x7C00u && (h & 0x3FFu) != 0) << bits;
      continue;
    }
    ASSERT_EQ(float_to_half(f), h) << bits << " = " << f;
  }
  EXPECT_EQ(half_to_float(0x3C00u), 1.0f);
  EXPECT_EQ(half_to_float(0x7BFFu), 65504.0f);
  EXPECT_EQ(half_to_float(0x0001u), std::ldexp(1.0f, -24));  // the smallest subnormal
  EXPECT_EQ(half_to_float(0xC000u), -2.0f);
}

// Against the definition: no other half of the same sign is nearer, and a tie
// goes to the even one. Random bit patterns cover normals and subnormals.
TEST(Half, FloatsRoundToTheNearestHalfTiesToEven) {
  std::mt19937 random(7);
  int checked = 0;
  for (int i = 0; i < 300000; ++i) {
    const uint32_t bits = random();
    float f;
    std::memcpy(&f, &bits, sizeof f);
    if (!std::isfinite(f) || std::fabs(f) >= kHalfOverflow) continue;
    const uint16_t h = float_to_half(f);
    const double error = std::fabs(static_cast<double>(half_to_float(h)) - f);
    for (int step : {-1, 1}) {
      const uint16_t other = static_cast<uint16_t>(h + step);
      if ((other ^ h) & 0x8000u || (other & 0x7C00u) == 0x7C00u) continue;  // another sign, or infinity
      const double other_error = std::fabs(static_cast<double>(half_to_float(other)) - f);
      ASSERT_TRUE(error < other_error || (error == other_error && (h & 1u) == 0)) << f;
    }
    ++checked;
  }
  EXPECT_GT(checked, 100000);
  EXPECT_EQ(float_to_half(65519.99f), 0x7BFFu);  // still 65504
  EXPECT_EQ(float_to_half(kHalfOverflow), 0x7C00u);
  EXPECT_EQ(float_to_half(std::ldexp(1.0f, -25)), 0u);  // a tie between 0 and the smallest subnormal
  EXPECT_EQ(float_to_half(std::ldexp(3.0f, -25)), 2u);  // a tie between 1 and 2: the even one
}

}  // namespace
}  // namespace matsamp
