// Block-wide building blocks with a fixed reduction order (so floating
// sums are reproducible) and the digit step of the multi-pivot search.
#pragma once

#include "compat.cuh"
#include "keys.cuh"

namespace qrita {

template <class T>
__device__ __forceinline__ T warp_sum(T v) {
  for (int off = kWarpSize / 2; off > 0; off /= 2) v += warp_shfl_xor(v, off);
  return v;
}

// Inclusive prefix sum across the lanes of a warp.
template <class T>
__device__ __forceinline__ T warp_inclusive_scan(T v) {
  for (int off = 1; off < kWarpSize; off *= 2) {
    T up = warp_shfl_up(v, off);
    if (lane_id() >= off) v += up;
  }
  return v;
}

// Sum over the block, the same order every time; every thread gets the
// result. scratch holds one T per warp.
template <int kBlockThreads, class T>
__device__ T block_sum(T v, T* scratch) {
  constexpr int kWarps = kBlockThreads / kWarpSize;
  static_assert(kWarps <= kWarpSize, "one warp finishes the reduction");
  v = warp_sum(v);
  __syncthreads();
  if (lane_id() == 0) scratch[warp_id()] = v;
  __syncthreads();
  T w = lane_id() < kWarps ? scratch[lane_id()] : T(0);
  return warp_sum(w);
}

// Exclusive prefix sum over the block in thread order; every thread gets
// the block's total in *total. scratch holds one T per warp.
template <int kBlockThreads, class T>
__device__ T block_exclusive_scan(T v, T* scratch, T* total) {
  constexpr int kWarps = kBlockThreads / kWarpSize;
  static_assert(kWarps <= kWarpSize, "one warp scans the warp totals");
  const T incl = warp_inclusive_scan(v);
  __syncthreads();  // scratch is free
  if (lane_id() == kWarpSize - 1) scratch[warp_id()] = incl;
  __syncthreads();
  const T w = lane_id() < kWarps ? scratch[lane_id()] : T(0);
  const T w_incl = warp_inclusive_scan(w);
  *total = warp_shfl(w_incl, kWarps - 1);
  return warp_shfl(w_incl - w, warp_id()) + incl - v;
}

// Reserves one slot of a shared-memory list for every lane whose pred
// holds, with one atomic per warp. The slot is meaningful where pred holds.
__device__ __forceinline__ uint32_t warp_reserve(bool pred, uint32_t* counter) {
  const lane_mask_t m = warp_ballot(pred);
  if (m == 0) return 0;
  const int leader = lowest_lane(m);
  uint32_t base = 0;
  if (lane_id() == leader) base = atomicAdd(counter, static_cast<uint32_t>(popcount(m)));
  return warp_shfl(base, leader) + popcount(m & lanes_below());
}

constexpr int kDigitBits = 8;
constexpr int kDigitBins = 1 << kDigitBits;

// Result of one digit step, written by warp 0 for the whole block.
struct DigitChoice {
  uint32_t digit;       // the chosen bin
  uint32_t count_above; // entries in bins above it
  uint32_t count_in;    // entries in it
  mass_t mass_above;    // their mass (mass search only)
};

// Warp 0 walks the 256 bins from the top and picks the first bin where the
// running total reaches the goal: a count (rank search) or a mass (top-p
// search: mass_base, what ranks above the bins, plus the running total, as
// an integer, reaches goal; ranked_top_p and ties_to_reach compare alike).
// Each lane owns a contiguous run of bins, highest first.
template <bool kByMass>
__device__ void choose_digit(const uint32_t* counts, const mass_t* masses, uint32_t need_count, mass_t mass_base,
                             double goal, DigitChoice* out) {
  if (warp_id() != 0) return;
  constexpr int kPerLane = kDigitBins / kWarpSize;
  static_assert(kDigitBins % kWarpSize == 0, "bins split evenly over lanes");
  const int first = kDigitBins - 1 - lane_id() * kPerLane;  // this lane's highest bin
  uint32_t c = 0;
  mass_t m = 0;
  for (int j = 0; j < kPerLane; ++j) {
    c += counts[first - j];
    if (kByMass) m += masses[first - j];
  }
  const uint32_t c_incl = warp_inclusive_scan(c);
  const mass_t m_incl = kByMass ? warp_inclusive_scan(m) : mass_t(0);
  const uint32_t c_excl = c_incl - c;
  const mass_t m_excl = m_incl - m;
  const bool reaches = kByMass ? (c > 0 && double(mass_base + m_incl) >= goal) : (c_incl >= need_count);
  const lane_mask_t hit = warp_ballot(reaches);
  // If no lane reaches the goal (a mass goal lost to rounding), take the
  // last non-empty bin: every survivor is kept.
  const lane_mask_t nonempty = warp_ballot(c > 0);
  int owner;
  if (hit != 0) {
    owner = lowest_lane(hit);
  } else {
    owner = kWarpSize - 1;
    for (int l = kWarpSize - 1; l >= 0; --l)
      if ((nonempty >> l) & 1) { owner = l; break; }
  }
  if (lane_id() == owner) {
    uint32_t ca = c_excl, last_ca = 0;
    mass_t ma = m_excl, last_ma = 0;
    int pick = first;
    for (int j = 0; j < kPerLane; ++j) {
      const int bin = first - j;
      const uint32_t cb = counts[bin];
      if (cb == 0) continue;
      const mass_t mb = kByMass ? masses[bin] : mass_t(0);
      if (hit != 0) {
        const bool done = kByMass ? (double(mass_base + ma + mb) >= goal) : (ca + cb >= need_count);
        if (done) {
          pick = bin;
          break;
        }
      } else {
        pick = bin;  // lowest non-empty bin so far
        last_ca = ca;
        last_ma = ma;
      }
      ca += cb;
      ma += mb;
    }
    if (hit == 0) {
      ca = last_ca;
      ma = last_ma;
    }
    out->digit = static_cast<uint32_t>(pick);
    out->count_above = ca;
    out->count_in = counts[pick];
    out->mass_above = ma;
  }
}

}  // namespace qrita
