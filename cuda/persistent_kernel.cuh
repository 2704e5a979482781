// The persistent kernel: one block per row, over the rows of a batch
// larger than the multiprocessor count (truncate_kernel.cuh's steps), and
// the rows its blocks hand on (hand_on.cuh), served as split rows
// (split_kernel.cuh) by the blocks that have run out of rows.
#pragma once

#include "hand_on.cuh"
#include "split_kernel.cuh"
#include "truncate_kernel.cuh"

namespace qrita {

// One part of a listed row, split_items' source in the server: its region
// and meeting point are its group's (enter_listed_part), its logits the
// row's. The part number
// is 32-bit: divided as a 64-bit one, it made the server spill 296 bytes
// of loads where this takes 132 (PERFLOG run 74).
struct ListedPart {
  static constexpr bool kSliced = false;
  uint32_t part;
  int64_t listed_row;
  __device__ uint32_t first() const { return part; }
  __device__ bool more(uint32_t item) const { return item == part; }
  __device__ uint32_t next(uint32_t item) const { return item + 1; }
  __device__ int64_t row(uint32_t) const { return listed_row; }
  __device__ uint32_t slices() const { return 0; }  // a listed row's passes are its parts'
};

// A block past its own rows takes listed rows' parts while there are any
// (the last S blocks to finish: until every block has finished and every
// listed part is taken), each in its row's group (enter_listed_part); the
// last block to leave resets the list. Not
// inlined, and called after the row loop: the loop keeps its registers
// (PERFLOG run 70).
template <class Policy, class E>
__device__ __noinline__ void serve_handed_on_rows(const TruncateParams& kernel_prm, TruncateShared<Policy>& sh) {
  // A copy: taken by value at the call, or used by reference here, the
  // parameters made the kernel spill more (nvcc 11.8, sm_90: fp32 60 and
  // 104 bytes of spill stores, this way 48; main's kernel 52).
  TruncateParams prm = kernel_prm;
  HandOnList* list = hand_on_list(prm);
  auto* regions = static_cast<SliceRegionOf<Policy>*>(prm.split_ws);
  auto* syncs = static_cast<SplitRowSync*>(prm.split_sync);
  const int S = prm.hand_on_slices;
  prm.split_prefetch = 0;  // two blocks a multiprocessor (launch_split)
  __syncthreads();         // the block's last row is done with shared memory
  if (threadIdx.x == 0) {
    __threadfence();  // the rows this block listed are seen with its count
    const uint32_t order = atomicAdd(&list->finished, 1u);
    sh.choice.digit = order + S >= gridDim.x;  // one of the last S: stays
  }
  __syncthreads();
  const bool stays = sh.choice.digit != 0;
  for (;;) {
    if (threadIdx.x == 0) {
      unsigned long long claim = claim_listed_part(list, S, gridDim.x, stays);
      // The part's item: its group's regions and meeting point, once free.
      if (claim != kNoPart) claim = (claim >> 32 << 32) | enter_listed_part(list, static_cast<uint32_t>(claim), S);
      sh.scratch_u64[0] = claim;
    }
    __syncthreads();
    const unsigned long long claim = sh.scratch_u64[0];
    __syncthreads();  // scratch is reused
    if (claim == kNoPart) break;
    const uint32_t item = static_cast<uint32_t>(claim);
    const int64_t row = static_cast<int64_t>(claim >> 32);
    split_items<Policy, E>(prm, regions, syncs, S, ListedPart{item, row}, sh);
    if (threadIdx.x == 0) leave_listed_part(list, item, S);  // split_items ends on a barrier
  }
  if (threadIdx.x == 0) leave_hand_on(list, gridDim.x);
}

// The persistent kernel's shared memory: a row's, and the words of the
// next row's sample.
template <class Policy>
struct PersistentShared {
  TruncateShared<Policy> row;
  uint32_t next_sample[Policy::kSampleSize];
};

// kServes: the call may hand rows on (prm.hand_on_slices), and the blocks
// serve them after their own rows; the launcher lets only this shape, the
// split kernel's, hand on.
template <class Policy, class E, bool kServes>
__global__ void __launch_bounds__(Policy::kBlockThreads, Policy::kMinBlocksPerSM)
    truncate_rows_kernel(TruncateParams prm) {
  using bits_t = typename E::bits_t;
  // Dynamic shared memory (sized by the launcher): a static __shared__
  // object in a template kernel is allocated once per instantiation by
  // some AMDGPU compilers, overflowing the LDS.
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  auto& all = *reinterpret_cast<PersistentShared<Policy>*>(shared_bytes);
  auto& sh = all.row;
  const uint32_t n = static_cast<uint32_t>(prm.vocab);
  await_previous_grid();
  if (threadIdx.x == 0) {
    sh.digit_bits = (prm.ablation & kAblateBinarySearch) ? 1 : kDigitBits;
    sh.hand_on = HandOnTarget{kServes ? hand_on_list(prm) : nullptr,
                              static_cast<const unsigned char*>(prm.logits),
                              prm.row_stride * static_cast<int64_t>(sizeof(bits_t))};
  }
  auto row_at = [&](int64_t r) { return static_cast<bits_t*>(prm.logits) + r * prm.row_stride; };
  const SampleWords<Policy, E> sample{all.next_sample};
  if (blockIdx.x < prm.batch) sample.start(row_at(blockIdx.x), n);
  for (int64_t r = blockIdx.x; r < prm.batch; r += gridDim.x) {
    bits_t* row = row_at(r);
    const RowAsk ask(prm.k ? prm.k[r] : 0, prm.p ? prm.p[r] : 1.0f, n);
    const bool ids_out = prm.out_ids != nullptr;
    RowCounters counters = row_counters(prm, r);
    // This row's sample landed while the last row was done (the first
    // row's while the block started); the next row's is copied during this
    // one, once the threshold has read the words.
    async_copy_wait_all();
    __syncthreads();
    const auto start_next = [&] {
      if (r + gridDim.x < prm.batch) sample.start(row_at(r + gridDim.x), n);
    };
    if (!ids_out && !ask.any()) {
      // No filter: only NaN entries change.
      start_next();
      counters.outcome(0, true);
      write_mask<Policy, E>(row, 0, n, RowPlan{Cut{kPivotAll, 0}, false}, sh);
      continue;
    }
    const uint32_t key_thr = row_threshold<Policy, E>([&](int j, int) { return sample.value(row, n, j); }, n, ask,
                                                      prm.ablation, sh);
    start_next();  // sigma_threshold read the words before its first barrier
    counters.lap(RowCounters::kThreshold);
    gather_candidates<Policy, E, true>(row, 0, n, key_thr, ask.want_p && !ask.want_k, sh);
    counters.lap(RowCounters::kGather);
    const uint32_t cands = sh.cand_count;
    const RowPlan plan = decide_row<Policy, E, SoloRow>(row, n, ask, prm.keep_ties != 0, prm.ablation, key_thr,
                                                        true, ids_out ? nullptr : row, SoloRow{}, sh);
    counters.lap(RowCounters::kDecide);
    counters.outcome(cands, plan.hit());
    if (ids_out) {
      write_ids<Policy, E>(row, n, plan, sh, prm.out_ids + r * prm.max_ids, prm.out_count + r,
                           static_cast<uint32_t>(prm.max_ids));
    } else {
      write_mask<Policy, E>(row, 0, n, plan, sh);
    }
    __syncthreads();  // shared memory is reused by the next row
    counters.lap(RowCounters::kWrite);
  }
  if (kServes && prm.hand_on_slices > 0) serve_handed_on_rows<Policy, E>(prm, sh);
}

}  // namespace qrita
