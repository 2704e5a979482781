// Device memory, streams and events of the C ABI, for tests and
// qrita-bench; each call runs on the context's device.
#include "context.h"

using namespace qrita_host;

extern "C" {

qrita_status qrita_malloc(qrita_ctx* ctx, size_t bytes, void** ptr) {
  QRITA_ENTER(ctx);
  if (!ptr || bytes == 0) return fail(ctx, QRITA_ERR_INVALID_ARG, "qrita_malloc: bad arguments");
  *ptr = nullptr;
  QRITA_TRY(ctx, cudaMalloc(ptr, bytes));
  return QRITA_OK;
}

qrita_status qrita_free(qrita_ctx* ctx, void* ptr) {
  QRITA_ENTER(ctx);
  QRITA_TRY(ctx, cudaFree(ptr));
  return QRITA_OK;
}

qrita_status qrita_memcpy(qrita_ctx* ctx, void* dst, const void* src, size_t bytes, qrita_copy_kind kind) {
  QRITA_ENTER(ctx);
  if ((!dst || !src) && bytes) return fail(ctx, QRITA_ERR_INVALID_ARG, "qrita_memcpy: NULL pointer");
  cudaMemcpyKind k;
  switch (kind) {
    case QRITA_H2D: k = cudaMemcpyHostToDevice; break;
    case QRITA_D2H: k = cudaMemcpyDeviceToHost; break;
    case QRITA_D2D: k = cudaMemcpyDeviceToDevice; break;
    default: return fail(ctx, QRITA_ERR_INVALID_ARG, "qrita_memcpy: unknown kind %d", static_cast<int>(kind));
  }
  QRITA_TRY(ctx, cudaMemcpy(dst, src, bytes, k));
  return QRITA_OK;
}

qrita_status qrita_memcpy_d2d_async(qrita_ctx* ctx, void* dst, const void* src, size_t bytes, void* stream) {
  QRITA_ENTER(ctx);
  QRITA_TRY(ctx, cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, static_cast<cudaStream_t>(stream)));
  return QRITA_OK;
}

qrita_status qrita_stream_create(qrita_ctx* ctx, void** stream) {
  QRITA_ENTER(ctx);
  if (!stream) return QRITA_ERR_INVALID_ARG;
  cudaStream_t s = nullptr;
  QRITA_TRY(ctx, cudaStreamCreate(&s));
  *stream = s;
  return QRITA_OK;
}

qrita_status qrita_stream_destroy(qrita_ctx* ctx, void* stream) {
  QRITA_ENTER(ctx);
  QRITA_TRY(ctx, cudaStreamDestroy(static_cast<cudaStream_t>(stream)));
  return QRITA_OK;
}

qrita_status qrita_stream_synchronize(qrita_ctx* ctx, void* stream) {
  QRITA_ENTER(ctx);
  QRITA_TRY(ctx, cudaStreamSynchronize(static_cast<cudaStream_t>(stream)));
  return QRITA_OK;
}

qrita_status qrita_event_create(qrita_ctx* ctx, void** event) {
  QRITA_ENTER(ctx);
  if (!event) return QRITA_ERR_INVALID_ARG;
  cudaEvent_t e = nullptr;
  QRITA_TRY(ctx, cudaEventCreate(&e));
  *event = e;
  return QRITA_OK;
}

qrita_status qrita_event_destroy(qrita_ctx* ctx, void* event) {
  QRITA_ENTER(ctx);
  QRITA_TRY(ctx, cudaEventDestroy(static_cast<cudaEvent_t>(event)));
  return QRITA_OK;
}

qrita_status qrita_event_record(qrita_ctx* ctx, void* event, void* stream) {
  QRITA_ENTER(ctx);
  QRITA_TRY(ctx, cudaEventRecord(static_cast<cudaEvent_t>(event), static_cast<cudaStream_t>(stream)));
  return QRITA_OK;
}

qrita_status qrita_event_elapsed_ms(qrita_ctx* ctx, void* start, void* end, float* ms) {
  QRITA_ENTER(ctx);
  if (!ms) return QRITA_ERR_INVALID_ARG;
  QRITA_TRY(ctx, cudaEventSynchronize(static_cast<cudaEvent_t>(end)));
  QRITA_TRY(ctx, cudaEventElapsedTime(ms, static_cast<cudaEvent_t>(start), static_cast<cudaEvent_t>(end)));
  return QRITA_OK;
}

}  // extern "C"
