// The exact multi-pivot search. Each step splits the remaining key range
// into 256 sub-ranges at once (255 pivots: an 8-bit digit of the
// order-preserving key), counts entries (or sums their fixed-point mass)
// per sub-range and keeps the one holding the target: four steps settle a
// 32-bit key. Duplicates at the final key are then ranked by index with the
// same search over the inverted index, which is the stable-sort rule.
#pragma once

#include "block_primitives.cuh"
#include "direct_rank.cuh"
#include "hand_on.cuh"
#include "keys.cuh"
#include "row_access.cuh"

namespace qrita {

// Shared memory of one row.
template <int kCap, int kRanked>
struct RowShared {
  static constexpr int kCapacity = kCap;
  static constexpr int kRankedCapacity = kRanked;
  uint32_t cand_bits[kCap];  // raw element bits, zero-extended
  uint32_t cand_idx[kCap];
  // Top-k survivors: compacted, then in rank order with their mass. A
  // row's threshold stages its sample over them (sample_staging).
  uint32_t surv_key[kRanked];
  uint32_t surv_idx[kRanked];
  uint32_t ranked_key[kRanked];
  uint32_t ranked_idx[kRanked];
  mass_t ranked_mass[kRanked];
  uint32_t surv_count;
  uint32_t hist_count[kDigitBins];
  mass_t hist_mass[kDigitBins];
  mass_t scratch_u64[kWarpSize];
  DigitChoice choice;
  // Key bits settled per search step: kDigitBits, or 1 for the
  // binary-search ablation (benchmarks only).
  int digit_bits;
  uint32_t cand_count;  // may exceed kCap: then the buffer overflowed
  uint32_t n_keepable;
  uint32_t max_key;
  uint32_t min_key;     // smallest keepable key (~0u: none)
  mass_t mass_rest;     // mass of keepable non-candidates, relative to the threshold
  HandOnTarget hand_on;  // set and read by the persistent kernel only (hand_on.cuh)

