package main

import (
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/qrita-project/qrita/internal/testcases"
	"github.com/qrita-project/qrita/sampler"
)

func gpuOpts(t *testing.T, args ...string) options {
	t.Helper()
	o, err := parseOptions(append([]string{"-backend", "cuda"}, args...), io.Discard)
	if err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	return o
}

func TestParseAblation(t *testing.T) {
	for in, want := range map[string]ablation{
		"none":                     {},
		"no-trunc":                 {noTrunc: true},
		"binary+fallback":          {fallback: true, binary: true},
		"no-dup+no-trunc+binary":   {noTrunc: true, binary: true, noDup: true},
		"fallback+binary+no-dup":   {fallback: true, binary: true, noDup: true},
		"no-trunc+fallback+binary": {noTrunc: true, fallback: true, binary: true},
		"in-place+binary":          {binary: true, inPlace: true},
	} {
		got, err := parseAblation(in)
		if err != nil || got != want {
			t.Errorf("%q: %+v %v", in, got, err)
		}
		back, err := parseAblation(got.String())
		if err != nil || back != got {
			t.Errorf("%q does not round-trip through %q", in, got.String())
		}
	}
	if a, _ := parseAblation("binary+no-trunc"); a.String() != "no-trunc+binary" {
		t.Errorf("canonical order: %q", a.String())
	}
	for _, bad := range []string{"", "off", "binary+binary", "none+binary", "binary+"} {
		if _, err := parseAblation(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
	if (ablation{noDup: true}).none() {
		t.Error("no-dup is an ablation")
	}
}

func TestParseBaselines(t *testing.T) {
	for _, tc := range []struct {
		in   string
		gpu  bool
		want baselines
		bad  bool
	}{
		{"auto", true, baselines{read: true, sort: true}, false},
		{"auto", false, baselines{}, false},
		{"copy", true, baselines{}, false},
		{"copy,read", true, baselines{read: true}, false},
		{"sort, ref", true, baselines{sort: true, ref: true}, false},
		{"copy,ref", false, baselines{ref: true}, false},
		{"read", false, baselines{}, true},
		{"sort", false, baselines{}, true},
		{"floor", true, baselines{}, true},
		{"", true, baselines{}, true},
	} {
		got, err := parseBaselines(tc.in, tc.gpu)
		if (err != nil) != tc.bad || (!tc.bad && got != tc.want) {
			t.Errorf("%q gpu=%v: %+v %v", tc.in, tc.gpu, got, err)
		}
	}
	if o := gpuOpts(t, "-baselines", "copy,ref"); !o.ref.on(2) {
		t.Error("-baselines ref must turn the reference on for sweeps too")
	}
	if _, err := parseOptions([]string{"-baselines", "ref", "-ref=false"}, io.Discard); err == nil {
		t.Error("-baselines ref with -ref=false must fail")
	}
}

func TestGPUOnlyFlagsFailOnTheCPU(t *testing.T) {
	for _, args := range [][]string{
		{"-ablation", "no-trunc"}, {"-ablation", "none,no-dup"}, {"-out", "ids"}, {"-out", "mask,ids"},
		{"-l2", "hot"}, {"-timing", "graph"}, {"-baselines", "read"}, {"-sweep", "full"}, {"-sweep", "table1"},
		{"-sweep", "table4"},
	} {
		_, err := parseOptions(args, io.Discard)
		if err == nil {
			t.Errorf("%v: no error on the CPU backend", args)
		}
	}
	// The CPU defaults are unchanged by the new flags.
	o, err := parseOptions(nil, io.Discard)
	if err != nil || o.base != (baselines{}) || len(o.ablation) != 1 || !o.ablation[0].none() ||
		!slices.Equal(o.outs, []string{"mask"}) || o.gpuReps != 15 {
		t.Errorf("CPU defaults: %+v %v", o, err)
	}
}

func TestBadGPUOptions(t *testing.T) {
	for _, args := range [][]string{
		{"-l2", "warm"}, {"-timing", "cupti"}, {"-out", "logits"}, {"-ablation", "trunc"},
		{"-out", "ids", "-ablation", "no-trunc"},
		{"-sweep", "full", "-batch", "1"}, {"-sweep", "table4", "-ablation", "none"}, {"-sweep", "table1", "-dtype", "bf16"},
		{"-sweep", "everything"},
	} {
		if _, err := parseOptions(append([]string{"-backend", "cuda"}, args...), io.Discard); err == nil {
			t.Errorf("%v: no error", args)
		}
	}
	// Allowed combinations.
	gpuOpts(t, "-out", "ids", "-ablation", "none")
	gpuOpts(t, "-ablation", "no-dup", "-dtype", "bf16")
	gpuOpts(t, "-sweep", "full", "-devices", "0", "-l2", "hot", "-timing", "graph", "-baselines", "copy")
}

func TestGridSweepsOutAndAblation(t *testing.T) {
	o := gpuOpts(t, "-batch", "1,8", "-vocab", "4096", "-out", "mask,ids", "-k", "50")
	cases, err := buildCases(o)
	if err != nil || len(cases) != 4 {
		t.Fatalf("%d cases, %v", len(cases), err)
	}
	if cases[1].out != "ids" || cases[1].batch != 1 || !strings.HasSuffix(cases[1].String(), " ids") {
		t.Errorf("case 1: %+v %s", cases[1], cases[1])
	}
	o = gpuOpts(t, "-batch", "2", "-vocab", "4096", "-ablation", "none,no-trunc,fallback+binary")
	cases, _ = buildCases(o)
	if len(cases) != 3 || cases[2].ablation.String() != "fallback+binary" ||
		!strings.Contains(cases[2].String(), "ablation=fallback+binary") {
		t.Errorf("cases %v", cases)
	}
}

func TestPresets(t *testing.T) {
	full, err := buildCases(gpuOpts(t, "-sweep", "full"))
	if err != nil {
		t.Fatal(err)
	}
	// fp32 llm 2 vocabs x 11 batches x 4 modes, 2 mid vocabs x 2 batches x 4, bf16 and fp16 3 x 4,
	// misses 3 dists x 3 batches x 4, ids 2 x 2 x 4.
	if want := 2*11*4 + 2*2*4 + 2*3*4 + 3*3*4 + 2*2*4; len(full) != want {
		t.Errorf("full: %d cases, want %d", len(full), want)
	}
	count := func(cs []benchCase, f func(benchCase) bool) int {
		n := 0
		for _, c := range cs {
			if f(c) {
				n++
			}
		}
		return n
	}
	if n := count(full, func(c benchCase) bool { return c.out == "ids" && c.dtype == sampler.Float32 && c.k == 50 }); n != 8 {
		t.Errorf("full: %d ids cases", n)
	}
	if n := count(full, func(c benchCase) bool { return c.dtype == sampler.Float16 && c.vocab == 128256 }); n != 12 {
		t.Errorf("full: %d fp16 cases", n)
	}
	if n := count(full, func(c benchCase) bool { return c.dist == testcases.OneHot && c.k == 0 && c.p == 0.9 }); n != 3 {
		t.Errorf("full: %d one-hot top-p cases", n)
	}
	if n := count(full, func(c benchCase) bool { return c.batch == 1024 && c.vocab == 262208 && c.out == "mask" }); n != 4 {
		t.Errorf("full: %d mask cases at 1024 x 262208", n)
	}

	t1, _ := buildCases(gpuOpts(t, "-sweep", "table1"))
	if len(t1) != 10 || count(t1, func(c benchCase) bool { return c.batch == 1024 && c.dist == testcases.LLMLike }) != 10 {
		t.Errorf("table1: %v", t1)
	}
	t4, _ := buildCases(gpuOpts(t, "-sweep", "table4"))
	var names []string
	for _, c := range t4 {
		names = append(names, c.ablation.String())
		if c.batch != 1024 || c.vocab != 128256 || c.k != 50 || c.p != 0.9 || c.dtype != sampler.Float32 {
			t.Errorf("table4 case %s", c)
		}
	}
	if len(t4) != 9 || names[0] != "none" || !slices.Contains(names, "no-trunc+binary") || !slices.Contains(names, "no-dup") {
		t.Errorf("table4 ablations %v", names)
	}
	if o := gpuOpts(t, "-sweep", "full"); o.gpuReps != fullGPUReps {
		t.Errorf("full: -gpu-reps %d", o.gpuReps)
	}
	if o := gpuOpts(t, "-sweep", "full", "-gpu-reps", "3"); o.gpuReps != 3 {
		t.Errorf("an explicit -gpu-reps must win: %d", o.gpuReps)
	}
}

// The full record must fit the 8 minutes a device run is given; the
// figures printed here are the ones docs/qrita-bench.md quotes.
func TestPresetRunTimeEstimates(t *testing.T) {
	const budget = 8 * time.Minute
	for _, sweep := range []string{"full", "table1", "table4"} {
		o := gpuOpts(t, "-sweep", sweep)
		cases, err := buildCases(o)
		if err != nil {
			t.Fatal(err)
		}
		est := estimateRun(o, cases, h200)
		t.Logf("-sweep %s: %d cases, about %v on an H200", sweep, len(cases), est.Round(time.Second))
		if est > budget || est <= 0 {
			t.Errorf("-sweep %s: estimate %v outside (0, %v]", sweep, est, budget)
		}
	}
}

func TestLogitsSourcePrefix(t *testing.T) {
	cases := []benchCase{
		{batch: 2, vocab: 300, dist: testcases.LLMLike}, {batch: 5, vocab: 300, dist: testcases.LLMLike},
		{batch: 3, vocab: 300, dist: testcases.Flat}, {batch: 1, vocab: 300, dist: testcases.LLMLike},
	}
	src := newLogitsSource(cases, 7)
	for _, c := range cases {
		got := src.logits(c)
		want := testcases.Logits(c.batch, c.vocab, c.dist, 7)
		if !slices.Equal(got, want) {
			t.Errorf("%v: the prefix of the largest draw differs from a direct draw", c)
		}
	}
	npyCase := benchCase{batch: 1, vocab: 2, logits: []float32{1, 2}}
	if got := src.logits(npyCase); !slices.Equal(got, npyCase.logits) {
		t.Error("file logits must pass through")
	}
}

func TestGPUProtocolLine(t *testing.T) {
	if p := gpuProtocol(gpuOpts(t)); !strings.Contains(p, "R back-to-back calls on R rotated buffers") ||
		!strings.Contains(p, "launched back to back") {
		t.Errorf("cold: %s", p)
	}
	if p := gpuProtocol(gpuOpts(t, "-l2", "hot", "-timing", "graph")); !strings.Contains(p, "an L2 figure") ||
		!strings.Contains(p, "CUDA graph") {
		t.Errorf("hot graph: %s", p)
	}
}
