#!/usr/bin/env bash
# The split kernel's spills (stores / loads, bytes) and its callees', as
# ptxas gives them for one instance compiled alone (~15 s here, where all
# of cuda/launch.cu takes ~10 minutes): enough to see whether a change to
# the split path moves its registers before building and timing it
# (PERFLOG session 42 found run 151's spills this way). The library's nvcc
# flags, sm_90.
#   perf/tools/one-kernel/spills.sh [TREE [ELEM [SLICED]]]
# TREE: a checkout (default the one holding this script), ELEM: F32 (default),
# F16 or BF16, SLICED: false (default) or true.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
tree=$(cd "${1:-$here/../../..}" && pwd)
elem=${2:-F32}
sliced=${3:-false}
"${NVCC:-nvcc}" -ccbin="${CUDAHOSTCXX:-g++-11}" -I"$tree/csrc" -I"$tree/cuda" -DELEM="$elem" -DSLICED="$sliced" \
  -O3 -DNDEBUG --generate-code=arch=compute_90,code=[sm_90] --expt-relaxed-constexpr -Xptxas=-warn-spills \
  -std=c++17 -x cu -c "$here/split_kernel_instance.cu" -o /dev/null 2>&1 |
  grep spilled |
  sed -E "s/.*in function '(.*)', ([0-9]+) bytes spill stores, ([0-9]+) bytes spill loads/\1 | \2 \/ \3/" |
  c++filt |
  sed -E 's/_INTERNAL_[0-9a-f]+_[0-9]+_split_kernel_instance_cu_[0-9a-f]+:://g; s/qrita:://g; s/\(anonymous namespace\):://g' |
  sed -E 's/^(RowPlan |BinnedEnd |void |Cut |unsigned int )//; s/<.*>\(.*\)//'
