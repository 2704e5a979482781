// Command qrita-bench times exact Top-k/Top-p truncation on one shape:
// the chosen backend against the reference oracle and a read-once sum of
// the logits, and checks the backend's output against the reference.
// Run qrita-bench -h for the flags.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"

	"github.com/qrita-project/qrita/internal/testcases"
	"github.com/qrita-project/qrita/reference"
	"github.com/qrita-project/qrita/sampler"
)

func main() {
	o, err := parseOptions(os.Args[1:], os.Stderr)
	if errors.Is(err, flag.ErrHelp) {
		return
	}
	if err == nil {
		err = run(o, os.Stdout)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "qrita-bench:", err)
		os.Exit(1)
	}
}

// run generates the logits, times the three implementations, prints the
// table and the verification, and fails if a row mismatches.
func run(o options, out io.Writer) error {
	workers := o.workers
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	mode := reference.Exact
	if o.keepTies {
		mode = reference.KeepTies
	}
	pristine := testcases.Logits(o.batch, o.vocab, o.dist, o.seed)
	k, p := perRow(o)
	if err := reference.CheckArgs(len(pristine), o.batch, o.vocab, k, p); err != nil {
		return err
	}
	s, err := sampler.New(sampler.WithBackend(o.backend), sampler.WithWorkers(workers), sampler.WithTieMode(mode))
	if err != nil {
		return err
	}
	defer s.Close()

	logits := make([]float32, len(pristine))
	restore := func() { copy(logits, pristine) }
	floor, err := timeCalls(o.warmup, o.reps, restore, func() error {
		readOnce(logits, o.batch, o.vocab, workers)
		return nil
	})
	if err != nil {
		return err
	}
	ctx := context.Background()
	got := make([]float32, len(pristine))
	backend, err := timeCalls(o.warmup, o.reps, restore, func() error {
		return s.TopKTopP(ctx, logits, o.batch, o.vocab, k, p)
	})
	if err != nil {
		return err
	}
	copy(got, logits)
	ref, err := timeCalls(0, o.refReps, restore, func() error {
		return reference.TopKTopPTies(logits, o.batch, o.vocab, k, p, mode)
	})
	if err != nil {
		return err
	}
	want := logits

	fmt.Fprintf(out, "shape: batch %d, vocab %d, k %d, p %g, dist %v, %v ties, %d workers, %s backend\n",
		o.batch, o.vocab, o.k, o.p, o.dist, mode, workers, o.backend)
	fmt.Fprintf(out, "median of %d calls (reference: %d), each on a fresh copy of the logits\n\n", o.reps, o.refReps)
	results := []result{{"read-once sum", floor}, {"reference", ref}, {string(o.backend), backend}}
	if err := printTable(out, o.batch, results, floor, ref); err != nil {
		return err
	}
	if !o.verify {
		if o.backend != sampler.BackendCPU {
			return deviceReport(o, s, out)
		}
		return nil
	}
	v := compareRows(pristine, got, want, o.batch, o.vocab, k, p, mode)
	fmt.Fprintf(out, "\nverify %s against reference: %d rows, %d mismatched, %d ambiguous (allowed)\n",
		o.backend, v.rows, v.mismatched, v.ambiguous)
	if v.mismatched > 0 {
		return fmt.Errorf("%d rows differ from the reference", v.mismatched)
	}
	if o.backend != sampler.BackendCPU {
		return deviceReport(o, s, out)
	}
	return nil
}

// perRow expands -k and -p to one value per row.
func perRow(o options) ([]int32, []float32) {
	k := make([]int32, o.batch)
	p := make([]float32, o.batch)
	for i := range k {
		k[i] = int32(min(max(o.k, 0), 1<<31-1))
		p[i] = float32(o.p)
	}
	return k, p
}
