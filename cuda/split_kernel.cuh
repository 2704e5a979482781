// Small batches: each row is cut into S parts, one block each, so that a
// handful of rows still keeps every multiprocessor streaming. Every block
// computes its row's sigma threshold (the same sample, so the same
// threshold in every part) and gathers the candidates of its part into its
// own workspace region, with the part's keepable count, largest key and
// rest mass. The last block of the row to arrive loads the S regions in
// part order and decides the kept set exactly as the one-block kernel does
// (the same candidate set, counts and integer mass, so the same bits:
// results do not depend on S or on the batch); the row's other blocks take
// its verdict and write the mask of their own parts. When truncation
// misses, the decider runs the whole-row search and writes the whole row.
// No atomics cross rows, and a row's meeting point (SplitRowSync) is back
// at zero when the kernel ends.
#pragma once

#include "sliced_passes.cuh"
#include "split_regions.cuh"

namespace qrita {

// Called by every thread once this block's region is written: true for the
// last of the row's S blocks to arrive, which decides the row. Nothing
// waits here, so a row's blocks need not be resident together.
template <class Sh>
__device__ bool arrive_at_row(SplitRowSync* sync, int S, Sh& sh) {
  __syncthreads();  // the block's region stores are issued
  if (threadIdx.x == 0) {
    __threadfence();  // ... and seen by any block that sees the arrival
    const bool last = atomicAdd(&sync->arrived, 1u) == static_cast<uint32_t>(S - 1);
    if (last) __threadfence();  // the other parts' regions are read after their arrivals
    sh.choice.digit = last;
  }
  __syncthreads();
  const bool last = sh.choice.digit != 0;
  __syncthreads();  // choice is reused
  return last;
}

// The sliced instance's state of a split row's team (none in the plain
// instance, whose team is as it was before sliced passes).
template <class E, bool kSliced>
struct SlicedTeamState {
  __device__ bool sliced_now() const { return false; }
  __device__ uint32_t slice_count() const { return 0; }
};
template <class E>
struct SlicedTeamState<E, true> {
  typename E::bits_t* row;  // the row, its length,
  uint32_t n;
  uint32_t slices;    // its slices a pass,
  uint32_t row_slot;  // its meeting point's slot,
  uint32_t quorum;    // rows decided before a pass is sliced (kSlicedPassUndecidedShare)
  bool on;            // and whether its passes are sliced (from the first sliced one on)
  __device__ bool sliced_now() const { return on; }
  __device__ uint32_t slice_count() const { return slices; }
};

// The decider's side of a split row's team: the row's other blocks have
// all arrived and wait in serve_decider, so a posted task always runs and
// waiting for it cannot deadlock. Each block runs a task over its own part
// and leaves the result in its region; the decider collects the regions.
// Sliced (sliced_passes.cuh), any block takes the task's slices and adds
// the results to the decider's region; the decider's own pass over its
// part is empty, and it takes slices while it collects. A row's passes are
// sliced from the first one posted when most rows are decided: before,
// the blocks past their parts are too few to pay for a slice's overheads
// (PERFLOG runs 117-118: flat rows, all missing, +43-53 %).
template <class Policy, class E, bool kSliced>
struct SplitTeam : SlicedTeamState<E, kSliced> {
  static constexpr bool kWholeRow = false;
  uint32_t part_lo, part_hi;  // this block's part
  SplitRowSync* sync;
  SliceRegionOf<Policy>* regions;  // the row's, in part order
  int S, s;                        // parts, and this block's
  uint32_t posted;                 // tasks so far

  __device__ uint32_t lo(uint32_t) const { return this->sliced_now() ? 0u : part_lo; }
  __device__ uint32_t hi(uint32_t) const { return this->sliced_now() ? 0u : part_hi; }

