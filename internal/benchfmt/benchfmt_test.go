package benchfmt

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qrita-project/qrita/internal/nvmlinfo"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (go test -update rewrites it)\ngot:\n%s\nwant:\n%s", name, got, want)
	}
}

func cpuEnv() Env {
	return Env{Args: []string{}, GoVersion: "go1.26.8", GOOS: "linux", GOARCH: "amd64", NumCPU: 2, Backend: "cpu",
		Workers: 2, Ties: "exact", Protocol: "median of 20 calls (reference: 3), each on a fresh copy of the logits"}
}

func cpuResults() []Result {
	return []Result{
		{Backend: "cpu", Device: -1, Batch: 64, Vocab: 128256, K: 50, P: 0.9, Dist: "llm", DType: "fp32", Reps: 20,
			CallNs: 2_345_678, Floor: FloorReadOnce, FloorNs: 1_012_345, RefNs: 412_000_000,
			Verify: &Verify{Rows: 64}},
		{Backend: "cpu", Device: -1, Batch: 8, Vocab: 151936, K: 0, P: 0.95, Dist: "npy:qwen logits.npy", DType: "fp32",
			Reps: 20, CallNs: 512_000, Floor: FloorReadOnce, FloorNs: 160_000, RefNs: 60_000_000,
			Verify: &Verify{Rows: 8, Ambiguous: 1}},
		{Backend: "cpu", Device: -1, Batch: 1, Vocab: 262208, K: 50, P: 1, Dist: "flat", DType: "fp32", Reps: 20,
			CallNs: 90_000, Floor: FloorReadOnce, FloorNs: 40_000},
	}
}

func gpuEnv() Env {
	r := nvmlinfo.Report{DriverVersion: "550.54.15", NVMLVersion: "12.550.54.15", CUDADriverVersion: 12040}
	var devs []Device
	for i := range 2 {
		r.GPUs = append(r.GPUs, nvmlinfo.GPU{Index: i, Name: "NVIDIA H200", CCMajor: 9, MemoryTotal: 144384 << 20,
			MaxSMClockMHz: 1980, MaxMemClockMHz: 3201})
		devs = append(devs, Device{Index: i, Vendor: "cuda", Name: "NVIDIA H200", CCMajor: 9, SMs: 132,
			MemoryBytes: 150_000_000_000, RuntimeVersion: 12080, DriverVersion: 12040})
	}
	return Env{Args: []string{"-backend", "cuda", "-devices", "all"}, GoVersion: "go1.26.8", GOOS: "linux",
		GOARCH: "amd64", NumCPU: 16, Backend: "cuda", Ties: "exact", NVML: &r, Devices: devs,
		Protocol: "device events; median of 15 x 20 back-to-back [restore; call], minus the restores"}
}

func gpuResults() []Result {
	var rs []Result
	for dev := range 2 {
		for _, v := range []int{128256, 262208} {
			for _, b := range []int{1, 8, 64, 256, 1024} {
				copyNs := 5000 + float64(b*v)*8/4.0e3 // ~4 TB/s for read+write
				rs = append(rs, Result{Backend: "cuda", Device: dev, Batch: b, Vocab: v, K: 50, P: 0.9, Dist: "llm",
					DType: "bf16", Reps: 15, CallNs: 33000 + copyNs*1.3 + float64(dev)*100, Floor: FloorCopy,
					FloorNs: copyNs})
			}
		}
	}
	rs[0].RefNs, rs[0].Verify = 6_000_000, &Verify{Rows: 1}
	rs[1].Verify = &Verify{Rows: 8, Mismatched: 2}
	return rs
}

func TestTableGolden(t *testing.T) {
	var b bytes.Buffer
	if err := Table(&b, cpuEnv(), cpuResults()); err != nil {
		t.Fatal(err)
	}
	golden(t, "cpu.table.golden", b.Bytes())
	b.Reset()
	if err := Table(&b, gpuEnv(), gpuResults()); err != nil {
		t.Fatal(err)
	}
	golden(t, "gpu.table.golden", b.Bytes())
}

func TestBenchGolden(t *testing.T) {
	var b bytes.Buffer
	if err := Bench(&b, cpuEnv(), cpuResults()); err != nil {
		t.Fatal(err)
	}
	golden(t, "cpu.bench.golden", b.Bytes())
	b.Reset()
	if err := Bench(&b, gpuEnv(), gpuResults()); err != nil {
		t.Fatal(err)
	}
	golden(t, "gpu.bench.golden", b.Bytes())
}

// Every result line must parse as a Go benchmark line: name, iterations,
// then value-unit pairs; the name has no spaces.
func TestBenchLinesParse(t *testing.T) {
	var b bytes.Buffer
	if err := Bench(&b, gpuEnv(), append(cpuResults(), gpuResults()...)); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(b.String()), "\n") {
		if !strings.HasPrefix(line, "Benchmark") {
			if k, _, ok := strings.Cut(line, ": "); !ok || strings.ContainsAny(k, " \t") {
				t.Errorf("configuration line %q is not key: value", line)
			}
			continue
		}
		n++
		f := strings.Fields(line)
		if len(f) < 4 || len(f)%2 != 0 {
			t.Errorf("line %q: %d fields", line, len(f))
			continue
		}
		if f[3] != "ns/op" {
			t.Errorf("line %q: first unit %q", line, f[3])
		}
	}
	if n != 23 {
		t.Errorf("%d benchmark lines, want 23", n)
	}
}

