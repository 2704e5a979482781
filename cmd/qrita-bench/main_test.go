package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/qrita-project/qrita/internal/npy"
	"github.com/qrita-project/qrita/internal/testcases"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func runArgs(t *testing.T, args ...string) string {
	t.Helper()
	o, err := parseOptions(args, io.Discard)
	if err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	var out bytes.Buffer
	if err := run(context.Background(), o, args, &out, io.Discard); err != nil {
		t.Fatalf("%v: %v\n%s", args, err, out.String())
	}
	return out.String()
}

func TestRunPrintsTableAndVerifies(t *testing.T) {
	for _, args := range [][]string{
		{"-batch", "3", "-vocab", "5000", "-reps", "2", "-ref-reps", "1"},
		{"-batch", "2", "-vocab", "4099", "-k", "0", "-p", "0.95", "-dist", "flat", "-keep-ties", "-reps", "1", "-ref-reps", "1", "-warmup", "0"},
	} {
		out := runArgs(t, args...)
		for _, want := range []string{"read-once", "ref us", "x ref", "cpu", "1 case(s)", "0 mismatched"} {
			if !strings.Contains(out, want) {
				t.Errorf("%v: output lacks %q:\n%s", args, want, out)
			}
		}
	}
}

func TestSweepIsTheCrossProduct(t *testing.T) {
	args := []string{"-batch", "1,2", "-vocab", "3000,4000", "-k", "0,20", "-p", "0.9", "-dist", "llm,peaked",
		"-reps", "1", "-warmup", "0", "-format", "json"}
	var got struct {
		Results []struct {
			Name   string          `json:"name"`
			RefNs  float64         `json:"ref_ns"`
			Verify json.RawMessage `json:"verify"`
		} `json:"results"`
	}
	if err := json.Unmarshal([]byte(runArgs(t, args...)), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Results) != 16 {
		t.Fatalf("%d results, want 2*2*2*2", len(got.Results))
	}
	seen := map[string]bool{}
	for _, r := range got.Results {
		if seen[r.Name] {
			t.Errorf("%s twice", r.Name)
		}
		seen[r.Name] = true
		if r.RefNs != 0 || r.Verify != nil {
			t.Errorf("%s: the reference runs only on request in a sweep", r.Name)
		}
	}
	if !seen["BenchmarkQrita/backend=cpu/B=2/V=4000/k=20/p=0.9/dist=peaked/dtype=fp32"] {
		t.Errorf("names: %v", seen)
	}
	// -ref forces the reference and the verification in a sweep.
	out := runArgs(t, "-batch", "1,2", "-vocab", "3000", "-reps", "1", "-warmup", "0", "-ref")
	if !strings.Contains(out, "2 case(s), 3 rows, 0 mismatched") {
		t.Errorf("-ref sweep:\n%s", out)
	}
}

func TestBenchFormatAndPlot(t *testing.T) {
	dir := t.TempDir()
	svg := filepath.Join(dir, "plot.svg")
	out := runArgs(t, "-batch", "1,4", "-vocab", "2048,llama3", "-reps", "1", "-warmup", "0", "-format", "bench",
		"-plot", svg)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var bench []string
	for _, l := range lines {
		if strings.HasPrefix(l, "Benchmark") {
			bench = append(bench, l)
		}
	}
	if len(bench) != 4 || !strings.HasPrefix(bench[3], "BenchmarkQrita/backend=cpu/B=4/V=128256/k=50/p=0.9/dist=llm/dtype=fp32\t1\t") {
		t.Errorf("bench output:\n%s", out)
	}
	b, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{">V=2048</text>", ">V=128256</text>", ">qrita-bench: cpu backend", ">rows/s</text>",
		">(read-once)</text>"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("SVG plot lacks %q:\n%s", want, b)
		}
	}
	// The extension picks the format.
	pngPath := filepath.Join(dir, "plot.PNG")
	runArgs(t, "-batch", "2", "-vocab", "3000", "-reps", "1", "-warmup", "0", "-plot", pngPath)
	f, err := os.Open(pngPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if img, err := png.Decode(f); err != nil || img.Bounds().Dx() != 960 {
		t.Errorf("PNG plot: %v", err)
	}
}

