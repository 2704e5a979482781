// Direct ranking of a few entries: each is compared with all the others
// (O(m^2) work, but two barriers), where a digit step costs three barriers
// and a warp's serial pick. The searches end this way once their
// sub-range holds at most Sh::kRankedCapacity entries; the ranked top-p
// ranks the top-k survivors so.
#pragma once

#include "block_primitives.cuh"
#include "keys.cuh"

namespace qrita {

// A rank's run: the first and last ranks sharing its value, packed.
__device__ __forceinline__ uint32_t run_first(uint32_t packed) { return packed & 0xffffu; }
__device__ __forceinline__ uint32_t run_last(uint32_t packed) { return packed >> 16; }

// Ranks the entries of src for which in_range(key, idx) holds, at most
// Sh::kRankedCapacity of them, by value descending, index ascending (the
// stable-sort order), where the value is proj(key, idx): ranked_key[i] and
// ranked_idx[i] are the value and index of rank i, ranked_mass[i] its
// mass (kWithMass; the value is then the key) and hist_count[i] its run
// (the search's histogram is spent by then). Returns their number, every
// thread after a barrier.
template <bool kWithMass, int kThreads, class Src, class Sh, class InRange, class Proj>
__device__ uint32_t rank_entries(const Src& src, Sh& sh, InRange in_range, Proj proj, MassScale scale) {
  constexpr uint32_t kRanked = Sh::kRankedCapacity;
  static_assert(kRanked <= kDigitBins && kRanked <= 0x10000u, "the histogram holds a packed run per rank");
  if (threadIdx.x == 0) sh.surv_count = 0;
  __syncthreads();
  src.each([&](uint32_t key, uint32_t idx, float, bool live) {
    const bool pred = live && in_range(key, idx);
    const uint32_t at = warp_reserve(pred, &sh.surv_count);
    if (pred && at < kRanked) {
      sh.surv_key[at] = proj(key, idx);
      sh.surv_idx[at] = idx;
    }
  });
  __syncthreads();
  const uint32_t n = min(sh.surv_count, kRanked);
  // g lanes of a warp count an entry's rank together (n / g loads each,
  // then shuffles), so the block does not wait at the barrier for a few
  // threads walking all n (one thread an entry was the decision's longest
  // wait: ncu, PERFLOG run 31).
  uint32_t g = kWarpSize;  // lanes per entry: a power of two, n x g <= kThreads
  while (g > 1 && n * g > static_cast<uint32_t>(kThreads)) g /= 2;
  const uint32_t per_pass = kThreads / g, sub = threadIdx.x % g;
  for (uint32_t base = 0; base < n; base += per_pass) {  // same trip count on every lane
    const uint32_t t = base + threadIdx.x / g;
    uint32_t v = 0, idx = 0, rank = 0, ties = 0, ties_ahead = 0;
    if (t < n) {
      v = sh.surv_key[t];
      idx = sh.surv_idx[t];
      for (uint32_t j = sub; j < n; j += g) {
        const uint32_t vj = sh.surv_key[j], ij = sh.surv_idx[j];
        rank += vj > v || (vj == v && ij < idx);
        ties += vj == v;  // itself included
        ties_ahead += vj == v && ij < idx;
      }
    }
    for (uint32_t off = g / 2; off > 0; off /= 2) {
      rank += warp_shfl_xor(rank, static_cast<int>(off));
      ties += warp_shfl_xor(ties, static_cast<int>(off));
      ties_ahead += warp_shfl_xor(ties_ahead, static_cast<int>(off));
    }
    if (t < n && sub == 0) {
      const uint32_t first = rank - ties_ahead;
      sh.ranked_key[rank] = v;
      sh.ranked_idx[rank] = idx;
      if (kWithMass) sh.ranked_mass[rank] = scale.of(float_of_key(v));
      sh.hist_count[rank] = first | (first + ties - 1) << 16;
    }
  }
  __syncthreads();
  return n;
}

// Warp 0 scans the masses of the n >= 1 ranked entries from base: the
// first rank where base plus the running mass reaches goal_of(their
// total) (the last rank if none does; the digit search's choice, to the
// entry). Returns it on every thread after a barrier.
template <class Sh, class Goal>
__device__ uint32_t first_rank_reaching(Sh& sh, uint32_t n, mass_t base, Goal goal_of) {
  constexpr int kPerLane = Sh::kRankedCapacity / kWarpSize;
  static_assert(Sh::kRankedCapacity % kWarpSize == 0, "lanes split the ranks evenly");
  if (warp_id() == 0) {
    const uint32_t lo = lane_id() * kPerLane, hi = min(lo + kPerLane, n);
    mass_t m = 0;
    for (uint32_t j = lo; j < hi; ++j) m += sh.ranked_mass[j];
    const mass_t incl = warp_inclusive_scan(m);
    const double goal = goal_of(warp_shfl(incl, kWarpSize - 1));
    const lane_mask_t hit = warp_ballot(lo < n && double(base + incl) >= goal);
    const int owner = hit ? lowest_lane(hit) : static_cast<int>((n - 1) / kPerLane);
    if (lane_id() == owner) {
      uint32_t cut = hi - 1;
      mass_t cum = base + incl - m;
      for (uint32_t j = lo; j < hi; ++j) {
        cum += sh.ranked_mass[j];
        if (double(cum) >= goal) {
          cut = j;
          break;
        }
      }
      sh.choice.digit = cut;
    }
  }
  __syncthreads();
  return sh.choice.digit;
}

}  // namespace qrita
