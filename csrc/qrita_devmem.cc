// Device memory, streams and events of the C ABI, for tests and
// qrita-bench; each call runs on the context's device.
#include <mutex>

#include "../cuda/compat.cuh"
#include "qrita.h"

qrita_status qrita_ctx_enter_(qrita_ctx* ctx);            // qrita.cc
qrita_status qrita_ctx_device_fail_(qrita_ctx* ctx, const char* what, int err);