func TestJSONGolden(t *testing.T) {
	var b bytes.Buffer
	if err := JSON(&b, gpuEnv(), gpuResults()[:2]); err != nil {
		t.Fatal(err)
	}
	golden(t, "gpu.json.golden", b.Bytes())
	var back struct {
		Env     Env `json:"env"`
		Results []struct {
			Name       string  `json:"name"`
			RowsPerSec float64 `json:"rows_per_sec"`
			Batch      int     `json:"batch"`
		} `json:"results"`
	}
	if err := json.Unmarshal(b.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if back.Env.NVML == nil || len(back.Results) != 2 || back.Results[1].Batch != 8 || back.Results[1].RowsPerSec <= 0 {
		t.Errorf("decoded %+v", back)
	}
	b.Reset()
	if err := JSON(&b, cpuEnv(), nil); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"results": []`) {
		t.Errorf("no results must encode as an empty array:\n%s", b.String())
	}
}

func TestDerivedFiguresStayFinite(t *testing.T) {
	r := Result{Batch: 4, CallNs: -10, FloorNs: 0, RefNs: 100}
	if r.RowsPerSec() != 0 || r.XFloor() != 0 || r.Speedup() != 0 {
		t.Errorf("non-positive times must give 0, got %v %v %v", r.RowsPerSec(), r.XFloor(), r.Speedup())
	}
	if err := JSON(&bytes.Buffer{}, cpuEnv(), []Result{r}); err != nil {
		t.Error(err)
	}
}

// gpuBaselineResults are GPU results with every optional column: the
// baselines (one unavailable), extra memory, the row counters, the id
// output and an ablation.
func gpuBaselineResults() []Result {
	base := Result{Backend: "cuda", Device: 0, Batch: 1024, Vocab: 128256, K: 50, P: 0.9, Dist: "llm", DType: "fp32",
		Reps: 7, CallNs: 370_000, Floor: FloorCopy, FloorNs: 250_000, Out: OutMask, Ablation: AblationNone,
		Cache: "cold", Rotation: 1, Read: &Baseline{Ns: 130_000},
		Sort: &Baseline{Ns: 2_400_000, ExtraBytes: 1_100_000_000}, Stats: &RowStats{Rows: 1024, HitRate: 0.998, MeanCandidates: 612.4}}
	ids := base
	ids.Batch, ids.Out, ids.CallNs, ids.FloorNs, ids.ExtraBytes = 256, OutIDs, 140_000, 64_000, 256*1024*4+256*4
	ids.Read, ids.Rotation = &Baseline{Ns: 33_000}, 5
	ids.Sort = &Baseline{Unavailable: "qrita status 2: the sort baseline is not built yet"}
	ids.Stats = &RowStats{Rows: 256, HitRate: 1, MeanCandidates: 598}
	abl := base
	abl.Ablation, abl.CallNs, abl.Read, abl.Sort = "no-trunc+binary", 1_900_000, nil, nil
	abl.Stats, abl.StatsNote = nil, "counters unavailable: the library left rows unwritten"
	hot := base
	hot.Batch, hot.Cache, hot.Rotation, hot.CallNs, hot.FloorNs = 1, "hot", 1, 38_000, 5_900
	hot.Read, hot.Sort, hot.Stats = &Baseline{Ns: 3_100}, &Baseline{Ns: 95_000, ExtraBytes: 2_000_000},
		&RowStats{Rows: 1, HitRate: 0, MeanCandidates: 4100}
	return []Result{base, ids, abl, hot}
}

func TestBaselineColumnsGolden(t *testing.T) {
	env := gpuEnv()
	env.L2, env.Timing = "cold", "events"
	var b bytes.Buffer
	if err := Table(&b, env, gpuBaselineResults()); err != nil {
		t.Fatal(err)
	}
	golden(t, "gpu-baselines.table.golden", b.Bytes())
	for _, want := range []string{"out", "ablation", "l2", "read us", "x read", "sort us", "x sort", "extra MB",
		"sort MB", "hit %", "cands", "cold:5", "no-trunc+binary"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("table lacks %q", want)
		}
	}
	b.Reset()
	if err := Bench(&b, env, gpuBaselineResults()); err != nil {
		t.Fatal(err)
	}
	golden(t, "gpu-baselines.bench.golden", b.Bytes())
	for _, want := range []string{"l2: cold\n", "timing: events\n", "/dtype=fp32/out=ids\t", "/ablation=no-trunc+binary\t",
		"0.9980 hit-rate\t612.4 cands/row", "2400000 sort-ns/op\t6.49 x-sort\t1100000000 sort-extra-B/op",
		"130000 read-ns/op\t2.846 x-read", "1049600 extra-B/op"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("bench output lacks %q", want)
		}
	}
	b.Reset()
	if err := JSON(&b, env, gpuBaselineResults()); err != nil {
		t.Fatal(err)
	}
	golden(t, "gpu-baselines.json.golden", b.Bytes())
}

func TestBaselineRatios(t *testing.T) {
	r := Result{CallNs: 200, Read: &Baseline{Ns: 100}, Sort: &Baseline{Ns: 1000}}
	if r.XRead() != 2 || r.SortSpeedup() != 5 {
		t.Errorf("x read %v, sort speedup %v", r.XRead(), r.SortSpeedup())
	}
	r.Read.Unavailable, r.Sort = "not built", nil
	if r.XRead() != 0 || r.SortSpeedup() != 0 {
		t.Error("missing baselines must give 0")
	}
}
