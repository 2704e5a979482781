// Host-side entry points of the sort-based baseline (qrita_bench.h), for
// csrc/bench_sort.cc.
#pragma once

#include "compat.cuh"
#include "truncate_params.h"

namespace qrita {

// Device workspace bytes for a batch of [batch][vocab] (0 for no rows).
cudaError_t sort_baseline_workspace(int64_t batch, int64_t vocab, size_t* bytes);

// Enqueues the baseline on stream: per chunk of rows, keys and indices,
// segmented sort, then one block per row cuts and writes the mask.
// workspace must hold sort_baseline_workspace bytes.
cudaError_t launch_sort_baseline(DType dtype, const RowBatch& prm, void* workspace, size_t bytes,
                                 cudaStream_t stream);

}  // namespace qrita
