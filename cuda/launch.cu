#include "launch.cuh"
#include "persistent_kernel.cuh"

namespace qrita {
namespace {

using FewRows = BlockShape<TruncatePolicy, TruncatePolicy::kFewRowsThreads, TruncatePolicy::kFewRowsBlocksPerSM>;
using ManyRows = BlockShape<TruncatePolicy, TruncatePolicy::kManyRowsThreads, TruncatePolicy::kManyRowsBlocksPerSM>;
using MostRows = BlockShape<TruncatePolicy, TruncatePolicy::kMostRowsThreads, TruncatePolicy::kMostRowsBlocksPerSM>;
// The split kernel runs many narrow blocks: a part of a row is short. Its
// rows' loads stream evict-first too (kStreamLoads; PERFLOG runs 139-146).
struct SplitRows : ManyRows {
  static constexpr bool kStreamLoads = true;
};

// Dynamic shared memory above 48 KB would need an opt-in per kernel.
static_assert(sizeof(PersistentShared<FewRows>) <= 48 * 1024 && sizeof(PersistentShared<ManyRows>) <= 48 * 1024 &&
                  sizeof(PersistentShared<MostRows>) <= 48 * 1024,
              "the persistent kernel's shared memory fits the default limit");

// Only the split kernel's shape serves handed-on rows (its blocks take
// the rows' parts). The four-block shape takes only calls whose rows all
// have a top-k (launch_typed): no row there hands on.
template <class Shape>
constexpr bool kServesHandOn = Shape::kBlockThreads == SplitRows::kBlockThreads &&
                               Shape::kMinBlocksPerSM == SplitRows::kMinBlocksPerSM;

// Launches kernel(prm). Where the device allows it and the stream is not
// being captured (CUDA 11.8 graphs take no programmatic edges), as a
// programmatic dependent of the kernel before it on the stream: its
// blocks are placed while that kernel runs (every kernel here lets them
// at its start) and wait in await_previous_grid before touching device
// memory, so back-to-back calls lose the launch gap between them (PERFLOG
// run 162). A launch the runtime refuses that way is made plainly.
template <class Kernel>
cudaError_t launch_kernel(Kernel kernel, unsigned grid, unsigned threads, size_t shared, const LaunchLimits& lim,
                          cudaStream_t stream, const TruncateParams& prm) {
#if !QRITA_HIP
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusActive;
  if (lim.early_launch && cudaStreamIsCapturing(stream, &capture) != cudaSuccess) (void)cudaGetLastError();
  if (lim.early_launch && capture == cudaStreamCaptureStatusNone) {
    cudaLaunchAttribute early{};
    early.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    early.val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t cfg{};
    cfg.gridDim = dim3(grid);
    cfg.blockDim = dim3(threads);
    cfg.dynamicSmemBytes = shared;
    cfg.stream = stream;
    cfg.attrs = &early;
    cfg.numAttrs = 1;
    if (cudaLaunchKernelEx(&cfg, kernel, prm) == cudaSuccess) return cudaSuccess;
    (void)cudaGetLastError();
  }
#else
  (void)lim;
#endif
  kernel<<<grid, threads, shared, stream>>>(prm);
  return cudaGetLastError();
}

template <class Shape, class E>
cudaError_t launch_shape(const TruncateParams& args, int64_t grid, const LaunchLimits& lim, cudaStream_t stream) {
  TruncateParams prm = args;
  // The served rows' parts are taken by blocks of this grid (hand_on.cuh).
  if (!kServesHandOn<Shape> || grid < prm.hand_on_slices) prm.hand_on_slices = 0;
  return launch_kernel(truncate_rows_kernel<Shape, E, kServesHandOn<Shape>>, static_cast<unsigned>(grid),
                       Shape::kBlockThreads, sizeof(PersistentShared<Shape>), lim, stream, prm);
}

// The split rows' kernel (cuda/split_kernel.cuh).
template <class E>
cudaError_t launch_split(const TruncateParams& args, const LaunchLimits& lim, cudaStream_t stream) {
  const unsigned grid = static_cast<unsigned>(args.batch * args.split_slices);
  // The parts are asked of the L2 only with one block a multiprocessor:
  // with two, the second block's requests delay the first one's sample
  // (PERFLOG run 50: B=16 x 128256 0.5 us slower with them; run 49: the
  // 32 MB of B=64 held every sample back 4k cycles).
  TruncateParams prm = args;
  prm.split_prefetch = grid <= static_cast<unsigned>(lim.multiprocessors);
  // Sliced passes wait for every row's decision past their own parts, so
  // every block must be resident (the split kernel's grid is, by
  // split_slices).
  if (grid > static_cast<unsigned>(lim.split_blocks)) prm.hand_on_slices = 0;
  constexpr size_t kShared = sizeof(TruncateShared<SplitRows>);
  if (prm.hand_on_slices > 0)
    return launch_kernel(split_rows_kernel<SplitRows, E, true>, grid, SplitRows::kBlockThreads, kShared, lim, stream,
                         prm);
  return launch_kernel(split_rows_kernel<SplitRows, E, false>, grid, SplitRows::kBlockThreads, kShared, lim, stream,
                       prm);
}

template <class E>
cudaError_t launch_typed(const TruncateParams& prm, const LaunchLimits& lim, bool every_row_top_k,
                         cudaStream_t stream) {
  if (prm.split_slices > 1) return launch_split<E>(prm, lim, stream);
  if (prm.batch <= lim.multiprocessors) return launch_shape<FewRows, E>(prm, prm.batch, lim, stream);
  // Rows with a top-k gain 2-5 % with four blocks; top-p alone lost up to
  // 13 % (PERFLOG run 75: bf16 1024 x 128256, neginf90 rows) and the id
  // output of unfiltered rows 6 % (run 83).
  if (prm.batch >= lim.most_rows_grid && every_row_top_k)
    return launch_shape<MostRows, E>(prm, lim.most_rows_grid, lim, stream);
  const int64_t grid = prm.batch < lim.many_rows_grid ? prm.batch : lim.many_rows_grid;
  return launch_shape<ManyRows, E>(prm, grid, lim, stream);
}

template <class E>
cudaError_t occupancy_typed(int multiprocessors, LaunchLimits* lim) {
  int few = 0, many = 0;
  cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &few, truncate_rows_kernel<FewRows, E, kServesHandOn<FewRows>>, FewRows::kBlockThreads,
      sizeof(PersistentShared<FewRows>));
  if (e != cudaSuccess) return e;
  e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&many, truncate_rows_kernel<ManyRows, E, kServesHandOn<ManyRows>>,
                                                    ManyRows::kBlockThreads, sizeof(PersistentShared<ManyRows>));
  if (e != cudaSuccess) return e;
  int most = 0;
  e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&most, truncate_rows_kernel<MostRows, E, kServesHandOn<MostRows>>,
                                                    MostRows::kBlockThreads, sizeof(PersistentShared<MostRows>));
  if (e != cudaSuccess) return e;
  int split = 0;
  e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&split, split_rows_kernel<SplitRows, E, false>,
                                                    SplitRows::kBlockThreads, sizeof(TruncateShared<SplitRows>));
  if (e != cudaSuccess) return e;
  int sliced = 0;  // the sliced instance's grid must be resident too (sliced_passes.cuh)
  e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&sliced, split_rows_kernel<SplitRows, E, true>,
                                                    SplitRows::kBlockThreads, sizeof(TruncateShared<SplitRows>));
  if (e != cudaSuccess) return e;
  split = sliced < split ? sliced : split;
  lim->multiprocessors = multiprocessors;
  lim->elem_bytes = static_cast<int>(sizeof(typename E::bits_t));
  lim->many_rows_grid = (few > 0 && many > 0) ? int64_t(many) * multiprocessors : 0;
  // No resident block of four: the two-block shape takes every batch.
  lim->most_rows_grid = most > 0 ? int64_t(most) * multiprocessors : INT64_MAX;
  lim->split_blocks = int64_t(split) * multiprocessors;
  return cudaSuccess;
}

