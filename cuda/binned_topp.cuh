// Top-p over the row in device memory in two passes, for rows whose
// nucleus reaches below the candidates: LLM rows with a heavy bulk at
// p = 0.9, flat rows, rows mostly masked to -Inf.
//
// The digit search of select.cuh spends its first pass on the key's top
// byte, which such rows spread over a handful of bins, and costs a pass per
// digit. Here pass 1 sums count and mass in 256 equal-width value bins
// below the candidates, where these rows spread over many bins; pass 2
// gathers the bin where the nucleus ends and, for a mask, writes -Inf over
// what the cut drops outside that bin as it reads (no mask pass follows);
// the search finishes in shared memory. Both passes compare floats, not
// keys, to keep each entry a few instructions (PERFLOG runs 36-37).
#pragma once

#include "row_team.cuh"
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

// The smallest value in [bins.lo, top] whose bin is at least t >= 1, or
// top when no value below it reaches t: a search over the keys between,
// one probe a lane, on the calling warp. Bins are monotone in the value,
// so the values of bin t are those from edge(t) up to edge(t + 1), and
// two float compares place an entry exactly as bins.of() would. The
// first step probes the keys around lo + t / scale, which the edge is
// within a few keys of unless it lies near zero (dense keys); each later
// step cuts the interval left kWarpSize + 1 ways.
__device__ inline float bin_edge(ValueBins bins, float top, uint32_t t) {
  const auto reaches = [&](uint32_t key) { return bins.of(float_of_key(key)) >= t; };
  uint32_t a = key_of(bins.lo), b = key_of(top);  // a does not reach t; the edge is in (a, b] if b does
  if (!reaches(b)) return top;
  const uint32_t guess = key_of(bins.lo + float(t) / bins.scale);
  // Lane l's share of an interval, (l + 1) / (kWarpSize + 1), in 2^-32 units.
  const uint32_t share = static_cast<uint32_t>((uint64_t(lane_id()) + 1) * (uint64_t(1) << 32) / (kWarpSize + 1));
  for (bool first_step = true; b - a > 1; first_step = false) {
    // Probes rise with the lane, within [a, b], so the lanes that reach t
    // are a suffix.
    const uint32_t probe = first_step ? min(max(guess - kWarpSize / 2 + lane_id(), a), b)
                                      : a + __umulhi(b - a, share);
    const lane_mask_t hit = warp_ballot(reaches(probe));
    const int first = hit ? lowest_lane(hit) : kWarpSize;
    const uint32_t below = first > 0 ? warp_shfl(probe, first - 1) : a;
    b = first < kWarpSize ? warp_shfl(probe, first) : b;
    a = below;
  }
  return float_of_key(b);
}

// The candidates in shared memory (every keepable key at or above key),
// already counted and weighed; none when key is ~0u (no key reaches it).
struct KnownTop {
  uint32_t key = ~0u;
  uint32_t count = 0;
  mass_t mass = 0;
};

// Where binned_top_p found the end of the nucleus.
enum class BinnedEnd {
  kUndecided,     // not found: nothing decided, nothing written
  kInCandidates,  // among the candidates in shared memory: nothing written
  kInBin,         // in the bin gathered into shared memory: with out, the rest of the row is written
};

// Pass 1 over the part [lo, hi) of a row: count and mass of the entries
// below top_v in each bin, into sh's histogram (cleared here); returns the
// mass below the bins, summed over the block. Entries of a warp rarely
// share a bin here: plain atomics.
template <class Policy, class E, class Sh>
__device__ mass_t bin_histogram(const typename E::bits_t* row, uint32_t lo, uint32_t hi, ValueBins bins, float top_v,
                                MassScale scale, Sh& sh) {
  clear_histogram(sh, true);
  mass_t low = 0;  // below the bins: summed, not binned
  for_each_chunk<E, Policy::kBlockThreads, Policy::kLoadsInFlight, Policy::kStreamRereads>(row + lo, hi - lo, [&](auto count, uint32_t,
                                                                                        const auto& b, bool live) {
#pragma unroll
    for (int t = 0; t < decltype(count)::value; ++t) {
      const float x = E::to_float(b[t]);
      if (!live || !(x > -INFINITY && x < top_v)) continue;  // not keepable (NaN fails), or a candidate
      const mass_t m = scale.of(x);
      if (x < bins.lo) {
        low += m;
        continue;
      }
      const uint32_t j = bins.of(x);
      atomicAdd(&sh.hist_count[j], 1u);
      if (m != 0) shared_add_u64(&sh.hist_mass[j], m);
    }
  });
  __syncthreads();
  low = block_sum<Policy::kBlockThreads>(low, sh.scratch_u64);
  __syncthreads();  // every warp has read the scratch before it is reused
  return low;
}

