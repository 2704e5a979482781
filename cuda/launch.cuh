// Host-side entry points of the kernels, for csrc/.
#pragma once

#include "compat.cuh"
#include "truncate_params.h"

namespace qrita {

// Largest candidate buffer of the kernel: the id output's upper bound.
int truncate_candidate_capacity();

// Blocks of the truncation kernel that fit on one multiprocessor.
cudaError_t truncate_blocks_per_sm(DType dtype, int* blocks);

// Enqueues the truncation of every row on stream; grid_limit caps the
// persistent grid (multiprocessors x blocks per multiprocessor).
cudaError_t launch_truncate(DType dtype, const TruncateParams& prm, int grid_limit, cudaStream_t stream);

}  // namespace qrita
