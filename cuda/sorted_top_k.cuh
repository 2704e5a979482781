// Top-k over a row's candidates by sorting them: a bitonic network over
// (key, index) words held in registers. Strides within a thread or a warp
// run without a barrier (registers, then shuffles); only strides across
// warps pass through shared memory, one barrier each. For the few hundred
// candidates of an LLM row's top-k, this replaces a digit step (three
// barriers and warp 0's serial pick), a compaction and a ranking, and it
// leaves the top ranks in sh.ranked_* as rank_entries does, so the ranked
// top-p and the id output take them as they are.
#pragma once

#include "direct_rank.cuh"
#include "select.cuh"

namespace qrita {

// A candidate's place in rank order as one integer: key descending, then
// index ascending (the stable-sort rule), so a larger word ranks earlier.
// Zero (NaN's key) ranks below every candidate: the padding.
__device__ __forceinline__ unsigned long long rank_word(uint32_t key, uint32_t idx) {
  return (static_cast<unsigned long long>(key) << 32) | ~idx;
}
__device__ __forceinline__ uint32_t rank_word_key(unsigned long long w) { return static_cast<uint32_t>(w >> 32); }
__device__ __forceinline__ uint32_t rank_word_idx(unsigned long long w) { return ~static_cast<uint32_t>(w); }

// Element e's side of a compare-exchange with its partner e ^ gap, in a
// run of `run` elements: the lower element of a descending run keeps the
// larger word, as does the upper element of an ascending one.
__device__ __forceinline__ unsigned long long bitonic_side(unsigned long long a, unsigned long long b, uint32_t e,
                                                           uint32_t gap, uint32_t run) {
  const bool lower = (e & gap) == 0, descending = (e & run) == 0;
  const bool larger = a > b;
  return (lower == descending) == larger ? a : b;
}

// log2 of a power of two, -1 for any other size.
constexpr int log2_exact(int size) {
  int l = 0;
  while ((1 << l) < size) ++l;
  return (1 << l) == size ? l : -1;
}

// Strides across warps (a barrier each) in the network over kSize
// elements with kPer a thread.
template <int kSize, int kPer>
constexpr int strides_across_warps() {
  int across = 0;
  for (int run = 2; run <= kSize; run *= 2)
    for (int gap = run / 2; gap > 0; gap /= 2) across += gap >= kPer * kWarpSize;
  return across;
}

// Whether that network's last stride across warps used stage1 (an even
// number of them: they alternate from stage0), so that stage0 is free at
// once.
template <int kSize, int kPer>
constexpr bool sorted_network_parity() {
  constexpr int across = strides_across_warps<kSize, kPer>();
  return across > 0 && across % 2 == 0;
}

// The bitonic network over kSize elements, element e = thread x kPer + j
// in w[j] of its thread; the block holds twice as many words, so the
// second half of its warps hold only padding. Every loop is unrolled, so
// each stage is straight-line code: its gap and run are constants, the
// words stay in registers, and the only branches are the barriers of the
// strides across warps (a loop over the stages cost a few branches a
// stage and made the sort slower than the digit search: PERFLOG run 90).
// The padding warps sit the network out, meeting only its barriers; on
// AMD, without unaligned barriers, they run it over their padding. stage0
// and stage1 hold kThreads x kPer words each.
template <int kSize, int kThreads, int kPer>
__device__ __forceinline__ void bitonic_network(unsigned long long (&w)[kPer], unsigned long long* stage0,
                                                unsigned long long* stage1) {
  constexpr int kWarpSpan = kPer * kWarpSize;  // elements a warp holds
  constexpr int kLog = log2_exact(kSize);
  static_assert(kLog >= 1, "a power of two of at least two elements");
  constexpr int kSorters = kSize / kPer;  // threads holding the kSize elements
  static_assert(kSorters % kWarpSize == 0 && 2 * kSorters == kThreads, "the first half of the warps sort");
  const uint32_t e0 = threadIdx.x * kPer;
  if (kUnalignedBarriers && threadIdx.x >= static_cast<unsigned>(kSorters)) {
#pragma unroll 1
    for (int i = 0; i < strides_across_warps<kSize, kPer>(); ++i) sync_block_unaligned();
    return;
  }
  int parity = 0;  // the shared buffer of the next stride across warps
#pragma unroll
  for (int lr = 1; lr <= kLog; ++lr) {
#pragma unroll
    for (int lg = lr - 1; lg >= 0; --lg) {
      const uint32_t run = 1u << lr, gap = 1u << lg;
      if (gap >= static_cast<uint32_t>(kWarpSpan)) {
        // Across warps: word j of thread t sits at j x kThreads + t (a
        // warp's stores and loads touch consecutive words). The next such
        // stage stores to the other buffer: no barrier before it.
        unsigned long long* s = parity ? stage1 : stage0;
        parity ^= 1;
#pragma unroll
        for (int j = 0; j < kPer; ++j) s[j * kThreads + threadIdx.x] = w[j];
        sync_block_unaligned();
        const uint32_t partner = threadIdx.x ^ (gap / kPer);
#pragma unroll
        for (int j = 0; j < kPer; ++j) w[j] = bitonic_side(w[j], s[j * kThreads + partner], e0 + j, gap, run);
      } else if (gap >= static_cast<uint32_t>(kPer)) {
#pragma unroll
        for (int j = 0; j < kPer; ++j)
          w[j] = bitonic_side(w[j], warp_shfl_xor(w[j], static_cast<int>(gap / kPer)), e0 + j, gap, run);
      } else {
        // Within a thread: both words of a pair are here (run > gap, so
        // the pair shares its direction).
#pragma unroll
        for (int j = 0; j < kPer; ++j) {
          if ((j & gap) != 0) continue;
          const int i = j | static_cast<int>(gap);
          const unsigned long long a = w[j], b = w[i];
          const bool keep = (((e0 + j) & run) == 0) == (a > b);
          w[j] = keep ? a : b;
          w[i] = keep ? b : a;
        }
      }
    }
  }
}

// Sorts the first n candidates of sh (at most kSize, with 2 kSize /
// kThreads words a thread) into rank order and takes the first k
// (1 <= k <= n): the cut select_rank would find, with the first
// min(n, kRanked) ranks left in sh.ranked_key / ranked_idx and, for
// KeepTies (whose top-p reads them), their runs in sh.hist_count (first
// and last rank of each value among them). Its two staging buffers are
// the candidate buffer's second half, free while n fits the first. Not
// inlined: the network's words stay out of the caller's registers.
template <int kThreads, int kSize, class E, class Sh>
__device__ __noinline__ Cut sorted_top_k(Sh& sh, uint32_t n, uint32_t k, bool keep_ties) {
  // Half the block's warps sort, two words or more a thread: fewer
  // barriers than one word on every thread (PERFLOG run 91).
  constexpr int kPer = 2 * kSize / kThreads;  // words a thread holds
  constexpr int kWords = kPer * kThreads;     // a staging buffer's
  static_assert(kPer >= 1 && (kPer & (kPer - 1)) == 0, "a power of two of words a thread");
  static_assert(2 * kWords * sizeof(unsigned long long) <= Sh::kCapacity * sizeof(uint32_t),
                "the two staging buffers fit the candidate buffer's second half");
  constexpr uint32_t kRanked = Sh::kRankedCapacity;
  unsigned long long* stage0 = reinterpret_cast<unsigned long long*>(sh.cand_bits + Sh::kCapacity / 2);
  unsigned long long* stage1 = reinterpret_cast<unsigned long long*>(sh.cand_idx + Sh::kCapacity / 2);
  const uint32_t e0 = threadIdx.x * kPer;
  unsigned long long w[kPer];
#pragma unroll
  for (int j = 0; j < kPer; ++j) {
    const uint32_t e = e0 + j;
    w[j] = e < n ? rank_word(key_of(E::to_float(static_cast<typename E::bits_t>(sh.cand_bits[e]))), sh.cand_idx[e])
                 : 0ull;
  }
  bitonic_network<kSize, kThreads, kPer>(w, stage0, stage1);
  constexpr bool second = sorted_network_parity<kSize, kPer>();  // its last stride across warps used stage1
  // Keys and indices by rank, in the buffer the last stride across warps
  // did not read (its readers passed that stage's barrier).
  uint32_t* rank_key = reinterpret_cast<uint32_t*>(second ? stage0 : stage1);
  uint32_t* rank_idx = rank_key + kWords;
#pragma unroll
  for (int j = 0; j < kPer; ++j) {
    const uint32_t e = e0 + j;
    if (e < n) {
      rank_key[e] = rank_word_key(w[j]);
      rank_idx[e] = rank_word_idx(w[j]);
    }
  }
  __syncthreads();
  // The last rank holding key v, searched from rank `from` (which holds it).
  const auto last_of = [&](uint32_t v, uint32_t from) {
    uint32_t lo = from, hi = n - 1;
    while (lo < hi) {
      const uint32_t mid = (lo + hi + 1) / 2;
      if (rank_key[mid] == v) lo = mid; else hi = mid - 1;
    }
    return lo;
  };
  const uint32_t ranked = min(n, kRanked);
  for (uint32_t e = threadIdx.x; e < ranked; e += kThreads) {
    sh.ranked_key[e] = rank_key[e];
    sh.ranked_idx[e] = rank_idx[e];
    if (keep_ties) {
      const uint32_t v = rank_key[e];
      uint32_t lo = 0, hi = e;  // the first rank holding v
      while (lo < hi) {
        const uint32_t mid = (lo + hi) / 2;
        if (rank_key[mid] > v) lo = mid + 1; else hi = mid;
      }
      sh.hist_count[e] = lo | min(last_of(v, e), ranked - 1) << 16;
    }
  }
  // The cut, on every thread: the whole key when its ties are all kept
  // (select_rank's rule), else the k-th entry itself.
  const uint32_t v = rank_key[k - 1];
  Cut cut{Pivot{v, kAnyIndex}, k, ranked};
  if (keep_ties) {
    cut.kept = last_of(v, k - 1) + 1;
  } else if (k < n && rank_key[k] == v) {
    cut.pivot.idx = rank_idx[k - 1];
  }
  __syncthreads();  // the ranks are in place; the buffers are free again
  return cut;
}

}  // namespace qrita