func TestNpyLogits(t *testing.T) {
	path := filepath.Join(t.TempDir(), "logits.npy")
	logits := testcases.Logits(3, 3000, testcases.Peaked, 7)
	var buf bytes.Buffer
	if err := npy.Write(&buf, []int{3, 3000}, logits, true); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	out := runArgs(t, "-npy", path, "-k", "0,40", "-p", "0.8", "-reps", "1", "-warmup", "0", "-ref", "-format", "bench")
	for _, want := range []string{"B=3/V=3000/k=0/p=0.8/dist=npy:logits.npy/dtype=fp32", "B=3/V=3000/k=40/"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if _, err := parseOptions([]string{"-npy", path, "-batch", "4"}, io.Discard); err == nil {
		t.Error("-npy with -batch must fail")
	}
}

func TestHelpGolden(t *testing.T) {
	var out bytes.Buffer
	_, err := parseOptions([]string{"-h"}, &out)
	if !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("-h: %v", err)
	}
	path := filepath.Join("testdata", "help.golden")
	if *update {
		if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	if !bytes.Equal(out.Bytes(), want) {
		t.Errorf("help differs from testdata/help.golden (go test -update rewrites it):\n%s", out.String())
	}
	for _, name := range []string{"-backend", "-batch", "-vocab", "-k", "-p", "-dist", "-dtype", "-npy", "-reps", "-warmup",
		"-ref", "-ref-reps", "-gpu-reps", "-gpu-inner", "-devices", "-workers", "-seed", "-keep-ties", "-verify",
		"-sweep", "-format", "-plot", "-progress", "-l2", "-timing", "-baselines", "-ablation", "-out"} {
		if !strings.Contains(out.String(), "\n  "+name+" ") && !strings.Contains(out.String(), "\n  "+name+"\n") {
			t.Errorf("help lacks %s", name)
		}
	}
}

func TestParseLists(t *testing.T) {
	o, err := parseOptions([]string{"-batch", "1, 8,64", "-vocab", "llama3,qwen,gpt-oss,qwen3.5,gemma3,1000",
		"-k", "0,50", "-p", "1,0.9", "-dist", "flat,bf16ties"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(o.batches, []int{1, 8, 64}) || !slices.Equal(o.vocabs, []int{128256, 151936, 201088, 248320, 262208, 1000}) ||
		!slices.Equal(o.ks, []int{0, 50}) || !slices.Equal(o.ps, []float64{1, 0.9}) ||
		!slices.Equal(o.dists, []testcases.Dist{testcases.Flat, testcases.BF16Ties}) {
		t.Errorf("parsed %+v", o)
	}
	o, err = parseOptions([]string{"-vocab", "paper"}, io.Discard)
	if err != nil || len(o.vocabs) != 5 {
		t.Errorf("paper: %v %v", o.vocabs, err)
	}
	cases, err := buildCases(o)
	if err != nil || len(cases) != 5 {
		t.Errorf("cases %v %v", cases, err)
	}
}

func TestRefMode(t *testing.T) {
	for _, tc := range []struct {
		args []string
		one  bool
		many bool
	}{
		{nil, true, false},
		{[]string{"-ref"}, true, true},
		{[]string{"-ref=true"}, true, true},
		{[]string{"-ref=false"}, false, false},
		{[]string{"-ref=auto"}, true, false},
	} {
		o, err := parseOptions(tc.args, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		if o.ref.on(1) != tc.one || o.ref.on(2) != tc.many {
			t.Errorf("%v: on(1)=%v on(2)=%v", tc.args, o.ref.on(1), o.ref.on(2))
		}
	}
}

func TestDevices(t *testing.T) {
	for _, tc := range []struct {
		in    string
		count int
		want  []int
		bad   bool
	}{
		{"0", 1, []int{0}, false},
		{"0,1", 2, []int{0, 1}, false},
		{" 1 , 3", 4, []int{1, 3}, false},
		{"all", 3, []int{0, 1, 2}, false},
		{"all", 0, nil, true},
		{"2", 2, nil, true},
		{"0,0", 2, nil, true},
		{"-1", 2, nil, true},
		{"x", 2, nil, true},
		{"", 2, nil, true},
	} {
		d, err := parseDevices(tc.in)
		var ids []int
		if err == nil {
			ids, err = d.resolve(tc.count)
		}
		if (err != nil) != tc.bad || !slices.Equal(ids, tc.want) {
			t.Errorf("%q on %d devices: %v, %v", tc.in, tc.count, ids, err)
		}
	}
}

func TestBadOptions(t *testing.T) {
	for _, args := range [][]string{
		{"-batch", "0"}, {"-batch", "1,,x"}, {"-vocab", "-1"}, {"-vocab", "llama4"}, {"-reps", "0"}, {"-dist", "nope"},
		{"-warmup", "-1"}, {"extra"}, {"-dtype", "bf16"}, {"-dtype", "fp64", "-backend", "cuda"},
		{"-devices", "0,1"}, {"-format", "csv"}, {"-plot", "x.pdf"}, {"-plot", "plot"}, {"-backend", "tpu"}, {"-p", "nan"},
		{"-ref=maybe"}, {"-sweep", "all"}, {"-gpu-inner", "0"}, {"-k", "-3"},
	} {
		if _, err := parseOptions(args, io.Discard); err == nil {
			t.Errorf("%v: no error", args)
		}
	}
	// GPU-only settings parse with a GPU backend.
	if _, err := parseOptions([]string{"-backend", "cuda", "-dtype", "fp32,fp16,bf16", "-devices", "all"}, io.Discard); err != nil {
		t.Error(err)
	}
}

func TestGPUBackendWithoutGPUBuildFails(t *testing.T) {
	o, err := parseOptions([]string{"-backend", "hip", "-batch", "1", "-vocab", "10"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if err := run(context.Background(), o, nil, io.Discard, io.Discard); err == nil {
		t.Error("-backend hip must fail in a build without it")
	}
}

func TestProgressBar(t *testing.T) {
	var b bytes.Buffer
	p := newProgress(&b, true, 4)
	if p.on {
		t.Fatal("a buffer is not a terminal")
	}
	p.on = true
	t0 := time.Unix(0, 0)
	p.start, p.now = t0, func() time.Time { return t0.Add(3 * time.Second) }
	p.width = 8
	p.begin("case a")
	p.end()
	p.grow(4)
	p.begin("case b")
	p.finish()
	want := "\r\033[K[        ] 0/4 3s case a" + "\r\033[K[==      ] 1/4 3s " + "\r\033[K[=       ] 1/8 3s case b" + "\r\033[K"
	if b.String() != want {
		t.Errorf("drew %q\nwant %q", b.String(), want)
	}
	var nothing bytes.Buffer
	q := newProgress(&nothing, false, 1)
	q.begin("x")
	q.end()
	q.finish()
	if nothing.Len() != 0 {
		t.Errorf("disabled bar drew %q", nothing.String())
	}
}
