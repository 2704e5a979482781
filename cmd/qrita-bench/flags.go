package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/qrita-project/qrita/internal/benchfmt"
	"github.com/qrita-project/qrita/internal/gpubench"
	"github.com/qrita-project/qrita/internal/testcases"
	"github.com/qrita-project/qrita/sampler"
)

// options are the command-line settings of one benchmark run. The list
// flags span a sweep: every combination is one case.
type options struct {
	backend  sampler.Backend
	batches  []int
	vocabs   []int
	ks       []int     // 0: top-k off
	ps       []float64 // 1: top-p off
	dists    []testcases.Dist
	dtypes   []sampler.DType
	npy      string // real logits instead of -batch, -vocab and -dist
	seed     uint64
	reps     int // CPU: timed calls of the backend and of the read-once sum
	warmup   int // CPU: untimed calls before them
	refReps  int // timed calls of the reference (slow on full shapes)
	ref      refMode
	gpuReps  int // GPU: timings whose median is taken
	gpuInner int // GPU: back-to-back calls per timing
	workers  int // 0: GOMAXPROCS
	keepTies bool
	verify   bool
	sweep    string // "" (the -batch x -vocab grid) or a preset of sweepNames
	l2       string // GPU: cold or hot (gpubench.L2Mode)
	timing   string // GPU: events or graph (gpubench.Timing)
	base     baselines
	ablation []ablation
	outs     []string // GPU: mask, ids
	devices  devices
	format   string
	plot     string
	progress bool
}

type vocabPreset struct {
	name  string
	vocab int
	model string
}

// vocabPresets name the vocabularies of the paper's models.
var vocabPresets = []vocabPreset{
	{"llama3", 128256, "Llama 3 / 3.1 / 3.2"},
	{"qwen", 151936, "Qwen 2.5 / Qwen 3"},
	{"gpt-oss", 201088, "gpt-oss (o200k_harmony)"},
	{"qwen3.5", 248320, "Qwen 3.5"},
	{"gemma3", 262208, "Gemma 3"},
}

// refMode is -ref: auto (the reference runs when the sweep has one case),
// true or false. It is a boolean flag: -ref alone means true.
type refMode string

func (r *refMode) String() string   { return string(*r) }
func (r *refMode) IsBoolFlag() bool { return true }
func (r *refMode) Set(s string) error {
	switch s {
	case "auto":
		*r = "auto"
		return nil
	}
	b, err := strconv.ParseBool(s)
	if err != nil {
		return fmt.Errorf("want auto, true or false")
	}
	*r = refMode(strconv.FormatBool(b))
	return nil
}

// on says whether the reference runs for a sweep of n cases.
func (r refMode) on(n int) bool { return r == "true" || (r == "auto" && n == 1) }

// devices is -devices: all, or a list of GPU ordinals.
type devices struct {
	all bool
	ids []int
}

func parseDevices(s string) (devices, error) {
	if strings.TrimSpace(s) == "all" {
		return devices{all: true}, nil
	}
	ids, err := parseInts(s, 0, 1<<16)
	if err != nil {
		return devices{}, fmt.Errorf("-devices: %w (want all or a list such as 0,1)", err)
	}
	for i, id := range ids {
		if slices.Contains(ids[:i], id) {
			return devices{}, fmt.Errorf("-devices: %d listed twice", id)
		}
	}
	return devices{ids: ids}, nil
}

// resolve turns the selection into ordinals, given the visible count.
func (d devices) resolve(count int) ([]int, error) {
	if d.all {
		if count == 0 {
			return nil, fmt.Errorf("-devices all: no device visible")
		}
		ids := make([]int, count)
		for i := range ids {
			ids[i] = i
		}
		return ids, nil
	}
	for _, id := range d.ids {
		if id >= count {
			return nil, fmt.Errorf("-devices: device %d does not exist (%d visible)", id, count)
		}
	}
	return d.ids, nil
}

