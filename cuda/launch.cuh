// Host-side entry points of the kernels, for csrc/.
#pragma once

#include "compat.cuh"
#include "truncate_params.h"

namespace qrita {

// Largest candidate buffer of the kernel: the id output's upper bound.
int truncate_candidate_capacity();

// How a device runs the truncation kernel: batches up to the
// multiprocessor count get one wide block per row; larger ones a
// persistent grid of many_rows_grid narrower blocks (0: does not fit).
struct LaunchLimits {
  int multiprocessors = 0;
  int64_t many_rows_grid = 0;
  int64_t most_rows_grid = 0;  // batches from this many rows take four blocks an SM
  int64_t split_blocks = 0;  // resident blocks of the split kernel
  // sm_90: a call's kernel is launched as a programmatic dependent of the
  // kernel before it on the stream (launch.cu, await_previous_grid).
  bool early_launch = false;
  int elem_bytes = 4;  // of the element type these limits are for
};

// Parts per row for a mask call (1: one block per row). Small batches cut
// rows so that batch x parts fills the GPU.
int split_slices(const LaunchLimits& lim, int64_t batch, int64_t vocab);
// Device workspace the split kernel needs on one stream at most: the
// hand-on list (kHandOnListBytes) and the rows' meeting points (zeroed
// once, left at zero by every call), then the parts' regions.
size_t split_sync_bytes(const LaunchLimits& lim);
size_t split_workspace_bytes(const LaunchLimits& lim);

// Parts of each row the persistent kernel hands on (cuda/hand_on.cuh) in a
// mask call of batch rows; 0: rows stay with their blocks (small batches
// split every row already).
int hand_on_slices(const LaunchLimits& lim, int64_t batch, int64_t vocab);

// Slices of each whole-row pass of a row the split kernel (parts a row)
// decides, any block taking them (cuda/sliced_passes.cuh), for a mask call
// that may have top-p rows without a top-k; 0: each block takes its part.
int sliced_pass_slices(int64_t vocab, int parts);

cudaError_t truncate_limits(DType dtype, int multiprocessors, LaunchLimits* lim);

// Enqueues the truncation of every row on stream. every_row_top_k: every
// row asks a top-k below the vocab (a k array on the device counts as
// yes); only such calls take four blocks a multiprocessor.
cudaError_t launch_truncate(DType dtype, const TruncateParams& prm, const LaunchLimits& lim, bool every_row_top_k,
                            cudaStream_t stream);

}  // namespace qrita
