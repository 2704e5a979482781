// The pure-read floor of qrita_bench_read: the least a kernel that reads a
// batch once can cost. Every byte is loaded and folded into the sink, so
// the loads cannot be dropped.
#include "read_floor.cuh"

#include "block_primitives.cuh"

namespace qrita {
namespace {

constexpr int kReadThreads = 512;
constexpr int kReadBlocksPerSM = 4;  // enough resident warps to keep the memory system busy
constexpr int kReadUnroll = 4;       // independent 16-byte loads in flight per thread
static_assert(kReadThreads / kWarpSize <= kWarpSize, "block_sum's limit");

__device__ __forceinline__ unsigned long long fold(uint4 v) {
  const unsigned long long lo = v.x | (static_cast<unsigned long long>(v.y) << 32);
  const unsigned long long hi = v.z | (static_cast<unsigned long long>(v.w) << 32);
  return lo ^ (hi * 0x9e3779b97f4a7c15ull);
}

__global__ void __launch_bounds__(kReadThreads)
    read_kernel(const uint4* data, size_t vecs, const unsigned char* tail, unsigned tail_bytes,
                unsigned long long* sink) {
  __shared__ unsigned long long scratch[kReadThreads / kWarpSize];
  const size_t stride = size_t(gridDim.x) * kReadThreads;
  size_t i = size_t(blockIdx.x) * kReadThreads + threadIdx.x;
  unsigned long long acc = 0;
  for (; i + (kReadUnroll - 1) * stride < vecs; i += kReadUnroll * stride) {
    uint4 v[kReadUnroll];
#pragma unroll
    for (int u = 0; u < kReadUnroll; ++u) v[u] = data[i + u * stride];
#pragma unroll
    for (int u = 0; u < kReadUnroll; ++u) acc += fold(v[u]);
  }
  for (; i < vecs; i += stride) acc += fold(data[i]);
  if (blockIdx.x == 0 && threadIdx.x < tail_bytes)  // the last bytes % 16
    acc += static_cast<unsigned long long>(tail[threadIdx.x]) << (8 * (threadIdx.x % 8));
  acc = block_sum<kReadThreads>(acc, scratch);
  if (threadIdx.x == 0) atomicAdd(sink, acc);
}

}  // namespace

cudaError_t launch_read(const void* data, size_t bytes, unsigned long long* sink, int multiprocessors,
                        cudaStream_t stream) {
  if (bytes == 0) return cudaSuccess;
  const size_t vecs = bytes / 16;
  const unsigned tail_bytes = static_cast<unsigned>(bytes % 16);
  const size_t needed = (vecs + kReadThreads - 1) / kReadThreads;
  size_t grid = static_cast<size_t>(multiprocessors > 0 ? multiprocessors : 1) * kReadBlocksPerSM;
  grid = needed < grid ? needed : grid;
  grid = grid < 1 ? 1 : grid;
  const unsigned char* tail = static_cast<const unsigned char*>(data) + vecs * 16;
  read_kernel<<<static_cast<unsigned>(grid), kReadThreads, 0, stream>>>(static_cast<const uint4*>(data), vecs, tail,
                                                                         tail_bytes, sink);
  return cudaGetLastError();
}

}  // namespace qrita