// Pass 2 over the part [lo, hi) of a row: gathers the entries of bin `bin`
// into shared memory. With a row to write (out), also writes -Inf where
// the cut drops an entry outside that bin: NaN, -Inf, and everything below
// the bin (entries at or above top_v, the candidates, and in higher bins
// are kept). Each thread writes only the vectors it read.
// kByEdges: warps 0 and 1 first find the bin's value edges (bin_edge), so
// an entry costs two float compares, not the bin's arithmetic; the same
// entries either way. Whole rows only: in the split kernel, where a
// team's parts run this pass too, the edge search made every call
// slower (B=1 joint +3-5 %, the kernel's spills 36 / 84 -> 40 / 92
// bytes), for 1 % on flat rows at 64 (PERFLOG runs 97-98). The second
// loop is the split kernel's, kept as it was: one loop for both ways,
// the same spills, still rescheduled that whole kernel (its SASS differed
// in 4.4k of 66k lines, unmeasured; session 23).
template <class Policy, class E, bool kByEdges, class Sh>
__device__ void gather_bin(const typename E::bits_t* row, typename E::bits_t* out, uint32_t lo, uint32_t hi,
                           ValueBins bins, float top_v, uint32_t bin, Sh& sh) {
  using bits_t = typename E::bits_t;
  if constexpr (kByEdges) {
    static_assert(Policy::kBlockThreads >= 2 * kWarpSize, "two warps find the edges");
    float* edges = reinterpret_cast<float*>(sh.scratch_u64);
    if (warp_id() == 0) {
      const float from = bin == 0 ? bins.lo : bin_edge(bins, top_v, bin);
      if (lane_id() == 0) {
        edges[0] = from;
        sh.cand_count = 0;
      }
    } else if (warp_id() == 1) {
      const float to = bin + 1 == static_cast<uint32_t>(kDigitBins) ? top_v : bin_edge(bins, top_v, bin + 1);
      if (lane_id() == 0) edges[1] = to;
    }
    __syncthreads();
    const float from = edges[0], to = edges[1];  // bin `bin` holds the values in [from, to)
    for_each_chunk<E, Policy::kBlockThreads, Policy::kLoadsInFlight, Policy::kStreamRereads>(row + lo, hi - lo, [&](auto count, uint32_t first,
                                                                                          const auto& b, bool live) {
      constexpr int kCount = decltype(count)::value;
      bits_t o[kCount];
      bool in_bin[kCount];
      bool changed = false, any = false;
#pragma unroll
      for (int t = 0; t < kCount; ++t) {
        const float x = E::to_float(b[t]);
        in_bin[t] = live && x >= from && x < to;
        any |= in_bin[t];
        // Below the bin: below its edge, NaN and -Inf included (from <=
        // top_v: the bin holds entries below top_v).
        const bool drop = !(x >= from);
        o[t] = drop ? E::kNegInf : b[t];
        changed |= drop && b[t] != E::kNegInf;
      }
      // An atomic a lane, as the first gather (PERFLOG runs 105-107).
      if (warp_any(any)) append_lane_candidates(in_bin, b, lo + first, sh);
      if (out && live && changed) store_chunk<E, kCount, Policy::kStreamStores>(out + lo, first, o);
    });
  } else {
    if (threadIdx.x == 0) sh.cand_count = 0;
    __syncthreads();
    for_each_chunk<E, Policy::kBlockThreads, Policy::kLoadsInFlight, Policy::kStreamRereads>(row + lo, hi - lo, [&](auto count, uint32_t first,
                                                                                          const auto& b, bool live) {
      constexpr int kCount = decltype(count)::value;
      bits_t o[kCount];
      bool changed = false;
#pragma unroll
      for (int t = 0; t < kCount; ++t) {
        const float x = E::to_float(b[t]);
        const bool binned = x >= bins.lo && x < top_v;  // NaN: neither
        const uint32_t j = binned ? bins.of(x) : 0u;
        append_candidate(live && binned && j == bin, b[t], lo + first + t, sh);
        const bool drop = !(x >= top_v) && !(binned && j >= bin);
        o[t] = drop ? E::kNegInf : b[t];
        changed |= o[t] != b[t];
      }
      if (out && live && changed) store_chunk<E, kCount, Policy::kStreamStores>(out + lo, first, o);
    });
  }
  __syncthreads();
}