const usageHead = `qrita-bench times exact Top-k/Top-p truncation of batches of logits.

Every combination of -batch, -vocab, -k, -p, -dist and -dtype is one case
(the list flags take comma-separated values). Logits are generated from a
seed, so every run sees the same data, or loaded with -npy from a file.

CPU backend (default): per case the median of -reps calls, each on a fresh
copy of the logits, against a parallel read-once sum of the logits (the
floor for anything that reads them once). The reference oracle is timed
and the backend's output checked against it when -ref is on (by default
only when the sweep has a single case: the reference sorts every row and
is slow). The CPU works on float32: -dtype other than fp32 needs a GPU.

GPU backends (-backend cuda or hip, a build with -tags cuda or -tags hip):
logits, k and p in device memory; per case the median over -gpu-reps
timings (device events, after warm-up) against a device-to-device copy of
the same bytes (the floor of an in-place mask), timed the same way. With
-l2 cold (default) every timing restores R work buffers (untimed), then
times R back-to-back calls, one per buffer, where R x bytes >= 3 x the L2
size: the L2 cannot hold the input. With -l2 hot each timing is
-gpu-inner [restore; call] pairs minus the restores alone on one buffer
just written: shapes under the L2 size read it from L2 (the peers' anchor
protocol). -timing graph replays the timed calls from a CUDA graph.
Each device of -devices gets its own worker, sampler and context, in
parallel. With -ref the CPU reference is timed on the same logits and the
GPU backend's fp32 output (host-slice API) checked against it.

Columns: time per call, rows per second, the floor and the ratio to it,
the reference time and the speedup over it, the verification. On GPUs
also: the output (-out) and ablation (-ablation) where swept, the L2
state (cold:R = inputs rotated over R buffers; hot = an L2 figure), the
pure read and the ratio to it, the sort-based baseline and the speedup
over it, the extra device memory per call (none for the mask: small
batches use a per-stream workspace fixed by the device, allocated on the
first call; the id arrays for -out ids) and the sort's workspace, and from one
untimed call with counters the sigma-truncation hit rate and the mean
candidate count per row (Table 1). A baseline the library does not
provide shows "-" and the run goes on.

SIGINT or SIGTERM (Ctrl-C, a timeout) stops the sweep after the running
case: the finished cases are written (and plotted), marked INTERRUPTED,
and the exit status is 1.

Vocab presets: llama3=128256, qwen=151936, gpt-oss=201088, qwen3.5=248320,
gemma3=262208, paper=all five.

Sweep presets (-sweep, GPU backends; they fix the shapes and settings):
anchors (the peers' H200 anchor shapes x -k, -p, -dist, -dtype), full
(the committed H200 record), table1 (hit rates), table4 (ablations);
docs/qrita-bench.md lists their cases and run times.

Usage: qrita-bench [flags]

Flags:
`

