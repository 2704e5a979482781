// Sliced passes. A split row of few parts whose truncation misses runs its
// whole-row passes (the second top-p gather, the value-binned histogram,
// the bin's gather) on its own S blocks, each over its part, while most of
// the grid has finished: at 128 x 262208 one such row held a 70 us call
// to 274 us (PERFLOG run 113). Here its decider cuts each pass into
// slices, and any block takes the next slice with an atomic add: the
// decider, the row's other blocks and blocks past their own parts, which
// find the row on a board. Histogram counts and masses add by integer
// atomics into the decider's region, and a gather's candidates are
// appended there in any order with their counts (a buffer's order never
// decides a cut: rank_ties searches the index), so the bits are those of
// the row's own team (TestGPUHandedOnRowsMatchInPlace, against the
// in-place ablation). A row's passes are sliced from the first one its
// decider posts once most rows are decided (SplitTeam::choose_slicing).
// After its verdict the decider writes the row the same way, in slices of
// a last pass, so the row's other blocks leave at its first sliced task
// with nothing owed (a part owed after the item loop made the
// kernel spill 36 / 84 -> 92 / 480 bytes, fp32 stores / loads). A slice is
// run by a block that took it and waits for nothing, so the decider, which
// takes slices until none is left and then waits for the taken ones,
// always progresses.
#pragma once

#include "binned_topp.cuh"
#include "split_regions.cuh"

