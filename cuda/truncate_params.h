// Arguments of the truncation kernel, checked by the host glue first.
#pragma once

#include <cstddef>
#include <cstdint>

namespace qrita {

// The rows of a call and their k and p: what the truncation kernel and the
// sort baseline (sort_baseline.cuh) both take.
struct RowBatch {
  void* logits;         // device, [batch][row_stride] elements
  int64_t batch;
  int64_t vocab;        // <= QRITA_MAX_VOCAB
  int64_t row_stride;   // elements, >= vocab
  const int32_t* k;     // device, [batch], or null: top-k off
  const float* p;       // device, [batch], or null: top-p off
};

struct TruncateParams : RowBatch {
  int keep_ties;
  int32_t* out_ids;     // device, [batch][max_ids]: id output instead of the mask
  int32_t* out_count;   // device, [batch]
  int64_t max_ids;
  unsigned ablation;    // qrita_ablation bits (benchmarks); 0 for users
  int32_t* row_stats;   // device [batch][kRowStatsInts] (qrita_row_stats), or null
  void* split_ws;       // device regions of the split kernel (split_slices > 1)
  void* split_sync;     // device, one SplitRowSync a row, zero between calls
  int split_slices;     // parts per row; 1: one block per row
  int split_prefetch;   // the split kernel asks the L2 for its part first (set by launch_split)
  int hand_on_slices;   // > 0: the persistent kernel may hand rows on (cuda/hand_on.cuh), each cut into
                        // this many parts; the list is the kHandOnListBytes before split_sync.
                        // In the split kernel: the rows' whole-row passes are cut into this many
                        // slices (cuda/sliced_passes.cuh), the board in the list's room.
                        // Not a pointer of its own: two more fields made the split kernel spill
                        // 8 bytes more (nvcc 11.8, sm_90)
};

// Room for the hand-on list, just before the rows' meeting points (219
// rows, cuda/hand_on.cuh).
constexpr size_t kHandOnListBytes = 1024;

// int32 fields of one qrita_row_stats.
constexpr int kRowStatsInts = 6;

enum class DType { kF32 = 0, kF16 = 1, kBF16 = 2 };

}  // namespace qrita
