// Reading a row of logits from device memory: 16-byte vector loads for the
// aligned body, scalar loads for the unaligned head and tail (rows may
// start anywhere: any row stride is allowed).
#pragma once

#include <type_traits>
#include <utility>

#include "compat.cuh"

namespace qrita {

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

// The walk of for_each_chunk and for_each_index_chunk: f over the row's
// first `head` entries one a thread, then over chunks of kVec entries from
// index head, then over the entries past the last chunk one a thread.
// kUnroll chunks a thread are loaded before any is used: one 16-byte load
// each when vector_loads (row + head is 16-byte aligned), else entry by
// entry (the L1 serves the lines the first read brought).
template <class E, int kThreads, int kUnroll, bool kStream, class F>
__device__ __forceinline__ void walk_chunks(const typename E::bits_t* row, uint32_t n, uint32_t head,
                                            bool vector_loads, F& f) {
  using bits_t = typename E::bits_t;
  constexpr int kVec = RowSplit<E>::kVec;
  static_assert(kThreads >= kVec, "head and tail take one pass");
  const uint32_t nvec = (n - head) / kVec;
  const uint32_t tail = head + nvec * kVec;
  {
    const uint32_t i = threadIdx.x;
    const bool live = i < head;
    bits_t b[1] = {live ? row[i] : bits_t(0)};
    if (call_stops(f, std::integral_constant<int, 1>(), i, b, live)) return;
  }
  const bits_t* body = row + head;
  for (uint32_t base = 0; base < nvec; base += kThreads * kUnroll) {
    uint4 v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const uint32_t j = base + u * kThreads + threadIdx.x;
      const bool in = j < nvec;
      if (vector_loads) {
        v[u] = in ? load_vector<kStream>(reinterpret_cast<const uint4*>(body) + j) : make_uint4(0, 0, 0, 0);
      } else {
        bits_t b[kVec];
#pragma unroll
        for (int t = 0; t < kVec; ++t) b[t] = in ? body[j * kVec + t] : bits_t(0);
        memcpy(&v[u], b, sizeof(uint4));
      }
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const uint32_t j = base + u * kThreads + threadIdx.x;
      bits_t b[kVec];
      static_assert(sizeof(b) == sizeof(uint4), "one vector");
      memcpy(b, &v[u], sizeof(uint4));
      if (call_stops(f, std::integral_constant<int, kVec>(), head + j * kVec, b, j < nvec)) return;
    }
  }
  {
    const uint32_t i = tail + threadIdx.x;
    const bool live = i < n;
    bits_t b[1] = {live ? row[i] : bits_t(0)};
    call_stops(f, std::integral_constant<int, 1>(), i, b, live);
  }
}

// Calls f(count, first, elems, live) over the whole row in index order,
// where elems holds `count` consecutive elements starting at index `first`
// (count is a std::integral_constant: 1 for head and tail, the vector width
// for the body); within a call, thread t's elements precede thread t+1's.
// Every thread of the block makes the same sequence of calls, so f may use
// warp collectives and block barriers; `live` says whether this thread's
// elements are real. The body's chunks are the row's 16-byte vectors, and
// kUnroll vectors per thread are loaded before any is used. An f returning
// bool ends the walk early by returning true.
template <class E, int kThreads, int kUnroll, bool kStream = false, class F>
__device__ __forceinline__ void for_each_chunk(const typename E::bits_t* row, uint32_t n, F&& f) {
  walk_chunks<E, kThreads, kUnroll, kStream>(row, n, RowSplit<E>(row, n).head, true, f);
}

// for_each_chunk's calls over [lo, hi) of a row (first relative to lo),
// with the body's chunks at row indices that are multiples of the vector
// width whatever the row's address: the same calls as for_each_chunk's on
// a 16-byte aligned row and lo, loaded entry by entry on another. For a
// pass that must see the same chunks at any alignment (the top-p gather's
// rest mass). One walk for both, so f is inlined once (run 124: a second
// walk beside for_each_chunk's spilled the sliced split kernels).
template <class E, int kThreads, int kUnroll, bool kStream = false, class F>
__device__ __forceinline__ void for_each_index_chunk(const typename E::bits_t* row, uint32_t lo, uint32_t hi, F&& f) {
  constexpr uint32_t kVec = RowSplit<E>::kVec;
  const uint32_t head = min(hi - lo, (kVec - lo % kVec) % kVec);
  walk_chunks<E, kThreads, kUnroll, kStream>(row + lo, hi - lo, head, reinterpret_cast<uintptr_t>(row) % 16 == 0, f);
}

// Asks the L2 for the n elements at row, one request per 32-byte sector
// (the unit of the L2's fills), so that a later walk over them waits for
// the L2, not for device memory.
template <class E, int kThreads>
__device__ __forceinline__ void prefetch_row_l2(const typename E::bits_t* row, uint32_t n) {
  constexpr uint32_t kSector = 32;
  const char* bytes = reinterpret_cast<const char*>(row);
  const uint32_t len = n * static_cast<uint32_t>(sizeof(typename E::bits_t));
  for (uint32_t off = threadIdx.x * kSector; off < len; off += kThreads * kSector) prefetch_l2(bytes + off);
}

// Stores `count` elements at row[first] (a whole vector for the body).
template <class E, int kCount, bool kStream = false>
__device__ __forceinline__ void store_chunk(typename E::bits_t* row, uint32_t first,
                                            const typename E::bits_t (&b)[kCount]) {
  if constexpr (kCount == 1) {
    row[first] = b[0];
  } else {
    uint4 v;
    memcpy(&v, b, sizeof(uint4));
    store_vector<kStream>(reinterpret_cast<uint4*>(row + first), v);
  }
}

// Writes -Inf over the whole row (the write-only mask pass).
template <class E, int kThreads, bool kStream = false>
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
  for (uint32_t j = threadIdx.x; j < s.nvec; j += kThreads) store_vector<kStream>(vrow + j, v);
  if (s.tail + threadIdx.x < n) row[s.tail + threadIdx.x] = E::kNegInf;
}

}  // namespace qrita
