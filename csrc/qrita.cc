// Host glue of the C ABI: argument checks, device selection, staging of
// host k/p arrays, error text. Compiled as CUDA (or HIP) so it sees the
// runtime; never aborts, never prints.
#include "qrita.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <mutex>

#include "../cuda/launch.cuh"

#include "context.h"
#include "qrita_bench.h"

namespace qrita_host {

size_t dtype_size(qrita_dtype d) { return d == QRITA_F32 ? 4 : 2; }

qrita_status check_request(qrita_ctx* ctx, const qrita_request* r) {
  if (!r) return fail(ctx, QRITA_ERR_INVALID_ARG, "request is NULL");
  if (!r->logits && r->batch > 0) return fail(ctx, QRITA_ERR_INVALID_ARG, "logits is NULL");
  if (r->dtype != QRITA_F32 && r->dtype != QRITA_F16 && r->dtype != QRITA_BF16)
    return fail(ctx, QRITA_ERR_INVALID_ARG, "unknown dtype %d", static_cast<int>(r->dtype));
  if (r->ties != QRITA_TIES_EXACT && r->ties != QRITA_TIES_KEEP)
    return fail(ctx, QRITA_ERR_INVALID_ARG, "unknown tie mode %d", static_cast<int>(r->ties));
  if (r->batch < 0) return fail(ctx, QRITA_ERR_INVALID_ARG, "batch %lld is negative", (long long)r->batch);
  if (r->vocab < 1 || r->vocab > QRITA_MAX_VOCAB)
    return fail(ctx, QRITA_ERR_INVALID_ARG, "vocab %lld outside 1..%d", (long long)r->vocab, QRITA_MAX_VOCAB);
  if (r->row_stride < r->vocab)
    return fail(ctx, QRITA_ERR_INVALID_ARG, "row_stride %lld below vocab %lld", (long long)r->row_stride,
                (long long)r->vocab);
  if (r->batch > INT64_MAX / r->row_stride / static_cast<int64_t>(dtype_size(r->dtype)))
    return fail(ctx, QRITA_ERR_INVALID_ARG, "batch x row_stride overflows");
  if (r->p && !r->p_on_device) {
    for (int64_t i = 0; i < r->batch; ++i)
      if (std::isnan(r->p[i])) return fail(ctx, QRITA_ERR_INVALID_ARG, "p[%lld] is NaN", (long long)i);
  }
  return QRITA_OK;
}

qrita_status grow_slot(qrita_ctx* ctx, StagingSlot& s, int64_t rows) {
  if (s.rows >= rows) return QRITA_OK;
  (void)cudaFreeHost(s.host_k);
  (void)cudaFreeHost(s.host_p);
  (void)cudaFree(s.dev_k);
  (void)cudaFree(s.dev_p);
  s = StagingSlot{0, nullptr, nullptr, nullptr, nullptr, s.done};
  QRITA_TRY(ctx, cudaMallocHost(reinterpret_cast<void**>(&s.host_k), rows * sizeof(int32_t)));
  QRITA_TRY(ctx, cudaMallocHost(reinterpret_cast<void**>(&s.host_p), rows * sizeof(float)));
  QRITA_TRY(ctx, cudaMalloc(reinterpret_cast<void**>(&s.dev_k), rows * sizeof(int32_t)));
  QRITA_TRY(ctx, cudaMalloc(reinterpret_cast<void**>(&s.dev_p), rows * sizeof(float)));
  s.rows = rows;
  return QRITA_OK;
}

// The split kernel's workspace for stream, allocated on its first use
// with its meeting points zeroed (every call leaves them at zero); null
// (the one-block-per-row kernel runs instead) when it cannot be allocated
// now: out of memory, or the stream is being captured into a graph, where
// allocation is not allowed.
void* stream_workspace(qrita_ctx* ctx, cudaStream_t stream) {
  for (const StreamWorkspace& w : ctx->split_ws)
    if (w.stream == stream) return w.mem;
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(stream, &capture) != cudaSuccess || capture != cudaStreamCaptureStatusNone) {
    (void)cudaGetLastError();
    return nullptr;
  }
  void* mem = nullptr;
  if (cudaMalloc(&mem, ctx->split_bytes) != cudaSuccess) {
    (void)cudaGetLastError();
    return nullptr;
  }
  if (cudaMemsetAsync(mem, 0, ctx->split_sync_bytes, stream) != cudaSuccess) {
    (void)cudaGetLastError();
    (void)cudaFree(mem);
    return nullptr;
  }
  ctx->split_ws.push_back(StreamWorkspace{stream, mem});
  return mem;
}

// Whether every row asks a top-k (0 < k < vocab), from the host array. A
// k array on the device is taken to (it is not read here): a row without
// one then runs in a shape that is a little slower for it (PERFLOG runs
// 75 and 83), never wrong.
bool every_row_top_k(const qrita_request* r) {
  if (!r->k) return false;
  if (r->k_on_device) return true;
  for (int64_t i = 0; i < r->batch; ++i) {
    if (r->k[i] <= 0 || r->k[i] >= r->vocab) return false;
  }
  return true;
}