namespace qrita {

// Rows that may post sliced passes to the blocks past their parts; the
// rest are sliced for their own blocks only.
constexpr int kPassBoardSlots = 16;

// The split kernel's board, in the room of the hand-on list (the two
// kernels never run in one call). Zero between calls: the last block to
// leave resets it.
struct PassBoard {
  uint32_t listed;   // rows that posted a sliced pass (those past the slots are not listed)
  uint32_t decided;  // rows decided, or with nothing to decide
  uint32_t exited;   // blocks gone
  uint32_t unused;
  uint32_t rows[kPassBoardSlots];  // row slot + 1; 0 until written
};
static_assert(sizeof(PassBoard) <= kHandOnListBytes, "the board fits the hand-on list's room");

__device__ __forceinline__ PassBoard* pass_board(SplitRowSync* syncs) {
  return reinterpret_cast<PassBoard*>(reinterpret_cast<char*>(syncs) - kHandOnListBytes);
}

// SplitRowSync::open: the posted task's number (from 1; kWritePass: the
// mask's pass, after the verdict), the decider's part (where the slices'
// results go) and the next slice to take. Taking adds one; values at or
// past the slice count take nothing, so adds after the last slice are
// harmless, and so are those of task 0 (the word after the row closed).
struct OpenSlices {
  static constexpr uint32_t kSliceBits = 24;
  static constexpr uint32_t kWritePass = 1u << 31;
  __device__ static unsigned long long of(uint32_t task, int part) {
    return (static_cast<unsigned long long>(task) << 32) | (static_cast<unsigned long long>(part) << kSliceBits);
  }
  __device__ static uint32_t task(unsigned long long o) { return static_cast<uint32_t>(o >> 32); }
  __device__ static int part(unsigned long long o) { return static_cast<int>((o >> kSliceBits) & 0xff); }
  __device__ static uint32_t slice(unsigned long long o) { return static_cast<uint32_t>(o) & ((1u << kSliceBits) - 1); }
};

// Thread 0: the open word of a slice this block took, or 0 when the
// row's posted task has no slice left (or none was posted).
__device__ __forceinline__ unsigned long long take_slice(SplitRowSync* sync, uint32_t slices) {
  const unsigned long long seen = *reinterpret_cast<volatile unsigned long long*>(&sync->open);
  if (OpenSlices::task(seen) == 0 || OpenSlices::slice(seen) >= slices) return 0;  // nothing to add for
  const unsigned long long o = atomicAdd(&sync->open, 1ull);
  if (OpenSlices::task(o) == 0 || OpenSlices::slice(o) >= slices) return 0;
  __threadfence();  // the task's word and floats are read after the take
  return o;
}

// Adds this block's gather (the candidates in sh and, with kStats, their
// counts and key range) to a region shared by many blocks: slots are
// reserved by an atomic add on its count, so candidates past the buffer
// are counted and dropped, as one gather drops them.
template <class Policy, bool kStats, class Sh>
__device__ void append_to_region(SliceRegionOf<Policy>& reg, Sh& sh) {
  constexpr uint32_t kCap = Policy::kCandidateCapacity;
  const uint32_t got = sh.cand_count;
  if (threadIdx.x == 0) {
    sh.choice.digit = got ? atomicAdd(&reg.head.count, got) : 0u;
    if (kStats && sh.n_keepable) {
      atomicAdd(&reg.head.keepable, sh.n_keepable);
      atomicMax(&reg.head.max_key, sh.max_key);
      atomicMin(&reg.head.min_key, sh.min_key);
    }
    if (kStats && sh.mass_rest) atomicAdd(&reg.head.mass_rest, sh.mass_rest);
  }
  __syncthreads();
  const uint32_t at = sh.choice.digit;
  const uint32_t kept = min(got, at < kCap ? kCap - at : 0u);
  for (uint32_t i = threadIdx.x; i < kept; i += Policy::kBlockThreads) {
    reg.bits[at + i] = sh.cand_bits[i];
    reg.idx[at + i] = sh.cand_idx[i];
  }
  __syncthreads();  // choice is reused
}

// Adds this block's value-bin histogram (in sh) and its mass below the
// bins to the decider's region, in integers: the order of the adds does
// not matter.
template <class Policy, class Sh>
__device__ void add_histogram_to(SliceRegionOf<Policy>& dst, mass_t low, Sh& sh) {
  for (int j = threadIdx.x; j < kDigitBins; j += Policy::kBlockThreads) {
    if (sh.hist_count[j]) atomicAdd(&dst.hist().count[j], sh.hist_count[j]);
    if (sh.hist_mass[j]) atomicAdd(&dst.hist().mass[j], sh.hist_mass[j]);
  }
  if (threadIdx.x == 0 && low) atomicAdd(&dst.head.mass_rest, low);
}

// Runs the slice taken as `taken` of the row's posted task, its results
// added to the decider's region, and counts it. The task is read now: the
// decider posts no other before this slice is counted. Its floats were
// stored before the slices opened; its word, after: a block that found
// the row listed at an earlier task may take a slice first, and waits
// for the word (its decider is running).
template <class Policy, class E, class Sh>
__device__ void run_slice(typename E::bits_t* row, uint32_t n, unsigned long long taken, uint32_t slices,
                          SplitRowSync* sync, SliceRegionOf<Policy>* row_regions, Sh& sh) {
  uint32_t lo, hi;
  slice_bounds(n, static_cast<int>(OpenSlices::slice(taken)), static_cast<int>(slices), &lo, &hi);
  if (OpenSlices::task(taken) & OpenSlices::kWritePass) {
    // The mask against the verdict's pivot (open_write_pass), read,
    // compared and written: not counted, as nothing waits for it.
    const volatile uint32_t* pv = reinterpret_cast<const volatile uint32_t*>(&sync->bins_lo);
    const Pivot pivot{pv[0], pv[1]};
    write_mask<Policy, E>(row, lo, hi, RowPlan{Cut{pivot, 0}, false}, sh);
    __syncthreads();  // shared memory is reused
    return;
  }
  if (threadIdx.x == 0) {
    const volatile SplitRowSync* vs = sync;
    unsigned long long w;
    const uint32_t number = OpenSlices::task(taken) & 0xff;  // as the word holds it
    while (!((w = vs->word) & VerdictWord::kTask) || VerdictWord::task_number(w) != number) sleep_briefly();
    sh.scratch_u64[0] = w;
    sh.scratch_u64[1] = (static_cast<mass_t>(__float_as_uint(vs->bins_scale)) << 32) | __float_as_uint(vs->bins_lo);
    sh.scratch_u64[2] = (static_cast<mass_t>(__float_as_uint(vs->max_value)) << 32) | __float_as_uint(vs->top_v);
  }
  __syncthreads();
  const unsigned long long w = sh.scratch_u64[0];
  const mass_t f1 = sh.scratch_u64[1], f2 = sh.scratch_u64[2];
  __syncthreads();  // scratch is reused
  const uint32_t kind = VerdictWord::task_kind(w), arg = static_cast<uint32_t>(w);
  const ValueBins bins{__uint_as_float(static_cast<uint32_t>(f1)), __uint_as_float(static_cast<uint32_t>(f1 >> 32))};
  const float top_v = __uint_as_float(static_cast<uint32_t>(f2));
  const float max_value = __uint_as_float(static_cast<uint32_t>(f2 >> 32));
  SliceRegionOf<Policy>& dst = row_regions[OpenSlices::part(taken)];
  if (kind == TeamTask::kGather) {
    gather_candidates<Policy, E, false>(row, lo, hi, arg, true, sh);
    append_to_region<Policy, true>(dst, sh);
  } else if (kind == TeamTask::kHistogram) {
    const mass_t low = bin_histogram<Policy, E>(row, lo, hi, bins, top_v, MassScale{max_value, false}, sh);
    add_histogram_to<Policy>(dst, low, sh);
  } else {
    gather_bin<Policy, E, false>(row, row, lo, hi, bins, top_v, arg, sh);
    append_to_region<Policy, false>(dst, sh);
  }
  __syncthreads();  // the slice's results are issued
  if (threadIdx.x == 0) {
    __threadfence();  // ... and seen by the decider when it sees the count
    atomicAdd(&sync->helped, 1u);
  }
}

// Takes and runs the row's slices until none is left. Not inlined: the
// three passes inlined at its three callers made the split kernel spill
// 36 / 84 -> 72 / 368 bytes (fp32 stores / loads, nvcc 11.8, sm_90).
template <class Policy, class E, class Sh>
__device__ __noinline__ void take_slices(typename E::bits_t* row, uint32_t n, uint32_t slices, SplitRowSync* sync,
                            SliceRegionOf<Policy>* row_regions, Sh& sh) {
  for (;;) {
    if (threadIdx.x == 0) sh.scratch_u64[0] = take_slice(sync, slices);
    __syncthreads();
    const unsigned long long taken = sh.scratch_u64[0];
    __syncthreads();  // scratch is reused
    if (!taken) return;
    run_slice<Policy, E>(row, n, taken, slices, sync, row_regions, sh);
  }
}

// How long a block past its parts waits for a slice without taking one
// before it leaves although rows are undecided (SM cycles, ~0.5 ms): with
// every block resident (the launcher's grid) it leaves when every row is
// decided; the bound keeps it from holding a multiprocessor that a part of
// the call needs when another kernel shares the GPU.
constexpr long long kHelperPatienceCycles = 1ll << 20;

// Warp 0 of a block past its parts: a slice of a listed row, taken, as
// (the open word, the row's slot), or (0, 0). Each lane looks at one
// slot of the board at once (looked at in turn, 16 rows took 16 chains
// of L2 round trips); the listed rows are tried in list order.
__device__ __forceinline__ unsigned long long take_listed_slice(const volatile PassBoard* board,
                                                                SplitRowSync* syncs, uint32_t slices,
                                                                uint32_t* slot) {
  static_assert(kPassBoardSlots <= kWarpSize, "one lane a board slot");
  const uint32_t listed = min(board->listed, static_cast<uint32_t>(kPassBoardSlots));
  const uint32_t lane = static_cast<uint32_t>(lane_id());
  const uint32_t slot1 = lane < listed ? board->rows[lane] : 0u;  // 0: listed, not yet written
  bool open = false;
  if (slot1) {
    const unsigned long long o = *reinterpret_cast<volatile unsigned long long*>(&syncs[slot1 - 1].open);
    open = OpenSlices::task(o) != 0 && OpenSlices::slice(o) < slices;
  }
  for (lane_mask_t m = warp_ballot(open); m; m &= m - 1) {
    const int first = lowest_lane(m);
    unsigned long long taken = 0;
    if (static_cast<int>(lane) == first) taken = take_slice(&syncs[slot1 - 1], slices);
    taken = warp_shfl(taken, first);
    if (taken) {
      *slot = warp_shfl(slot1, first) - 1;
      return taken;
    }
  }
  return 0;
}

// Every block once its part is done: takes slices of its own row's passes
// (the row of slot `own`; its open word is 0 when it posted none), else of
// the listed rows', while some row is undecided; the last block to leave
// resets the board. Not inlined, its arguments by value: the item loop
// keeps its registers (the persistent kernel's server, PERFLOG runs
// 67-70).
template <class Policy, class E>
__device__ __noinline__ void help_listed_rows(void* logits, int64_t row_stride, uint32_t n, int64_t batch,
                                              SliceRegionOf<Policy>* regions, SplitRowSync* syncs, int S,
                                              uint32_t slices, int64_t own, TruncateShared<Policy>& sh) {
  using bits_t = typename E::bits_t;
  PassBoard* board = pass_board(syncs);
  const volatile PassBoard* v = board;
  long long idle_since = device_clock();
  __syncthreads();  // the block's last item is done with shared memory
  for (;;) {
    // scratch: what was taken, and the row's slot (~0: leave).
    if (warp_id() == 0) {
      unsigned long long taken = 0, where = static_cast<unsigned long long>(own);
      if (own < batch && lane_id() == 0) taken = take_slice(syncs + own, slices);
      taken = warp_shfl(taken, 0);
      if (!taken) {
        uint32_t slot = 0;
        taken = take_listed_slice(v, syncs, slices, &slot);
        where = slot;
      }
      if (lane_id() == 0) {
        if (!taken) {
          if (v->decided >= batch || device_clock() - idle_since > kHelperPatienceCycles) where = ~0ull;
          else sleep_briefly();
        }
        sh.scratch_u64[0] = taken;
        sh.scratch_u64[1] = where;
      }
    }
    __syncthreads();
    const unsigned long long taken = sh.scratch_u64[0], where = sh.scratch_u64[1];
    __syncthreads();  // scratch is reused
    if (taken) {
      run_slice<Policy, E>(static_cast<bits_t*>(logits) + static_cast<int64_t>(where) * row_stride, n, taken, slices,
                           syncs + where, regions + where * S, sh);
      idle_since = device_clock();
    } else if (where == ~0ull) {
      break;
    }
  }
  if (threadIdx.x == 0 && atomicAdd(&board->exited, 1u) == gridDim.x - 1) {
    for (int i = 0; i < kPassBoardSlots; ++i) board->rows[i] = 0;
    board->listed = 0;
    board->decided = 0;
    board->exited = 0;
  }
}

// The decider of a row that ran sliced passes, thread 0, with its verdict
// (not write-only: the row was read): opens the mask's pass, its pivot in
// the task's floats, for any block to take (run_slice).
__device__ __forceinline__ void open_write_pass(SplitRowSync* sync, uint32_t posted, int part, Pivot pv) {
  volatile uint32_t* f = reinterpret_cast<volatile uint32_t*>(&sync->bins_lo);
  f[0] = pv.key;
  f[1] = pv.idx;
  __threadfence();  // the pivot before the slices
  atomicExch(&sync->open, OpenSlices::of((posted + 1) | OpenSlices::kWritePass, part));
}

// The decider of a row that ran sliced passes, thread 0, once its mask's
// slices are all taken: counts the row decided and, when the row's other
// blocks have all left (at its first task, each adding one to arrived),
// sets the meeting point back to zero. They are resident and see the task
// word, which stays until then, so the wait is short. Slices still running
// read neither the word nor the count; takes of the open word after it is
// zero take nothing.
__device__ __forceinline__ void close_sliced_row(SplitRowSync* sync, int S, PassBoard* board) {
  atomicAdd(&board->decided, 1u);
  const volatile uint32_t* arrived = &sync->arrived;
  while (*arrived != static_cast<uint32_t>(2 * S - 1)) sleep_briefly();
  atomicExch(&sync->open, 0ull);
  atomicExch(&sync->word, 0ull);
  atomicExch(&sync->helped, 0u);
  atomicExch(&sync->arrived, 0u);
}

// Thread 0 of a decider posting its row's first sliced pass: lists the
// row for the blocks past their parts, if a slot is free.
__device__ __forceinline__ void list_row(SplitRowSync* syncs, uint32_t slot) {
  PassBoard* board = pass_board(syncs);
  const uint32_t i = atomicAdd(&board->listed, 1u);
  if (i < static_cast<uint32_t>(kPassBoardSlots)) atomicExch(&board->rows[i], slot + 1);
}

}  // namespace qrita
