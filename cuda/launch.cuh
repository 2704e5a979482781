// Host-side entry points of the kernels, for csrc/.
#pragma once

#include "compat.cuh"
#include "truncate_params.h"

namespace qrita {

// Largest candidate buffer of the kernel: the id output's upper bound.
int truncate_candidate_capacity();

// How a device runs the truncation kernels. Mask calls take the two
// kernels of split_kernel.cuh (gather, then decide and write) when a
// stream workspace is at hand: small batches cut each row into parts,
// large ones go in waves of split_regions rows. Otherwise (the id output,
// or no workspace) one kernel: batches up to the multiprocessor count get
// one wide block per row, larger ones a persistent grid of many_rows_grid
// narrower blocks (0: does not fit).
struct LaunchLimits {
  int multiprocessors = 0;
  int64_t many_rows_grid = 0;
  int64_t split_regions = 0;  // workspace regions: the gather kernel's resident blocks
};

// Parts per row for a mask call with the two kernels: batch x parts fills
// the gather kernel's resident blocks (at least 1).
int split_slices(const LaunchLimits& lim, int64_t batch, int64_t vocab);
// Whether a mask call takes the two kernels (given a workspace).
bool split_wanted(const LaunchLimits& lim, int64_t batch, int parts);
// Device workspace the split kernels need on one stream at most.
size_t split_workspace_bytes(const LaunchLimits& lim);

cudaError_t truncate_limits(DType dtype, int multiprocessors, LaunchLimits* lim);

// Enqueues the truncation of every row on stream.
cudaError_t launch_truncate(DType dtype, const TruncateParams& prm, const LaunchLimits& lim, cudaStream_t stream);

}  // namespace qrita