// Enqueues the kernel; host k/p go through a staging slot first.
qrita_status run(qrita_ctx* ctx, const qrita_request* r, int32_t* out_ids, int32_t* out_count, int64_t max_ids,
                 const BenchKnobs& knobs) {
  qrita_status st = enter(ctx);
  if (st != QRITA_OK || r->batch == 0) return st;  // an empty batch is a no-op
  const cudaStream_t stream = static_cast<cudaStream_t>(r->stream);
  qrita::TruncateParams prm{};
  prm.logits = r->logits;
  prm.batch = r->batch;
  prm.vocab = r->vocab;
  prm.row_stride = r->row_stride;
  prm.keep_ties = r->ties == QRITA_TIES_KEEP;
  prm.out_ids = out_ids;
  prm.out_count = out_count;
  prm.max_ids = max_ids;
  prm.k = r->k_on_device ? r->k : nullptr;
  prm.p = r->p_on_device ? r->p : nullptr;
  prm.ablation = knobs.ablation;
  prm.row_stats = knobs.row_stats;
  const qrita::LaunchLimits& lim = ctx->limits[r->dtype];
  const int parts = out_ids ? 1 : knobs.split_parts > 0 ? knobs.split_parts : qrita::split_slices(lim, r->batch, r->vocab);
  // A mask call with top-p rows in the persistent kernel may hand rows
  // that miss on (cuda/hand_on.cuh); the in-place ablation keeps them.
  const bool all_top_k = every_row_top_k(r);
  const bool share = !out_ids && r->p && !(knobs.ablation & QRITA_ABLATE_IN_PLACE);
  const int hand_on = !share || parts > 1 ? 0 : qrita::hand_on_slices(lim, r->batch, r->vocab);
  // A split mask call with top-p rows without a top-k slices the passes
  // of a row that misses (cuda/sliced_passes.cuh); the in-place ablation
  // keeps them with the row's blocks.
  const int sliced = share && !all_top_k ? qrita::sliced_pass_slices(r->vocab, parts) : 0;
  prm.split_slices = 1;
  if (parts > 1 || hand_on > 0) {
    if (void* ws = stream_workspace(ctx, stream)) {
      char* bytes = static_cast<char*>(ws);
      prm.split_sync = bytes + qrita::kHandOnListBytes;
      prm.split_ws = bytes + ctx->split_sync_bytes;
      if (parts > 1) {
        prm.split_slices = parts;
        prm.hand_on_slices = sliced;  // its board: the workspace's first bytes
      } else {
        prm.hand_on_slices = hand_on;  // its list: the workspace's first bytes
      }
    }
  }

  StagingSlot* slot = nullptr;
  if ((r->k && !r->k_on_device) || (r->p && !r->p_on_device)) {
    slot = &ctx->slots[ctx->next_slot];
    ctx->next_slot = (ctx->next_slot + 1) % kStagingSlots;
    QRITA_TRY(ctx, cudaEventSynchronize(slot->done));  // its last kernel has read it
    if ((st = grow_slot(ctx, *slot, r->batch)) != QRITA_OK) return st;
    const size_t rows = static_cast<size_t>(r->batch);
    if (r->k && !r->k_on_device) {
      memcpy(slot->host_k, r->k, rows * sizeof(int32_t));
      QRITA_TRY(ctx, cudaMemcpyAsync(slot->dev_k, slot->host_k, rows * sizeof(int32_t), cudaMemcpyHostToDevice, stream));
      prm.k = slot->dev_k;
    }
    if (r->p && !r->p_on_device) {
      memcpy(slot->host_p, r->p, rows * sizeof(float));
      QRITA_TRY(ctx, cudaMemcpyAsync(slot->dev_p, slot->host_p, rows * sizeof(float), cudaMemcpyHostToDevice, stream));
      prm.p = slot->dev_p;
    }
  }
  QRITA_TRY(ctx, qrita::launch_truncate(static_cast<qrita::DType>(r->dtype), prm, lim, all_top_k, stream));
  if (slot) QRITA_TRY(ctx, cudaEventRecord(slot->done, stream));
  return QRITA_OK;
}

}  // namespace qrita_host

using namespace qrita_host;

extern "C" {

qrita_status qrita_device_count(int* count) {
  if (!count) return QRITA_ERR_INVALID_ARG;
  *count = 0;
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    (void)cudaGetLastError();
    return QRITA_ERR_NO_DEVICE;
  }
  *count = n;
  return n > 0 ? QRITA_OK : QRITA_ERR_NO_DEVICE;
}

