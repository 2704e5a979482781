// Top-p over a few top-k survivors (the common case: k of a few dozen).
// Ranking them directly costs a few syncs where the four-step mass search
// costs a dozen; one warp then scans their mass in rank order. The masses
// and the comparison are those of select_mass, so the cut is the same.
#pragma once

#include "direct_rank.cuh"
#include "select.cuh"

namespace qrita {

// The survivors are the candidates at or above the top-k cut; there must
// be at most Sh::kRankedCapacity of them. When the top-k search left them
// ranked (cut.ranked), only their masses are added; else they are ranked
// here. Leaves them in rank order in sh.ranked_idx (the id output's order).
template <int kThreads, class E, class Sh>
__device__ Cut ranked_top_p(Sh& sh, const Cut& top_k, float p, MassScale scale, bool keep_ties) {
  const Pivot floor = top_k.pivot;
  uint32_t n = top_k.kept;
  if (top_k.ranked >= n) {
    for (uint32_t i = threadIdx.x; i < n; i += kThreads) sh.ranked_mass[i] = scale.of(float_of_key(sh.ranked_key[i]));
    __syncthreads();
  } else {
    const SharedSource<E, kThreads, Sh> cands{&sh, min(sh.cand_count, static_cast<uint32_t>(Sh::kCapacity))};
    n = rank_entries<true, kThreads>(
        cands, sh, [floor](uint32_t key, uint32_t idx) { return at_or_above(key, idx, floor); },
        [](uint32_t key, uint32_t) { return key; }, scale);
  }
  uint32_t cut = first_rank_reaching(sh, n, 0, [p](mass_t total) { return p <= 0.0f ? 0.0 : double(p) * double(total); });
  if (keep_ties) cut = run_last(sh.hist_count[cut]);
  const Pivot pv = keep_ties ? clamp_to_floor(Pivot{sh.ranked_key[cut], kAnyIndex}, floor)
                             : Pivot{sh.ranked_key[cut], sh.ranked_idx[cut]};
  __syncthreads();  // choice and the runs are reused
  return Cut{pv, cut + 1};
}

}  // namespace qrita
