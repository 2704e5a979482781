// Reading a row of logits from device memory: 16-byte vector loads for the
// aligned body, scalar loads for the unaligned head and tail (rows may
// start anywhere: any row stride is allowed).
//
// On Hopper the body streams through a ring in shared memory: cp.async
// keeps StreamRing::kStages vectors per thread in flight continuously,
// holding no registers (the kernel runs at its 64-register cap, and loads
// held in registers spilled the rest: PERFLOG runs 18, 21). Each thread
// reads back only the slots it filled itself, so the ring needs no
// barrier. Elsewhere (HIP, sm_80) kUnroll loads are held in registers.
#pragma once

#include <type_traits>
#include <utility>

#include "compat.cuh"

#if !QRITA_HIP && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define QRITA_STREAM_RING 1
#else
#define QRITA_STREAM_RING 0
#endif

namespace qrita {

// The stream ring of a block of kThreads: the first bytes of the dynamic
// shared memory, when the device code has one (the host allocates it when
// the kernel's PTX targets sm_90 or later: launch.cu).
template <int kThreads>
struct StreamRing {
  // 16-byte slots per thread, in flight together (two 512-thread blocks
  // then keep 128 KB per SM in flight, as the pure-read floor does).
  static constexpr int kStages = 8;
  static constexpr size_t kBytes = size_t(kThreads) * 16 * kStages;
  // What this compilation of the device code puts before the row's
  // shared memory.
  static constexpr size_t kDeviceBytes = QRITA_STREAM_RING ? kBytes : 0;
};

#if QRITA_STREAM_RING
__device__ __forceinline__ void cp_async16(void* smem, const void* gmem) {
  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(gmem) : "memory");
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
// Waits until at most kPending of this thread's newest groups are in flight.
template <int kPending>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(kPending) : "memory");
}
#endif

template <class E>
struct RowSplit {
  using bits_t = typename E::bits_t;
  static constexpr int kVec = 16 / sizeof(bits_t);
  uint32_t head;  // scalar elements before the first 16-byte boundary
  uint32_t nvec;  // aligned vectors
  uint32_t tail;  // first index of the scalar tail

  __device__ RowSplit(const bits_t* row, uint32_t n) {
    const uint32_t mis = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(row) % 16) / sizeof(bits_t);
    head = mis ? min(n, static_cast<uint32_t>(kVec) - mis) : 0u;
    nvec = (n - head) / kVec;
    tail = head + nvec * kVec;
  }
};

// Calls f and tells whether it asked to stop: an f returning bool stops
// the walk by returning true (the same value on every thread).
template <class F, class... A>
__device__ __forceinline__ bool call_stops(F& f, A&&... a) {
  if constexpr (std::is_same_v<decltype(f(std::forward<A>(a)...)), bool>) {
    return f(std::forward<A>(a)...);
  } else {
    f(std::forward<A>(a)...);
    return false;
  }
}