  // A histogram task's sums land in this block's region: cleared first;
  // so are a sliced gather's counts.
  __device__ void post(TeamTask t) {
    ++posted;
    if constexpr (kSliced) choose_slicing();
    if (t.kind == TeamTask::kHistogram) {
      t.arg = static_cast<uint32_t>(s);
      PartHistogram& h = regions[s].hist();
      for (int j = threadIdx.x; j < kDigitBins; j += Policy::kBlockThreads) {
        h.count[j] = 0;
        h.mass[j] = 0;
      }
      if (threadIdx.x == 0) regions[s].head.mass_rest = 0;
      __syncthreads();  // cleared before thread 0 posts
    } else if (this->sliced_now() && threadIdx.x == 0) {
      regions[s].head = SliceHeader{0, 0, 0, ~0u, 0, 0};
    }
    if (threadIdx.x == 0) {
      sync->bins_lo = t.bins_lo;
      sync->bins_scale = t.bins_scale;
      sync->top_v = t.top_v;
      sync->max_value = t.max_value;
      unsigned long long word = VerdictWord::task(posted, t);
      if constexpr (kSliced) {
        if (this->on) {
          sync->helped = 0;  // the last task's parts or slices are all counted
          __threadfence();   // the floats before the slices: a block may take one before the word
          atomicExch(&sync->open, OpenSlices::of(posted, s));
          word |= VerdictWord::kSlicedTask;
        }
      }
      __threadfence();  // the floats (and slices) before the word
      atomicExch(&sync->word, word);
    }
  }

  // Pass 1's histograms: this block's is in sh, the others added theirs
  // into this block's region (one load a bin, where reading every part's
  // histogram cost a chain of L2 round trips). Sliced, the region holds
  // them all (sh holds the last slice this block ran).
  template <class P, class Sh>
  __device__ void collect_histogram(Sh& sh, mass_t* low) {
    const PartHistogram& h = regions[s].hist();
    if constexpr (kSliced) {
      if (this->on) {
        take_slices<Policy, E>(this->row, this->n, this->slices, sync, regions, sh);
        await_others();
        for (int j = threadIdx.x; j < kDigitBins; j += Policy::kBlockThreads) {
          sh.hist_count[j] = load_coherent(&h.count[j]);
          sh.hist_mass[j] = load_coherent(&h.mass[j]);
        }
        *low = load_coherent(&regions[s].head.mass_rest);
        __syncthreads();
        return;
      }
    }
    await_others();
    for (int j = threadIdx.x; j < kDigitBins; j += Policy::kBlockThreads) {
      sh.hist_count[j] += load_coherent(&h.count[j]);
      sh.hist_mass[j] += load_coherent(&h.mass[j]);
    }
    *low += load_coherent(&regions[s].head.mass_rest);
    __syncthreads();
  }

  // A gather's candidates: this block's go to its region too, and all are
  // loaded in part order (kStats: with the parts' counts and key range).
  // Sliced, the slices' are all in this block's region.
  template <class P, bool kStats, class Sh>
  __device__ void collect_candidates(Sh& sh) {
    if constexpr (kSliced) {
      if (this->on) {
        take_slices<Policy, E>(this->row, this->n, this->slices, sync, regions, sh);
        await_others();
        load_row_regions<Policy, kStats>(regions + s, 1, sh);
        return;
      }
    }
    publish_part<Policy>(regions[s], sh);
    await_others();  // its barrier also orders this block's stores before the loads
    load_row_regions<Policy, kStats>(regions, S, sh);
  }

 private:
  // Slices the row's passes from now on once at most the quorum's rest of
  // the rows is undecided; the first sliced pass lists the row for the
  // blocks past their parts. Every thread: one barrier.
  __device__ void choose_slicing() {
    if constexpr (kSliced) {
      if (this->on) return;
      bool enough = false;
      if (threadIdx.x == 0)
        enough = *reinterpret_cast<volatile uint32_t*>(&pass_board(sync - this->row_slot)->decided) >= this->quorum;
      this->on = __syncthreads_or(enough) != 0;
      if (this->on && threadIdx.x == 0) list_row(sync - this->row_slot, this->row_slot);
    }
  }

