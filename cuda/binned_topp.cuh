// Top-p over the row in device memory in two passes, for rows whose
// nucleus reaches below the candidates: LLM rows with a heavy bulk at
// p = 0.9, flat rows, rows mostly masked to -Inf.
//
// The digit search of select.cuh spends its first pass on the key's top
// byte, which such rows spread over a handful of bins: the lanes of a warp
// add to the same few shared counters and the atomics serialise (PERFLOG
// run 36). Here the first pass sums count and mass in 256 equal-width value
// bins below the candidates, where the same rows spread over many bins; the
// second gathers the bin where the nucleus ends, and the search finishes in
// shared memory.
#pragma once

#include "select.cuh"

namespace qrita {

// 256 equal-width bins of values from lo: bin(x) = floor((x - lo) * scale),
// the top bin taking the rest. Each step rounds monotonically, so bin()
// never decreases with x: every bin is a run of consecutive keys (+0 and -0
// share one), which is all the exact search needs; where the edges fall
// does not matter.
struct ValueBins {
  float lo, scale;
  __device__ uint32_t of(float x) const {  // x >= lo
    const float f = (x - lo) * scale;
    return f < float(kDigitBins - 1) ? static_cast<uint32_t>(f) : kDigitBins - 1;
  }
};

// The candidates in shared memory (every keepable key at or above key),
// already counted and weighed; none when key is ~0u (no key reaches it).
struct KnownTop {
  uint32_t key = ~0u;
  uint32_t count = 0;
  mass_t mass = 0;
};

// The top-p cut over src (the row in device memory): the shortest
// rank-order prefix of the entries at or above floor whose mass reaches p
// of theirs. Entries at or above top.key are not read again. Returns false,
// having decided nothing, when the nucleus ends in a bin larger than the
// buffer (heavy ties) or below the bins' range; the caller then runs
// select_mass over the row. Counts, masses and the goal are those of
// select_mass, so the cut is the same.
template <class Policy, class Src, class Sh>
__device__ bool binned_top_p(const Src& src, Sh& sh, Pivot floor, float p, MassScale scale, KnownTop top,
                             bool keep_ties, Cut* out) {
  if (scale.inf_max) return false;
  // Bins from the lowest entry that can carry mass to the candidates.
  const float hi = top.key > sh.max_key ? scale.max_value : float_of_key(top.key);
  const float lo = fmaxf(fmaxf(float_of_key(sh.min_key), float_of_key(floor.key)),
                         scale.max_value - Policy::kBinnedMassRange);
  const ValueBins bins{lo, float(kDigitBins) / (hi - lo)};
  if (!(hi > lo) || !isfinite(bins.scale)) return false;

  clear_histogram(sh, true);
  mass_t low = 0;  // below the bins: summed, not binned
  src.each([&](uint32_t key, uint32_t idx, float x, bool live) {
    const bool member = live && key < top.key && at_or_above(key, idx, floor);
    const bool binned = member && x >= lo;
    if (member && !binned) low += scale.of(x);
    histogram_add<true>(sh, binned, binned ? bins.of(x) : 0u, binned ? scale.of(x) : mass_t(0));
  });
  __syncthreads();
  const mass_t in_bins = histogram_mass(sh);
  low = block_sum<Policy::kBlockThreads>(low, sh.scratch_u64);
  const double goal = double(p) * double(top.mass + in_bins + low);

  if (double(top.mass) >= goal) {  // the candidates hold the nucleus after all
    *out = select_mass(src.in_shared(sh), sh, floor, [goal](double) { return goal; }, scale, keep_ties,
                       KeyRange{top.key, sh.max_key});
    return true;
  }
  if (double(top.mass + in_bins) < goal) return false;
  choose_digit<true>(sh.hist_count, sh.hist_mass, 0, top.mass, goal, &sh.choice);
  __syncthreads();
  const DigitChoice c = sh.choice;
  if (c.count_in > static_cast<uint32_t>(Sh::kCapacity)) return false;
  src.gather([&](uint32_t key, uint32_t idx) {
    const float x = float_of_key(key);
    return key < top.key && at_or_above(key, idx, floor) && x >= lo && bins.of(x) == c.digit;
  }, sh);

  MassSearch s;  // the rest of the search runs over that bin in shared memory
  s.above = top.count + c.count_above;
  s.mass_above = top.mass + c.mass_above;
  s.goal = goal;
  s.counted = true;
  s.shift = kKeyBits - sh.digit_bits;
  *out = finish_mass(src.in_shared(sh), sh, floor, [goal](double) { return goal; }, scale, keep_ties, s);
  return true;
}

}  // namespace qrita
