package benchfmt

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// Header writes the environment as the few lines the table starts with.
func Header(w io.Writer, env Env) {
	fmt.Fprintf(w, "qrita-bench: %s backend", env.Backend)
	if env.Workers > 0 {
		fmt.Fprintf(w, ", %d workers", env.Workers)
	}
	fmt.Fprintf(w, ", %s ties, %s %s/%s, %d CPUs\n", env.Ties, env.GoVersion, env.GOOS, env.GOARCH, env.NumCPU)
	if env.NVML != nil {
		env.NVML.Print(w)
	}
	for _, d := range env.Devices {
		fmt.Fprintln(w, d)
	}
	fmt.Fprintf(w, "timing: %s\n", env.Protocol)
}

// Table writes the header and one aligned line per result.
func Table(w io.Writer, env Env, results []Result) error {
	Header(w, env)
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "backend\tdev\tbatch\tvocab\tk\tp\tdist\tdtype\tus/call\trows/s\tfloor\tfloor us\tx floor\tref us\tx ref\tverify\t")
	for _, r := range results {
		dev := "-"
		if r.Device >= 0 {
			dev = fmt.Sprint(r.Device)
		}
		ref, speedup := "-", "-"
		if r.RefNs > 0 {
			ref, speedup = fmt.Sprintf("%.1f", r.RefNs/1e3), fmt.Sprintf("%.1f", r.Speedup())
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%s\t%s\t%s\t%.1f\t%.4g\t%s\t%.1f\t%.2f\t%s\t%s\t%s\t\n",
			r.Backend, dev, r.Batch, r.Vocab, r.K, fmtP(r.P), r.Dist, r.DType, r.CallNs/1e3, r.RowsPerSec(),
			r.Floor, r.FloorNs/1e3, r.XFloor(), ref, speedup, r.Verify)
	}
	return tw.Flush()
}

// Bench writes Go benchmark output that benchstat reads: configuration
// lines, then per result its name, the repetitions as the iteration count,
// and the metrics ns/op, rows/s, x-floor, floor-ns/op and, with a
// reference, ref-ns/op and x-ref.
func Bench(w io.Writer, env Env, results []Result) error {
	fmt.Fprintf(w, "goos: %s\ngoarch: %s\npkg: github.com/qrita-project/qrita/cmd/qrita-bench\n", env.GOOS, env.GOARCH)
	fmt.Fprintf(w, "go: %s\nties: %s\n", env.GoVersion, env.Ties)
	if env.Workers > 0 {
		fmt.Fprintf(w, "workers: %d\n", env.Workers)
	}
	for _, d := range env.Devices {
		fmt.Fprintf(w, "device%d: %s\n", d.Index, sanitizeConfig(d.Name))
	}
	if env.NVML != nil && env.NVML.Err == "" {
		fmt.Fprintf(w, "driver: %s\n", env.NVML.DriverVersion)
	}
	for _, r := range results {
		fmt.Fprintf(w, "%s\t%d\t%.0f ns/op\t%.4g rows/s\t%.3f x-floor\t%.0f floor-ns/op", r.Name(), r.Reps, r.CallNs,
			r.RowsPerSec(), r.XFloor(), r.FloorNs)
		if r.RefNs > 0 {
			fmt.Fprintf(w, "\t%.0f ref-ns/op\t%.2f x-ref", r.RefNs, r.Speedup())
		}
		fmt.Fprintln(w)
	}
	return nil
}

// sanitizeConfig keeps a configuration value on one line.
func sanitizeConfig(s string) string { return strings.Join(strings.Fields(s), " ") }

// jsonResult is a Result with its derived figures spelled out.
type jsonResult struct {
	Name string `json:"name"`
	Result
	RowsPerSec float64 `json:"rows_per_sec"`
	XFloor     float64 `json:"x_floor"`
	Speedup    float64 `json:"speedup_vs_ref,omitempty"`
}

// JSON writes one indented object: {"env": ..., "results": [...]}.
func JSON(w io.Writer, env Env, results []Result) error {
	out := struct {
		Env     Env          `json:"env"`
		Results []jsonResult `json:"results"`
	}{Env: env, Results: []jsonResult{}}
	for _, r := range results {
		out.Results = append(out.Results, jsonResult{Name: r.Name(), Result: r, RowsPerSec: r.RowsPerSec(),
			XFloor: r.XFloor(), Speedup: r.Speedup()})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
