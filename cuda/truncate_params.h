// Arguments of the truncation kernel, checked by the host glue first.
#pragma once

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
  void* hand_on;        // device HandOnList (zero between calls): the persistent kernel may hand
                        // rows on (cuda/hand_on.cuh); null: every row stays with its block
  int hand_on_slices;   // parts of a handed-on row
};

// int32 fields of one qrita_row_stats.
constexpr int kRowStatsInts = 6;

enum class DType { kF32 = 0, kF16 = 1, kBF16 = 2 };

}  // namespace qrita