// Calls f(count, first, elems, live) over the whole row in index order,
// where elems holds `count` consecutive elements starting at index `first`
// (count is a std::integral_constant: 1 for head and tail, the vector width
// for the body); within a call, thread t's elements precede thread t+1's.
// Every thread of the block makes the same sequence of calls, so f may use
// warp collectives and block barriers; `live` says whether this thread's
// elements are real. kUnroll vectors per thread are loaded before any is
// used, or the stream ring keeps its stages in flight. An f returning bool
// ends the walk early by returning true.
template <class E, int kThreads, int kUnroll, class F>
__device__ __forceinline__ void for_each_chunk(const typename E::bits_t* row, uint32_t n, F&& f) {
  using bits_t = typename E::bits_t;
  using Split = RowSplit<E>;
  constexpr int kVec = Split::kVec;
  static_assert(kThreads >= kVec, "head and tail take one pass");
  const Split s(row, n);
  {
    const uint32_t i = threadIdx.x;
    const bool live = i < s.head;
    bits_t b[1] = {live ? row[i] : bits_t(0)};
    if (call_stops(f, std::integral_constant<int, 1>(), i, b, live)) return;
  }
  const uint4* vrow = reinterpret_cast<const uint4*>(row + s.head);
#if QRITA_STREAM_RING
  {
    using Ring = StreamRing<kThreads>;
    constexpr int kStages = Ring::kStages;
    extern __shared__ __align__(16) unsigned char shared_bytes[];
    uint4* ring = reinterpret_cast<uint4*>(shared_bytes) + threadIdx.x;  // slot q: ring[q * kThreads]
    const uint32_t trips = (s.nvec + kThreads - 1) / kThreads;  // the same on every thread
    auto fetch = [&](uint32_t trip) {  // one group per trip, empty past the end
      const uint32_t j = trip * kThreads + threadIdx.x;
      if (trip < trips && j < s.nvec) cp_async16(ring + (trip % kStages) * kThreads, vrow + j);
      cp_async_commit();
    };
#pragma unroll
    for (int q = 0; q < kStages - 1; ++q) fetch(q);
    for (uint32_t trip = 0; trip < trips; ++trip) {
      // The slot refilled now was read back in the previous trip.
      fetch(trip + kStages - 1);
      cp_async_wait<kStages - 1>();  // this trip's group has landed
      const uint32_t j = trip * kThreads + threadIdx.x;
      const bool live = j < s.nvec;
      const uint4 v = live ? ring[(trip % kStages) * kThreads] : make_uint4(0, 0, 0, 0);
      bits_t b[kVec];
      static_assert(sizeof(b) == sizeof(uint4), "one vector");
      memcpy(b, &v, sizeof(uint4));
      if (call_stops(f, std::integral_constant<int, kVec>(), s.head + j * kVec, b, live)) {
        cp_async_wait<0>();  // no copy may land in the ring after the walk
        return;
      }
    }
    cp_async_wait<0>();
  }
#else
  for (uint32_t base = 0; base < s.nvec; base += kThreads * kUnroll) {
    uint4 v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const uint32_t j = base + u * kThreads + threadIdx.x;
      v[u] = j < s.nvec ? vrow[j] : make_uint4(0, 0, 0, 0);
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const uint32_t j = base + u * kThreads + threadIdx.x;
      bits_t b[kVec];
      static_assert(sizeof(b) == sizeof(uint4), "one vector");
      memcpy(b, &v[u], sizeof(uint4));
      if (call_stops(f, std::integral_constant<int, kVec>(), s.head + j * kVec, b, j < s.nvec)) return;
    }
  }
#endif
  {
    const uint32_t i = s.tail + threadIdx.x;
    const bool live = i < n;
    bits_t b[1] = {live ? row[i] : bits_t(0)};
    call_stops(f, std::integral_constant<int, 1>(), i, b, live);
  }
}

// Stores `count` elements at row[first] (a whole vector for the body).
template <class E, int kCount>
__device__ __forceinline__ void store_chunk(typename E::bits_t* row, uint32_t first,
                                            const typename E::bits_t (&b)[kCount]) {
  if constexpr (kCount == 1) {
    row[first] = b[0];
  } else {
    uint4 v;
    memcpy(&v, b, sizeof(uint4));
    *reinterpret_cast<uint4*>(row + first) = v;
  }
}

// Writes -Inf over the whole row (the write-only mask pass).
template <class E, int kThreads>
__device__ void fill_neg_inf(typename E::bits_t* row, uint32_t n) {
  using bits_t = typename E::bits_t;
  using Split = RowSplit<E>;
  const Split s(row, n);
  if (threadIdx.x < s.head) row[threadIdx.x] = E::kNegInf;
  bits_t b[Split::kVec];
  for (int t = 0; t < Split::kVec; ++t) b[t] = E::kNegInf;
  uint4 v;
  memcpy(&v, b, sizeof(uint4));
  uint4* vrow = reinterpret_cast<uint4*>(row + s.head);
  for (uint32_t j = threadIdx.x; j < s.nvec; j += kThreads) vrow[j] = v;
  if (s.tail + threadIdx.x < n) row[s.tail + threadIdx.x] = E::kNegInf;
}

}  // namespace qrita