// The range of the keys of the first n candidates in shared memory.
template <int kThreads, class E, class Sh>
__device__ KeyRange candidates_key_range(uint32_t n, Sh& sh) {
  uint32_t lo = ~0u, hi = 0;
  for (uint32_t i = threadIdx.x; i < n; i += kThreads) {
    const uint32_t key = key_of(E::to_float(static_cast<typename E::bits_t>(sh.cand_bits[i])));
    lo = min(lo, key);
    hi = max(hi, key);
  }
  for (int off = kWarpSize / 2; off > 0; off /= 2) {
    lo = min(lo, warp_shfl_xor(lo, off));
    hi = max(hi, warp_shfl_xor(hi, off));
  }
  uint32_t* ends = reinterpret_cast<uint32_t*>(sh.scratch_u64);
  if (threadIdx.x == 0) {
    ends[0] = ~0u;
    ends[1] = 0;
  }
  __syncthreads();
  if (lane_id() == 0) {
    atomicMin(&ends[0], lo);
    atomicMax(&ends[1], hi);
  }
  __syncthreads();
  const KeyRange range{ends[0], ends[1]};
  __syncthreads();  // scratch is reused
  return range;
}

// The top-p cut over the row (the shortest rank-order prefix of its
// keepable entries whose mass reaches p of theirs). Entries at or above
// top.key are not searched again. With out (a mask), the row outside the
// gathered bin is written as it is read, and the returned plan's
// candidates are what is left to write. Undecided, having read but not
// written the row, when the nucleus ends in a bin larger than the buffer
// (heavy ties) or below the bins: the caller then runs select_mass over
// the row. Counts, masses and the goal are those of select_mass, so the
// cut is the same. Both passes run over the team's parts (row_team.cuh).
// Not inlined: its registers stay out of decide_row's allocation
// (decide_row spills under the 64-register cap).
template <class Policy, class E, class Team, class Sh>
__device__ __noinline__ BinnedEnd binned_top_p(const typename E::bits_t* row, typename E::bits_t* out, uint32_t n,
                                               Sh& sh, float p, MassScale scale, KnownTop top, bool keep_ties,
                                               team_param_t<Team> team, Cut* cut) {
  if (scale.inf_max) return BinnedEnd::kUndecided;
  // Bins from the lowest entry that can carry mass up to the candidates.
  const bool has_top = top.key <= sh.max_key;
  const float top_v = has_top ? float_of_key(top.key) : __int_as_float(0x7f800000);  // +Inf: no candidates
  const float hi = has_top ? top_v : scale.max_value;
  const float lo = fmaxf(float_of_key(sh.min_key), scale.max_value - Policy::kBinnedMassRange);
  const ValueBins bins{lo, float(kDigitBins) / (hi - lo)};
  if (!(hi > lo) || !isfinite(bins.scale)) return BinnedEnd::kUndecided;

  // Pass 1, over the team's parts.
  team.post(TeamTask{TeamTask::kHistogram, 0, bins.lo, bins.scale, top_v, scale.max_value});
  mass_t low = bin_histogram<Policy, E>(row, team.lo(n), team.hi(n), bins, top_v, scale, sh);
  team.template collect_histogram<Policy>(sh, &low);
  const mass_t in_bins = histogram_mass(sh);
  const double goal = double(p) * double(top.mass + in_bins + low);

  if (double(top.mass) >= goal) {  // the candidates hold the nucleus after all
    *cut = select_mass(SharedSource<E, Policy::kBlockThreads, Sh>{&sh, top.count}, sh, kPivotAll,
                       [goal](double) { return goal; }, scale, keep_ties, KeyRange{top.key, sh.max_key});
    return BinnedEnd::kInCandidates;
  }
  if (double(top.mass + in_bins) < goal) return BinnedEnd::kUndecided;
  choose_digit<true>(sh.hist_count, sh.hist_mass, 0, top.mass, goal, &sh.choice);
  __syncthreads();
  const DigitChoice c = sh.choice;
  if (c.count_in > static_cast<uint32_t>(Sh::kCapacity)) return BinnedEnd::kUndecided;
  team.post(TeamTask{TeamTask::kGatherBin, c.digit, bins.lo, bins.scale, top_v, scale.max_value});
  gather_bin<Policy, E, Team::kWholeRow>(row, out, team.lo(n), team.hi(n), bins, top_v, c.digit, sh);
  team.template collect_candidates<Policy, false>(sh);

  // The rest of the search runs over that bin in shared memory, from the
  // first key bit its entries do not share: a flat row's bin spans a few
  // hundredths of a binade, so the key's top digit was one value and its
  // histogram a step lost (PERFLOG run 95).
  MassSearch s =
      start_mass_search<E::kFreeKeyBits>(candidates_key_range<Policy::kBlockThreads, E>(c.count_in, sh), sh.digit_bits);
  s.above = top.count + c.count_above;
  s.ties = c.count_in;
  s.mass_above = top.mass + c.mass_above;
  s.goal = goal;
  s.counted = true;
  *cut = finish_mass(SharedSource<E, Policy::kBlockThreads, Sh>{&sh, c.count_in}, sh, kPivotAll,
                     [goal](double) { return goal; }, scale, keep_ties, s);
  return BinnedEnd::kInBin;
}

}  // namespace qrita
