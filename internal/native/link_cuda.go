//go:build cuda && !hip && cgo

package native

// The library comes from `make cuda`. Debian's toolkit keeps
// libcudart_static.a in /usr/lib/x86_64-linux-gnu, NVIDIA's in
// /usr/local/cuda/lib64; point CGO_LDFLAGS at other installs.

// #cgo CFLAGS: -I${SRCDIR}/../../csrc
// #cgo LDFLAGS: ${SRCDIR}/../../build/cuda/libqrita.a -L/usr/local/cuda/lib64 -L/usr/lib/x86_64-linux-gnu -lcudart_static -lstdc++ -ldl -lrt -lpthread -lm
import "C"

// Vendor names the GPU runtime this build links.
const Vendor = "cuda"
