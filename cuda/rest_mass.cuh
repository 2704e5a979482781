// The mass of a top-p row below its sigma threshold (the rest mass), which
// decides whether the candidates above it settle the row.
//
// Its exact value is an integer: the sum over the row's keepable entries
// below the threshold of rest_mass_below(x, thr), one rounding an entry.
// A whole row's gather sums it cheaper (one float-to-integer conversion a
// 16-byte vector, not an entry: the conversion shares the exp2's
// quarter-rate unit) to within a bound (RestBounds), and the settle step
// recounts the exact sum (recount_rest_mass) only when the goal's range
// over that bound leaves the row's cut in doubt. The kept set is then the
// exact sum's on every path, so results stay batch invariant: split rows,
// whose parts sum the exact integer, reach the same bits.
#pragma once

#include "block_primitives.cuh"
#include "keys.cuh"
#include "row_access.cuh"

namespace qrita {

// How a gather sums the rest mass.
enum class RestSum {
  kNone,     // not at all (rows with a top-k)
  kExact,    // the exact integer, an entry at a time (split rows' parts)
  kBounded,  // a vector's shares by a float tree, then one conversion
};

// A vector's rest shares (each in [0, 1], zero for entries not summed) as
// one fixed-point mass: summed in float by a tree of depth log2(kCount) <=
// kRestTreeDepth, then rounded once.
constexpr int kRestTreeDepth = 3;  // 8 entries of a 2-byte type

template <int kCount>
__device__ __forceinline__ mass_t vector_rest_mass(float (&e)[kCount]) {
  static_assert(kCount == 1 || kCount == 2 || kCount == 4 || kCount == 8, "a power of two up to 8");
#pragma unroll
  for (int w = 1; w < kCount; w *= 2) {
#pragma unroll
    for (int t = 0; t + w < kCount; t += 2 * w) e[t] += e[t + w];
  }
  return fixed_mass(e[0]);
}

// The exact rest mass D lies within [lo, hi] around a bounded sum S of
// `terms` summed entries. Each tree sum of non-negative shares is within
// gamma = d u / (1 - d u) of their real sum (u = 2^-24, d <= 3); its
// conversion and each entry's own rounding in D add at most 1/2 a term
// each: |S - D| <= gamma (D + terms / 2) + terms. kRestRelSlack covers
// gamma / (1 - gamma) and the double roundings of the bound itself.
constexpr double kRestRelSlack = kRestTreeDepth * 0x1p-24 * 1.0001;

struct RestBounds {
  mass_t lo, hi;

  __device__ bool exact() const { return lo == hi; }
  __device__ static RestBounds of_exact(mass_t d) { return RestBounds{d, d}; }
  __device__ static RestBounds of_bounded(mass_t s, uint32_t terms) {
    const mass_t slack = static_cast<mass_t>(double(s) * kRestRelSlack) + 2ull * terms + 2ull;
    return RestBounds{s > slack ? s - slack : 0ull, s + slack};
  }
};

// The exact rest mass of a whole row below the threshold key, into
// sh.mass_rest (for every thread): one more read of the row. Rare (a
// bounded sum's range leaves the cut in doubt), so not inlined: its loop
// keeps its registers out of decide_row's.
template <class Policy, class E, class Sh>
__device__ __noinline__ mass_t recount_rest_mass(const typename E::bits_t* row, uint32_t n, uint32_t key_thr, Sh& sh) {
  const float thr = float_of_key(key_thr);
  mass_t rest = 0;
  for_each_chunk<E, Policy::kBlockThreads, Policy::kLoadsInFlight>(
      row, n, [&](auto count, uint32_t, const auto& b, bool live) {
#pragma unroll
        for (int t = 0; t < decltype(count)::value; ++t) {
          const float x = E::to_float(b[t]);
          if (live && x > -INFINITY && x < thr) rest += rest_mass_below(x, thr);  // keepable, not a candidate
        }
      });
  rest = block_sum<Policy::kBlockThreads>(rest, sh.scratch_u64);
  __syncthreads();  // scratch is reused
  if (threadIdx.x == 0) sh.mass_rest = rest;
  return rest;
}

// The mass of the candidates at or above pv (the kept set of a cut among
// them), for every thread. Not inlined, as recount_rest_mass.
template <class Policy, class E, class Sh>
__device__ __noinline__ mass_t candidates_mass_at_or_above(Pivot pv, MassScale scale, Sh& sh) {
  const uint32_t cands = min(sh.cand_count, static_cast<uint32_t>(Sh::kCapacity));
  mass_t m = 0;
  for (uint32_t i = threadIdx.x; i < cands; i += Policy::kBlockThreads) {
    const float x = E::to_float(static_cast<typename E::bits_t>(sh.cand_bits[i]));
    if (at_or_above(key_of(x), sh.cand_idx[i], pv)) m += scale.of(x);
  }
  m = block_sum<Policy::kBlockThreads>(m, sh.scratch_u64);
  __syncthreads();  // scratch is reused
  return m;
}

}  // namespace qrita
