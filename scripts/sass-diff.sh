#!/usr/bin/env bash
# What a change does to the machine code, without a GPU: compiles
# cuda/launch.cu (every kernel) at two revisions with the library's nvcc
# flags for one architecture, then reports the functions whose registers
# or spills (as ptxas gives them) moved, whether the SASS is
# byte-identical, and else each differing kernel's instruction count. A change whose SASS is identical
# keeps the behaviour and timings its base was tested with (PERFLOG
# session 28); anything else needs the device's checks and an A/B.
#
# Usage: scripts/sass-diff.sh [BASE [NEW]]
#   BASE  a git revision (default HEAD)
#   NEW   a git revision, or "." for the working tree (default ".")
# Env: ARCH (default 90), NVCC (default nvcc), KEEP (a folder that keeps
# the objects, ptxas logs and SASS; default a temporary one, removed).
# Two nvcc runs in parallel: ~9 minutes on a 2-core machine.
set -euo pipefail
export LC_ALL=C  # sort and join agree on the order

cd "$(dirname "${BASH_SOURCE[0]}")/.."
base=${1:-HEAD}
new=${2:-.}
arch=${ARCH:-90}
nvcc=${NVCC:-nvcc}
if [ -n "${KEEP:-}" ]; then
  work=$KEEP
  mkdir -p "$work"
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi

# The sources of one side: a revision's cuda/ and csrc/, or the tree's.
tree_of() {
  local rev=$1 dir=$work/$2
  rm -rf "$dir"
  mkdir -p "$dir"
  if [ "$rev" = . ]; then
    cp -r cuda csrc "$dir"/
  else
    git archive "$rev" cuda csrc | tar -x -C "$dir"
  fi
}

# CMakeLists.txt's CUDA options, with ptxas's per-function report.
compile() {
  local side=$1
  "$nvcc" -O3 -DNDEBUG -I"$work/$side/csrc" --generate-code="arch=compute_$arch,code=[compute_$arch,sm_$arch]" \
    --expt-relaxed-constexpr -Xptxas=-warn-spills,-v -std=c++17 -x cu -c "$work/$side/cuda/launch.cu" \
    -o "$work/$side.o" >"$work/$side.ptxas.raw" 2>&1
  cuobjdump -sass "$work/$side.o" >"$work/$side.sass.raw"
  # Names in an anonymous namespace carry a hash of the source's path,
  # which differs between the two sides' folders: one placeholder for it.
  local anon='s/(_INTERNAL_|__N__)[0-9a-f]{8}_/\1H_/g'
  sed -E "$anon" "$work/$side.ptxas.raw" >"$work/$side.ptxas"
  sed -E "$anon" "$work/$side.sass.raw" >"$work/$side.sass"
}

# One line a function: its name, "|", then its registers (kernels only)
# and spill stores / loads, as "64 regs, 48/136".
usage_of() {
  awk '
    /Compiling entry function|Function properties for/ {
      match($0, /_Z[A-Za-z0-9_]+/); name = substr($0, RSTART, RLENGTH)
    }
    /^[[:space:]]+[0-9]+ bytes stack frame/ { spill[name] = $5 "/" $9 }
    /Used [0-9]+ registers/ {
      for (i = 1; i <= NF; i++) if ($i == "Used") regs[name] = $(i + 1)
    }
    END { for (n in spill) print n "|" (n in regs ? regs[n] " regs, " : "") spill[n] }
  ' "$work/$1.ptxas" | sort
}

# Each kernel's SASS instruction lines, one file a kernel.
split_sass() {
  mkdir -p "$work/$1.fn"
  awk -v dir="$work/$1.fn" '
    /Function : / { name = $3; next }
    name != "" && /^[[:space:]]+\/\*[0-9a-f]+\*\// { print > (dir "/" name) }
  ' "$work/$1.sass"
}

tree_of "$base" base
tree_of "$new" new
compile base &
compile new &
wait
if grep -qE "error( |:)" "$work/base.ptxas" "$work/new.ptxas"; then
  grep -hE "error( |:)" "$work/base.ptxas" "$work/new.ptxas" >&2
  exit 1
fi

echo "sm_$arch, cuda/launch.cu: $base against $new"
if cmp -s "$work/base.sass" "$work/new.sass"; then
  echo "SASS byte-identical ($(wc -c <"$work/new.sass") bytes)"
else
  echo "SASS differs"
fi
echo
echo "registers and spill stores / loads (base -> new), where they differ:"
join -t "|" -a1 -a2 -e - -o 0,1.2,2.2 <(usage_of base) <(usage_of new) |
  awk -F "|" '$2 != $3 { printf "  %s: %s -> %s\n", $1, $2, $3; d = 1 }
       END { if (!d) print "  none" }'
echo
echo "kernels whose SASS differs (instructions, base -> new):"
split_sass base
split_sass new
declare -A names=()
for f in "$work"/base.fn/* "$work"/new.fn/*; do names[$(basename "$f")]=1; done
count() { if [ -e "$1" ]; then wc -l <"$1"; else echo -; fi; }
same=1
for name in "${!names[@]}"; do
  a=$work/base.fn/$name b=$work/new.fn/$name
  if [ ! -e "$a" ] || [ ! -e "$b" ] || ! cmp -s "$a" "$b"; then
    echo "  $name: $(count "$a") -> $(count "$b")"
    same=0
  fi
done
if [ "$same" = 1 ]; then echo "  none"; fi
exit 0
