// IEEE 754 binary16 ("half") conversions, for features stored as float16:
// float to half rounds to nearest, ties to even (as hardware converters do);
// half to float is exact.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>

namespace matsamp {

// Finite floats of at least this magnitude round to infinity as halves.
constexpr float kHalfOverflow = 65520.0f;

inline uint16_t float_to_half(float value) {
  uint32_t x;
  std::memcpy(&x, &value, sizeof x);
  const uint32_t sign = (x >> 16) & 0x8000u, magnitude = x & 0x7FFFFFFFu;
  if (magnitude > 0x7F800000u) return static_cast<uint16_t>(sign | 0x7E00u);   // NaN
  if (magnitude >= 0x477FF000u) return static_cast<uint16_t>(sign | 0x7C00u);  // 65520 and up: infinity
  if (magnitude < 0x38800000u) {  // below 2^-14, the smallest normal half: m · 2^-24
    if (magnitude < 0x33000000u) return static_cast<uint16_t>(sign);  // below 2^-25: zero
    const uint32_t exponent = magnitude >> 23, mantissa = (magnitude & 0x7FFFFFu) | 0x800000u;
    const uint32_t shift = 126 - exponent;  // 14 ... 24
    uint32_t m = mantissa >> shift;
    const uint32_t rest = mantissa & ((1u << shift) - 1), tie = 1u << (shift - 1);
    if (rest > tie || (rest == tie && (m & 1u))) ++m;  // 1024 is the smallest normal: still right
    return static_cast<uint16_t>(sign | m);
  }
  uint32_t h = (magnitude - 0x38000000u) >> 13;  // exponent rebiased 127 -> 15, 10 mantissa bits
  const uint32_t rest = magnitude & 0x1FFFu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;  // a carry moves up the exponent: right
  return static_cast<uint16_t>(sign | h);
}

inline float half_to_float(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16, exponent = (h >> 10) & 0x1Fu, mantissa = h & 0x3FFu;
  if (exponent == 0) {  // zero or subnormal: m · 2^-24
    const float magnitude = std::ldexp(static_cast<float>(mantissa), -24);
    return sign ? -magnitude : magnitude;
  }
  const uint32_t x = sign | (exponent == 0x1Fu ? 0x7F800000u : (exponent + 112) << 23) | (mantissa << 13);
  float value;
  std::memcpy(&value, &x, sizeof value);
  return value;
}

}  // namespace matsamp
