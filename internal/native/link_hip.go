//go:build hip && !cuda && cgo

package native

// The library comes from `make hip`. ROCm installs keep libamdhip64 in
// /opt/rocm/lib; Debian's in /usr/lib/x86_64-linux-gnu.

// #cgo CFLAGS: -I${SRCDIR}/../../csrc
// #cgo LDFLAGS: ${SRCDIR}/../../build/hip/libqrita.a -L/opt/rocm/lib -L/usr/lib/x86_64-linux-gnu -lamdhip64 -lstdc++ -lm
import "C"

// Vendor names the GPU runtime this build links.
const Vendor = "hip"
