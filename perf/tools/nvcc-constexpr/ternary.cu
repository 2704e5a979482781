// nvcc 11.8 (sm_90, -std=c++17 --expt-relaxed-constexpr, the library's
// flags) reads a namespace-scope constexpr struct as zeros, silently,
// where a device conditional operator pairs it with a prvalue: below,
// f ? kPivotNone : Pivot{...} stores 0, 0 when f holds, not ~0u, 0. With
// an lvalue on the other side it is an error ("undefined in device
// code"); used directly (Cut2{kPivotNone, 7}) or by member, the value is
// right, and so is `Pivot pv = kPivotNone; if (!f) pv = Pivot{...};` (a
// selp of -1: the form cuda/keys.cuh advises). Runs 158 and 160 wrote
// `fill ? kPivotNone : VerdictWord::pivot(w)` and kept every candidate
// (PERFLOG session 45). A constexpr function in place of the constant is
// no way out here: any conditional of two Pivot prvalues nested in
// Cut2{...} crashes nvcc 11.8 (segfault, even f ? Pivot{~0u, 0u} : ...);
// `const Pivot p = f ? pivot_none() : Pivot{...};` compiles right (selp
// of -1; session 46). See the PTX:
//   nvcc -ccbin=g++-11 -std=c++17 --expt-relaxed-constexpr -O3 -arch=sm_90 \
//     -Icuda -Icsrc -ptx perf/tools/nvcc-constexpr/ternary.cu -o - | grep -A12 'st.local'
#include "keys.cuh"
namespace qrita {
struct Cut2 {
  Pivot pivot;
  unsigned kept;
};
__device__ __noinline__ void use(const Cut2& c, unsigned* out) {
  out[0] = c.pivot.key;
  out[1] = c.pivot.idx;
}
__global__ void ternary(bool f, unsigned long long w, unsigned* out) {
  use(Cut2{f ? kPivotNone : Pivot{static_cast<unsigned>(w), 0u}, 0}, out);
}
}  // namespace qrita
