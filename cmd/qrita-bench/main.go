// Command qrita-bench times exact Top-k/Top-p truncation over a sweep of
// shapes, settings and logit distributions, on the CPU backend or on GPUs,
// against the memory floor and the reference oracle. It prints a table,
// Go benchmark lines or JSON, and can plot throughput against batch.
// Run qrita-bench -h for the flags; docs/qrita-bench.md has examples.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"syscall"

	"github.com/qrita-project/qrita/internal/benchfmt"
	"github.com/qrita-project/qrita/reference"
	"github.com/qrita-project/qrita/sampler"
)

func main() {
	o, err := parseOptions(os.Args[1:], os.Stderr)
	if errors.Is(err, flag.ErrHelp) {
		return
	}
	if err == nil {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		err = run(ctx, o, os.Args[1:], os.Stdout, os.Stderr)
		stop()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "qrita-bench:", err)
		os.Exit(1)
	}
}

// run builds the sweep, times it on the chosen backend, writes the results
// in the chosen format (and the plot), and fails if a row mismatches. When
// ctx ends first, the cases finished so far are written and the error is
// errInterrupted.
func run(ctx context.Context, o options, args []string, out, errw io.Writer) error {
	cases, err := buildCases(o)
	if err != nil {
		return err
	}
	workers := o.workers
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	mode := reference.Exact
	if o.keepTies {
		mode = reference.KeepTies
	}
	env := benchfmt.Env{Args: append([]string{}, args...), GoVersion: runtime.Version(), GOOS: runtime.GOOS,
		GOARCH: runtime.GOARCH, NumCPU: runtime.NumCPU(), Backend: string(o.backend), Ties: mode.String()}
	prog := newProgress(errw, o.progress, len(cases))
	var results []benchfmt.Result
	if o.backend == sampler.BackendCPU {
		env.Workers = workers
		env.Protocol = fmt.Sprintf("median of %d calls after %d warm-up, each on a fresh copy of the logits; "+
			"floor: parallel read-once sum of the logits", o.reps, o.warmup)
		results, err = runCPU(ctx, o, cases, workers, mode, prog)
	} else {
		env.Protocol = gpuProtocol(o)
		env.L2, env.Timing = o.l2, o.timing
		results, err = runGPU(ctx, o, cases, mode, prog, &env)
	}
	prog.finish()
	interrupted := errors.Is(err, errInterrupted)
	if err != nil && !interrupted {
		return err
	}
	if interrupted {
		env.Protocol += interruptedNote(len(results), len(cases))
	}
	if o.ref.on(len(cases)) {
		env.Protocol += fmt.Sprintf("; reference: median of %d calls on the CPU", o.refReps)
	}
	if err := render(out, o.format, env, results); err != nil {
		return err
	}
	if o.plot != "" && len(results) > 0 {
		if err := writePlot(o.plot, env, results); err != nil {
			return err
		}
	}
	if err := verdict(out, o.format, results); err != nil {
		return err
	}
	if interrupted {
		return errInterrupted
	}
	return nil
}

func render(w io.Writer, format string, env benchfmt.Env, results []benchfmt.Result) error {
	switch format {
	case "bench":
		return benchfmt.Bench(w, env, results)
	case "json":
		return benchfmt.JSON(w, env, results)
	}
	return benchfmt.Table(w, env, results)
}

// writePlot writes the figure of the results to path, a PNG or an SVG by
// its extension (benchfmt.Plot: throughput and time over the floor
// against batch).
func writePlot(path string, env benchfmt.Env, results []benchfmt.Result) error {
	format, err := benchfmt.PlotFormat(path)
	if err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	title := fmt.Sprintf("qrita-bench: %s backend, rows/s and time over the floor against batch", env.Backend)
	if err := benchfmt.Plot(f, format, title, results); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// plotFileOK says whether -plot names a format benchfmt.Plot writes.
func plotFileOK(path string) bool {
	_, err := benchfmt.PlotFormat(path)
	return err == nil
}

// verdict sums the verifications (a line after a table) and fails if a
// row differs from the reference.
func verdict(w io.Writer, format string, results []benchfmt.Result) error {
	var checked int
	var v benchfmt.Verify
	for _, r := range results {
		if r.Verify != nil {
			checked++
			v.Rows += r.Verify.Rows
			v.Mismatched += r.Verify.Mismatched
			v.Ambiguous += r.Verify.Ambiguous
		}
	}
	if checked > 0 && format == "table" {
		fmt.Fprintf(w, "\nverify against the reference: %d case(s), %d rows, %d mismatched, %d ambiguous (allowed)\n",
			checked, v.Rows, v.Mismatched, v.Ambiguous)
	}
	if v.Mismatched > 0 {
		return fmt.Errorf("%d rows differ from the reference", v.Mismatched)
	}
	return nil
}
