// Package nvmlinfo describes the NVIDIA GPUs of the machine through NVML
// (github.com/NVIDIA/go-nvml), for qrita-bench's device header. It calls
// Init first and nothing else if Init fails: go-nvml kills the process on
// a call into a library that was never loaded. Without cgo (go-nvml needs
// it for dlopen) System reports NVML as unavailable.
package nvmlinfo

import (
	"fmt"
	"io"
)

// GPU is what NVML says about one device. A field NVML could not provide
// is zero (or empty); its error is in Missing.
type GPU struct {
	Index          int    `json:"index"`
	Name           string `json:"name"`
	UUID           string `json:"uuid,omitempty"`
	CCMajor        int    `json:"cc_major"`
	CCMinor        int    `json:"cc_minor"`
	MemoryTotal    uint64 `json:"memory_total_bytes"`
	MaxSMClockMHz  uint32 `json:"max_sm_clock_mhz,omitempty"`
	MaxMemClockMHz uint32 `json:"max_mem_clock_mhz,omitempty"`
	SMClockMHz     uint32 `json:"sm_clock_mhz,omitempty"`
	MemClockMHz    uint32 `json:"mem_clock_mhz,omitempty"`
	// Missing lists the queries that failed, e.g. "max clocks: ERROR_NOT_SUPPORTED".
	Missing []string `json:"missing,omitempty"`
}

// Report is the system's NVML view; Err is set (and nothing else) when
// NVML is unavailable.
type Report struct {
	Err               string `json:"error,omitempty"`
	DriverVersion     string `json:"driver_version,omitempty"`
	NVMLVersion       string `json:"nvml_version,omitempty"`
	CUDADriverVersion int    `json:"cuda_driver_version,omitempty"`
	GPUs              []GPU  `json:"gpus,omitempty"`
}

// Print writes the report as a few lines ("nvml: unavailable (...)" when
// NVML is absent).
func (r Report) Print(w io.Writer) {
	if r.Err != "" {
		fmt.Fprintf(w, "nvml: unavailable (%s)\n", r.Err)
		return
	}
	fmt.Fprintf(w, "nvml: driver %s, nvml %s, cuda driver %s, %d GPU(s)\n", r.DriverVersion, r.NVMLVersion,
		cudaVersion(r.CUDADriverVersion), len(r.GPUs))
	for _, g := range r.GPUs {
		fmt.Fprintf(w, "  gpu %d: %s, cc %d.%d, %.1f GiB", g.Index, g.Name, g.CCMajor, g.CCMinor,
			float64(g.MemoryTotal)/(1<<30))
		if g.MaxSMClockMHz != 0 || g.MaxMemClockMHz != 0 {
			fmt.Fprintf(w, ", max clocks sm %d / mem %d MHz", g.MaxSMClockMHz, g.MaxMemClockMHz)
		}
		if g.SMClockMHz != 0 || g.MemClockMHz != 0 {
			fmt.Fprintf(w, ", now %d / %d MHz", g.SMClockMHz, g.MemClockMHz)
		}
		for _, m := range g.Missing {
			fmt.Fprintf(w, "; %s", m)
		}
		fmt.Fprintln(w)
	}
}

// cudaVersion renders 12040 as "12.4".
func cudaVersion(v int) string {
	if v == 0 {
		return "?"
	}
	return fmt.Sprintf("%d.%d", v/1000, v%1000/10)
}
