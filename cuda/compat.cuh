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
