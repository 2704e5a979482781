#include "launch.cuh"
#include "truncate_kernel.cuh"

namespace qrita {
namespace {

using FewRows = BlockShape<TruncatePolicy, TruncatePolicy::kFewRowsThreads, TruncatePolicy::kFewRowsBlocksPerSM>;
using ManyRows = BlockShape<TruncatePolicy, TruncatePolicy::kManyRowsThreads, TruncatePolicy::kManyRowsBlocksPerSM>;

template <class Shape, class E>
cudaError_t launch_shape(const TruncateParams& prm, int64_t grid, cudaStream_t stream) {
  truncate_rows_kernel<Shape, E>
      <<<static_cast<unsigned>(grid), Shape::kBlockThreads, sizeof(TruncateShared<Shape>), stream>>>(prm);
  return cudaGetLastError();
}

template <class E>
cudaError_t launch_typed(const TruncateParams& prm, const LaunchLimits& lim, cudaStream_t stream) {
  if (prm.batch <= lim.multiprocessors) return launch_shape<FewRows, E>(prm, prm.batch, stream);
  const int64_t grid = prm.batch < lim.many_rows_grid ? prm.batch : lim.many_rows_grid;
  return launch_shape<ManyRows, E>(prm, grid, stream);
}

template <class E>
cudaError_t occupancy_typed(int multiprocessors, LaunchLimits* lim) {
  int few = 0, many = 0;
  cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &few, truncate_rows_kernel<FewRows, E>, FewRows::kBlockThreads, sizeof(TruncateShared<FewRows>));
  if (e != cudaSuccess) return e;
  e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&many, truncate_rows_kernel<ManyRows, E>,
                                                    ManyRows::kBlockThreads, sizeof(TruncateShared<ManyRows>));
  if (e != cudaSuccess) return e;
  lim->multiprocessors = multiprocessors;
  lim->many_rows_grid = (few > 0 && many > 0) ? int64_t(many) * multiprocessors : 0;
  return cudaSuccess;
}

}  // namespace

int truncate_candidate_capacity() { return TruncatePolicy::kCandidateCapacity; }

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
