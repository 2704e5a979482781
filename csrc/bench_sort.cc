// The sort-based baseline and the pure-read floor of qrita_bench.h: host
// glue (argument checks, workspace size, error text) around the kernels of
// cuda/sort_baseline.cu and cuda/read_floor.cu.
#include "qrita_bench.h"

#include "../cuda/read_floor.cuh"
#include "../cuda/sort_baseline.cuh"

#include "context.h"

using namespace qrita_host;

namespace {

qrita_status check_shape(qrita_ctx* ctx, qrita_dtype dtype, int64_t batch, int64_t vocab) {
  if (dtype != QRITA_F32 && dtype != QRITA_F16 && dtype != QRITA_BF16)
    return fail(ctx, QRITA_ERR_INVALID_ARG, "unknown dtype %d", static_cast<int>(dtype));
  if (batch < 0) return fail(ctx, QRITA_ERR_INVALID_ARG, "batch %lld is negative", (long long)batch);
  if (vocab < 1 || vocab > QRITA_MAX_VOCAB)
    return fail(ctx, QRITA_ERR_INVALID_ARG, "vocab %lld outside 1..%d", (long long)vocab, QRITA_MAX_VOCAB);
  return QRITA_OK;
}

}  // namespace

extern "C" {

qrita_status qrita_bench_sort_workspace(qrita_ctx* ctx, qrita_dtype dtype, int64_t batch, int64_t vocab,
                                        size_t* bytes) {
  QRITA_ENTER(ctx);
  if (!bytes) return fail(ctx, QRITA_ERR_INVALID_ARG, "bytes is NULL");
  *bytes = 0;
  const qrita_status st = check_shape(ctx, dtype, batch, vocab);
  if (st != QRITA_OK) return st;
  QRITA_TRY(ctx, qrita::sort_baseline_workspace(batch, vocab, bytes));
  return QRITA_OK;
}

qrita_status qrita_bench_sort_topk_topp(qrita_ctx* ctx, const qrita_request* req, void* workspace, size_t bytes) {
  if (!ctx) return QRITA_ERR_INVALID_ARG;
  std::lock_guard<std::mutex> lock(ctx->mu);
  qrita_status st = check_request(ctx, req);
  if (st != QRITA_OK) return st;
  if ((req->k && !req->k_on_device) || (req->p && !req->p_on_device))
    return fail(ctx, QRITA_ERR_INVALID_ARG, "qrita_bench_sort_topk_topp takes device k and p only");
  if ((st = enter(ctx)) != QRITA_OK || req->batch == 0) return st;  // an empty batch is a no-op
  size_t need = 0;
  QRITA_TRY(ctx, qrita::sort_baseline_workspace(req->batch, req->vocab, &need));
  if (!workspace || bytes < need)
    return fail(ctx, QRITA_ERR_INVALID_ARG, "sort workspace of %zu bytes at %p; %zu needed", bytes, workspace, need);
  qrita::RowBatch prm{req->logits, req->batch, req->vocab, req->row_stride, req->k, req->p};
  QRITA_TRY(ctx, qrita::launch_sort_baseline(static_cast<qrita::DType>(req->dtype), prm, workspace, bytes,
                                             static_cast<cudaStream_t>(req->stream)));
  return QRITA_OK;
}

qrita_status qrita_bench_read(qrita_ctx* ctx, const void* data, size_t bytes, void* sink, void* stream) {
  QRITA_ENTER(ctx);
  if (!sink || reinterpret_cast<uintptr_t>(sink) % 8 != 0)
    return fail(ctx, QRITA_ERR_INVALID_ARG, "sink %p is not an 8-byte aligned device pointer", sink);
  if (bytes > 0 && (!data || reinterpret_cast<uintptr_t>(data) % 16 != 0))
    return fail(ctx, QRITA_ERR_INVALID_ARG, "data %p is not a 16-byte aligned device pointer", data);
  QRITA_TRY(ctx, qrita::launch_read(data, bytes, static_cast<unsigned long long*>(sink), ctx->multiprocessors,
                                    static_cast<cudaStream_t>(stream)));
  return QRITA_OK;
}

}  // extern "C"
