//go:build !(cuda && !hip && cgo)

package main

import "github.com/qrita-project/qrita/internal/nvmlinfo"

// nvmlReport is nil outside CUDA builds: on AMD the HIP runtime's device
// properties (native.Info) describe the devices.
func nvmlReport() *nvmlinfo.Report { return nil }
