// Rows handed on. In the persistent kernel (more rows than
// multiprocessors) a row whose candidates do not settle its top-p would be
// read again, several times, by its block alone, and the whole batch
// waits for that block (PERFLOG runs 36-37: the top-p tail). Instead the
// block lists the row here, leaves it untouched and goes on with its own
// rows; blocks that run out of rows take the listed rows as split rows
// (cuda/split_kernel.cuh), many blocks a row. The split path decides a
// row as the one-block kernel does, so the bits do not change.
#pragma once

#include <cstdint>

#include "compat.cuh"
#include "truncate_params.h"

namespace qrita {

// Listed rows are served this many at a time: each takes hand_on_slices
// of the split workspace's regions and a meeting point for as long as
// it is served (launch.cu checks that they fit), listed row j those of
// group j % kHandOnGroups once row j - kHandOnGroups has left them. The
// workspace's regions are shared out, so more groups mean fewer parts a
// row (264 blocks on an H100: 32 groups of 8 parts). 32 groups of 8 took
// 8-10 % off bf16 top-p alone at 1024 x 262208 against 16 of 16, whose
// 17th to 26th listed rows waited for a second round; 64 of 4 gained
// half as much (PERFLOG run 135). A served row's time is mostly its
// decider's serial steps and the tasks' waits, not the passes (run 134).
constexpr int kHandOnGroups = 32;

// Rows a call may hand on, as many as the list's room holds (its five
// counters and the groups' before them): a list of 16 left the 17th
// missing row of 1024 x 262208 in place, one block reading it three more
// times at the end of the call (LLM-like rows miss ~2 %; PERFLOG run 131).
constexpr int kHandOnRows = static_cast<int>(kHandOnListBytes / sizeof(uint32_t)) - 5 - kHandOnGroups;
static_assert(kHandOnRows >= 4 * kHandOnGroups, "the list outlasts a few rounds of groups");

// The first kHandOnFreeOffers rows offered are listed; past them, a row
// is listed only while fewer than one in kHandOnMissShare of the rows
// before it were offered. A served row costs its parts' blocks several
// times the block time it costs in place, so rows that all miss (flat
// rows, 90 % -Inf masks) keep their blocks equally busy in place, and
// listing them cost up to 2x (PERFLOG run 131); rare misses, which would
// each hold the call's end, are all listed.
constexpr int kHandOnFreeOffers = 16;
constexpr int kHandOnMissShare = 32;

// Zero between calls: the last block to leave resets it.
struct HandOnList {
  uint32_t offered;   // rows offered
  uint32_t listed;    // rows taken (those past kHandOnRows stay in place)
  uint32_t claimed;   // parts taken by blocks past their own rows
  uint32_t finished;  // blocks past their own rows
  uint32_t exited;    // blocks gone
  uint32_t served[kHandOnGroups];  // parts of each group's rows done with it
  uint32_t rows[kHandOnRows];      // row index + 1; 0 until written
};
static_assert(sizeof(HandOnList) == kHandOnListBytes, "the list fills its room");

// The list of a call whose rows may be handed on, else null.
__device__ __forceinline__ HandOnList* hand_on_list(const TruncateParams& prm) {
  return prm.hand_on_slices > 0 ? reinterpret_cast<HandOnList*>(static_cast<char*>(prm.split_sync) - kHandOnListBytes)
                                : nullptr;
}

// Where a persistent block lists a row. It lives in shared memory, set
// once a kernel, so the row loop keeps no more registers (the hand-on as
// an argument of decide_row doubled the kernel's spills: PERFLOG run 70).
struct HandOnTarget {
  HandOnList* list;           // null: every row stays in place
  const unsigned char* base;  // the call's logits
  int64_t row_bytes;          // its row stride
};

// Offers the row at `row` (every thread of the block); true when it was
// listed (kHandOnMissShare, kHandOnRows), and the block must then leave
// it alone.
template <class Sh>
__device__ bool hand_on_row(const void* row, Sh& sh) {
  if (!sh.hand_on.list) return false;
  if (threadIdx.x == 0) {
    bool listed = false;
    const HandOnTarget t = sh.hand_on;
    const int64_t r = (static_cast<const unsigned char*>(row) - t.base) / t.row_bytes;
    const uint32_t offer = atomicAdd(&t.list->offered, 1u);
    if (offer < static_cast<uint32_t>(kHandOnFreeOffers) || int64_t(offer) * kHandOnMissShare <= r) {
      const uint32_t slot = atomicAdd(&t.list->listed, 1u);
      if (slot < static_cast<uint32_t>(kHandOnRows)) {
        atomicExch(&t.list->rows[slot], static_cast<uint32_t>(r + 1));
        listed = true;
      }
    }
    sh.choice.digit = listed;
  }
  __syncthreads();
  const bool listed = sh.choice.digit != 0;
  __syncthreads();  // choice is reused
  return listed;
}

// claim_listed_part: no part for this block, which leaves.
constexpr unsigned long long kNoPart = ~0ull;

// Thread 0 of a block past its own rows: the next listed part, as
// (row << 32 | part number), or kNoPart. Parts are taken in order, all of
// a row's before the next row's. The last S blocks to finish their rows
// (`stays`) wait until every block has finished and every listed part is
// taken, so a row listed late still finds S blocks for its parts; the
// others leave as soon as nothing is left to take, without waiting (a
// grid polling one line until the last block finished cost 3 % at 1024
// rows, PERFLOG run 71).
__device__ inline unsigned long long claim_listed_part(HandOnList* list, int S, unsigned grid, bool stays) {
  const volatile HandOnList* v = list;
  for (;;) {
    const uint32_t finished = v->finished;
    __threadfence();  // every row listed before `finished` counted is seen below
    const uint32_t rows = min(v->listed, static_cast<uint32_t>(kHandOnRows));
    const uint32_t taken = v->claimed;
    if (taken < rows * static_cast<uint32_t>(S)) {
      if (atomicCAS(&list->claimed, taken, taken + 1) != taken) continue;
      uint32_t row1;
      while ((row1 = v->rows[taken / S]) == 0) sleep_briefly();  // listed, not yet written
      return (static_cast<unsigned long long>(row1 - 1) << 32) | taken;
    }
    if (!stays || finished == grid) return kNoPart;
    sleep_briefly();
  }
}

// Thread 0 of a block that took part `taken` (claim_listed_part): waits
// until the part's group is free, every part of the group's previous row
// done. Those parts were all taken before this one (in order), by blocks
// that wait on nothing past that row's own parts, so this ends. The part's
// item for split_items: the group's meeting point and regions.
__device__ inline uint32_t enter_listed_part(HandOnList* list, uint32_t taken, int S) {
  const uint32_t row = taken / S, group = row % kHandOnGroups;
  const uint32_t before = row / kHandOnGroups * static_cast<uint32_t>(S);  // parts of its earlier rows
  const volatile uint32_t* served = list->served + group;
  while (*served < before) sleep_briefly();
  __threadfence();  // the earlier rows' region and meeting-point accesses come first
  return group * static_cast<uint32_t>(S) + taken % S;
}

// Thread 0, once the block's part `item` (enter_listed_part) is done with
// its group's regions and meeting point.
__device__ inline void leave_listed_part(HandOnList* list, uint32_t item, int S) {
  __threadfence();
  atomicAdd(&list->served[item / S], 1u);
}

// Thread 0 of a block that leaves: the last one resets the list.
__device__ inline void leave_hand_on(HandOnList* list, unsigned grid) {
  if (atomicAdd(&list->exited, 1u) != grid - 1) return;
  const uint32_t rows = min(*static_cast<volatile uint32_t*>(&list->listed), static_cast<uint32_t>(kHandOnRows));
  for (uint32_t i = 0; i < rows; ++i) list->rows[i] = 0;
  for (int g = 0; g < kHandOnGroups; ++g) list->served[g] = 0;
  list->offered = 0;
  list->listed = 0;
  list->claimed = 0;
  list->finished = 0;
  list->exited = 0;
}

}  // namespace qrita
