// Top-p over a few top-k survivors (the common case: k of a few dozen).
// Ranking them directly costs a few syncs where the four-step mass search
// costs a dozen; one warp then scans their mass in rank order. The masses
// and the comparison are those of select_mass, so the cut is the same.
#pragma once

#include "block_primitives.cuh"
#include "keys.cuh"
#include "select.cuh"

namespace qrita {

// The survivors are the candidates at or above floor; there must be at
// most Sh::kRankedCapacity of them.
template <int kThreads, class E, class Sh>
__device__ Cut ranked_top_p(Sh& sh, Pivot floor, float p, MassScale scale, bool keep_ties) {
  constexpr int kRanked = Sh::kRankedCapacity;
  constexpr int kPerLane = kRanked / kWarpSize;
  static_assert(kRanked % kWarpSize == 0, "lanes split the ranks evenly");
  if (threadIdx.x == 0) sh.surv_count = 0;
  __syncthreads();
  const uint32_t cands = min(sh.cand_count, static_cast<uint32_t>(Sh::kCapacity));
  for (uint32_t base = 0; base < cands; base += kThreads) {  // same trip count on every lane
    const uint32_t i = base + threadIdx.x;
    uint32_t key = 0, idx = 0;
    bool pred = false;
    if (i < cands) {
      key = key_of(E::to_float(static_cast<typename E::bits_t>(sh.cand_bits[i])));
      idx = sh.cand_idx[i];
      pred = at_or_above(key, idx, floor);
    }
    const uint32_t at = warp_reserve(pred, &sh.surv_count);
    if (pred && at < static_cast<uint32_t>(kRanked)) {
      sh.surv_key[at] = key;
      sh.surv_idx[at] = idx;
    }
  }
  __syncthreads();
  const uint32_t n = min(sh.surv_count, static_cast<uint32_t>(kRanked));
  // A survivor's rank is the number of survivors ahead of it. g lanes of a
  // warp count it together (n / g loads each, then shuffles), so the block
  // is not left waiting at the barrier for a few threads walking all n
  // (one thread per survivor made this the decision's longest wait: ncu,
  // PERFLOG run 31).
  uint32_t g = kWarpSize;  // lanes per survivor: a power of two, n x g <= kThreads
  while (g > 1 && n * g > static_cast<uint32_t>(kThreads)) g /= 2;
  const uint32_t per_pass = kThreads / g, sub = threadIdx.x % g;
  for (uint32_t base = 0; base < n; base += per_pass) {  // same trip count on every lane
    const uint32_t t = base + threadIdx.x / g;
    uint32_t key = 0, idx = 0, rank = 0;
    if (t < n) {
      key = sh.surv_key[t];
      idx = sh.surv_idx[t];
      for (uint32_t j = sub; j < n; j += g) {
        const uint32_t kj = sh.surv_key[j];
        rank += kj > key || (kj == key && sh.surv_idx[j] < idx);
      }
    }
    for (uint32_t off = g / 2; off > 0; off /= 2) rank += warp_shfl_xor(rank, static_cast<int>(off));
    if (t < n && sub == 0) {
      sh.ranked_key[rank] = key;
      sh.ranked_idx[rank] = idx;
      sh.ranked_mass[rank] = scale.of(float_of_key(key));
    }
  }
  __syncthreads();
  if (warp_id() == 0) {
    const uint32_t lo = lane_id() * kPerLane, hi = min(lo + kPerLane, n);
    mass_t m = 0;
    for (uint32_t j = lo; j < hi; ++j) m += sh.ranked_mass[j];
    const mass_t incl = warp_inclusive_scan(m);
    const mass_t total = warp_shfl(incl, kWarpSize - 1);
    const double goal = p <= 0.0f ? 0.0 : double(p) * double(total);
    const lane_mask_t hit = warp_ballot(lo < n && double(incl) >= goal);
    const int owner = hit ? lowest_lane(hit) : static_cast<int>((n - 1) / kPerLane);
    if (lane_id() == owner) {
      uint32_t cut = hi - 1;
      mass_t cum = incl - m;
      for (uint32_t j = lo; j < hi; ++j) {
        cum += sh.ranked_mass[j];
        if (double(cum) >= goal) {
          cut = j;
          break;
        }
      }
      if (keep_ties)
        while (cut + 1 < n && sh.ranked_key[cut + 1] == sh.ranked_key[cut]) ++cut;
      sh.choice.digit = cut;
    }
  }
  __syncthreads();
  const uint32_t cut = sh.choice.digit;
  const Pivot pv = keep_ties ? clamp_to_floor(Pivot{sh.ranked_key[cut], kAnyIndex}, floor)
                             : Pivot{sh.ranked_key[cut], sh.ranked_idx[cut]};
  __syncthreads();  // choice is reused
  return Cut{pv, cut + 1};
}

}  // namespace qrita