// parseOptions parses args (without the program name). Help goes to out.
func parseOptions(args []string, out io.Writer) (options, error) {
	o := options{ref: "auto"}
	fs := flag.NewFlagSet("qrita-bench", flag.ContinueOnError)
	fs.SetOutput(out)
	backend := fs.String("backend", "cpu", "backend to time: cpu, cuda or hip (cuda and hip need a build with -tags cuda or -tags hip)")
	batch := fs.String("batch", "64", "rows per call, a comma list (e.g. 1,8,64,256,1024)")
	vocab := fs.String("vocab", "128256", "logits per row, a comma list of numbers and presets (llama3, qwen, gpt-oss, qwen3.5, gemma3, paper)")
	k := fs.String("k", "50", "top-k of every row, a comma list; 0 disables top-k")
	p := fs.String("p", "0.9", "top-p of every row, a comma list; 1 disables top-p")
	dist := fs.String("dist", testcases.LLMLike.String(), "distributions of the logits, a comma list: "+strings.Join(distNames(), ", "))
	dtype := fs.String("dtype", "fp32", "element types, a comma list of fp32, fp16, bf16 (fp16 and bf16: GPU backends only)")
	fs.StringVar(&o.npy, "npy", "", "load the logits from a .npy file: a float32 or float16 C-order array [batch, vocab] (replaces -batch, -vocab and -dist)")
	fs.StringVar(&o.sweep, "sweep", "", "a preset instead of the -batch x -vocab grid: anchors (the peers' H200 anchor shapes), full, table1 or table4 (GPU backends; see above)")
	fs.StringVar(&o.l2, "l2", string(gpubench.L2Cold), "GPU: cold (inputs rotated so the L2 cannot hold them) or hot (one buffer just written: an L2 figure)")
	fs.StringVar(&o.timing, "timing", string(gpubench.TimingEvents), "GPU: events (back-to-back launches) or graph (replays of a CUDA graph of the calls)")
	base := fs.String("baselines", baselineAuto, "baselines per case, a comma list of copy (the floor, always on), read, sort (GPU backends) and ref (= -ref=true); auto: copy,read,sort on GPUs, copy on the CPU")
	abl := fs.String("ablation", ablNone, "GPU: kernel ablations to sweep, a comma list of none or no-trunc, fallback, binary, no-dup (KeepTies), in-place (rows that miss keep their passes: no hand-on, no sliced passes), no-sort (top-k over few candidates by the digit search), partsN (each row of a mask call cut into N parts, 1: one block a row, in place of the launch policy's) joined by + (e.g. none,no-trunc,fallback+binary or none,parts8,parts16)")
	outs := fs.String("out", benchfmt.OutMask, "GPU: outputs to sweep, a comma list of mask (in place) and ids (compact ids, 1024 per row)")
	fs.Uint64Var(&o.seed, "seed", 1, "seed of the generated logits")
	fs.IntVar(&o.reps, "reps", 20, "CPU: timed calls of the backend and of the read-once sum per case")
	fs.IntVar(&o.warmup, "warmup", 2, "CPU: untimed calls before the timed ones")
	fs.Var(&o.ref, "ref", "time the CPU reference and verify against it: auto (only for a single case), true or false")
	fs.IntVar(&o.refReps, "ref-reps", 3, "timed calls of the reference, which sorts every row and is slow")
	fs.IntVar(&o.gpuReps, "gpu-reps", 15, "GPU: timings per case whose median is taken (-sweep full: 7 unless set)")
	fs.IntVar(&o.gpuInner, "gpu-inner", 20, "GPU, -l2 hot: back-to-back [restore; call] pairs per timing (cold: one call per rotated buffer)")
	devs := fs.String("devices", "0", "GPU backends: device ordinals, a comma list, or all; one worker per device")
	fs.IntVar(&o.workers, "workers", 0, "goroutines of the CPU backend and the read-once sum; 0 means GOMAXPROCS")
	fs.BoolVar(&o.keepTies, "keep-ties", false, "KeepTies tie mode instead of Exact")
	fs.BoolVar(&o.verify, "verify", true, "compare the backend's output with the reference's (when the reference runs)")
	fs.StringVar(&o.format, "format", "table", "output on stdout: table, bench (Go benchmark lines for benchstat) or json")
	fs.StringVar(&o.plot, "plot", "", "also write a plot to this file, PNG or SVG by its extension: rows/s and call time over the floor against batch, one line per vocab, dtype and k/p setting")
	fs.BoolVar(&o.progress, "progress", true, "show a progress bar on stderr (only when stderr is a terminal)")
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
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })

	var err error
	o.backend = sampler.Backend(*backend)
	switch o.backend {
	case sampler.BackendCPU, sampler.BackendCUDA, sampler.BackendHIP:
	default:
		return o, fmt.Errorf("unknown -backend %q (cpu, cuda or hip)", *backend)
	}
	if o.batches, err = parseInts(*batch, 1, math.MaxInt32); err != nil {
		return o, fmt.Errorf("-batch: %w", err)
	}
	if o.vocabs, err = parseVocabs(*vocab); err != nil {
		return o, fmt.Errorf("-vocab: %w", err)
	}
	if o.ks, err = parseInts(*k, 0, math.MaxInt32); err != nil {
		return o, fmt.Errorf("-k: %w", err)
	}
	if o.ps, err = parseFloats(*p); err != nil {
		return o, fmt.Errorf("-p: %w", err)
	}
	if o.dists, err = parseList(*dist, parseDist); err != nil {
		return o, err
	}
	if o.dtypes, err = parseList(*dtype, parseDType); err != nil {
		return o, err
	}
	if o.devices, err = parseDevices(*devs); err != nil {
		return o, err
	}
	gpu := o.backend != sampler.BackendCPU
	if o.base, err = parseBaselines(*base, gpu); err != nil {
		return o, err
	}
	if o.base.ref {
		if set["ref"] && o.ref != "true" {
			return o, fmt.Errorf("-baselines ref contradicts -ref=%s", o.ref)
		}
		o.ref = "true"
	}
	if o.ablation, err = parseList(*abl, parseAblation); err != nil {
		return o, err
	}
	if o.outs, err = parseList(*outs, parseOut); err != nil {
		return o, err
	}
	if err := checkPreset(o.sweep, set); err != nil {
		return o, err
	}
	if o.npy != "" {
		for _, name := range []string{"batch", "vocab", "dist", "sweep"} {
			if set[name] {
				return o, fmt.Errorf("-npy replaces -%s: the file gives the shape and the values", name)
			}
		}
	}
	if o.backend == sampler.BackendCPU {
		if set["devices"] {
			return o, fmt.Errorf("-devices needs a GPU backend (-backend cuda or hip)")
		}
		for _, d := range o.dtypes {
			if d != sampler.Float32 {
				return o, fmt.Errorf("-dtype %s needs a GPU backend: the CPU backend works on float32", d)
			}
		}
		for _, name := range []string{"l2", "timing"} {
			if set[name] {
				return o, fmt.Errorf("-%s needs a GPU backend (-backend cuda or hip)", name)
			}
		}
		for _, a := range o.ablation {
			if !a.none() {
				return o, fmt.Errorf("-ablation %s: GPU backends only", a)
			}
		}
		if slices.Contains(o.outs, benchfmt.OutIDs) {
			return o, fmt.Errorf("-out ids: GPU backends only (the CPU backend masks in place)")
		}
		if o.sweep != "" && o.sweep != sweepAnchors {
			return o, fmt.Errorf("-sweep %s: GPU backends only", o.sweep)
		}
	}
	if slices.Contains(o.outs, benchfmt.OutIDs) && slices.ContainsFunc(o.ablation, func(a ablation) bool { return !a.none() }) {
		return o, fmt.Errorf("-out ids times the sampler's id output only: use -ablation none with it")
	}
	if !set["gpu-reps"] {
		if reps := presetGPUReps(o.sweep); reps > 0 {
			o.gpuReps = reps
		}
	}
	return o, o.check()
}

