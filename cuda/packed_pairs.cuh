// The largest and smallest keepable entries a gather sees. For fp16 and
// bf16 they are kept as pairs of 2-byte entries, one 32-bit word each:
// sm_80's paired min and max take one instruction for two entries, and a
// 16-byte vector (8 entries) whose entries are all keepable is folded in
// ~20 instructions where entry by entry costs ~55. Split rows' parts gain
// (joint B=64 -4 %); whole rows lost 2 % and keep the floats (PERFLOG runs
// 79-80), as do fp32, HIP and GPUs before sm_80 (FloatExtremes).
#pragma once

#include <type_traits>

#include "keys.cuh"

namespace qrita {

// A chunk's range: its largest entry (NaN ignored) and, when every entry
// is keepable (no NaN, no -Inf), its smallest. The top-p gather takes a
// whole-keepable chunk's count and extremes from it and tests its entries
// only against the threshold, where entry by entry each kept a keepable
// and a candidate flag across the rest-mass chain (PERFLOG run 121).
struct ChunkRange {
  float hi;
  float lo;        // when keepable
  bool keepable;
};

// Entry by entry, as floats.
struct FloatExtremes {
  float max_x = -INFINITY, min_x = INFINITY;
  template <class Bits>
  __device__ __forceinline__ void add(float x, Bits) {
    max_x = fmaxf(max_x, x);
    min_x = fminf(min_x, x);
  }
  __device__ float max_value() const { return max_x; }
  __device__ float min_value() const { return min_x; }
};

template <class E>
struct PackedPairs {
  static constexpr bool kOn = false;
};

#if !QRITA_HIP && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
// min_nan gives NaN when either entry is NaN; min and max return the other
// entry for a NaN.
#define QRITA_PAIR_OP(name, ptx)                            \
  __device__ static uint32_t name(uint32_t a, uint32_t b) { \
    uint32_t d;                                             \
    asm(ptx " %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));     \
    return d;                                               \
  }

template <>
struct PackedPairs<F16> {
  static constexpr bool kOn = true;
  static constexpr uint32_t kNegInfPair = 0xfc00fc00u;
  static constexpr uint32_t kPosInfPair = 0x7c007c00u;
  QRITA_PAIR_OP(min_nan, "min.NaN.f16x2")
  QRITA_PAIR_OP(min, "min.f16x2")
  QRITA_PAIR_OP(max, "max.f16x2")
};

template <>
struct PackedPairs<BF16> {
  static constexpr bool kOn = true;
  static constexpr uint32_t kNegInfPair = 0xff80ff80u;
  static constexpr uint32_t kPosInfPair = 0x7f807f80u;
  QRITA_PAIR_OP(min_nan, "min.NaN.bf16x2")
  QRITA_PAIR_OP(min, "min.bf16x2")
  QRITA_PAIR_OP(max, "max.bf16x2")
};

#undef QRITA_PAIR_OP
#endif

// The entries of a word, as floats (the lower-addressed one first).
template <class E>
__device__ __forceinline__ float pair_low(uint32_t w) {
  return E::to_float(static_cast<typename E::bits_t>(w));
}
template <class E>
__device__ __forceinline__ float pair_high(uint32_t w) {
  return E::to_float(static_cast<typename E::bits_t>(w >> 16));
}

// In pairs (PackedPairs<E>::kOn): the extremes of each half of the
// entries added, as the halves of two words.
template <class E>
struct PairExtremes {
  using Ops = PackedPairs<E>;
  uint32_t hi = Ops::kNegInfPair, lo = Ops::kPosInfPair;
  __device__ __forceinline__ void add(float, typename E::bits_t b) {
    const uint32_t w = static_cast<uint32_t>(b) * 0x10001u;  // in both halves
    hi = Ops::max(hi, w);
    lo = Ops::min(lo, w);
  }
  __device__ float max_value() const { return fmaxf(pair_low<E>(hi), pair_high<E>(hi)); }
  __device__ float min_value() const { return fminf(pair_low<E>(lo), pair_high<E>(lo)); }
};

// What a gather of E keeps its extremes in: pairs when it settles
// vectors in pairs (kPaired; PackedPairs<E>::kOn), else floats.
template <class E, bool kPaired>
using GatherExtremes = std::conditional_t<kPaired, PairExtremes<E>, FloatExtremes>;

// A keepable chunk's range into FloatExtremes at once (a template: the
// gather names it for PairExtremes too, in a branch never taken there).
template <class Extremes>
__device__ __forceinline__ void add_chunk_range(Extremes& ext, const ChunkRange& r) {
  ext.max_x = fmaxf(ext.max_x, r.hi);
  ext.min_x = fminf(ext.min_x, r.lo);
}

// b's entries as floats. bf16 chunks straight from their 32-bit words,
// one instruction an entry: from the 2-byte values the compiler masked
// each one first (they are the candidates' bits too).
template <class E, int kCount>
__device__ __forceinline__ void chunk_floats(const typename E::bits_t (&b)[kCount], float (&x)[kCount]) {
  if constexpr (std::is_same_v<E, BF16> && kCount % 2 == 0) {
    uint32_t w[kCount / 2];
    memcpy(w, b, sizeof(w));
#pragma unroll
    for (int i = 0; i < kCount / 2; ++i) {
      x[2 * i] = __uint_as_float(w[i] << 16);  // little-endian: the lower-addressed entry
      x[2 * i + 1] = __uint_as_float(w[i] & 0xffff0000u);
    }
  } else {
#pragma unroll
    for (int t = 0; t < kCount; ++t) x[t] = E::to_float(b[t]);
  }
}

// x holds b's entries as floats.
template <class E, int kCount>
__device__ __forceinline__ ChunkRange chunk_range(const typename E::bits_t (&b)[kCount], const float (&x)[kCount]) {
  if constexpr (PackedPairs<E>::kOn && kCount * sizeof(typename E::bits_t) == 16) {
    using Ops = PackedPairs<E>;
    uint32_t w[4];
    memcpy(w, b, sizeof(w));
    const uint32_t vlo = Ops::min_nan(Ops::min_nan(w[0], w[1]), Ops::min_nan(w[2], w[3]));
    const uint32_t vhi = Ops::max(Ops::max(w[0], w[1]), Ops::max(w[2], w[3]));
    const float lo0 = pair_low<E>(vlo), lo1 = pair_high<E>(vlo);
    return ChunkRange{fmaxf(pair_low<E>(vhi), pair_high<E>(vhi)), fminf(lo0, lo1),
                      lo0 > -INFINITY && lo1 > -INFINITY};  // NaN fails too
  } else {
    const float lo = fold_tree(x, [](float a, float c) { return min_nan(a, c); });
    return ChunkRange{fold_tree(x, [](float a, float c) { return fmaxf(a, c); }), lo, lo > -INFINITY};
  }
}

// Adds a 16-byte vector of 2-byte entries to ext when every entry is
// keepable (no NaN, no -Inf), and then says in *reaches whether one is at
// or above thr; false (nothing added) otherwise.
template <class E, class Bits>
__device__ __forceinline__ bool add_keepable_vector(PairExtremes<E>& ext, const Bits& b, float thr, bool* reaches) {
  using Ops = PackedPairs<E>;
  uint32_t w[4];
  static_assert(sizeof(w) == sizeof(b), "four words of two entries");
  memcpy(w, b, sizeof(w));
  const uint32_t vlo = Ops::min_nan(Ops::min_nan(w[0], w[1]), Ops::min_nan(w[2], w[3]));
  if (!(pair_low<E>(vlo) > -INFINITY && pair_high<E>(vlo) > -INFINITY)) return false;  // NaN fails too
  const uint32_t vhi = Ops::max(Ops::max(w[0], w[1]), Ops::max(w[2], w[3]));
  ext.hi = Ops::max(ext.hi, vhi);
  ext.lo = Ops::min(ext.lo, vlo);
  *reaches = pair_low<E>(vhi) >= thr || pair_high<E>(vhi) >= thr;
  return true;
}

}  // namespace qrita
