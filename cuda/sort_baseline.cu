// The sort-based baseline of qrita_bench.h: what PyTorch and vLLM's
// fallback do. Per chunk of rows: (1) order-preserving integer keys and
// index values, (2) a stable descending segmented radix sort of the
// (key, index) pairs, (3) one block per row: top-k cut by rank, mass of the
// survivors, prefix scan to the top-p cut, -Inf written to every entry
// ranked below the cut. Same keys and fixed-point mass as the truncation
// kernel (keys.cuh), so the two agree bit for bit on top-k and on every
// top-p cut that is not within rounding of p.
#define QRITA_WITH_SEGMENTED_SORT 1

#include "sort_baseline.cuh"

#include "block_primitives.cuh"
#include "keys.cuh"

#ifndef QRITA_SEGMENTED_SORT_DEFINED
#error "compat.cuh was included before QRITA_WITH_SEGMENTED_SORT was defined"
#endif

namespace qrita {
namespace {

// CUB and rocPRIM count items and segments in int / unsigned: a sort call
// stays well inside both.
constexpr int64_t kMaxSortItems = int64_t(1) << 30;
// Rows per chunk also bound the mask grid (HIP: grid x block < 2^32).
constexpr int64_t kMaxChunkRows = int64_t(1) << 20;
constexpr size_t kAlign = 256;  // each workspace part starts on a cudaMalloc alignment
constexpr int kPrepThreads = 256;
constexpr int64_t kMaxGridY = 65535;  // the y grid limit; the key kernel loops over rows past it
// One block per row: wide, since a 128k row is scanned twice.
constexpr int kMaskThreads = 512;
constexpr int kScanItems = 4;  // consecutive ranks per thread per scan tile
static_assert(kMaskThreads % kWarpSize == 0 && kMaskThreads / kWarpSize <= kWarpSize, "block_sum's limits");

constexpr uint32_t kNoCut = ~0u;

size_t align_up(size_t x) { return (x + kAlign - 1) / kAlign * kAlign; }

// Where each part of the workspace lies, from an aligned base.
struct Layout {
  int64_t chunk_rows = 0;
  size_t keys[2] = {0, 0};
  size_t vals[2] = {0, 0};
  size_t offsets = 0;
  size_t temp = 0;
  size_t temp_bytes = 0;
  size_t total = 0;  // with the slack that aligns the base
};

cudaError_t temp_bytes_for(int64_t rows, int64_t vocab, size_t* bytes) {
  uint32_t* keys[2] = {nullptr, nullptr};
  int32_t* vals[2] = {nullptr, nullptr};
  *bytes = 0;
  return segmented_sort_pairs_desc(nullptr, *bytes, keys, vals, static_cast<int>(rows * vocab),
                                   static_cast<int>(rows), nullptr, nullptr);
}

cudaError_t layout_of(int64_t batch, int64_t vocab, Layout* l) {
  *l = Layout{};
  if (batch <= 0) return cudaSuccess;
  int64_t chunk = kMaxSortItems / vocab;
  chunk = chunk < 1 ? 1 : chunk;
  chunk = chunk < kMaxChunkRows ? chunk : kMaxChunkRows;
  l->chunk_rows = batch < chunk ? batch : chunk;
  const size_t items = static_cast<size_t>(l->chunk_rows * vocab);
  size_t at = 0;
  for (int i = 0; i < 2; ++i) {
    l->keys[i] = at;
    at += align_up(items * sizeof(uint32_t));
  }
  for (int i = 0; i < 2; ++i) {
    l->vals[i] = at;
    at += align_up(items * sizeof(int32_t));
  }
  l->offsets = at;
  at += align_up(static_cast<size_t>(l->chunk_rows + 1) * sizeof(int));
  // The last chunk may be shorter; take the larger of the two needs.
  size_t full = 0, last = 0;
  cudaError_t e = temp_bytes_for(l->chunk_rows, vocab, &full);
  if (e != cudaSuccess) return e;
  if (batch % l->chunk_rows != 0 && (e = temp_bytes_for(batch % l->chunk_rows, vocab, &last)) != cudaSuccess)
    return e;
  l->temp_bytes = full > last ? full : last;
  l->temp = at;
  at += align_up(l->temp_bytes);
  l->total = at + kAlign;
  return cudaSuccess;
}

// Step 1: keys and indices of rows [row0, row0 + rows), and the segment
// offsets of the chunk.
template <class E>
__global__ void __launch_bounds__(kPrepThreads)
    sort_keys_kernel(const typename E::bits_t* logits, int64_t row0, int64_t rows, int64_t vocab, int64_t stride,
                     uint32_t* keys, int32_t* idx, int* offsets) {
  for (int64_t r = blockIdx.y; r < rows; r += gridDim.y) {
    const typename E::bits_t* src = logits + (row0 + r) * stride;
    const int64_t base = r * vocab;
    for (int64_t j = int64_t(blockIdx.x) * kPrepThreads + threadIdx.x; j < vocab;
         j += int64_t(gridDim.x) * kPrepThreads) {
      keys[base + j] = key_of(E::to_float(src[j]));
      idx[base + j] = static_cast<int32_t>(j);
    }
    if (blockIdx.x == 0 && threadIdx.x == 0) {
      offsets[r] = static_cast<int>(base);
      if (r == rows - 1) offsets[rows] = static_cast<int>(base + vocab);
    }
  }
}

// Exclusive prefix sum over the block; *total gets the block's sum.
// scratch holds one T per warp.
template <int kThreads, class T>
__device__ T block_exclusive_scan(T v, T* scratch, T* total) {
  constexpr int kWarps = kThreads / kWarpSize;
  const T incl = warp_inclusive_scan(v);
  __syncthreads();  // a previous use of scratch is over
  if (lane_id() == kWarpSize - 1) scratch[warp_id()] = incl;
  __syncthreads();
  T before = 0, all = 0;
  for (int w = 0; w < kWarps; ++w) {
    const T s = scratch[w];
    if (w < warp_id()) before += s;
    all += s;
  }
  *total = all;
  return before + incl - v;
}

// Top-p over the m sorted survivors keys[0, m): the number kept, the
// shortest prefix whose mass reaches p of theirs (0 < p < 1, m >= 1).
template <class E>
__device__ uint32_t top_p_cut(const uint32_t* keys, uint32_t m, float p, mass_t* scratch, uint32_t* s_cut) {
  const float max_value = float_of_key(keys[0]);
  const MassScale scale{max_value, isinf(max_value)};
  mass_t part = 0;
  for (uint32_t i = threadIdx.x; i < m; i += kMaskThreads) part += scale.of(float_of_key(keys[i]));
  const mass_t total = block_sum<kMaskThreads>(part, scratch);
  const double goal = double(p) * double(total);
  if (threadIdx.x == 0) *s_cut = kNoCut;
  mass_t carry = 0;
  for (uint32_t tile = 0; tile < m; tile += kMaskThreads * kScanItems) {
    const uint32_t first = tile + threadIdx.x * kScanItems;
    mass_t mine[kScanItems];
    mass_t sum = 0;
#pragma unroll
    for (int t = 0; t < kScanItems; ++t) {
      mine[t] = first + t < m ? scale.of(float_of_key(keys[first + t])) : mass_t(0);
      sum += mine[t];
    }
    mass_t tile_total;
    mass_t cum = carry + block_exclusive_scan<kMaskThreads>(sum, scratch, &tile_total);
#pragma unroll
    for (int t = 0; t < kScanItems; ++t) {
      if (first + t >= m) break;
      cum += mine[t];
      if (double(cum) >= goal) {
        atomicMin(s_cut, first + t + 1);
        break;
      }
    }
    carry += tile_total;
    __syncthreads();
    if (*s_cut != kNoCut) break;  // the same value on every thread
  }
  const uint32_t cut = *s_cut;
  return cut == kNoCut ? m : cut;  // not reached (rounding): every survivor is kept
}

struct MaskArgs {
  void* logits;
  int64_t row0, vocab, stride;
  const int32_t* k;
  const float* p;
  const uint32_t* keys;  // sorted, [rows][vocab]
  const int32_t* idx;    // their indices
};

// Steps 3-4 for row row0 + blockIdx.x: cut, then -Inf to every entry ranked
// at or below it. Kept entries are not written, so they keep their bits.
template <class E>
__global__ void __launch_bounds__(kMaskThreads) sort_mask_kernel(MaskArgs a) {
  __shared__ mass_t scratch[kMaskThreads / kWarpSize];
  __shared__ uint32_t s_n, s_cut;
  const int64_t r = blockIdx.x, g = a.row0 + r;
  const uint32_t vocab = static_cast<uint32_t>(a.vocab);
  const uint32_t* keys = a.keys + r * a.vocab;
  const int32_t* idx = a.idx + r * a.vocab;
  typename E::bits_t* row = static_cast<typename E::bits_t*>(a.logits) + g * a.stride;
  if (threadIdx.x == 0) {  // keepable entries (not NaN, not -Inf) are a prefix of the sorted row
    uint32_t lo = 0, hi = vocab;
    while (lo < hi) {
      const uint32_t mid = lo + (hi - lo) / 2;
      if (keepable(keys[mid])) lo = mid + 1;
      else hi = mid;
    }
    s_n = lo;
  }
  __syncthreads();
  const uint32_t n = s_n;
  const int32_t k = a.k ? a.k[g] : 0;
  const float p = a.p ? a.p[g] : 1.0f;
  const uint32_t m = (k > 0 && static_cast<uint32_t>(k) < vocab && static_cast<uint32_t>(k) < n) ? k : n;
  uint32_t cut = m;
  if (m > 0 && p < 1.0f)  // a NaN p fails the test: top-p off
    cut = p <= 0.0f ? 1 : top_p_cut<E>(keys, m, p, scratch, &s_cut);
  for (uint32_t i = cut + threadIdx.x; i < vocab; i += kMaskThreads) row[idx[i]] = E::kNegInf;
}

template <class E>
cudaError_t launch_typed(const RowBatch& prm, const Layout& l, char* base, cudaStream_t stream) {
  using bits_t = typename E::bits_t;
  for (int64_t row0 = 0; row0 < prm.batch; row0 += l.chunk_rows) {
    const int64_t rows = prm.batch - row0 < l.chunk_rows ? prm.batch - row0 : l.chunk_rows;
    uint32_t* keys[2] = {reinterpret_cast<uint32_t*>(base + l.keys[0]), reinterpret_cast<uint32_t*>(base + l.keys[1])};
    int32_t* vals[2] = {reinterpret_cast<int32_t*>(base + l.vals[0]), reinterpret_cast<int32_t*>(base + l.vals[1])};
    int* offsets = reinterpret_cast<int*>(base + l.offsets);
    const dim3 grid(static_cast<unsigned>((prm.vocab + kPrepThreads - 1) / kPrepThreads),
                    static_cast<unsigned>(rows < kMaxGridY ? rows : kMaxGridY));
    sort_keys_kernel<E><<<grid, kPrepThreads, 0, stream>>>(static_cast<const bits_t*>(prm.logits), row0, rows,
                                                           prm.vocab, prm.row_stride, keys[0], vals[0], offsets);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) return e;
    size_t temp_bytes = l.temp_bytes;
    e = segmented_sort_pairs_desc(base + l.temp, temp_bytes, keys, vals, static_cast<int>(rows * prm.vocab),
                                  static_cast<int>(rows), offsets, stream);
    if (e != cudaSuccess) return e;
    const MaskArgs args{prm.logits, row0, prm.vocab, prm.row_stride, prm.k, prm.p, keys[0], vals[0]};
    sort_mask_kernel<E><<<static_cast<unsigned>(rows), kMaskThreads, 0, stream>>>(args);
    if ((e = cudaGetLastError()) != cudaSuccess) return e;
  }
  return cudaSuccess;
}

}  // namespace

cudaError_t sort_baseline_workspace(int64_t batch, int64_t vocab, size_t* bytes) {
  Layout l;
  const cudaError_t e = layout_of(batch, vocab, &l);
  *bytes = e == cudaSuccess ? l.total : 0;
  return e;
}

cudaError_t launch_sort_baseline(DType dtype, const RowBatch& prm, void* workspace, size_t bytes,
                                 cudaStream_t stream) {
  if (prm.batch <= 0) return cudaSuccess;
  Layout l;
  cudaError_t e = layout_of(prm.batch, prm.vocab, &l);
  if (e != cudaSuccess) return e;
  if (!workspace || bytes < l.total) return cudaErrorInvalidValue;
  const uintptr_t at = reinterpret_cast<uintptr_t>(workspace);
  char* base = reinterpret_cast<char*>((at + kAlign - 1) / kAlign * kAlign);
  switch (dtype) {
    case DType::kF32: return launch_typed<F32>(prm, l, base, stream);
    case DType::kF16: return launch_typed<F16>(prm, l, base, stream);
    case DType::kBF16: return launch_typed<BF16>(prm, l, base, stream);
  }
  return cudaErrorInvalidValue;
}

}  // namespace qrita
