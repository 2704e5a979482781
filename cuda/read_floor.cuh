// Host-side entry point of the pure-read floor (qrita_bench_read).
#pragma once

#include <cstddef>

#include "compat.cuh"

namespace qrita {

// Enqueues a read of every byte at data (16-byte aligned), folded into the
// 8 bytes at sink (added atomically, so sink keeps changing per call).
cudaError_t launch_read(const void* data, size_t bytes, unsigned long long* sink, int multiprocessors,
                        cudaStream_t stream);

}  // namespace qrita