  // Where sigma_threshold stages a sample (the four rank arrays, which
  // lie end to end) and its groups' sums (the ranks' masses): nothing is
  // ranked while a threshold is taken, and the candidates must survive a
  // second top-p gather's threshold (the searches after it may read them).
  static constexpr size_t kSampleStagingBytes = 4 * kRanked * sizeof(uint32_t);
  static constexpr size_t kGroupStagingBytes = kRanked * sizeof(mass_t);
  __device__ float* sample_staging() { return reinterpret_cast<float*>(surv_key); }
  __device__ void* group_staging() { return ranked_mass; }
};

// Sources call f(key, idx, value, live) on every lane of the block in
// step, so f may use warp collectives; only calls with live set carry an
// entry.

// Appends this lane's entry when pred holds; one shared atomic per warp.
// Entries past the capacity are counted but not stored.
template <class Sh>
__device__ __forceinline__ void append_candidate(bool pred, uint32_t bits, uint32_t idx, Sh& sh) {
  const uint32_t pos = warp_reserve(pred, &sh.cand_count);
  if (pred && pos < Sh::kCapacity) {
    sh.cand_bits[pos] = bits;
    sh.cand_idx[pos] = idx;
  }
}

// Appends this lane's entries of a vector (count consecutive entries from
// index first) where pred holds, with one reservation a warp: one shared
// atomic and one broadcast for the vector, where an entry at a time waited
// for up to kCount atomic round trips in a row. Split rows' top-p gathers
// keep it (PERFLOG runs 102-103): their kernel's code is then as before
// run 105's per-lane appends, which made its joint calls 1-2 % slower by
// rescheduling the kernel (run 106). Within the warp's reservation the
// entries lie by their place in the vector, then by lane; the buffer's
// order carries no meaning. Entries past the capacity are counted but not
// stored.
template <int kCount, class Bits, class Sh>
__device__ __forceinline__ void append_candidates(const bool (&pred)[kCount], const Bits (&bits)[kCount],
                                                  uint32_t first, Sh& sh) {
  // The ballots are taken twice, for the total and for the places: kept
  // as arrays, they spilled the 2-byte kernels (eight entries a vector).
  uint32_t total = 0;
#pragma unroll
  for (int t = 0; t < kCount; ++t) total += popcount(warp_ballot(pred[t]));
  uint32_t at = 0;
  if (lane_id() == 0 && total) at = atomicAdd(&sh.cand_count, total);
  at = warp_shfl(at, 0);
#pragma unroll
  for (int t = 0; t < kCount; ++t) {
    const lane_mask_t m = warp_ballot(pred[t]);
    const uint32_t pos = at + popcount(m & lanes_below());
    if (pred[t] && pos < Sh::kCapacity) {
      sh.cand_bits[pos] = bits[t];
      sh.cand_idx[pos] = first + t;
    }
    at += popcount(m);
  }
}

// Appends this lane's entries of a vector (kCount consecutive entries
// from index first) where pred holds, with one shared atomic a lane that
// has any: no ballot, leader or broadcast an entry. A warp's lanes with
// candidates are few (~1.5 % of a top-p gather's entries), so the atomic
// unit's passes over lanes that hit the same counter are few too.
// warp_reserve takes a ballot and a branch an entry, and for every entry
// with a candidate in the warp an atomic, a broadcast and two popcounts in
// a row: ~56 of the fp32 top-p gather's ~127 instructions a vector
// (PERFLOG run 104). The buffer's order carries no meaning. Entries past
// the capacity are counted but not stored.
template <int kCount, class Bits, class Sh>
__device__ __forceinline__ void append_lane_candidates(const bool (&pred)[kCount], const Bits (&bits)[kCount],
                                                       uint32_t first, Sh& sh) {
  uint32_t count = 0;
#pragma unroll
  for (int t = 0; t < kCount; ++t) count += pred[t];
  if (count == 0) return;
  uint32_t pos = atomicAdd(&sh.cand_count, count);
#pragma unroll
  for (int t = 0; t < kCount; ++t) {
    if (pred[t] && pos < Sh::kCapacity) {
      sh.cand_bits[pos] = bits[t];
      sh.cand_idx[pos] = first + t;
    }
    pos += pred[t];
  }
}

// Candidates gathered in shared memory.
template <class E, int kThreads, class Sh>
struct SharedSource {
  static constexpr int kBlockThreads = kThreads;
  static constexpr int kFreeKeyBits = E::kFreeKeyBits;
  const Sh* sh;
  uint32_t n;
  template <class F>
  __device__ void each(F&& f) const {
    for (uint32_t base = 0; base < n; base += kThreads) {
      const uint32_t i = base + threadIdx.x;
      const bool live = i < n;
      const float x = live ? E::to_float(static_cast<typename E::bits_t>(sh->cand_bits[i])) : 0.0f;
      f(key_of(x), live ? sh->cand_idx[i] : 0u, x, live);
    }
  }
};

// The whole row in device memory (the exact fallback).
template <class E, int kThreads, int kUnroll, bool kStream = false>
struct GlobalSource {
  static constexpr int kFreeKeyBits = E::kFreeKeyBits;
  const typename E::bits_t* row;
  uint32_t n;
  template <class F>
  __device__ void each(F&& f) const {
    for_each_chunk<E, kThreads, kUnroll, kStream>(row, n, [&](auto count, uint32_t first, const auto& b, bool live) {
#pragma unroll
      for (int t = 0; t < decltype(count)::value; ++t) {
        const float x = E::to_float(b[t]);
        f(key_of(x), first + t, x, live);
      }
    });
  }

  // Replaces the shared candidates with the entries for which
  // pred(key, idx) holds (raw bits and index; those past the capacity
  // are counted, not stored).
  template <class Pred, class Sh>
  __device__ void gather(Pred pred, Sh& sh) const {
    if (threadIdx.x == 0) sh.cand_count = 0;
    __syncthreads();
    append(pred, sh);
  }

