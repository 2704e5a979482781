package benchfmt

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
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

// Table writes the header and one aligned line per result. The GPU-only
// column groups (output, ablation, L2 state, baselines, extra memory, row
// counters) appear only when some result has them, so CPU tables keep
// their columns.
func Table(w io.Writer, env Env, results []Result) error {
	Header(w, env)
	fmt.Fprintln(w)
	cols := tableColumns(results)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	for _, c := range cols {
		fmt.Fprintf(tw, "%s\t", c.head)
	}
	fmt.Fprintln(tw)
	for _, r := range results {
		for _, c := range cols {
			fmt.Fprintf(tw, "%s\t", c.cell(r))
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}

type column struct {
	head string
	cell func(Result) string
}

// tableColumns lists the table's columns for these results.
func tableColumns(results []Result) []column {
	any := func(f func(Result) bool) bool { return slices.ContainsFunc(results, f) }
	cols := []column{
		{"backend", func(r Result) string { return r.Backend }},
		{"dev", func(r Result) string {
			if r.Device < 0 {
				return "-"
			}
			return fmt.Sprint(r.Device)
		}},
		{"batch", func(r Result) string { return fmt.Sprint(r.Batch) }},
		{"vocab", func(r Result) string { return fmt.Sprint(r.Vocab) }},
		{"k", func(r Result) string { return fmt.Sprint(r.K) }},
		{"p", func(r Result) string { return fmtP(r.P) }},
		{"dist", func(r Result) string { return r.Dist }},
		{"dtype", func(r Result) string { return r.DType }},
	}
	if any(func(r Result) bool { return r.Out != "" && r.Out != OutMask }) {
		cols = append(cols, column{"out", func(r Result) string { return orDash(r.Out) }})
	}
	if any(func(r Result) bool { return r.Ablation != "" && r.Ablation != AblationNone }) {
		cols = append(cols, column{"ablation", func(r Result) string { return orDash(r.Ablation) }})
	}
	gpu := any(func(r Result) bool { return r.Cache != "" })
	if gpu {
		cols = append(cols, column{"l2", func(r Result) string {
			if r.Cache == "" {
				return "-"
			}
			return fmt.Sprintf("%s:%d", r.Cache, r.Rotation)
		}})
	}
	cols = append(cols,
		column{"us/call", func(r Result) string { return fmt.Sprintf("%.1f", r.CallNs/1e3) }},
		column{"rows/s", func(r Result) string { return fmt.Sprintf("%.4g", r.RowsPerSec()) }},
		column{"floor", func(r Result) string { return r.Floor }},
		column{"floor us", func(r Result) string { return fmt.Sprintf("%.1f", r.FloorNs/1e3) }},
		column{"x floor", func(r Result) string { return fmt.Sprintf("%.2f", r.XFloor()) }},
	)
	if any(func(r Result) bool { return r.Read != nil }) {
		cols = append(cols,
			column{"read us", func(r Result) string { return baselineUs(r.Read) }},
			column{"x read", func(r Result) string { return ratio(r.XRead()) }})
	}
	if any(func(r Result) bool { return r.Sort != nil }) {
		cols = append(cols,
			column{"sort us", func(r Result) string { return baselineUs(r.Sort) }},
			column{"x sort", func(r Result) string { return ratio(r.SortSpeedup()) }})
	}
	if gpu {
		cols = append(cols, column{"extra MB", func(r Result) string {
			if r.Cache == "" {
				return "-"
			}
			return megabytes(r.ExtraBytes)
		}})
	}
	if any(func(r Result) bool { return r.Sort != nil }) {
		cols = append(cols, column{"sort MB", func(r Result) string {
			if r.Sort == nil || r.Sort.Unavailable != "" {
				return "-"
			}
			return megabytes(r.Sort.ExtraBytes)
		}})
	}
	if any(func(r Result) bool { return r.Stats != nil || r.StatsNote != "" }) {
		cols = append(cols,
			column{"hit %", func(r Result) string {
				if r.Stats == nil {
					return "-"
				}
				return fmt.Sprintf("%.1f", 100*r.Stats.HitRate)
			}},
			column{"cands", func(r Result) string {
				if r.Stats == nil {
					return "-"
				}
				return fmt.Sprintf("%.0f", r.Stats.MeanCandidates)
			}})
	}
	return append(cols,
		column{"ref us", func(r Result) string {
			if r.RefNs <= 0 {
				return "-"
			}
			return fmt.Sprintf("%.1f", r.RefNs/1e3)
		}},
		column{"x ref", func(r Result) string { return ratio(r.Speedup()) }},
		column{"verify", func(r Result) string { return r.Verify.String() }},
	)
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// baselineUs is a baseline's time, or "-" when not timed or unavailable.
func baselineUs(b *Baseline) string {
	if !b.ok() {
		return "-"
	}
	return fmt.Sprintf("%.1f", b.Ns/1e3)
}

// ratio prints a ratio with two decimals, or "-" for 0 (not available).
func ratio(x float64) string {
	if x <= 0 {
		return "-"
	}
	if x >= 100 {
		return fmt.Sprintf("%.1f", x)
	}
	return fmt.Sprintf("%.2f", x)
}

// bytesPerMB is the unit of the memory columns (decimal megabytes).
const bytesPerMB = 1e6

func megabytes(b int64) string { return fmt.Sprintf("%.1f", float64(b)/bytesPerMB) }

// Bench writes Go benchmark output that benchstat reads: configuration
// lines, then per result its name, the repetitions as the iteration count,
// and the metrics ns/op, rows/s, x-floor, floor-ns/op; with a pure read
// read-ns/op and x-read (call over read), with the sort baseline
// sort-ns/op, x-sort (its speedup) and sort-extra-B/op; on GPUs extra-B/op;
// with row counters hit-rate and cands/row; with a reference ref-ns/op and
// x-ref.
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
	if env.L2 != "" {
		fmt.Fprintf(w, "l2: %s\n", env.L2)
	}
	if env.Timing != "" {
		fmt.Fprintf(w, "timing: %s\n", env.Timing)
	}
	for _, r := range results {
		fmt.Fprintf(w, "%s\t%d\t%.0f ns/op\t%.4g rows/s\t%.3f x-floor\t%.0f floor-ns/op", r.Name(), r.Reps, r.CallNs,
			r.RowsPerSec(), r.XFloor(), r.FloorNs)
		if r.Read.ok() {
			fmt.Fprintf(w, "\t%.0f read-ns/op\t%.3f x-read", r.Read.Ns, r.XRead())
		}
		if r.Sort.ok() {
			fmt.Fprintf(w, "\t%.0f sort-ns/op\t%.2f x-sort\t%d sort-extra-B/op", r.Sort.Ns, r.SortSpeedup(),
				r.Sort.ExtraBytes)
		}
		if r.Cache != "" {
			fmt.Fprintf(w, "\t%d extra-B/op", r.ExtraBytes)
		}
		if r.Stats != nil {
			fmt.Fprintf(w, "\t%.4f hit-rate\t%.1f cands/row", r.Stats.HitRate, r.Stats.MeanCandidates)
		}
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
	XRead      float64 `json:"x_read,omitempty"`
	SortSpeed  float64 `json:"speedup_vs_sort,omitempty"`
}

// JSON writes one indented object: {"env": ..., "results": [...]}.
func JSON(w io.Writer, env Env, results []Result) error {
	out := struct {
		Env     Env          `json:"env"`
		Results []jsonResult `json:"results"`
	}{Env: env, Results: []jsonResult{}}
	for _, r := range results {
		out.Results = append(out.Results, jsonResult{Name: r.Name(), Result: r, RowsPerSec: r.RowsPerSec(),
			XFloor: r.XFloor(), Speedup: r.Speedup(), XRead: r.XRead(), SortSpeed: r.SortSpeedup()})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
