//go:build cuda && !hip && cgo

package main

import "github.com/qrita-project/qrita/internal/nvmlinfo"

// nvmlReport asks NVML about the machine's NVIDIA GPUs; where NVML is
// absent the report says so and the run goes on.
func nvmlReport() *nvmlinfo.Report {
	r := nvmlinfo.System()
	return &r
}
