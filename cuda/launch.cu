#include "launch.cuh"
#include "split_kernel.cuh"
#include "truncate_kernel.cuh"

namespace qrita {
namespace {

using FewRows = BlockShape<TruncatePolicy, TruncatePolicy::kFewRowsThreads, TruncatePolicy::kFewRowsBlocksPerSM>;
using ManyRows = BlockShape<TruncatePolicy, TruncatePolicy::kManyRowsThreads, TruncatePolicy::kManyRowsBlocksPerSM>;
// The split kernels run many narrow blocks: a part of a row is short.
using SplitRows = ManyRows;
// The gather kernel keeps many blocks per SM: it holds few registers.
using GatherRows = BlockShape<TruncatePolicy, TruncatePolicy::kGatherThreads, TruncatePolicy::kGatherBlocksPerSM>;

template <class Shape, class E>
cudaError_t launch_shape(const TruncateParams& prm, int64_t grid, cudaStream_t stream) {
  truncate_rows_kernel<Shape, E>
      <<<static_cast<unsigned>(grid), Shape::kBlockThreads, sizeof(TruncateShared<Shape>), stream>>>(prm);
  return cudaGetLastError();
}

// The two kernels, in waves of as many rows as the workspace has regions
// for (one wave unless rows are not cut).
template <class E>
cudaError_t launch_split(const TruncateParams& prm, const LaunchLimits& lim, cudaStream_t stream) {
  using bits_t = typename E::bits_t;
  const int64_t S = prm.split_slices;
  const int64_t wave = lim.split_regions / S > 0 ? lim.split_regions / S : 1;
  for (int64_t first = 0; first < prm.batch; first += wave) {
    TruncateParams w = prm;
    w.batch = prm.batch - first < wave ? prm.batch - first : wave;
    w.logits = static_cast<bits_t*>(prm.logits) + first * prm.row_stride;
    if (prm.k) w.k = prm.k + first;
    if (prm.p) w.p = prm.p + first;
    if (prm.row_stats) w.row_stats = prm.row_stats + first * kRowStatsInts;
    const unsigned grid = static_cast<unsigned>(w.batch * S);
    gather_slices_kernel<GatherRows, E>
        <<<grid, GatherRows::kBlockThreads, sizeof(TruncateShared<GatherRows>), stream>>>(w);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) return e;
    finish_slices_kernel<SplitRows, E>
        <<<grid, SplitRows::kBlockThreads, sizeof(TruncateShared<SplitRows>), stream>>>(w);
    e = cudaGetLastError();
    if (e != cudaSuccess) return e;
  }
  return cudaSuccess;
}

template <class E>
cudaError_t launch_typed(const TruncateParams& prm, const LaunchLimits& lim, cudaStream_t stream) {
  if (prm.split_ws) return launch_split<E>(prm, lim, stream);
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
  int gather = 0, finish = 0;
  e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&gather, gather_slices_kernel<GatherRows, E>,
                                                    GatherRows::kBlockThreads, sizeof(TruncateShared<GatherRows>));
  if (e != cudaSuccess) return e;
  e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&finish, finish_slices_kernel<SplitRows, E>,
                                                    SplitRows::kBlockThreads, sizeof(TruncateShared<SplitRows>));
  if (e != cudaSuccess) return e;
  lim->multiprocessors = multiprocessors;
  lim->many_rows_grid = (few > 0 && many > 0) ? int64_t(many) * multiprocessors : 0;
  lim->split_regions = finish > 0 ? int64_t(gather) * multiprocessors : 0;
  return cudaSuccess;
}

}  // namespace

int truncate_candidate_capacity() { return TruncatePolicy::kCandidateCapacity; }

int split_slices(const LaunchLimits& lim, int64_t batch, int64_t vocab) {
  if (batch < 1) return 1;
  int64_t parts = lim.split_regions / batch;
  parts = parts < vocab / SplitRows::kMinSliceEntries ? parts : vocab / SplitRows::kMinSliceEntries;
  parts = parts < SplitRows::kMaxSlices ? parts : SplitRows::kMaxSlices;
  return parts >= 2 ? static_cast<int>(parts) : 1;
}

// Cut rows, or more rows than one wide block per SM: the persistent
// kernel's blocks gather at about two thirds of the read floor.
bool split_wanted(const LaunchLimits& lim, int64_t batch, int parts) {
  return lim.split_regions > 0 && (parts > 1 || batch > lim.multiprocessors);
}

size_t split_workspace_bytes(const LaunchLimits& lim) {
  return static_cast<size_t>(lim.split_regions) * sizeof(SliceRegionOf<SplitRows>);
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
