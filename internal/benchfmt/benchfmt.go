// Package benchfmt holds qrita-bench's results and renders them: a
// readable table, Go benchmark lines (benchstat-ready), JSON, and a PNG or
// SVG plot of throughput and time over the floor against batch size
// (gonum.org/v1/plot). Rendering is a pure function of the results, so
// golden files pin the text formats.
package benchfmt

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/qrita-project/qrita/internal/nvmlinfo"
)

// Env describes the run: program, machine, backend and timing protocol.
type Env struct {
	Args      []string `json:"args"`
	GoVersion string   `json:"go_version"`
	GOOS      string   `json:"goos"`
	GOARCH    string   `json:"goarch"`
	NumCPU    int      `json:"num_cpu"`
	Backend   string   `json:"backend"`
	Workers   int      `json:"workers,omitempty"` // CPU backend goroutines
	Ties      string   `json:"ties"`
	Protocol  string   `json:"protocol"` // how the times were taken, one line
	Devices   []Device `json:"devices,omitempty"`
	// NVML is the NVIDIA management library's view (CUDA builds only).
	NVML *nvmlinfo.Report `json:"nvml,omitempty"`
}

// Device is the GPU runtime's view of one device a worker ran on.
type Device struct {
	Index          int    `json:"index"`
	Vendor         string `json:"vendor"` // cuda or hip
	Name           string `json:"name"`
	CCMajor        int    `json:"cc_major"` // HIP: gfx major/minor as the runtime reports them
	CCMinor        int    `json:"cc_minor"`
	SMs            int    `json:"multiprocessors"`
	MemoryBytes    uint64 `json:"memory_bytes"`
	RuntimeVersion int    `json:"runtime_version"`
	DriverVersion  int    `json:"driver_version"`
}

func (d Device) String() string {
	return fmt.Sprintf("device %d: %s (%s, cc %d.%d, %d SMs, %.0f GiB, runtime %d, driver %d)", d.Index, d.Name,
		d.Vendor, d.CCMajor, d.CCMinor, d.SMs, float64(d.MemoryBytes)/(1<<30), d.RuntimeVersion, d.DriverVersion)
}

// Floor kinds: what a result's floor time measures.
const (
	FloorReadOnce = "read-once" // CPU: a parallel sum of every logit
	FloorCopy     = "d2d-copy"  // GPU: a device-to-device copy of the logits' bytes
)

// Result is one timed case on one backend and device.
type Result struct {
	Backend string  `json:"backend"`
	Device  int     `json:"device"` // -1 on the CPU backend
	Batch   int     `json:"batch"`
	Vocab   int     `json:"vocab"`
	K       int     `json:"k"` // 0: top-k off
	P       float64 `json:"p"` // 1: top-p off
	Dist    string  `json:"dist"`
	DType   string  `json:"dtype"`
	Reps    int     `json:"reps"`     // timings whose median is reported
	CallNs  float64 `json:"call_ns"`  // median time of one call
	Floor   string  `json:"floor"`    // FloorReadOnce or FloorCopy
	FloorNs float64 `json:"floor_ns"` // median time of the floor
	RefNs   float64 `json:"ref_ns"`   // CPU reference per call; 0: not timed
	Verify  *Verify `json:"verify,omitempty"`
}

// Verify is the comparison of the backend's output with the reference's.
type Verify struct {
	Rows       int `json:"rows"`
	Mismatched int `json:"mismatched"`
	Ambiguous  int `json:"ambiguous"` // differ only where the top-p cut is ambiguous: allowed
}

func (v *Verify) String() string {
	switch {
	case v == nil:
		return "-"
	case v.Mismatched > 0:
		return fmt.Sprintf("FAIL %d/%d", v.Mismatched, v.Rows)
	case v.Ambiguous > 0:
		return fmt.Sprintf("ok %d (%d amb)", v.Rows, v.Ambiguous)
	}
	return fmt.Sprintf("ok %d", v.Rows)
}

// RowsPerSec is the throughput: rows truncated per second.
// It is 0 when the call time is not positive (a GPU time at the noise
// level of the copy it is measured against).
func (r Result) RowsPerSec() float64 {
	if r.CallNs <= 0 {
		return 0
	}
	return float64(r.Batch) / r.CallNs * 1e9
}

// XFloor is the call time over the floor time.
func (r Result) XFloor() float64 {
	if r.FloorNs <= 0 {
		return 0
	}
	return r.CallNs / r.FloorNs
}

// Speedup is the reference time over the call time; 0 without a reference.
func (r Result) Speedup() float64 {
	if r.RefNs <= 0 || r.CallNs <= 0 {
		return 0
	}
	return r.RefNs / r.CallNs
}

// Name is the result's benchmark name: BenchmarkQrita followed by
// key=value parts, the device only on GPUs.
func (r Result) Name() string {
	parts := []string{"BenchmarkQrita", "backend=" + r.Backend}
	if r.Device >= 0 {
		parts = append(parts, "device="+strconv.Itoa(r.Device))
	}
	parts = append(parts, "B="+strconv.Itoa(r.Batch), "V="+strconv.Itoa(r.Vocab), "k="+strconv.Itoa(r.K),
		"p="+fmtP(r.P), "dist="+sanitize(r.Dist), "dtype="+r.DType)
	return strings.Join(parts, "/")
}

func fmtP(p float64) string { return strconv.FormatFloat(p, 'g', -1, 64) }

// sanitize keeps a name part free of the characters the benchmark format
// gives meaning to (space, slash) and of anything unprintable.
func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		if r <= ' ' || r == '/' || r > '~' {
			return '_'
		}
		return r
	}, s)
}