func (o options) check() error {
	switch {
	case o.reps <= 0 || o.refReps <= 0 || o.gpuReps <= 0 || o.gpuInner <= 0:
		return fmt.Errorf("-reps, -ref-reps, -gpu-reps and -gpu-inner must be positive")
	case o.warmup < 0 || o.workers < 0:
		return fmt.Errorf("-warmup and -workers must not be negative")
	case o.sweep != "" && !slices.Contains(sweepNames, o.sweep):
		return fmt.Errorf("unknown -sweep %q (%s)", o.sweep, strings.Join(sweepNames, ", "))
	case o.l2 != string(gpubench.L2Cold) && o.l2 != string(gpubench.L2Hot):
		return fmt.Errorf("unknown -l2 %q (cold or hot)", o.l2)
	case o.timing != string(gpubench.TimingEvents) && o.timing != string(gpubench.TimingGraph):
		return fmt.Errorf("unknown -timing %q (events or graph)", o.timing)
	case o.format != "table" && o.format != "bench" && o.format != "json":
		return fmt.Errorf("unknown -format %q (table, bench or json)", o.format)
	case o.plot != "" && !plotFileOK(o.plot):
		return fmt.Errorf("-plot %q: want a name ending in .png or .svg (the extension picks the format)", o.plot)
	}
	return nil
}

// fields splits a comma list, dropping empty items.
func fields(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func parseList[T any](s string, parse func(string) (T, error)) ([]T, error) {
	var out []T
	for _, f := range fields(s) {
		v, err := parse(f)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("empty list %q", s)
	}
	return out, nil
}

func parseInts(s string, lo, hi int) ([]int, error) {
	return parseList(s, func(f string) (int, error) {
		v, err := strconv.Atoi(f)
		if err != nil {
			return 0, fmt.Errorf("%q is not an integer", f)
		}
		if v < lo || v > hi {
			return 0, fmt.Errorf("%d is out of range [%d, %d]", v, lo, hi)
		}
		return v, nil
	})
}

func parseFloats(s string) ([]float64, error) {
	return parseList(s, func(f string) (float64, error) {
		v, err := strconv.ParseFloat(f, 64)
		if err != nil || v != v {
			return 0, fmt.Errorf("%q is not a number", f)
		}
		return v, nil
	})
}

// parseVocabs reads numbers and presets; "paper" stands for every preset.
func parseVocabs(s string) ([]int, error) {
	var out []int
	for _, f := range fields(s) {
		if f == "paper" {
			for _, p := range vocabPresets {
				out = append(out, p.vocab)
			}
			continue
		}
		i := slices.IndexFunc(vocabPresets, func(p vocabPreset) bool { return p.name == f })
		if i >= 0 {
			out = append(out, vocabPresets[i].vocab)
			continue
		}
		v, err := strconv.Atoi(f)
		if err != nil {
			return nil, fmt.Errorf("%q is neither a number nor a preset (llama3, qwen, gpt-oss, qwen3.5, gemma3, paper)", f)
		}
		if v <= 0 || v > math.MaxInt32 {
			return nil, fmt.Errorf("%d is out of range", v)
		}
		out = append(out, v)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("empty list %q", s)
	}
	return out, nil
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

// parseOut reads one value of -out.
func parseOut(s string) (string, error) {
	if s != benchfmt.OutMask && s != benchfmt.OutIDs {
		return "", fmt.Errorf("unknown -out %q (mask or ids)", s)
	}
	return s, nil
}