  // Adds those entries to the shared candidates already there.
  template <class Pred, class Sh>
  __device__ void append(Pred pred, Sh& sh) const {
    for_each_chunk<E, kThreads, kUnroll, kStream>(row, n, [&](auto count, uint32_t first, const auto& b, bool live) {
#pragma unroll
      for (int t = 0; t < decltype(count)::value; ++t)
        append_candidate(live && pred(key_of(E::to_float(b[t])), first + t), b[t], first + t, sh);
    });
    __syncthreads();
  }

  // The candidates a gather left, as a source.
  template <class Sh>
  __device__ SharedSource<E, kThreads, Sh> in_shared(const Sh& sh) const {
    return SharedSource<E, kThreads, Sh>{&sh, min(sh.cand_count, static_cast<uint32_t>(Sh::kCapacity))};
  }

  // The index of the need-th entry (from 1) in index order for which
  // pred(key, idx) holds, reading the row from its start only as far as
  // that entry: the lowest-index ties of a one-hot or constant row are
  // found in the first vectors. There must be at least need such entries.
  template <class Pred, class Sh>
  __device__ uint32_t nth_in_order(Pred pred, uint32_t need, Sh& sh) const {
    mass_t seen = 0;  // matches in the chunks walked so far
    uint32_t found = 0;
    for_each_chunk<E, kThreads, kUnroll, kStream>(row, n, [&](auto count, uint32_t first, const auto& b, bool live) {
      constexpr int kCount = decltype(count)::value;
      bool hit[kCount];
      mass_t c = 0;
#pragma unroll
      for (int t = 0; t < kCount; ++t) {
        hit[t] = live && pred(key_of(E::to_float(b[t])), first + t);
        c += hit[t];
      }
      mass_t total;
      const mass_t before = seen + block_exclusive_scan<kThreads>(c, sh.scratch_u64, &total);
      if (before < need && before + c >= need) {  // exactly one thread
        mass_t at = before;
#pragma unroll
        for (int t = 0; t < kCount; ++t)
          if (hit[t] && ++at == need) sh.choice.digit = first + t;
      }
      seen += total;
      if (seen < need) return false;
      __syncthreads();
      found = sh.choice.digit;
      return true;
    });
    __syncthreads();  // choice is reused
    return found;
  }
};

// Whether a source can walk its entries in index order (nth_in_order).
template <class Src>
constexpr bool kScansInOrder = false;
template <class E, int kThreads, int kUnroll, bool kStream>
constexpr bool kScansInOrder<GlobalSource<E, kThreads, kUnroll, kStream>> = true;

// Bounds every searched value lies within. The search skips the leading
// bits they share, to the bit: the first digit then splits the range
// itself, where a digit aligned to whole bytes splits LLM candidates
// (threshold ~5, largest ~15) into two bins of the key's top byte, whose
// histogram adds all hit two counters (PERFLOG run 50).
struct KeyRange {
  uint32_t lo = 0, hi = ~0u;
};

// Leading bits settled by the range, leaving at least one whole digit to
// search above the kFree bits that the sign sets (kFreeKeyBits).
template <int kFree = 0>
__device__ __forceinline__ int settled_bits(KeyRange range, int bits) {
  if (range.lo > range.hi) return 0;  // empty: nothing is known
  const int common = range.lo == range.hi ? kKeyBits : __clz(range.lo ^ range.hi);
  const int most = kKeyBits - kFree - bits;  // bits is at most 8
  return common < most ? common : most;
}

// One step of a digit search: the digit below the `top` key bits still to
// settle and above the `free` low bits that the sign sets (kFreeKeyBits),
// `bits` wide or what is left (none at top == free: the search is over).
struct DigitStep {
  int shift;       // the digit's lowest bit
  uint32_t mask;   // the digit's values, from bit 0
  uint32_t above;  // key bits already settled
  __device__ DigitStep(int top, int bits, int free) {
    const int room = top - free;
    const int width = room < bits ? room : bits;
    shift = top - width;
    mask = (1u << width) - 1;
    above = top >= kKeyBits ? 0u : (~0u << top);
  }
};

__device__ __forceinline__ Pivot clamp_to_floor(Pivot p, Pivot floor) {
  if (p.key == floor.key && p.idx > floor.idx) p.idx = floor.idx;
  return p;
}

// Adds one entry (and its mass) to bin when hit. When every hitting lane
// of the warp shares the bin, as in flat, one-hot or all-equal rows, one
// lane adds for all: same-address shared atomics would serialise.
template <bool kWithMass, class Sh>
__device__ __forceinline__ void histogram_add(Sh& sh, bool hit, uint32_t bin, mass_t m) {
  const lane_mask_t hits = warp_ballot(hit);
  if (hits == 0) return;
  const int leader = lowest_lane(hits);
  const uint32_t lead_bin = warp_shfl(bin, leader);
  if (warp_ballot(hit && bin != lead_bin) == 0) {
    const mass_t sum = kWithMass ? warp_sum(hit ? m : mass_t(0)) : mass_t(0);
    if (lane_id() == leader) {
      atomicAdd(&sh.hist_count[lead_bin], static_cast<uint32_t>(popcount(hits)));
      if (kWithMass && sum != 0) shared_add_u64(&sh.hist_mass[lead_bin], sum);
    }
    return;
  }
  if (hit) {
    atomicAdd(&sh.hist_count[bin], 1u);
    if (kWithMass && m != 0) shared_add_u64(&sh.hist_mass[bin], m);
  }
}

template <class Sh>
__device__ void clear_histogram(Sh& sh, bool with_mass) {
  for (int i = threadIdx.x; i < kDigitBins; i += blockDim.x) {
    sh.hist_count[i] = 0;
    if (with_mass) sh.hist_mass[i] = 0;
  }
  __syncthreads();
}

// Among entries at or above floor whose projected value proj() matches
// the search so far, finds the value of the r-th largest proj. Returns
// the value; *count_above gets how many rank above it and *count_equal
// how many share it. In shared memory, once the sub-range left holds at
// most Sh::kRankedCapacity entries, they are ranked directly, with every
// entry above them when all fit: *nth_idx then gets the index of the r-th
// itself (else kAnyIndex), and *ranked the number of entries from the top
// left in sh.ranked_* in rank order (else 0). kFree: the projection's low
// bits that its top bit sets (keys of a narrow type, kFreeKeyBits): the
// search stops above them.
template <int kFree = 0, class Src, class Sh, class Member, class Proj>
__device__ uint32_t radix_select_desc(const Src& src, Sh& sh, Member member, Proj proj, KeyRange range,
                                      uint32_t r, uint32_t* count_above, uint32_t* count_equal,
                                      uint32_t* nth_idx, uint32_t* ranked) {
  const int bits = sh.digit_bits;
  const int settled = settled_bits<kFree>(range, bits);
  uint32_t prefix = settled ? range.hi & (~0u << (kKeyBits - settled)) : 0u, above = 0;
  uint32_t in_sub_range = ~0u;  // unknown before the first step
  *nth_idx = kAnyIndex;
  *ranked = 0;
  for (int top = kKeyBits - settled; top > 0;) {
    const DigitStep step(top, bits, kFree);
    const uint32_t hi = step.above;
    if constexpr (!kScansInOrder<Src>) {
      constexpr uint32_t kRanked = Sh::kRankedCapacity;
      if (in_sub_range <= kRanked) {
        // Every member above the sub-range is above it in this digit order.
        const bool from_top = above + in_sub_range <= kRanked;
        const uint32_t base = from_top ? 0u : above;  // ranks before the ranked list's first
        rank_entries<false, Src::kBlockThreads>(
            src, sh,
            [&](uint32_t key, uint32_t idx) {
              const uint32_t v = proj(key, idx) & hi;
              return member(key, idx) && (v == prefix || (from_top && v > prefix));
            },
            proj, MassScale{});
        const uint32_t at = above + r - 1 - base;
        const uint32_t run = sh.hist_count[at];
        const uint32_t v = sh.ranked_key[at];
        *nth_idx = sh.ranked_idx[at];
        *count_above = base + run_first(run);
        *count_equal = run_last(run) - run_first(run) + 1;
        if (from_top) *ranked = above + in_sub_range;
        __syncthreads();  // every thread read the rank before the arrays are reused
        return v;
      }
    }
    if (kFree > 0 && top <= kFree) break;  // the bits left are the sign's: a pass would find one digit
    clear_histogram(sh, false);
    src.each([&](uint32_t key, uint32_t idx, float, bool live) {
      const uint32_t v = proj(key, idx);
      const bool hit = live && member(key, idx) && (v & hi) == prefix;
      histogram_add<false>(sh, hit, (v >> step.shift) & step.mask, 0);
    });
    __syncthreads();
    choose_digit<false>(sh.hist_count, sh.hist_mass, r, 0, 0.0, &sh.choice);
    __syncthreads();
    const DigitChoice c = sh.choice;
    prefix |= c.digit << step.shift;
    r -= c.count_above;
    above += c.count_above;
    in_sub_range = c.count_in;
    *count_equal = c.count_in;
    top = step.shift;
  }
  *count_above = above;
  return key_with_free_bits(prefix, kFree);
}

// Finishes a search that settled on key v with `need` of its `ties` equal
// entries to keep: the lowest-index `need` of them (stable sort), or all in
// KeepTies mode.
template <class Src, class Sh>
__device__ Pivot rank_ties(const Src& src, Sh& sh, Pivot floor, uint32_t v, uint32_t need,
                           uint32_t ties, bool keep_ties) {
  if (keep_ties || need >= ties) return clamp_to_floor(Pivot{v, kAnyIndex}, floor);
  auto tie = [&](uint32_t key, uint32_t idx) { return key == v && at_or_above(key, idx, floor); };
  // In device memory the row is read in index order, as far as the need-th
  // tie; in shared memory the candidates are in no order: search the index.
  if constexpr (kScansInOrder<Src>) {
    return Pivot{v, src.nth_in_order(tie, need, sh)};
  } else {
    uint32_t above, equal, nth_idx, ranked;
    const uint32_t inv = radix_select_desc(src, sh, tie, [](uint32_t, uint32_t idx) { return ~idx; }, KeyRange{},
                                           need, &above, &equal, &nth_idx, &ranked);
    return Pivot{v, ~inv};
  }
}

struct Cut {
  Pivot pivot;
  uint32_t kept;        // entries at or above the pivot
  uint32_t ranked = 0;  // the first `ranked` of them (or more) are in sh.ranked_* in rank order
};

// Keeps the first r entries in rank order among those at or above floor
// and with a key below ceiling (top-k; no key reaches the default ceiling).
// Requires 1 <= r <= their number.
template <class Src, class Sh>
__device__ Cut select_rank(const Src& src, Sh& sh, Pivot floor, uint32_t r, bool keep_ties, KeyRange range = {},
                           uint32_t ceiling = ~0u) {
  uint32_t above, ties, nth_idx, ranked;
  const uint32_t v = radix_select_desc<Src::kFreeKeyBits>(
      src, sh, [&](uint32_t key, uint32_t idx) { return key < ceiling && at_or_above(key, idx, floor); },
      [](uint32_t key, uint32_t) { return key; }, range, r, &above, &ties, &nth_idx, &ranked);
  const uint32_t need = r - above;
  const bool whole_key = keep_ties || need >= ties;  // no order among the ties needed
  const Pivot p = whole_key || nth_idx == kAnyIndex ? rank_ties(src, sh, floor, v, need, ties, keep_ties)
                                                    : Pivot{v, nth_idx};
  return Cut{p, whole_key ? above + ties : r, ranked};
}

// The total mass of a histogram, for every thread of the block.
template <class Sh>
__device__ mass_t histogram_mass(Sh& sh) {
  if (warp_id() == 0) {
    mass_t m = 0;
    for (int i = lane_id(); i < kDigitBins; i += kWarpSize) m += sh.hist_mass[i];
    m = warp_sum(m);
    if (lane_id() == 0) sh.scratch_u64[0] = m;
  }
  __syncthreads();
  return sh.scratch_u64[0];
}

// The fewest j of `ties` equal entries, of mass e each, that bring
// mass_above to goal (all of them when they carry no mass).
__device__ __forceinline__ uint32_t ties_to_reach(mass_t mass_above, mass_t e, uint32_t ties, double goal) {
  uint32_t j = ties;
  if (e != 0) {
    const double want = ceil((goal - double(mass_above)) / double(e));
    j = want < 1.0 ? 1u : (want > double(ties) ? ties : static_cast<uint32_t>(want));
    while (j > 1 && double(mass_above + mass_t(j - 1) * e) >= goal) --j;
    while (j < ties && double(mass_above + mass_t(j) * e) < goal) ++j;
  }
  return j;
}

// A top-p search in progress: the key bits settled so far and what ranks
// above them.
struct MassSearch {
  uint32_t prefix = 0;
  uint32_t above = 0;  // entries above the prefix's sub-range
  uint32_t ties = 0;   // entries in it
  mass_t mass_above = 0;
  double goal = 0;
  int top = kKeyBits;    // key bits still to settle (below the prefix), down to kFreeKeyBits
  bool counted = false;  // goal known: the first histogram counted every entry
  bool histogram_ready = false;  // this step's histogram is in shared memory
};

// A top-p search over the keys in range, none of its bits settled yet;
// kFree: the keys' kFreeKeyBits.
template <int kFree>
__device__ __forceinline__ MassSearch start_mass_search(KeyRange range, int bits) {
  const int settled = settled_bits<kFree>(range, bits);
  MassSearch s;
  s.prefix = settled ? range.hi & (~0u << (kKeyBits - settled)) : 0u;
  s.top = kKeyBits - settled;
  return s;
}

// The counts and masses, by the next digit, of the entries at or above
// floor in the search's sub-range (s.top above the free bits).
template <class Src, class Sh>
__device__ void build_mass_histogram(const Src& src, Sh& sh, Pivot floor, MassScale scale, const MassSearch& s) {
  const DigitStep step(s.top, sh.digit_bits, Src::kFreeKeyBits);
  const uint32_t prefix = s.prefix, hi = step.above;
  clear_histogram(sh, true);
  src.each([&](uint32_t key, uint32_t idx, float x, bool live) {
    const bool hit = live && at_or_above(key, idx, floor) && (key & hi) == prefix;
    histogram_add<true>(sh, hit, (key >> step.shift) & step.mask, hit ? scale.of(x) : mass_t(0));
  });
  __syncthreads();
}

// Ends a top-p search in shared memory whose sub-range holds at most
// Sh::kRankedCapacity entries: ranks them and takes the first rank where
// the mass above plus theirs in rank order reaches the goal, the entry the
// remaining digit steps and ties_to_reach would settle on.
template <class Src, class Sh>
__device__ Cut rank_nucleus(const Src& src, Sh& sh, Pivot floor, uint32_t hi, MassScale scale, bool keep_ties,
                            const MassSearch& s) {
  const uint32_t prefix = s.prefix;
  const uint32_t n = rank_entries<true, Src::kBlockThreads>(
      src, sh, [&](uint32_t key, uint32_t idx) { return at_or_above(key, idx, floor) && (key & hi) == prefix; },
      [](uint32_t key, uint32_t) { return key; }, scale);
  const double goal = s.goal;
  const uint32_t at = first_rank_reaching(sh, n, s.mass_above, [goal](mass_t) { return goal; });
  const uint32_t last = run_last(sh.hist_count[at]);
  const uint32_t v = sh.ranked_key[at], idx = sh.ranked_idx[at];
  __syncthreads();  // choice, the ranks and runs are reused
  // The last of its key keeps the whole key (rank_ties' rule).
  if (keep_ties || at == last) return Cut{clamp_to_floor(Pivot{v, kAnyIndex}, floor), s.above + last + 1};
  return Cut{Pivot{v, idx}, s.above + at + 1};
}

// Runs the remaining digit steps of a top-p search over src, then ranks
// the ties at the cut. A search over the row in device memory moves to
// shared memory as soon as the sub-range it narrowed to fits the buffer:
// one pass gathers that sub-range, and the remaining steps and the ties
// cost no further pass over the row; in shared memory, a sub-range of at
// most Sh::kRankedCapacity entries is ranked directly.
template <class Src, class Sh, class Goal>
__device__ Cut finish_mass(const Src& src, Sh& sh, Pivot floor, Goal goal_of, MassScale scale, bool keep_ties,
                           MassSearch s) {
  const int bits = sh.digit_bits;
  constexpr int kFree = Src::kFreeKeyBits;
  while (s.top > 0) {
    const DigitStep step(s.top, bits, kFree);
    const uint32_t hi = step.above;
    if constexpr (!kScansInOrder<Src>) {
      if (s.counted && s.ties >= 1 && s.ties <= static_cast<uint32_t>(Sh::kRankedCapacity))
        return rank_nucleus(src, sh, floor, hi, scale, keep_ties, s);
    }
    if (kFree > 0 && s.top <= kFree) break;  // the bits left are the sign's
    if (!s.histogram_ready) build_mass_histogram(src, sh, floor, scale, s);
    s.histogram_ready = false;
    if (!s.counted) {  // every entry shares the settled prefix: this is the total
      s.goal = goal_of(double(histogram_mass(sh)));
      s.counted = true;
    }
    choose_digit<true>(sh.hist_count, sh.hist_mass, 0, s.mass_above, s.goal, &sh.choice);
    __syncthreads();
    const DigitChoice c = sh.choice;
    s.prefix |= c.digit << step.shift;
    s.above += c.count_above;
    s.mass_above += c.mass_above;
    s.ties = c.count_in;
    s.top = step.shift;
    if constexpr (kScansInOrder<Src>) {
      if (s.top > kFree && c.count_in <= static_cast<uint32_t>(Sh::kCapacity)) {
        const uint32_t in_range = ~0u << s.top, range_prefix = s.prefix;
        src.gather([&](uint32_t key, uint32_t idx) {
          return at_or_above(key, idx, floor) && (key & in_range) == range_prefix;
        }, sh);
        return finish_mass(src.in_shared(sh), sh, floor, goal_of, scale, keep_ties, s);
      }
    }
  }
  s.prefix = key_with_free_bits(s.prefix, kFree);
  // Equal keys carry equal mass e: keep the fewest of them that reach goal.
  const mass_t e = scale.of(float_of_key(s.prefix));
  const uint32_t ties = s.ties;
  const uint32_t j = ties_to_reach(s.mass_above, e, ties, s.goal);
  const Pivot p = rank_ties(src, sh, floor, s.prefix, j, ties, keep_ties);
  return Cut{p, keep_ties || j >= ties ? s.above + ties : s.above + j};
}

// Keeps the shortest rank-order prefix of the entries at or above floor
// whose mass reaches goal_of(their total mass) (top-p). The total comes
// from the first histogram of the search: no pass of its own.
template <class Src, class Sh, class Goal>
__device__ Cut select_mass(const Src& src, Sh& sh, Pivot floor, Goal goal_of, MassScale scale,
                           bool keep_ties, KeyRange range = {}) {
  return finish_mass(src, sh, floor, goal_of, scale, keep_ties,
                     start_mass_search<Src::kFreeKeyBits>(range, sh.digit_bits));
}

}  // namespace qrita