  __device__ void await_others() const {
    if (threadIdx.x == 0) {
      const volatile uint32_t* h = &sync->helped;
      const uint32_t want = this->sliced_now() ? this->slice_count() : static_cast<uint32_t>(S - 1) * posted;
      while (*h < want) sleep_briefly();
      __threadfence();  // their regions are read after their counts
    }
    __syncthreads();
  }
};

// A block that did not decide waits for the decider's word (its row's
// decider is running: every part has arrived), one load a poll. Returns
// the verdict, or a task numbered above `ran` with its floats in *task.
template <class Sh>
__device__ unsigned long long await_word(SplitRowSync* sync, uint32_t ran, TeamTask* task, Sh& sh) {
  if (threadIdx.x == 0) {
    const volatile unsigned long long* v = &sync->word;
    unsigned long long w;
    for (;;) {
      w = *v;
      if ((w & VerdictWord::kLeft) || ((w & VerdictWord::kTask) && VerdictWord::task_number(w) != ran)) break;
      sleep_briefly();
    }
    if (!(w & VerdictWord::kLeft)) {
      __threadfence();  // the floats after the word
      const volatile SplitRowSync* vs = sync;
      sh.scratch_u64[1] = (static_cast<mass_t>(__float_as_uint(vs->bins_scale)) << 32) | __float_as_uint(vs->bins_lo);
      sh.scratch_u64[2] = (static_cast<mass_t>(__float_as_uint(vs->max_value)) << 32) | __float_as_uint(vs->top_v);
    }
    sh.scratch_u64[0] = w;
  }
  __syncthreads();
  const unsigned long long w = sh.scratch_u64[0];
  const mass_t f1 = sh.scratch_u64[1], f2 = sh.scratch_u64[2];
  __syncthreads();  // scratch is reused
  *task = TeamTask{VerdictWord::task_kind(w), static_cast<uint32_t>(w),
                   __uint_as_float(static_cast<uint32_t>(f1)), __uint_as_float(static_cast<uint32_t>(f1 >> 32)),
                   __uint_as_float(static_cast<uint32_t>(f2)), __uint_as_float(static_cast<uint32_t>(f2 >> 32))};
  return w;
}

// Runs a posted task over this block's part [lo, hi) of the row, leaves
// the result in its region and counts itself done.
template <class Policy, class E, class Sh>
__device__ void run_task(typename E::bits_t* row, uint32_t lo, uint32_t hi, const TeamTask& t,
                         SliceRegionOf<Policy>* row_regions, int s, SplitRowSync* sync, Sh& sh) {
  SliceRegionOf<Policy>& reg = row_regions[s];
  const ValueBins bins{t.bins_lo, t.bins_scale};
  if (t.kind == TeamTask::kGather) {
    gather_candidates<Policy, E, false>(row, lo, hi, t.arg, true, sh);
    publish_part<Policy>(reg, sh);
  } else if (t.kind == TeamTask::kHistogram) {
    // Binned passes run only without +Inf in the row (binned_top_p).
    // The sums go to the decider's region (part t.arg), in integers: the
    // order of the adds does not matter.
    const mass_t low = bin_histogram<Policy, E>(row, lo, hi, bins, t.top_v, MassScale{t.max_value, false}, sh);
    add_histogram_to<Policy>(row_regions[t.arg], low, sh);
  } else {
    gather_bin<Policy, E, false>(row, row, lo, hi, bins, t.top_v, t.arg, sh);
    publish_part<Policy>(reg, sh);
  }
  __syncthreads();  // the region's stores are issued
  if (threadIdx.x == 0) {
    __threadfence();  // ... and seen by the decider when it sees the count
    atomicAdd(&sync->helped, 1u);
  }
}

// Rows decided before a row's passes are sliced: all but the
// kSlicedPassUndecidedShare-th part of the batch (every row at once under
// the slice-at-once ablation). A function: as a local of split_items'
// team lambda, nvcc 11.8 warned it was never referenced (#177-D).
template <class Policy>
__device__ __forceinline__ uint32_t sliced_pass_quorum(const TruncateParams& prm) {
  if (prm.ablation & kAblateSliceAtOnce) return 0u;
  const int64_t share = prm.batch / Policy::kSlicedPassUndecidedShare, undecided = share > 0 ? share : 1;
  return static_cast<uint32_t>(prm.batch - undecided);
}

// The items of Items (first(), more(i), next(i)): item i is part i % S
// of the row whose regions and meeting point are slot i / S's, and whose
// logits are row items.row(i / S). Each part is gathered into its region;
// the last of the row's blocks to arrive decides the row, the others run
// the decider's tasks and write their parts. The split kernel's items are
// its rows' (GridItems); the persistent kernel serves a handed-on row's
// parts one at a time (hand_on.cuh). The loop is the split kernel's: a
// function per part made it 1-5 % slower (PERFLOG run 73). With
// items.slices() > 0 (one item a block) the rows' passes are sliced
// (sliced_passes.cuh) and every row decided is counted on the board.
template <class Policy, class E, class Items>
__device__ __forceinline__ void split_items(const TruncateParams& prm, SliceRegionOf<Policy>* regions,
                                            SplitRowSync* syncs, int S, Items items, TruncateShared<Policy>& sh) {
  using bits_t = typename E::bits_t;
  const uint32_t n = static_cast<uint32_t>(prm.vocab);
  using Item = decltype(items.first());
  for (Item item = items.first(); items.more(item); item = items.next(item)) {
    const Item slot = item / static_cast<Item>(S);
    const int64_t r = items.row(slot);
    const int s = static_cast<int>(item % static_cast<Item>(S));
    bits_t* row = static_cast<bits_t*>(prm.logits) + r * prm.row_stride;
    const RowAsk ask(prm.k ? prm.k[r] : 0, prm.p ? prm.p[r] : 1.0f, n);
    uint32_t lo, hi;
    slice_bounds(n, s, S, &lo, &hi);
    RowCounters counters = row_counters(prm, r, s == 0);
    if (!ask.any()) {  // nothing to decide: only NaN changes
      counters.outcome(0, true);
      if (items.slices() && s == 0 && threadIdx.x == 0) atomicAdd(&pass_board(syncs)->decided, 1u);
      write_mask<Policy, E>(row, lo, hi, RowPlan{Cut{kPivotAll, 0}, false}, sh);
      __syncthreads();
      continue;
    }
    RowSample<Policy, E> smp;
    smp.load(row, n);
    // The part moves to the L2 while the threshold waits for the sample:
    // the gather's loads then wait for the L2 only.
    if (prm.split_prefetch) prefetch_row_l2<E, Policy::kBlockThreads>(row + lo, hi - lo);
    const uint32_t key_thr = row_threshold<Policy, E>(smp, n, ask, prm.ablation, sh);
    counters.lap(RowCounters::kThreshold);
    gather_candidates<Policy, E, false>(row, lo, hi, key_thr, ask.want_p && !ask.want_k, sh);
    counters.lap(RowCounters::kGather);
    publish_part<Policy>(regions[item], sh);
    SplitRowSync* sync = syncs + slot;
    if (arrive_at_row(sync, S, sh)) {
      RowCounters decided = row_counters(prm, r);
      load_row_regions<Policy, true>(regions + slot * S, S, sh);
      const uint32_t cands = sh.cand_count;
      using Team = SplitTeam<Policy, E, Items::kSliced>;
      Team team = [&] {
        if constexpr (Items::kSliced) {
          return Team{{row, n, items.slices(), static_cast<uint32_t>(slot), sliced_pass_quorum<Policy>(prm), false},
                      lo, hi, sync, regions + slot * S, S, s, 0};
        } else {
          return Team{{}, lo, hi, sync, regions + slot * S, S, s, 0};
        }
      }();
      const RowPlan plan = decide_row<Policy, E, Team>(row, n, ask, prm.keep_ties != 0, prm.ablation, key_thr, true,
                                                       row, team, sh);
      decided.lap(RowCounters::kDecide);
      decided.outcome(cands, plan.hit());
      // Sliced passes ran: the row's other blocks have left, and the mask
      // is a last sliced pass (unless the passes wrote the row).
      const bool sliced = team.sliced_now();
      if (threadIdx.x == 0) {
        if (!sliced) {
          atomicExch(&sync->word, VerdictWord::of(plan));
          if (items.slices()) atomicAdd(&pass_board(syncs)->decided, 1u);
        } else if (!plan.rest_written) {
          open_write_pass(sync, team.posted, s, plan.cut.pivot);
        }
      }
      if (sliced && !plan.rest_written) {
        __syncthreads();  // the pass is open
        take_slices<Policy, E>(row, n, items.slices(), sync, regions + slot * S, sh);
      } else {
        // What is left of a written row are candidates, anywhere in it.
        write_mask<Policy, E>(row, plan.rest_written ? 0 : lo, plan.rest_written ? n : hi, plan, sh);
      }
      if (sliced && threadIdx.x == 0) close_sliced_row(sync, S, pass_board(syncs));
      decided.lap(RowCounters::kWrite);
    } else {
      // Run the decider's tasks until its verdict, then write this part:
      // write-only from this part's candidates (the decider's, in this
      // part), else read-compare-write against the pivot. At the first
      // sliced task the block leaves: any block takes the slices
      // (help_listed_rows, after the item loop) and the decider writes the
      // row in slices.
      uint32_t ran = 0;
      TeamTask task;
      unsigned long long w;
      while (!((w = await_word(sync, ran, &task, sh)) & VerdictWord::kLeft)) {
        if (items.slices() && (w & VerdictWord::kSlicedTask)) break;
        run_task<Policy, E>(row, lo, hi, task, regions + slot * S, s, sync, sh);
        ran = VerdictWord::task_number(w);
      }
      if (w & VerdictWord::kLeft) {
        const bool write_only = (w & VerdictWord::kWriteOnly) != 0 && ran == 0;
        if (!(w & VerdictWord::kRowWritten))
          write_mask<Policy, E>(row, lo, hi, RowPlan{Cut{VerdictWord::pivot(w), 0}, write_only}, sh);
        leave_row(sync, S);
      } else if (threadIdx.x == 0) {
        atomicAdd(&sync->arrived, 1u);  // the decider closes the row (close_sliced_row)
      }
    }
    __syncthreads();  // shared memory is reused by the next item
  }
}

// The split kernel's items: block b takes b, b + grid, ... of batch x S,
// each a part of its own row. The bounds are read from the launch at
// each trip, not held in registers across the item body, as the loop in
// the kernel had them (PERFLOG run 74). kSliced: the launch's sliced
// passes (launch_split); without, their code is not compiled in.
template <bool kSlicedPasses>
struct GridItems {
  static constexpr bool kSliced = kSlicedPasses;
  const TruncateParams& prm;
  int S;
  __device__ int64_t first() const { return blockIdx.x; }
  __device__ bool more(int64_t item) const { return item < prm.batch * S; }
  __device__ int64_t next(int64_t item) const { return item + gridDim.x; }
  __device__ int64_t row(int64_t slot) const { return slot; }
  __device__ uint32_t slices() const { return kSlicedPasses ? static_cast<uint32_t>(prm.hand_on_slices) : 0u; }
};

// One kernel: every block gathers its part of a row into its region; the
// last of the row's blocks to arrive loads the S regions, decides the row
// as the one-block kernel does and writes its part; the others run the
// passes over the row that the decider posts (when truncation missed),
// then take its verdict and write their parts, write-only from the
// candidates they gathered when the kept entries are among them. Only
// blocks whose row has fully arrived wait, and for a running block, so
// there is no deadlock whatever the residency. One kernel, where a finish
// kernel waited for the whole grid of a gather kernel: 3-16 % faster from
// B=4 up (PERFLOG run 58). kSliced: a top-p call of few parts a row
// whose missed rows' passes are sliced (launch_split), its own instance:
// compiled into one kernel, the passes' code made every split call 1-9 %
// slower (PERFLOG run 117: the kernel spilled 56 / 84 bytes, fp32, against
// 36 / 84).
template <class Policy, class E, bool kSliced>
__global__ void __launch_bounds__(Policy::kBlockThreads, Policy::kMinBlocksPerSM)
    split_rows_kernel(TruncateParams prm) {
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  auto& sh = *reinterpret_cast<TruncateShared<Policy>*>(shared_bytes);
  await_previous_grid();
  if (threadIdx.x == 0) sh.digit_bits = (prm.ablation & kAblateBinarySearch) ? 1 : kDigitBits;
  const int S = prm.split_slices;
  split_items<Policy, E>(prm, static_cast<SliceRegionOf<Policy>*>(prm.split_ws),
                         static_cast<SplitRowSync*>(prm.split_sync), S, GridItems<kSliced>{prm, S}, sh);
  if (kSliced)  // one item a block
    help_listed_rows<Policy, E>(prm.logits, prm.row_stride, static_cast<uint32_t>(prm.vocab), prm.batch,
                                static_cast<SliceRegionOf<Policy>*>(prm.split_ws),
                                static_cast<SplitRowSync*>(prm.split_sync), prm.split_slices,
                                static_cast<uint32_t>(prm.hand_on_slices), blockIdx.x / S, sh);
}

}  // namespace qrita
