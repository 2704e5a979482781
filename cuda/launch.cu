#include "launch.cuh"
#include "split_kernel.cuh"
#include "truncate_kernel.cuh"

namespace qrita {
namespace {

using FewRows = BlockShape<TruncatePolicy, TruncatePolicy::kFewRowsThreads, TruncatePolicy::kFewRowsBlocksPerSM>;
using ManyRows = BlockShape<TruncatePolicy, TruncatePolicy::kManyRowsThreads, TruncatePolicy::kManyRowsBlocksPerSM>;
// The split kernels run many narrow blocks: a part of a row is short.
using SplitRows = ManyRows;

// Dynamic shared memory of a block: the stream ring, when the device code
// has one (row_access.cuh), then the row's.
template <class Shape>
size_t shared_bytes(bool stream_ring) {
  return (stream_ring ? StreamRing<Shape::kBlockThreads>::kBytes : 0) + sizeof(TruncateShared<Shape>);
}

template <class Shape, class E>
cudaError_t launch_shape(const TruncateParams& prm, const LaunchLimits& lim, int64_t grid, cudaStream_t stream) {
  truncate_rows_kernel<Shape, E><<<static_cast<unsigned>(grid), Shape::kBlockThreads,
                                   shared_bytes<Shape>(lim.stream_ring), stream>>>(prm);
  return cudaGetLastError();
}

template <class E>
cudaError_t launch_split(const TruncateParams& prm, const LaunchLimits& lim, cudaStream_t stream) {
  const unsigned grid = static_cast<unsigned>(prm.batch * prm.split_slices);
  const size_t shared = shared_bytes<SplitRows>(lim.stream_ring);
  gather_slices_kernel<SplitRows, E><<<grid, SplitRows::kBlockThreads, shared, stream>>>(prm);
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) return e;
  finish_slices_kernel<SplitRows, E><<<grid, SplitRows::kBlockThreads, shared, stream>>>(prm);
  return cudaGetLastError();
}

template <class E>
cudaError_t launch_typed(const TruncateParams& prm, const LaunchLimits& lim, cudaStream_t stream) {
  if (prm.split_slices > 1) return launch_split<E>(prm, lim, stream);
  if (prm.batch <= lim.multiprocessors) return launch_shape<FewRows, E>(prm, lim, prm.batch, stream);
  const int64_t grid = prm.batch < lim.many_rows_grid ? prm.batch : lim.many_rows_grid;
  return launch_shape<ManyRows, E>(prm, lim, grid, stream);
}

// Lets kernel use `bytes` of dynamic shared memory (above 48 KB it must
// opt in) and returns how many of its blocks fit on an SM.
template <class Kernel>
cudaError_t fit_blocks(Kernel kernel, int threads, size_t bytes, int* blocks) {
#if !QRITA_HIP
  if (bytes > 48 * 1024) {
    const cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes));
    if (e != cudaSuccess) return e;
  }
#endif
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, kernel, threads, bytes);
}

template <class E>
cudaError_t occupancy_typed(int multiprocessors, LaunchLimits* lim) {
#if !QRITA_HIP
  // The device code streams through the ring when its PTX targets sm_90
  // or later (QRITA_STREAM_RING); the shared memory must then hold it.
  cudaFuncAttributes attr;
  cudaError_t e = cudaFuncGetAttributes(&attr, truncate_rows_kernel<ManyRows, E>);
  if (e != cudaSuccess) return e;
  lim->stream_ring = attr.ptxVersion >= 90;
#else
  cudaError_t e = cudaSuccess;
  lim->stream_ring = false;
#endif
  const bool ring = lim->stream_ring;
  int few = 0, many = 0, gather = 0, finish = 0;
  e = fit_blocks(truncate_rows_kernel<FewRows, E>, FewRows::kBlockThreads, shared_bytes<FewRows>(ring), &few);
  if (e != cudaSuccess) return e;
  e = fit_blocks(truncate_rows_kernel<ManyRows, E>, ManyRows::kBlockThreads, shared_bytes<ManyRows>(ring), &many);
  if (e != cudaSuccess) return e;
  e = fit_blocks(gather_slices_kernel<SplitRows, E>, SplitRows::kBlockThreads, shared_bytes<SplitRows>(ring), &gather);
  if (e != cudaSuccess) return e;
  e = fit_blocks(finish_slices_kernel<SplitRows, E>, SplitRows::kBlockThreads, shared_bytes<SplitRows>(ring), &finish);
  if (e != cudaSuccess) return e;
  lim->multiprocessors = multiprocessors;
  lim->many_rows_grid = (few > 0 && many > 0) ? int64_t(many) * multiprocessors : 0;
  lim->split_blocks = int64_t(gather < finish ? gather : finish) * multiprocessors;
  return cudaSuccess;
}

}  // namespace

int truncate_candidate_capacity() { return TruncatePolicy::kCandidateCapacity; }

int split_slices(const LaunchLimits& lim, int64_t batch, int64_t vocab) {
  if (batch < 1) return 1;
  int64_t parts = lim.split_blocks / batch;
  parts = parts < vocab / SplitRows::kMinSliceEntries ? parts : vocab / SplitRows::kMinSliceEntries;
  parts = parts < SplitRows::kMaxSlices ? parts : SplitRows::kMaxSlices;
  return parts >= 2 ? static_cast<int>(parts) : 1;
}

size_t split_workspace_bytes(const LaunchLimits& lim) {
  return static_cast<size_t>(lim.split_blocks) * sizeof(SliceRegionOf<SplitRows>);
}

cudaError_t truncate_limits(DType dtype, int multiprocessors, LaunchLimits* lim) {
  switch (dtype) {
    case DType::kF32: return occupancy_typed<F32>(multiprocessors, lim);
    case DType::kF16: return occupancy_typed<F16>(multiprocessors, lim);
    case DType::kBF16: return occupancy_typed<BF16>(multiprocessors, lim);
  }
  return cudaErrorInvalidValue;
}

cudaError_t launch_truncate(DType dtype, const TruncateParams& prm, const LaunchLimits& lim, cudaStream_t stream) {
  switch (dtype) {
    case DType::kF32: return launch_typed<F32>(prm, lim, stream);
    case DType::kF16: return launch_typed<F16>(prm, lim, stream);
    case DType::kBF16: return launch_typed<BF16>(prm, lim, stream);
  }
  return cudaErrorInvalidValue;
}

}  // namespace qrita
