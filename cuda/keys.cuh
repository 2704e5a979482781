// Element types, the order-preserving integer image of a float, and the
// fixed-point probability mass. Searching on integers makes every
// comparison exact; summing fixed-point mass makes every sum independent of
// the order threads add in, so results are deterministic.
#pragma once

#include "compat.cuh"

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
// kFreeKeyBits: the low key bits that the sign alone sets (a narrow
// type's float has zeros there: its key has zeros when positive, ones
// when negative), so a digit search stops above them (key_with_free_bits).
struct F32 {
  using bits_t = uint32_t;
  static constexpr int kFreeKeyBits = 0;
  static constexpr bits_t kNegInf = 0xff800000u;
  __device__ static float to_float(bits_t b) { return __uint_as_float(b); }
  __device__ static bool is_nan(bits_t b) { return isnan(__uint_as_float(b)); }
};
struct F16 {
  using bits_t = uint16_t;
  static constexpr int kFreeKeyBits = 13;  // 23 - 10 mantissa bits, subnormals included
  static constexpr bits_t kNegInf = 0xfc00u;
  __device__ static float to_float(bits_t b) { return half_bits_to_float(b); }
  __device__ static bool is_nan(bits_t b) { return (b & 0x7fffu) > 0x7c00u; }
};
struct BF16 {
  using bits_t = uint16_t;
  static constexpr int kFreeKeyBits = 16;
  static constexpr bits_t kNegInf = 0xff80u;
  __device__ static float to_float(bits_t b) { return __uint_as_float(uint32_t(b) << 16); }
  __device__ static bool is_nan(bits_t b) { return (b & 0x7fffu) > 0x7f80u; }
};

// Fixed-point probability mass: exp(x - max) in units of 2^-39. Vocab is
// capped at 2^24 (QRITA_MAX_VOCAB), so any sum fits in 63 bits; each term
// is off by at most 2^-40 from its exp, which comes from the hardware exp2
// (one instruction, relative error near 2^-22; expf costs eight more and
// the whole-row top-p search takes one per entry and pass): together far
// inside the 1e-6 top-p contract, and deterministic.
using mass_t = unsigned long long;
constexpr float kMassOne = 549755813888.0f;  // 2^39
constexpr float kLog2E = 1.4426950408889634f;

__device__ __forceinline__ mass_t fixed_mass(float e) { return __float2ull_rn(e * kMassOne); }

struct MassScale {
  float max_value;  // the row's largest keepable value
  bool inf_max;     // +Inf present: +Inf tokens share all the mass

  __device__ mass_t of(float x) const {
    if (inf_max) return x == max_value ? mass_t(kMassOne) : 0ull;
    return fixed_mass(fast_exp2((x - max_value) * kLog2E));
  }
};

// x's entries folded pairwise by op (kCount a power of two): a fixed
// order, so float sums are the same wherever the fold runs.
template <int kCount, class Op>
__device__ __forceinline__ float fold_tree(const float (&x)[kCount], Op op) {
  static_assert((kCount & (kCount - 1)) == 0, "a power of two");
  float v[kCount];
#pragma unroll
  for (int t = 0; t < kCount; ++t) v[t] = x[t];
#pragma unroll
  for (int s = 1; s < kCount; s *= 2) {
#pragma unroll
    for (int t = 0; t + s < kCount; t += 2 * s) v[t] = op(v[t], v[t + s]);
  }
  return v[0];
}

// The share of an entry x below the threshold value thr: its mass relative
// to thr's, at most 1.
__device__ __forceinline__ float rest_share_below(float x, float thr) { return fast_exp2((x - thr) * kLog2E); }

// The rest mass of a chunk of entries (the top-p gather sums it over every
// non-candidate of the row), in MassScale's unit: their shares (0 for an
// entry outside the rest) added in a fixed tree as floats, then rounded
// once. The gather's chunks are the 16-byte vectors at row indices that
// are multiples of the vector (the same at any address, in any part or
// slice: for_each_index_chunk) and single entries past the last; integers
// between chunks, so the sum does not depend on the order. Error: the
// exp2's 2^-22 and the tree's three float adds (3 x 2^-24) relative, plus
// 2^-40 of the threshold's mass a chunk, inside the 1e-6 top-p contract.
// One conversion a chunk where an entry each took one (the conversion and
// the exp2 share the SM's quarter-rate unit: PERFLOG run 122; sums of 4
// entries spilled the fp16 / bf16 gathers more); a variant without the
// conversion was slower (run 31).
template <int kCount>
__device__ __forceinline__ mass_t rest_mass_of(const float (&share)[kCount]) {
  return fixed_mass(fold_tree(share, [](float a, float b) { return a + b; }));
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

// Device code takes these directly or by member only: nvcc 11.8 reads one
// as zeros where a conditional operator pairs it with a prvalue
// (perf/tools/nvcc-constexpr/ternary.cu; runs 158 and 160, PERFLOG
// session 45). Write `Pivot pv = kPivotNone; if (...) pv = ...;` instead.
constexpr Pivot kPivotAll = {kKeyNegInf + 1, kAnyIndex};  // every keepable entry
constexpr Pivot kPivotNone = {~0u, 0u};                    // no entry: no key is ~0 (NaN maps to 0)

// The key whose bits above `free` are prefix's, the rest as the sign sets
// them (kFreeKeyBits): zeros for a positive key, ones for a negative.
__device__ __forceinline__ uint32_t key_with_free_bits(uint32_t prefix, int free) {
  return free == 0 || (prefix & 0x80000000u) ? prefix : prefix | ((1u << free) - 1u);
}

__device__ __forceinline__ bool at_or_above(uint32_t key, uint32_t idx, Pivot p) {
  return key > p.key || (key == p.key && idx <= p.idx);
}

}  // namespace qrita