// At most `parts` parts of a row of vocab entries: no part shorter than
// kMinSliceEntries, at most kMaxSlices.
int64_t clamp_parts(int64_t parts, int64_t vocab) {
  parts = parts < vocab / SplitRows::kMinSliceEntries ? parts : vocab / SplitRows::kMinSliceEntries;
  return parts < SplitRows::kMaxSlices ? parts : int64_t(SplitRows::kMaxSlices);
}

}  // namespace

int truncate_candidate_capacity() { return TruncatePolicy::kCandidateCapacity; }

int split_slices(const LaunchLimits& lim, int64_t batch, int64_t vocab) {
  if (batch < 1) return 1;
  const auto parts_within = [&](int64_t blocks) { return clamp_parts(blocks / batch, vocab); };
  // One block per multiprocessor while every part is read in at most
  // kOneBlockMaxTrips trips of the gather's loop (policy.cuh).
  int64_t parts = parts_within(lim.multiprocessors);
  const int64_t trip = int64_t(SplitRows::kBlockThreads) * SplitRows::kLoadsInFlight * (16 / lim.elem_bytes);
  // Fewer than two parts a multiprocessor's worth: two blocks an SM
  // unless the row is one fp32 trip (as before run 163).
  const bool two_blocks = parts < 2 ? parts * slice_trip_entries<SplitRows>() < vocab
                                    : (vocab + parts - 1) / parts + kSliceAlign > SplitRows::kOneBlockMaxTrips * trip;
  if (two_blocks) parts = parts_within(lim.split_blocks);
  return parts >= 2 ? static_cast<int>(parts) : 1;
}

