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
	Protocol  string   `json:"protocol"`         // how the times were taken, one line
	L2        string   `json:"l2,omitempty"`     // GPU: cold (rotated inputs) or hot (an L2 figure)
	Timing    string   `json:"timing,omitempty"` // GPU: events (back-to-back launches) or graph
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

	// GPU only (empty on the CPU backend).
	Out      string `json:"out,omitempty"`      // OutMask or OutIDs
	Ablation string `json:"ablation,omitempty"` // AblationNone or switches such as no-trunc+binary
	Cache    string `json:"cache,omitempty"`    // cold, hot or partial (cold asked, rotation capped)
	Rotation int    `json:"rotation,omitempty"` // work buffers the inputs rotate over
	// ExtraBytes is the device memory one call needs beyond the logits
	// (the library allocates no workspace: 0 for the mask, the id arrays
	// for the id output).
	ExtraBytes int64     `json:"extra_bytes"`
	Read       *Baseline `json:"read,omitempty"` // pure read of the same bytes
	Sort       *Baseline `json:"sort,omitempty"` // sort-based GPU baseline
	Stats      *RowStats `json:"row_stats,omitempty"`
	StatsNote  string    `json:"row_stats_note,omitempty"` // why Stats is missing
}

// Outputs of a GPU case.
const (
	OutMask = "mask" // the in-place mask
	OutIDs  = "ids"  // the compact id output
)

// AblationNone is the unablated kernel.
const AblationNone = "none"

// Baseline is another implementation timed on the same inputs.
type Baseline struct {
	Ns          float64 `json:"ns"` // per call; 0 when unavailable
	ExtraBytes  int64   `json:"extra_bytes,omitempty"`
	Unavailable string  `json:"unavailable,omitempty"` // why it was not timed
}

// ok says whether the baseline has a time.
func (b *Baseline) ok() bool { return b != nil && b.Unavailable == "" && b.Ns > 0 }

// RowStats are the per-row counters of one call (the paper's Table 1).
type RowStats struct {
	Rows           int     `json:"rows"`
	HitRate        float64 `json:"hit_rate"`        // fraction of rows decided from the candidates alone
	MeanCandidates float64 `json:"mean_candidates"` // entries at or above the sigma threshold, per row
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

// XRead is the call time over the pure read's; 0 without one.
func (r Result) XRead() float64 {
	if !r.Read.ok() || r.CallNs <= 0 {
		return 0
	}
	return r.CallNs / r.Read.Ns
}

// SortSpeedup is the sort baseline's time over the call time; 0 without one.
func (r Result) SortSpeedup() float64 {
	if !r.Sort.ok() || r.CallNs <= 0 {
		return 0
	}
	return r.Sort.Ns / r.CallNs
}

// Name is the result's benchmark name: BenchmarkQrita followed by
// key=value parts, the device only on GPUs, the output and the ablation
// only when not the default (mask, none), so older names still match.
func (r Result) Name() string {
	parts := []string{"BenchmarkQrita", "backend=" + r.Backend}
	if r.Device >= 0 {
		parts = append(parts, "device="+strconv.Itoa(r.Device))
	}
	parts = append(parts, "B="+strconv.Itoa(r.Batch), "V="+strconv.Itoa(r.Vocab), "k="+strconv.Itoa(r.K),
		"p="+fmtP(r.P), "dist="+sanitize(r.Dist), "dtype="+r.DType)
	if r.Out != "" && r.Out != OutMask {
		parts = append(parts, "out="+sanitize(r.Out))
	}
	if r.Ablation != "" && r.Ablation != AblationNone {
		parts = append(parts, "ablation="+sanitize(r.Ablation))
	}
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
