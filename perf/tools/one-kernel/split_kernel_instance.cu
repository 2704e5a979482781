// One instance of the split kernel (ELEM: F32, F16 or BF16; SLICED: true
// or false), compiled alone so that ptxas reports its spills and its
// callees' in seconds (spills.sh). SplitRows must match cuda/launch.cu's.
#include "persistent_kernel.cuh"
namespace qrita {
namespace {
using ManyRows = BlockShape<TruncatePolicy, TruncatePolicy::kManyRowsThreads, TruncatePolicy::kManyRowsBlocksPerSM>;
struct SplitRows : ManyRows {
  static constexpr bool kStreamLoads = true;
};
}  // namespace
template __global__ void split_rows_kernel<SplitRows, ELEM, SLICED>(TruncateParams);
}  // namespace qrita
