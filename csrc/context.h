// The context behind qrita_ctx and the error helpers every csrc/ file
// shares. Internal: not part of the C ABI.
#pragma once

#include <cstdarg>
#include <cstdio>
#include <mutex>
#include <vector>

#include "../cuda/compat.cuh"
#include "../cuda/launch.cuh"
#include "qrita.h"

namespace qrita_host {

constexpr int kStagingSlots = 4;  // calls in flight before a host wait

// Pinned host and device copies of one call's k and p arrays. The event
// marks the end of the kernel that reads them; the slot is reused only
// after it completes.
struct StagingSlot {
  int64_t rows = 0;
  int32_t* host_k = nullptr;
  float* host_p = nullptr;
  int32_t* dev_k = nullptr;
  float* dev_p = nullptr;
  cudaEvent_t done = nullptr;
};

// The split kernel's workspace of one stream: calls on a stream run in
// order, so they can share it; calls on other streams get their own.
struct StreamWorkspace {
  cudaStream_t stream = nullptr;
  void* mem = nullptr;
};

}  // namespace qrita_host

struct qrita_ctx {
  int device = -1;
  int multiprocessors = 0;
  qrita::LaunchLimits limits[3];  // per dtype
  std::mutex mu;                  // one call at a time on this context
  qrita_host::StagingSlot slots[qrita_host::kStagingSlots];
  int next_slot = 0;
  size_t split_bytes = 0;       // workspace per stream (fixed by the device)
  size_t split_sync_bytes = 0;  // its first bytes: the hand-on list, the rows' meeting points
  std::vector<qrita_host::StreamWorkspace> split_ws;
  char err[512] = {0};
};

namespace qrita_host {

inline qrita_status fail(qrita_ctx* ctx, qrita_status st, const char* fmt, ...) {
  if (ctx) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ctx->err, sizeof(ctx->err), fmt, ap);
    va_end(ap);
  }
  return st;
}

inline qrita_status device_fail(qrita_ctx* ctx, const char* what, cudaError_t e) {
  const qrita_status st = e == cudaErrorMemoryAllocation ? QRITA_ERR_OUT_OF_MEMORY : QRITA_ERR_DEVICE;
  return fail(ctx, st, "%s: %s", what, cudaGetErrorString(e));
}

#define QRITA_TRY(ctx, expr)                                                     \
  do {                                                                           \
    const cudaError_t e_ = (expr);                                               \
    if (e_ != cudaSuccess) return ::qrita_host::device_fail(ctx, #expr, e_);     \
  } while (0)

// Benchmark-only settings of a call (qrita_bench.h); zero for users.
struct BenchKnobs {
  unsigned ablation = 0;
  int32_t* row_stats = nullptr;  // device [batch] qrita_row_stats
  int split_parts = 0;           // parts a row in place of split_slices' (0: the policy's)
};

qrita_status check_request(qrita_ctx* ctx, const qrita_request* r);
// Enqueues the truncation of a checked request.
qrita_status run(qrita_ctx* ctx, const qrita_request* r, int32_t* out_ids, int32_t* out_count, int64_t max_ids,
                 const BenchKnobs& knobs);

// Clears the last error and makes the context's device current.
inline qrita_status enter(qrita_ctx* ctx) {
  ctx->err[0] = 0;
  QRITA_TRY(ctx, cudaSetDevice(ctx->device));
  return QRITA_OK;
}

}  // namespace qrita_host

// Opens a C entry point: a NULL context is an invalid argument; otherwise
// takes the context's lock for the rest of the call and makes its device
// current, returning on failure.
#define QRITA_ENTER(ctx)                                  \
  if (!(ctx)) return QRITA_ERR_INVALID_ARG;               \
  std::lock_guard<std::mutex> lock_((ctx)->mu);           \
  do {                                                    \
    const qrita_status st_ = ::qrita_host::enter(ctx);    \
    if (st_ != QRITA_OK) return st_;                      \
  } while (0)
