// The only device-side file that knows CUDA from HIP. Kernels use these
// wrappers and kWarpSize; none hard-codes a warp of 32 or a 32-bit mask.
#pragma once

#if defined(__HIP__) || defined(__HIP_PLATFORM_AMD__)
#define QRITA_HIP 1
#include "../hip/hip_compat.h"
#else
#define QRITA_HIP 0
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#endif

#include <cstdint>

namespace qrita {

#if QRITA_HIP
using lane_mask_t = unsigned long long;
// CDNA wavefronts (gfx90a, gfx940, gfx950) are 64 wide; qrita_create
// rejects devices whose warp size differs from the build's.
constexpr int kWarpSize = 64;
#else
using lane_mask_t = unsigned int;
constexpr int kWarpSize = 32;
#endif
constexpr lane_mask_t kFullLaneMask = ~lane_mask_t(0);
static_assert(sizeof(lane_mask_t) * 8 == kWarpSize, "one mask bit per lane");

// 64-bit add to shared memory. CUDA has no native 64-bit shared add (it
// loops on compare-and-swap, which serialises under contention); two
// 32-bit adds with the carry of the low word give the same sum once every
// add has landed. AMD's LDS adds 64 bits natively.
__device__ __forceinline__ void shared_add_u64(unsigned long long* addr, unsigned long long v) {
#if QRITA_HIP
  atomicAdd(addr, v);
#else
  unsigned int* w = reinterpret_cast<unsigned int*>(addr);  // little-endian: low word first
  const unsigned int lo = static_cast<unsigned int>(v);
  const unsigned int old = atomicAdd(&w[0], lo);
  const unsigned int hi = static_cast<unsigned int>(v >> 32) + (old + lo < old ? 1u : 0u);
  if (hi) atomicAdd(&w[1], hi);
#endif
}

// 2^x by the hardware's exp2 unit: one instruction (CUDA's ex2.approx,
// flushing denormal results to 0), deterministic for a given x.
__device__ __forceinline__ float fast_exp2(float x) {
#if QRITA_HIP
  return exp2f(x);
#else
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
#endif
}

// The smaller of a and b, NaN when either is NaN (fminf returns the other
// one): sm_80's min.NaN, one instruction.
__device__ __forceinline__ float min_nan(float a, float b) {
#if !QRITA_HIP && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  float d;
  asm("min.NaN.f32 %0, %1, %2;" : "=f"(d) : "f"(a), "f"(b));
  return d;
#else
  return (a != a || b != b) ? a + b : fminf(a, b);
#endif
}

// Copies 4 bytes from device to shared memory without holding a register:
// cp.async on sm_80 and later (the copy lands while the thread goes on),
// a plain copy elsewhere. async_copy_wait_all waits for this thread's
// copies; a barrier then makes them visible to the block.
__device__ __forceinline__ void async_copy_4(void* smem, const void* gmem) {
#if !QRITA_HIP && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(s), "l"(gmem) : "memory");
#else
  *static_cast<uint32_t*>(smem) = *static_cast<const uint32_t*>(gmem);
#endif
}

__device__ __forceinline__ void async_copy_wait_all() {
#if !QRITA_HIP && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_all;" ::: "memory");
#endif
}

// Asks the L2 for the cache line holding p, holding no register and
// waiting for nothing (a hint: a later load of it is then an L2 hit).
// No-op on HIP.
__device__ __forceinline__ void prefetch_l2(const void* p) {
#if !QRITA_HIP && defined(__CUDA_ARCH__)
  asm volatile("prefetch.global.L2 [%0];" ::"l"(p));
#else
  (void)p;
#endif
}

// A row's 16-byte load and store; kStream: evict-first in the L1 and
// the L2 (ld.global.cs / st.global.cs), for the passes of kernels whose
// policy asks for it (kStreamLoads, kStreamStores). Plain on HIP.
template <bool kStream>
__device__ __forceinline__ uint4 load_vector(const uint4* p) {
#if !QRITA_HIP && defined(__CUDA_ARCH__)
  if constexpr (kStream) return __ldcs(p);
#endif
  return *p;
}

template <bool kStream>
__device__ __forceinline__ void store_vector(uint4* p, const uint4& v) {
#if !QRITA_HIP && defined(__CUDA_ARCH__)
  if constexpr (kStream) {
    __stcs(p, v);
    return;
  }
#endif
  *p = v;
}

// Programmatic dependent launch (sm_90; cuda/launch.cu). A kernel that
// the launcher lets start during the one before it on the stream waits
// here, before its first access to device memory, until that kernel has
// finished and its writes are visible; then it lets the stream's next
// kernel place its blocks, which wait here in turn (so at most one grid
// waits ahead of a running one). No-ops for a plain launch, on other GPUs
// and on HIP.
__device__ __forceinline__ void await_previous_grid() {
#if !QRITA_HIP && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

// Pauses a thread that polls device memory, so that the blocks sharing
// its multiprocessor keep their issue slots.
__device__ __forceinline__ void sleep_briefly() {
#if QRITA_HIP
  __builtin_amdgcn_s_sleep(1);
#elif defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  __nanosleep(64);
#endif
}

// Loads what another block wrote during this kernel, after the fence that
// followed its count: from the L2, past this multiprocessor's L1, which may
// hold an older copy of the line (this block read it before). On AMD the
// agent-scope fence itself invalidates the L1: a plain load.
template <class T>
__device__ __forceinline__ T load_coherent(const T* p) {
#if QRITA_HIP
  return *p;
#else
  return __ldcg(p);
#endif
}

// A barrier every thread of the block meets, each warp at an instruction
// of its own: barrier 1, unaligned (0 is __syncthreads', whose aligned
// form wants one instruction for the whole block). Warps with nothing to
// do meet it in a loop of their own, where a barrier among only the
// working warps (bar.sync 1 with a count) left racecheck 177 hazards in
// the barriers after it (PERFLOG run 93). AMD has no unaligned barrier:
// kUnalignedBarriers is false there, and every warp runs the same code
// to __syncthreads.
#if QRITA_HIP
constexpr bool kUnalignedBarriers = false;
__device__ __forceinline__ void sync_block_unaligned() { __syncthreads(); }
#else
constexpr bool kUnalignedBarriers = true;
__device__ __forceinline__ void sync_block_unaligned() { asm volatile("barrier.sync 1;" ::: "memory"); }
#endif

// The SM's cycle counter (benchmark counters only).
__device__ __forceinline__ long long device_clock() { return clock64(); }

__device__ __forceinline__ int lane_id() { return static_cast<int>(threadIdx.x) % kWarpSize; }
__device__ __forceinline__ int warp_id() { return static_cast<int>(threadIdx.x) / kWarpSize; }

__device__ __forceinline__ lane_mask_t warp_ballot(bool pred) {
#if QRITA_HIP
  return __ballot(pred);
#else
  return __ballot_sync(kFullLaneMask, pred);
#endif
}

__device__ __forceinline__ bool warp_any(bool pred) { return warp_ballot(pred) != 0; }

__device__ __forceinline__ int popcount(lane_mask_t m) {
#if QRITA_HIP
  return __popcll(m);
#else
  return __popc(m);
#endif
}

// Index of the lowest set bit; m must be non-zero.
__device__ __forceinline__ int lowest_lane(lane_mask_t m) {
#if QRITA_HIP
  return __ffsll(static_cast<unsigned long long>(m)) - 1;
#else
  return __ffs(m) - 1;
#endif
}

// Bits of the lanes below this one.
__device__ __forceinline__ lane_mask_t lanes_below() {
  return (lane_mask_t(1) << lane_id()) - 1;
}

template <class T>
__device__ __forceinline__ T warp_shfl(T v, int src) {
#if QRITA_HIP
  return __shfl(v, src);
#else
  return __shfl_sync(kFullLaneMask, v, src);
#endif
}

template <class T>
__device__ __forceinline__ T warp_shfl_up(T v, int delta) {
#if QRITA_HIP
  return __shfl_up(v, delta);
#else
  return __shfl_up_sync(kFullLaneMask, v, delta);
#endif
}

template <class T>
__device__ __forceinline__ T warp_shfl_xor(T v, int mask) {
#if QRITA_HIP
  return __shfl_xor(v, mask);
#else
  return __shfl_xor_sync(kFullLaneMask, v, mask);
#endif
}

__device__ __forceinline__ float half_bits_to_float(uint16_t b) {
  return __half2float(__ushort_as_half(b));
}

}  // namespace qrita

// Segmented radix sort, for the sort baseline only: CUB's and rocPRIM's
// headers are heavy, so a file that needs them defines
// QRITA_WITH_SEGMENTED_SORT before its first include.
#if defined(QRITA_WITH_SEGMENTED_SORT)
#define QRITA_SEGMENTED_SORT_DEFINED 1
#if QRITA_HIP
#include <rocprim/device/device_segmented_radix_sort.hpp>
#include <rocprim/rocprim_version.hpp>
#else
#include <cub/device/device_segmented_radix_sort.cuh>
#endif

namespace qrita {

#if QRITA_HIP
// rocPRIM's gfx9 tuning for 4-byte keys and values, with its warp-sort path
// left off: that path partitions the segments and reads the partition sizes
// back with a stream sync (no graph capture), and its bitonic warp sorts are
// not stable. rocPRIM 4 (ROCm 7) dropped the short radix bits parameter.
#if ROCPRIM_VERSION >= 400000
using SegmentedSortConfig =
    rocprim::segmented_radix_sort_config<7, rocprim::kernel_config<256, 15>, rocprim::DisabledWarpSortConfig, false>;
#else
using SegmentedSortConfig =
    rocprim::segmented_radix_sort_config<7, 6, rocprim::kernel_config<256, 15>, rocprim::DisabledWarpSortConfig>;
#endif
#endif

// Stable descending sort of (key, value) pairs within every segment
// [offsets[s], offsets[s + 1]). keys/vals hold the input and an equal-sized
// spare; on return keys[0]/vals[0] point at the sorted result (the library
// picks the buffer on the host, so nothing is read back). temp == nullptr:
// only sets temp_bytes. No host sync, no allocation: graph-capturable.
inline cudaError_t segmented_sort_pairs_desc(void* temp, size_t& temp_bytes, uint32_t* keys[2], int32_t* vals[2],
                                             int items, int segments, const int* offsets, cudaStream_t stream) {
#if QRITA_HIP
  rocprim::double_buffer<uint32_t> k(keys[0], keys[1]);
  rocprim::double_buffer<int32_t> v(vals[0], vals[1]);
  const cudaError_t e = rocprim::segmented_radix_sort_pairs_desc<SegmentedSortConfig>(
      temp, temp_bytes, k, v, static_cast<unsigned>(items), static_cast<unsigned>(segments), offsets, offsets + 1, 0,
      32, stream);
  const uint32_t* sorted_keys = k.current();
  const int32_t* sorted_vals = v.current();
#else
  cub::DoubleBuffer<uint32_t> k(keys[0], keys[1]);
  cub::DoubleBuffer<int32_t> v(vals[0], vals[1]);
  const cudaError_t e = cub::DeviceSegmentedRadixSort::SortPairsDescending(temp, temp_bytes, k, v, items, segments,
                                                                           offsets, offsets + 1, 0, 32, stream);
  const uint32_t* sorted_keys = k.Current();
  const int32_t* sorted_vals = v.Current();
#endif
  if (sorted_keys != keys[0]) {
    uint32_t* tk = keys[0];
    keys[0] = keys[1];
    keys[1] = tk;
  }
  if (sorted_vals != vals[0]) {
    int32_t* tv = vals[0];
    vals[0] = vals[1];
    vals[1] = tv;
  }
  return e;
}

}  // namespace qrita
#endif  // QRITA_WITH_SEGMENTED_SORT
