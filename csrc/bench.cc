// Benchmark-only entry points (qrita_bench.h): the truncation with
// ablations and per-row counters, graph capture and replay, cache size.
#include "qrita_bench.h"

#include "../cuda/policy.cuh"
#include "context.h"

using namespace qrita_host;

namespace {

constexpr unsigned kKnownAblations =
    QRITA_ABLATE_NO_TRUNCATION | QRITA_ABLATE_FORCE_FALLBACK | QRITA_ABLATE_BINARY_SEARCH | QRITA_ABLATE_IN_PLACE |
    QRITA_ABLATE_NO_SORT | QRITA_ABLATE_SLICE_AT_ONCE;

}  // namespace

extern "C" {

qrita_status qrita_bench_topk_topp(qrita_ctx* ctx, const qrita_request* req, const qrita_bench_options* opt) {
  if (!ctx) return QRITA_ERR_INVALID_ARG;
  std::lock_guard<std::mutex> lock(ctx->mu);
  const qrita_status st = check_request(ctx, req);
  if (st != QRITA_OK) return st;
  BenchKnobs knobs;
  if (opt) {
    if (opt->ablation & ~kKnownAblations)
      return fail(ctx, QRITA_ERR_INVALID_ARG, "unknown ablation bits %#x", opt->ablation);
    knobs.ablation = opt->ablation;
    knobs.row_stats = reinterpret_cast<int32_t*>(opt->row_stats);
    knobs.split_parts = opt->split_parts;
  }
  if (knobs.split_parts != 0) {
    using Policy = qrita::TruncateAlgorithmPolicy;
    const int64_t parts = knobs.split_parts;
    const qrita::LaunchLimits& lim = ctx->limits[req->dtype];
    if (parts < 1 || parts > Policy::kMaxSlices ||
        (parts > 1 && (req->vocab / parts < Policy::kMinSliceEntries || req->batch * parts > lim.split_blocks)))
      return fail(ctx, QRITA_ERR_INVALID_ARG,
                  "split_parts %d: want 1-%d parts of at least %d entries and batch x parts <= %lld resident blocks",
                  knobs.split_parts, Policy::kMaxSlices, Policy::kMinSliceEntries,
                  static_cast<long long>(lim.split_blocks));
  }
  if ((req->k && !req->k_on_device) || (req->p && !req->p_on_device))
    return fail(ctx, QRITA_ERR_INVALID_ARG, "qrita_bench_topk_topp takes device k and p only");
  return run(ctx, req, nullptr, nullptr, 0, knobs);
}

qrita_status qrita_bench_capture_begin(qrita_ctx* ctx, void* stream) {
  QRITA_ENTER(ctx);
  if (!stream) return fail(ctx, QRITA_ERR_INVALID_ARG, "capture needs a stream (not the default one)");
  QRITA_TRY(ctx, cudaStreamBeginCapture(static_cast<cudaStream_t>(stream), cudaStreamCaptureModeThreadLocal));
  return QRITA_OK;
}

qrita_status qrita_bench_capture_end(qrita_ctx* ctx, void* stream, void** graph) {
  QRITA_ENTER(ctx);
  if (!stream || !graph) return fail(ctx, QRITA_ERR_INVALID_ARG, "capture_end needs a stream and a graph pointer");
  *graph = nullptr;
  cudaGraph_t g = nullptr;
  QRITA_TRY(ctx, cudaStreamEndCapture(static_cast<cudaStream_t>(stream), &g));
  cudaGraphExec_t exec = nullptr;
  const cudaError_t e = cudaGraphInstantiate(&exec, g, nullptr, nullptr, 0);
  (void)cudaGraphDestroy(g);
  QRITA_TRY(ctx, e);
  *graph = exec;
  return QRITA_OK;
}

qrita_status qrita_bench_graph_launch(qrita_ctx* ctx, void* graph, void* stream) {
  QRITA_ENTER(ctx);
  if (!graph) return fail(ctx, QRITA_ERR_INVALID_ARG, "graph is NULL");
  QRITA_TRY(ctx, cudaGraphLaunch(static_cast<cudaGraphExec_t>(graph), static_cast<cudaStream_t>(stream)));
  return QRITA_OK;
}

qrita_status qrita_bench_graph_destroy(qrita_ctx* ctx, void* graph) {
  QRITA_ENTER(ctx);
  if (!graph) return QRITA_OK;
  QRITA_TRY(ctx, cudaGraphExecDestroy(static_cast<cudaGraphExec_t>(graph)));
  return QRITA_OK;
}

qrita_status qrita_bench_split_parts(int multiprocessors, int64_t split_blocks, int elem_bytes, int64_t batch,
                                     int64_t vocab, int* parts) {
  if (!parts || multiprocessors < 1 || split_blocks < 1 || (elem_bytes != 2 && elem_bytes != 4) || batch < 1 ||
      vocab < 1)
    return QRITA_ERR_INVALID_ARG;
  qrita::LaunchLimits lim;
  lim.multiprocessors = multiprocessors;
  lim.split_blocks = split_blocks;
  lim.elem_bytes = elem_bytes;
  *parts = qrita::split_slices(lim, batch, vocab);
  return QRITA_OK;
}

qrita_status qrita_bench_l2_bytes(qrita_ctx* ctx, size_t* bytes) {
  QRITA_ENTER(ctx);
  if (!bytes) return fail(ctx, QRITA_ERR_INVALID_ARG, "bytes is NULL");
  int l2 = 0;
  QRITA_TRY(ctx, cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, ctx->device));
  *bytes = static_cast<size_t>(l2);
  return QRITA_OK;
}

}  // extern "C"
