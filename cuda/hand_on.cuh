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

// Rows a call may hand on; the rest stay with their blocks. Each listed
// row takes hand_on_slices of the split workspace's regions and one
// meeting point (launch.cu checks that they fit).
constexpr int kHandOnSlots = 16;

// Zero between calls: the last block to leave resets it.
struct HandOnList {
  uint32_t listed;    // rows offered (those past kHandOnSlots stay in place)
  uint32_t claimed;   // parts taken by blocks past their own rows
  uint32_t finished;  // blocks past their own rows
  uint32_t exited;    // blocks gone (early, or at the end)
  uint32_t rows[kHandOnSlots];  // row index + 1; 0 until written
};

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
// listed, and the block must then leave it alone.
template <class Sh>
__device__ bool hand_on_row(const void* row, Sh& sh) {
  if (!sh.hand_on.list) return false;
  if (threadIdx.x == 0) {
    bool listed = false;
    const HandOnTarget t = sh.hand_on;
    {
      const uint32_t slot = atomicAdd(&t.list->listed, 1u);
      if (slot < static_cast<uint32_t>(kHandOnSlots)) {
        const int64_t r = (static_cast<const unsigned char*>(row) - t.base) / t.row_bytes;
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

// What claim_listed_part returns when there is no part for the block.
constexpr unsigned long long kNoPartsLeft = ~0ull;     // every block is past its rows, every part taken
constexpr unsigned long long kLeftEarly = ~0ull - 1;  // the block left: enough others stay (counted)

// Thread 0 of a block past its own rows: the next listed part, as
// (row << 32 | part number), or why there is none. Parts are taken in
// order, all of a row's before the next row's. A block with nothing to
// take leaves at once while at least S others stay (blocks still on
// their rows included), so a row listed later still finds S blocks for
// its parts, and the blocks that poll are few (a grid polling one line
// slowed every call, PERFLOG run 71).
__device__ inline unsigned long long claim_listed_part(HandOnList* list, int S, unsigned grid) {
  const volatile HandOnList* v = list;
  for (;;) {
    const uint32_t finished = v->finished;
    __threadfence();  // every row listed before `finished` counted is seen below
    const uint32_t rows = min(v->listed, static_cast<uint32_t>(kHandOnSlots));
    const uint32_t taken = v->claimed;
    if (taken < rows * static_cast<uint32_t>(S)) {
      if (atomicCAS(&list->claimed, taken, taken + 1) != taken) continue;
      uint32_t row1;
      while ((row1 = v->rows[taken / S]) == 0) sleep_briefly();  // listed, not yet written
      return (static_cast<unsigned long long>(row1 - 1) << 32) | taken;
    }
    if (finished == grid) return kNoPartsLeft;
    const uint32_t gone = v->exited;
    if (grid - gone - 1 >= static_cast<uint32_t>(S) && atomicCAS(&list->exited, gone, gone + 1) == gone)
      return kLeftEarly;
    sleep_briefly();
  }
}

// Thread 0 of a block that stayed to the end: the last one to leave
// resets the list (blocks that left early are counted already).
__device__ inline void leave_hand_on(HandOnList* list, unsigned grid) {
  if (atomicAdd(&list->exited, 1u) != grid - 1) return;
  for (int i = 0; i < kHandOnSlots; ++i) list->rows[i] = 0;
  list->listed = 0;
  list->claimed = 0;
  list->finished = 0;
  list->exited = 0;
}

}  // namespace qrita
