// The sort-based baseline and the pure-read floor of qrita_bench.h.
// Placeholder until the kernels land: both report QRITA_ERR_UNSUPPORTED.
#include "qrita_bench.h"

#include "context.h"

using namespace qrita_host;

extern "C" {

qrita_status qrita_bench_sort_workspace(qrita_ctx* ctx, qrita_dtype, int64_t, int64_t, size_t* bytes) {
  if (!ctx || !bytes) return QRITA_ERR_INVALID_ARG;
  *bytes = 0;
  return fail(ctx, QRITA_ERR_UNSUPPORTED, "the sort baseline is not built yet");
}

qrita_status qrita_bench_sort_topk_topp(qrita_ctx* ctx, const qrita_request*, void*, size_t) {
  if (!ctx) return QRITA_ERR_INVALID_ARG;
  return fail(ctx, QRITA_ERR_UNSUPPORTED, "the sort baseline is not built yet");
}

qrita_status qrita_bench_read(qrita_ctx* ctx, const void*, size_t, void*, void*) {
  if (!ctx) return QRITA_ERR_INVALID_ARG;
  return fail(ctx, QRITA_ERR_UNSUPPORTED, "the read floor is not built yet");
}

}  // extern "C"
