#include "launch.cuh"
#include "truncate_kernel.cuh"

namespace qrita {
namespace {

template <class E>
cudaError_t launch_typed(const TruncateParams& prm, int grid_limit, cudaStream_t stream) {
  const int64_t grid = prm.batch < grid_limit ? prm.batch : grid_limit;
  truncate_rows_kernel<TruncatePolicy, E>
      <<<static_cast<unsigned>(grid), TruncatePolicy::kBlockThreads, 0, stream>>>(prm);
  return cudaGetLastError();
}

template <class E>
cudaError_t occupancy(int* blocks) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, truncate_rows_kernel<TruncatePolicy, E>,
                                                       TruncatePolicy::kBlockThreads, 0);
}

}  // namespace

int truncate_candidate_capacity() { return TruncatePolicy::kCandidateCapacity; }

cudaError_t truncate_blocks_per_sm(DType dtype, int* blocks) {
  switch (dtype) {
    case DType::kF32: return occupancy<F32>(blocks);
    case DType::kF16: return occupancy<F16>(blocks);
    case DType::kBF16: return occupancy<BF16>(blocks);
  }
  return cudaErrorInvalidValue;
}

cudaError_t launch_truncate(DType dtype, const TruncateParams& prm, int grid_limit, cudaStream_t stream) {
  switch (dtype) {
    case DType::kF32: return launch_typed<F32>(prm, grid_limit, stream);
    case DType::kF16: return launch_typed<F16>(prm, grid_limit, stream);
    case DType::kBF16: return launch_typed<BF16>(prm, grid_limit, stream);
  }
  return cudaErrorInvalidValue;
}

}  // namespace qrita
