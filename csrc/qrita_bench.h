/* qrita_bench: benchmark-only entry points of the qrita library, for
 * qrita-bench and the tests. Not part of the sampling API: shapes and
 * names may change. Same rules as qrita.h: plain C, statuses, never
 * aborts, error text on the context. */
#ifndef QRITA_BENCH_H
#define QRITA_BENCH_H

#include "qrita.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Ablations of the truncation kernel (the paper's Table 4), as bits. */
typedef enum {
  QRITA_ABLATE_NONE = 0,
  /* No sigma-truncation: the exact search runs over the whole row in
   * device memory (several reads of the row). */
  QRITA_ABLATE_NO_TRUNCATION = 1,
  /* Truncate and gather as usual, then treat every row as a miss (the
   * cost of a miss: the gather pass plus the whole-row search). */
  QRITA_ABLATE_FORCE_FALLBACK = 2,
  /* Binary pivot search: one key bit per step (32 steps) instead of the
   * 256-way multi-pivot step (4 steps). */
  QRITA_ABLATE_BINARY_SEARCH = 4,
  /* Rows that miss stay with their block in the persistent kernel (more
   * rows than multiprocessors) instead of being handed on to blocks that
   * ran out of rows, and a split row's passes stay with its own blocks
   * instead of being sliced for any block (cuda/sliced_passes.cuh). */
  QRITA_ABLATE_IN_PLACE = 8,
  /* Top-k over a few candidates by the digit search (a histogram step,
   * then a ranking) instead of sorting them. */
  QRITA_ABLATE_NO_SORT = 16,
  /* A split row's passes are sliced from its first one, however many rows
   * are still undecided (cuda/sliced_passes.cuh; for the tests, which
   * cannot time the choice). */
  QRITA_ABLATE_SLICE_AT_ONCE = 32
  /* Duplicate handling off is QRITA_TIES_KEEP in the request. */
} qrita_ablation;

/* Per-row counters of one call (Table 1's columns). */
typedef struct {
  int32_t candidates; /* entries at or above the sigma threshold (may exceed the buffer) */
  int32_t hit;        /* 1: the kept set was decided from the candidates alone */
  /* SM clock cycles of the row's phases, as one block saw them (the block
   * of part 0 when rows are split): threshold, gather, decide, write. */
  int32_t cycles[4];
} qrita_row_stats;

typedef struct {
  unsigned ablation;          /* qrita_ablation bits */
  qrita_row_stats* row_stats; /* device [batch], or NULL */
  /* Parts a row of the mask call is cut into, in place of the launch
   * policy's (0: the policy's; 1: one block a row). At most 32, parts of
   * at least 2048 entries, and batch x parts within the split kernel's
   * resident blocks (qrita_bench_split_parts' split_blocks). */
  int split_parts;
} qrita_bench_options;

/* qrita_topk_topp with ablations and counters. k and p must be device
 * arrays (or NULL). */
qrita_status qrita_bench_topk_topp(qrita_ctx* ctx, const qrita_request* req, const qrita_bench_options* opt);

/* The sort-based baseline (what PyTorch and vLLM's fallback do): segmented
 * radix sort of each row (descending, stable), softmax, cumulative sum,
 * cut at k and p, mask written back in place. k and p must be device
 * arrays (or NULL). Needs a device workspace of
 * qrita_bench_sort_workspace bytes. */
qrita_status qrita_bench_sort_workspace(qrita_ctx* ctx, qrita_dtype dtype, int64_t batch, int64_t vocab,
                                        size_t* bytes);
qrita_status qrita_bench_sort_topk_topp(qrita_ctx* ctx, const qrita_request* req, void* workspace, size_t bytes);

/* A pure read of bytes at data (a 16-byte aligned device pointer): every
 * byte is loaded once and folded into 8 bytes written to sink (device). */
qrita_status qrita_bench_read(qrita_ctx* ctx, const void* data, size_t bytes, void* sink, void* stream);

/* Graph timing: calls enqueued on stream between capture_begin and
 * capture_end are recorded, not run; the instantiated graph replays them. */
qrita_status qrita_bench_capture_begin(qrita_ctx* ctx, void* stream);
qrita_status qrita_bench_capture_end(qrita_ctx* ctx, void* stream, void** graph);
qrita_status qrita_bench_graph_launch(qrita_ctx* ctx, void* graph, void* stream);
qrita_status qrita_bench_graph_destroy(qrita_ctx* ctx, void* graph);

/* The parts a row of a mask call is cut into (1: one block a row), as the
 * launch policy decides them for a device of `multiprocessors` SMs whose
 * split kernel keeps `split_blocks` blocks resident, for elements of
 * elem_bytes (2 or 4). Host only: no context, no device. */
qrita_status qrita_bench_split_parts(int multiprocessors, int64_t split_blocks, int elem_bytes, int64_t batch,
                                     int64_t vocab, int* parts);

/* Bytes of the device's last-level cache (L2 on NVIDIA; on AMD the L2,
 * the Infinity Cache is not counted). */
qrita_status qrita_bench_l2_bytes(qrita_ctx* ctx, size_t* bytes);

#ifdef __cplusplus
}
#endif

#endif /* QRITA_BENCH_H */
