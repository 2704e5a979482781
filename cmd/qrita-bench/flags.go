package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/qrita-project/qrita/internal/testcases"
	"github.com/qrita-project/qrita/sampler"
)

// options are the command-line settings of one benchmark run.
type options struct {
	backend  sampler.Backend
	batch    int
	vocab    int
	k        int     // 0: top-k off
	p        float64 // 1: top-p off
	dist     testcases.Dist
	seed     uint64
	reps     int // timed calls of the backend and of the read-once sum
	warmup   int // untimed calls before them
	refReps  int // timed calls of the reference (slow on full shapes)
	workers  int // 0: GOMAXPROCS
	keepTies bool
	verify   bool
	dtype    sampler.DType // GPU backends: element type of the device-memory timing
	sweep    string        // GPU backends: "" (the one shape) or "anchors"
}

const usageHead = `qrita-bench times exact Top-k/Top-p truncation of a batch of logits.

It generates [batch][vocab] logits (seeded, so every run sees the same
data), then times a read-once sum of the logits (the floor for anything
that reads them once), the reference oracle and the chosen backend, each
call on a fresh copy of the logits. It prints per implementation the median
time per call, rows per second, the ratio to the read-once time and the
speedup over the reference, and checks that the backend's output equals
the reference's (rows whose top-p cut is ambiguous within 1e-6 may differ).

With -backend cuda or hip (a build with -tags cuda or -tags hip) the
backend is timed on host slices as above and then on logits in device
memory against a device-to-device copy of the same bytes, the floor for
an in-place mask (-dtype picks the element type; -sweep anchors adds the
shapes of the peers' H200 anchor table).

Usage: qrita-bench [flags]

Flags:
`

// parseOptions parses args (without the program name). Help goes to out.
func parseOptions(args []string, out io.Writer) (options, error) {
	o := options{}
	fs := flag.NewFlagSet("qrita-bench", flag.ContinueOnError)
	fs.SetOutput(out)
	backend := fs.String("backend", "cpu", "backend to time: cpu, cuda or hip (cuda and hip need a build with -tags cuda or -tags hip)")
	fs.IntVar(&o.batch, "batch", 64, "rows per call")
	fs.IntVar(&o.vocab, "vocab", 128256, "logits per row")
	fs.IntVar(&o.k, "k", 50, "top-k of every row; 0 disables top-k")
	fs.Float64Var(&o.p, "p", 0.9, "top-p of every row; 1 disables top-p")
	dist := fs.String("dist", testcases.LLMLike.String(), "distribution of the logits: "+strings.Join(distNames(), ", "))
	fs.Uint64Var(&o.seed, "seed", 1, "seed of the generated logits")
	fs.IntVar(&o.reps, "reps", 20, "timed calls of the backend and of the read-once sum")
	fs.IntVar(&o.warmup, "warmup", 2, "untimed calls before the timed ones")
	fs.IntVar(&o.refReps, "ref-reps", 3, "timed calls of the reference, which sorts every row and is slow")
	fs.IntVar(&o.workers, "workers", 0, "goroutines of the CPU backend and the read-once sum; 0 means GOMAXPROCS")
	fs.BoolVar(&o.keepTies, "keep-ties", false, "KeepTies tie mode instead of Exact")
	fs.BoolVar(&o.verify, "verify", true, "compare the backend's output with the reference's")
	dtype := fs.String("dtype", "fp32", "GPU backends: element type of the logits in device memory (fp32, fp16, bf16)")
	fs.StringVar(&o.sweep, "sweep", "", "GPU backends: \"anchors\" also times the peers' H200 anchor shapes in device memory")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usageHead)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected arguments: %q", fs.Args())
	}
	o.backend = sampler.Backend(*backend)
	d, err := parseDist(*dist)
	if err != nil {
		return o, err
	}
	o.dist = d
	if o.dtype, err = parseDType(*dtype); err != nil {
		return o, err
	}
	return o, o.check()
}

func (o options) check() error {
	switch {
	case o.batch <= 0 || o.vocab <= 0:
		return fmt.Errorf("-batch and -vocab must be positive")
	case o.reps <= 0 || o.refReps <= 0:
		return fmt.Errorf("-reps and -ref-reps must be positive")
	case o.warmup < 0 || o.workers < 0:
		return fmt.Errorf("-warmup and -workers must not be negative")
	case o.p != o.p:
		return fmt.Errorf("-p must not be NaN")
	case o.sweep != "" && o.sweep != "anchors":
		return fmt.Errorf("unknown -sweep %q (only \"anchors\")", o.sweep)
	}
	return nil
}

// parseDist maps a distribution name (as testcases prints it) to its value.
func parseDist(name string) (testcases.Dist, error) {
	for _, d := range testcases.Dists() {
		if d.String() == name {
			return d, nil
		}
	}
	return 0, fmt.Errorf("unknown -dist %q (one of %s)", name, strings.Join(distNames(), ", "))
}

func distNames() []string {
	var names []string
	for _, d := range testcases.Dists() {
		names = append(names, d.String())
	}
	return names
}

func parseDType(name string) (sampler.DType, error) {
	for _, d := range []sampler.DType{sampler.Float32, sampler.Float16, sampler.BFloat16} {
		if d.String() == name {
			return d, nil
		}
	}
	return 0, fmt.Errorf("unknown -dtype %q (fp32, fp16 or bf16)", name)
}