qrita_status qrita_create(int device, qrita_ctx** out) {
  if (!out) return QRITA_ERR_INVALID_ARG;
  qrita_ctx* ctx = new (std::nothrow) qrita_ctx;
  *out = ctx;
  if (!ctx) return QRITA_ERR_OUT_OF_MEMORY;
  int count = 0;
  if (qrita_device_count(&count) != QRITA_OK) return fail(ctx, QRITA_ERR_NO_DEVICE, "no GPU device is visible");
  if (device < 0 || device >= count)
    return fail(ctx, QRITA_ERR_NO_DEVICE, "device %d does not exist (%d visible)", device, count);
  ctx->device = device;
  QRITA_TRY(ctx, cudaSetDevice(device));
  int warp = 0;
  QRITA_TRY(ctx, cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, device));
  if (warp != qrita::kWarpSize)
    return fail(ctx, QRITA_ERR_UNSUPPORTED, "device %d has warp size %d; this build is for warp size %d", device, warp,
                qrita::kWarpSize);
  QRITA_TRY(ctx, cudaDeviceGetAttribute(&ctx->multiprocessors, cudaDevAttrMultiProcessorCount, device));
  for (int d = 0; d < 3; ++d) {
    QRITA_TRY(ctx, qrita::truncate_limits(static_cast<qrita::DType>(d), ctx->multiprocessors, &ctx->limits[d]));
    if (ctx->limits[d].many_rows_grid < 1)
      return fail(ctx, QRITA_ERR_UNSUPPORTED, "the kernel does not fit on device %d", device);
    const size_t sync = qrita::split_sync_bytes(ctx->limits[d]);
    if (sync > ctx->split_sync_bytes) ctx->split_sync_bytes = sync;
    const size_t regions = qrita::split_workspace_bytes(ctx->limits[d]);
    if (regions > ctx->split_bytes) ctx->split_bytes = regions;
  }
  ctx->split_bytes += ctx->split_sync_bytes;
  for (StagingSlot& s : ctx->slots) QRITA_TRY(ctx, cudaEventCreateWithFlags(&s.done, cudaEventDisableTiming));
  return QRITA_OK;
}

void qrita_destroy(qrita_ctx* ctx) {
  if (!ctx) return;
  if (ctx->device >= 0 && cudaSetDevice(ctx->device) == cudaSuccess) {
    for (StagingSlot& s : ctx->slots) {
      if (s.done) {
        (void)cudaEventSynchronize(s.done);
        (void)cudaEventDestroy(s.done);
      }
      (void)cudaFreeHost(s.host_k);
      (void)cudaFreeHost(s.host_p);
      (void)cudaFree(s.dev_k);
      (void)cudaFree(s.dev_p);
    }
    for (const StreamWorkspace& w : ctx->split_ws) (void)cudaFree(w.mem);
  }
  (void)cudaGetLastError();
  delete ctx;
}

const char* qrita_last_error(const qrita_ctx* ctx) { return ctx ? ctx->err : "context is NULL"; }

qrita_status qrita_topk_topp(qrita_ctx* ctx, const qrita_request* req) {
  if (!ctx) return QRITA_ERR_INVALID_ARG;
  std::lock_guard<std::mutex> lock(ctx->mu);
  const qrita_status st = check_request(ctx, req);
  return st != QRITA_OK ? st : run(ctx, req, nullptr, nullptr, 0, BenchKnobs{});
}

qrita_status qrita_topk_topp_ids(qrita_ctx* ctx, const qrita_request* req, int32_t* out_ids, int32_t* out_count,
                                 int64_t max_ids) {
  if (!ctx) return QRITA_ERR_INVALID_ARG;
  std::lock_guard<std::mutex> lock(ctx->mu);
  qrita_status st = check_request(ctx, req);
  if (st != QRITA_OK) return st;
  if (!out_ids || !out_count) return fail(ctx, QRITA_ERR_INVALID_ARG, "out_ids and out_count must not be NULL");
  if (max_ids < 1 || max_ids > QRITA_MAX_IDS || max_ids > qrita::truncate_candidate_capacity())
    return fail(ctx, QRITA_ERR_INVALID_ARG, "max_ids %lld outside 1..%d", (long long)max_ids, QRITA_MAX_IDS);
  return run(ctx, req, out_ids, out_count, max_ids, BenchKnobs{});
}

qrita_status qrita_get_device_info(qrita_ctx* ctx, qrita_device_info* info) {
  if (!ctx || !info) return QRITA_ERR_INVALID_ARG;
  std::lock_guard<std::mutex> lock(ctx->mu);
  qrita_status st = enter(ctx);
  if (st != QRITA_OK) return st;
  cudaDeviceProp prop;
  QRITA_TRY(ctx, cudaGetDeviceProperties(&prop, ctx->device));
  memset(info, 0, sizeof(*info));
  snprintf(info->name, sizeof(info->name), "%s", prop.name);
  info->multiprocessors = prop.multiProcessorCount;
  info->warp_size = prop.warpSize;
  info->cc_major = prop.major;
  info->cc_minor = prop.minor;
  info->total_memory = prop.totalGlobalMem;
  QRITA_TRY(ctx, cudaRuntimeGetVersion(&info->runtime_version));
  QRITA_TRY(ctx, cudaDriverGetVersion(&info->driver_version));
  return QRITA_OK;
}

}  // extern "C"
