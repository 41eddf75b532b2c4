// 16-bit floating-point storage types of the sim kernels: IEEE binary16 (Half) and bfloat16.
//
// Both are plain 16-bit storage; arithmetic happens in float after an explicit conversion.
// float -> 16 bit rounds to nearest, ties to even; NaN stays NaN, overflow becomes infinity.
#ifndef SIM_KERNELS_COMMON_HALF_H_
#define SIM_KERNELS_COMMON_HALF_H_

#include <cstdint>
#include <cstring>

namespace simk {

inline uint32_t float_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

inline float bits_float(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

// binary16 <-> binary32 without F16C, after Maratea's FP16 library (also used by c10::Half).
inline float half_bits_to_float(uint16_t h) {
  const uint32_t w = static_cast<uint32_t>(h) << 16;
  const uint32_t sign = w & 0x80000000u;
  const uint32_t two_w = w + w;
  const uint32_t exp_offset = 0xE0u << 23;
  const float exp_scale = bits_float(0x7800000u);  // 2^-112
  const float normalized = bits_float((two_w >> 4) + exp_offset) * exp_scale;
  const uint32_t magic_mask = 126u << 23;
  const float denormalized = bits_float((two_w >> 17) | magic_mask) - 0.5f;
  const uint32_t denormalized_cutoff = 1u << 27;
  const uint32_t result =
      sign | (two_w < denormalized_cutoff ? float_bits(denormalized) : float_bits(normalized));
  return bits_float(result);
}

inline uint16_t float_to_half_bits(float f) {
  const float scale_to_inf = bits_float(0x77800000u);   // 2^112
  const float scale_to_zero = bits_float(0x08800000u);  // 2^-110
  float abs_f = bits_float(float_bits(f) & 0x7FFFFFFFu);
  float base = (abs_f * scale_to_inf) * scale_to_zero;
  const uint32_t w = float_bits(f);
  const uint32_t shl1_w = w + w;
  const uint32_t sign = w & 0x80000000u;
  uint32_t bias = shl1_w & 0xFF000000u;
  if (bias < 0x71000000u) bias = 0x71000000u;
  base = bits_float((bias >> 1) + 0x07800000u) + base;
  const uint32_t bits = float_bits(base);
  const uint32_t exp_bits = (bits >> 13) & 0x00007C00u;
  const uint32_t mantissa_bits = bits & 0x00000FFFu;
  const uint32_t nonsign = exp_bits + mantissa_bits;
  return static_cast<uint16_t>((sign >> 16) | (shl1_w > 0xFF000000u ? 0x7E00u : nonsign));
}

inline float bf16_bits_to_float(uint16_t b) { return bits_float(static_cast<uint32_t>(b) << 16); }

inline uint16_t float_to_bf16_bits(float f) {
  const uint32_t u = float_bits(f);
  if ((u & 0x7FFFFFFFu) > 0x7F800000u) return 0x7FC0u;  // canonical quiet NaN, as c10
  const uint32_t rounding_bias = 0x7FFFu + ((u >> 16) & 1u);
  return static_cast<uint16_t>((u + rounding_bias) >> 16);
}

struct Half {
  uint16_t bits;
  Half() = default;
  explicit Half(float f) : bits(float_to_half_bits(f)) {}
  explicit operator float() const { return half_bits_to_float(bits); }
};

struct BFloat16 {
  uint16_t bits;
  BFloat16() = default;
  explicit BFloat16(float f) : bits(float_to_bf16_bits(f)) {}
  explicit operator float() const { return bf16_bits_to_float(bits); }
};

static_assert(sizeof(Half) == 2 && sizeof(BFloat16) == 2, "16-bit storage types");

}  // namespace simk

#endif  // SIM_KERNELS_COMMON_HALF_H_
