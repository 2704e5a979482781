// Element types, the order-preserving integer image of a float, and the
// fixed-point probability mass. Searching on integers makes every
// comparison exact; summing fixed-point mass makes every sum independent of
// the order threads add in, so results are deterministic.
#pragma once

#include "compat.cuh"

#ifndef QRITA_REST_MASS_SPLIT
#define QRITA_REST_MASS_SPLIT 0
#endif

namespace qrita {

// key_of(x): unsigned order equals float order; +0 and -0 share a key;
// NaN maps to 0, below everything.
__device__ __forceinline__ uint32_t key_of(float x) {
  if (x != x) return 0u;
  uint32_t b = __float_as_uint(x == 0.0f ? 0.0f : x);
  return (b & 0x80000000u) ? ~b : (b | 0x80000000u);
}

__device__ __forceinline__ float float_of_key(uint32_t k) {
  uint32_t b = (k & 0x80000000u) ? (k & 0x7fffffffu) : ~k;
  return __uint_as_float(b);
}

constexpr uint32_t kKeyNegInf = 0x007fffffu;  // key_of(-Inf)
constexpr uint32_t kKeyPosInf = 0xff800000u;  // key_of(+Inf)

// Entries with a key above -Inf's can be kept (not NaN, not -Inf).
__device__ __forceinline__ bool keepable(uint32_t key) { return key > kKeyNegInf; }

// Element types: raw bits in, float out. Kept entries are written back
// from their raw bits, so -0 stays -0.
struct F32 {
  using bits_t = uint32_t;
  static constexpr bits_t kNegInf = 0xff800000u;
  __device__ static float to_float(bits_t b) { return __uint_as_float(b); }
  __device__ static bool is_nan(bits_t b) { return isnan(__uint_as_float(b)); }
};
struct F16 {
  using bits_t = uint16_t;
  static constexpr bits_t kNegInf = 0xfc00u;
  __device__ static float to_float(bits_t b) { return half_bits_to_float(b); }
  __device__ static bool is_nan(bits_t b) { return (b & 0x7fffu) > 0x7c00u; }
};
struct BF16 {
  using bits_t = uint16_t;
  static constexpr bits_t kNegInf = 0xff80u;
  __device__ static float to_float(bits_t b) { return __uint_as_float(uint32_t(b) << 16); }
  __device__ static bool is_nan(bits_t b) { return (b & 0x7fffu) > 0x7f80u; }
};

// Fixed-point probability mass: exp(x - max) in units of 2^-39. Vocab is
// capped at 2^24 (QRITA_MAX_VOCAB), so any sum fits in 63 bits; each term
// is off by at most 2^-40, far inside the 1e-6 top-p contract.
using mass_t = unsigned long long;
constexpr float kMassOne = 549755813888.0f;  // 2^39

struct MassScale {
  float max_value;  // the row's largest keepable value
  bool inf_max;     // +Inf present: +Inf tokens share all the mass

  __device__ mass_t of(float x) const {
    if (inf_max) return x == max_value ? mass_t(kMassOne) : 0ull;
    return static_cast<mass_t>(__float2ull_rn(expf(x - max_value) * kMassOne));
  }
};

// The mass of an entry below the threshold value thr relative to thr's
// own, in the fixed-point unit of MassScale (2^-39: an entry of relative
// mass 2^-40 or less vanishes, at most 2^-22 of the threshold's mass over
// a row of 2^18 entries). The top-p gather sums it over every
// non-candidate of the row, so it takes the hardware exp2 (one
// instruction; expf costs eight more). Integers, so the sum does not
// depend on the order.
constexpr float kLog2E = 1.4426950408889634f;
__device__ __forceinline__ mass_t rest_mass_below(float x, float thr) {
  const float e = fast_exp2((x - thr) * kLog2E);  // in [0, 1] for x < thr
#if QRITA_REST_MASS_SPLIT
  // Experiment: no float-to-integer conversion (the conversion unit is the
  // exp2's): e * 2^16 rounded by a float add (spacing 1 in [2^23, 2^24)),
  // and the exact remainder rounded to 2^-23 the same way.
  const float s = e * 65536.0f;
  const float hi_f = s + 8388608.0f;
  const float r = s - (hi_f - 8388608.0f);
  const float lo_f = fmaf(r, 8388608.0f, 12582912.0f);
  const uint32_t hi = __float_as_uint(hi_f) - 0x4b000000u;
  const int32_t lo = static_cast<int32_t>(__float_as_uint(lo_f) - 0x4b400000u);
  return (mass_t(hi) << 23) + static_cast<mass_t>(static_cast<long long>(lo));
#else
  return __float2ull_rn(e * kMassOne);
#endif
}

// Bits of a key, and the index above every real one (a pivot with it keeps
// every entry of its key).
constexpr int kKeyBits = 32;
constexpr uint32_t kAnyIndex = ~0u;

// Pivot in rank order: an entry is at or above the pivot when its key is
// greater, or equal with an index no greater.
struct Pivot {
  uint32_t key;
  uint32_t idx;
};

constexpr Pivot kPivotAll = {kKeyNegInf + 1, kAnyIndex};  // every keepable entry
constexpr Pivot kPivotNone = {~0u, 0u};                    // no entry: no key is ~0 (NaN maps to 0)

__device__ __forceinline__ bool at_or_above(uint32_t key, uint32_t idx, Pivot p) {
  return key > p.key || (key == p.key && idx <= p.idx);
}

}  // namespace qrita