static_assert(sizeof(HandOnList) <= kHandOnListBytes, "the hand-on list fits its room");

size_t split_sync_bytes(const LaunchLimits& lim) {
  constexpr size_t kAlign = 256;  // the regions after it stay aligned
  const size_t rows = static_cast<size_t>(lim.split_blocks / 2);  // two parts a row at least
  return kHandOnListBytes + (rows * sizeof(SplitRowSync) + kAlign - 1) / kAlign * kAlign;
}

int hand_on_slices(const LaunchLimits& lim, int64_t batch, int64_t vocab) {
  if (batch <= lim.multiprocessors) return 0;  // one wide block a row: no blocks to spare
  // Every listed row's parts have regions, and a row's parts all fit one
  // grid of the persistent kernel; rows have meeting points.
  const int64_t parts = clamp_parts(lim.split_blocks / kHandOnGroups, vocab);
  if (kHandOnGroups > lim.split_blocks / 2 || parts > lim.many_rows_grid) return 0;
  return parts >= 2 ? static_cast<int>(parts) : 0;
}

int sliced_pass_slices(int64_t vocab, int parts) {
  if (parts < 2 || parts > SplitRows::kSlicedPassMaxParts) return 0;
  // A slice is read in one trip of the gather, as a part of the most parts.
  const int64_t trip = slice_trip_entries<SplitRows>();
  const int64_t slices = (vocab + trip - 1) / trip;
  return static_cast<int>(slices > parts ? slices : parts);
}

size_t split_workspace_bytes(const LaunchLimits& lim) {
  return static_cast<size_t>(lim.split_blocks) * sizeof(SliceRegionOf<SplitRows>);
}

cudaError_t truncate_limits(DType dtype, int multiprocessors, LaunchLimits* lim) {
  int device = 0, major = 0;
  cudaError_t e = cudaGetDevice(&device);
  if (e == cudaSuccess) e = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
  if (e != cudaSuccess) return e;
  lim->early_launch = !QRITA_HIP && major >= 9;
  switch (dtype) {
    case DType::kF32: return occupancy_typed<F32>(multiprocessors, lim);
    case DType::kF16: return occupancy_typed<F16>(multiprocessors, lim);
    case DType::kBF16: return occupancy_typed<BF16>(multiprocessors, lim);
  }
  return cudaErrorInvalidValue;
}

cudaError_t launch_truncate(DType dtype, const TruncateParams& prm, const LaunchLimits& lim, bool every_row_top_k,
                            cudaStream_t stream) {
  switch (dtype) {
    case DType::kF32: return launch_typed<F32>(prm, lim, every_row_top_k, stream);
    case DType::kF16: return launch_typed<F16>(prm, lim, every_row_top_k, stream);
    case DType::kBF16: return launch_typed<BF16>(prm, lim, every_row_top_k, stream);
  }
  return cudaErrorInvalidValue;
}

}  // namespace qrita
