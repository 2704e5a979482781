/* qrita: exact Top-k / Top-p truncation of LLM logits on the GPU.
 *
 * Plain C: no CUDA or HIP header is needed to use it; streams and device
 * pointers cross as void*. Every function returns a status and never
 * aborts or prints; the text of a context's last failure stays on the
 * context (qrita_last_error). Semantics: see reference/doc.go in the
 * repository (rank by value then lower index, NaN and -Inf never kept,
 * top-p over the top-k survivors, kept entries keep their exact bits,
 * removed ones become -Inf).
 *
 * Thread safety: a context may be used from several threads at once; the
 * staging of host k/p arrays is serialised inside. */
#ifndef QRITA_H
#define QRITA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  QRITA_OK = 0,
  QRITA_ERR_INVALID_ARG = 1,
  QRITA_ERR_UNSUPPORTED = 2,
  QRITA_ERR_NO_DEVICE = 3,
  QRITA_ERR_DEVICE = 4,
  QRITA_ERR_OUT_OF_MEMORY = 5
} qrita_status;

typedef enum { QRITA_F32 = 0, QRITA_F16 = 1, QRITA_BF16 = 2 } qrita_dtype;

typedef enum { QRITA_TIES_EXACT = 0, QRITA_TIES_KEEP = 1 } qrita_ties;

/* Largest vocabulary (entries per row). */
#define QRITA_MAX_VOCAB (1 << 24)
/* Largest max_ids of qrita_topk_topp_ids. */
#define QRITA_MAX_IDS 4096

typedef struct qrita_ctx qrita_ctx;

/* One truncation request. k and p are per-row arrays ([batch]) or NULL
 * (filter off for every row); each lives in host memory unless its
 * *_on_device flag is set. Host arrays are validated (a NaN p is an
 * invalid argument) and staged; device arrays are read by the kernel
 * (there a NaN p turns top-p off for that row). */
typedef struct {
  void* logits;        /* device pointer: [batch][row_stride] elements */
  qrita_dtype dtype;
  int64_t batch;       /* >= 0; 0 is a no-op */
  int64_t vocab;       /* 1 .. QRITA_MAX_VOCAB */
  int64_t row_stride;  /* elements between row starts, >= vocab */
  const int32_t* k;
  int k_on_device;
  const float* p;
  int p_on_device;
  qrita_ties ties;
  void* stream;        /* cudaStream_t / hipStream_t; NULL: default stream */
} qrita_request;

/* Creates a context on a device. On failure *out may still hold a context
 * whose qrita_last_error explains why; destroy it either way. */
qrita_status qrita_create(int device, qrita_ctx** out);
/* Frees everything the context owns. NULL is allowed. */
void qrita_destroy(qrita_ctx* ctx);
/* Text of the context's last failure ("" if none). Valid until the next
 * call on the context. */
const char* qrita_last_error(const qrita_ctx* ctx);

/* Masks the logits in place: enqueued on req->stream, no host sync.
 * Small batches cut rows over several blocks with a workspace per stream
 * (fixed by the device: about 8.7 MB on an H200), allocated by the first
 * such call on the stream; calls on one stream share it in stream order.
 * A call captured into a graph before its stream has a workspace runs the
 * one-block-per-row kernel (same results); replay a graph on the stream
 * it was captured on. */
qrita_status qrita_topk_topp(qrita_ctx* ctx, const qrita_request* req);

/* Writes, per row, the kept token ids in rank order (at most max_ids, the
 * rest of the row's slots -1) to out_ids [batch][max_ids] and the number
 * kept to out_count [batch], both device pointers. The logits are not
 * changed. 1 <= max_ids <= QRITA_MAX_IDS. */
qrita_status qrita_topk_topp_ids(qrita_ctx* ctx, const qrita_request* req, int32_t* out_ids, int32_t* out_count,
                                 int64_t max_ids);

/* Device facts for callers and benchmarks. */
typedef struct {
  char name[256];
  int multiprocessors;
  int warp_size;
  int cc_major, cc_minor;
  size_t total_memory;
  int runtime_version;
  int driver_version;
} qrita_device_info;

qrita_status qrita_device_count(int* count);
qrita_status qrita_get_device_info(qrita_ctx* ctx, qrita_device_info* info);

/* Memory, streams and timing on the context's device: what tests and
 * qrita-bench need without linking the runtime themselves. */
qrita_status qrita_malloc(qrita_ctx* ctx, size_t bytes, void** ptr);
qrita_status qrita_free(qrita_ctx* ctx, void* ptr);
typedef enum { QRITA_H2D = 0, QRITA_D2H = 1, QRITA_D2D = 2 } qrita_copy_kind;
/* Synchronous copy. */
qrita_status qrita_memcpy(qrita_ctx* ctx, void* dst, const void* src, size_t bytes, qrita_copy_kind kind);
/* Device-to-device copy enqueued on stream (the benchmark floor). */
qrita_status qrita_memcpy_d2d_async(qrita_ctx* ctx, void* dst, const void* src, size_t bytes, void* stream);
qrita_status qrita_stream_create(qrita_ctx* ctx, void** stream);
qrita_status qrita_stream_destroy(qrita_ctx* ctx, void* stream);
qrita_status qrita_stream_synchronize(qrita_ctx* ctx, void* stream);
qrita_status qrita_event_create(qrita_ctx* ctx, void** event);
qrita_status qrita_event_destroy(qrita_ctx* ctx, void* event);
qrita_status qrita_event_record(qrita_ctx* ctx, void* event, void* stream);
/* Milliseconds between two recorded events (waits for the second). */
qrita_status qrita_event_elapsed_ms(qrita_ctx* ctx, void* start, void* end, float* ms);

#ifdef __cplusplus
}
#endif

#endif /* QRITA_H */
