//go:build (cuda || hip) && cgo

package sampler_test

import (
	"flag"
	"fmt"
	"sort"
	"testing"

	"github.com/qrita-project/qrita/internal/native"
	"github.com/qrita-project/qrita/internal/testcases"
	"github.com/qrita-project/qrita/sampler"
)

// phasesAblation runs BenchmarkGPUPhases under kernel ablation bits
// (qrita_ablation), e.g. -phases-ablation=16 for no-sort.
var phasesAblation = flag.Uint("phases-ablation", 0, "BenchmarkGPUPhases: qrita_ablation bits of the timed calls")

// phasesDType picks the element type of BenchmarkGPUPhases' logits: the
// fixed costs of a row (threshold, decide) weigh more against the half
// bytes of fp16 / bf16.
var phasesDType = flag.String("phases-dtype", "fp32", "BenchmarkGPUPhases: element type of the logits (fp32, fp16 or bf16)")

// phasesSeed draws BenchmarkGPUPhases' logits as qrita-bench -seed does
// (the first rows of a draw are the same at any batch), so a bench case's
// rows can be looked at one by one.
var phasesSeed = flag.Uint64("phases-seed", 11, "BenchmarkGPUPhases: seed of the generated logits (qrita-bench's -seed)")

// phasesSlowest prints the rows whose phases took longest: a call's tail
// is often one row, which the means hide.
var phasesSlowest = flag.Int("phases-slowest", 0, "BenchmarkGPUPhases: also print this many rows with the most cycles")

// BenchmarkGPUPhases reports where a row's time goes: the mean SM cycles
// of the threshold, gather, decide and write phases (as the block that
// reports a row saw them), the hit rate and the candidate count, from the
// kernel's benchmark counters. Run with -test.benchtime=1x.
func BenchmarkGPUPhases(b *testing.B) {
	type shape struct{ batch, vocab int }
	type mode struct {
		name string
		k    int32
		p    float32
	}
	modes := []mode{{"kp", 50, 0.9}, {"k", 50, 1}, {"p", 0, 0.9}}
	var cases []testcases.Case
	add := func(sh shape, d testcases.Dist, m mode) {
		c := testcases.Case{Name: fmt.Sprintf("B%d_V%d_%s_%s", sh.batch, sh.vocab, d, m.name), Batch: sh.batch,
			Vocab: sh.vocab, Dist: d, Seed: *phasesSeed}
		if m.k > 0 {
			c.K = testcases.KConst(m.k)
		}
		if m.p < 1 {
			c.P = testcases.PConst(m.p)
		}
		cases = append(cases, c)
	}
	for _, sh := range []shape{{1, 128256}, {8, 262208}, {64, 128256}, {1024, 128256}, {256, 262208}, {1024, 262208}} {
		for _, m := range modes {
			add(sh, testcases.LLMLike, m)
		}
	}
	for _, d := range []testcases.Dist{testcases.Flat, testcases.OneHot, testcases.NegInfMask90} {
		for _, m := range modes {
			add(shape{64, 128256}, d, m)
		}
	}
	add(shape{1, 128256}, testcases.Flat, modes[2]) // a split row's team runs its top-p passes
	// Rows 90 % -Inf: a call's few missed rows are its tail (132 rows: the
	// split kernel's parts; 1024: the persistent kernel's regather).
	for _, sh := range []shape{{132, 128256}, {1024, 128256}} {
		for _, m := range modes {
			add(sh, testcases.NegInfMask90, m)
		}
	}
	dtype, ok := map[string]sampler.DType{"fp32": sampler.Float32, "fp16": sampler.Float16, "bf16": sampler.BFloat16}[*phasesDType]
	if !ok {
		b.Fatalf("-phases-dtype %q: want fp32, fp16 or bf16", *phasesDType)
	}
	for _, c := range cases {
		b.Run(c.Name, func(b *testing.B) {
			if gpuSkipReason != "" {
				b.Skip("qrita-gpu: no usable GPU: " + gpuSkipReason)
			}
			nc := newNativeB(b)
			orig, k, p := c.Args()
			var rows []native.RowStats
			for i := 0; i < b.N; i++ {
				for range 2 { // the first call warms the caches and the stream's workspace
					rows = phasesRun(b, nc, dtype, orig, c.Batch, c.Vocab, k, p, native.Ablation(*phasesAblation))
				}
			}
			var mean [4]float64
			var hits, cands float64
			for _, r := range rows {
				for j, cy := range r.Cycles {
					mean[j] += float64(cy) / float64(len(rows))
				}
				hits += float64(r.Hit) / float64(len(rows))
				cands += float64(r.Candidates) / float64(len(rows))
			}
			for j, name := range []string{"threshold", "gather", "decide", "write"} {
				b.ReportMetric(mean[j], name+"-cycles")
			}
			b.ReportMetric(hits, "hit-rate")
			b.ReportMetric(cands, "cands/row")
			fmt.Printf("qrita-gpu-phases %-28s threshold %8.0f gather %8.0f decide %8.0f write %8.0f cycles  hit %.3f cands %.0f\n",
				c.Name, mean[0], mean[1], mean[2], mean[3], hits, cands)
			printSlowestRows(c.Name, rows, *phasesSlowest)
		})
	}
}

// phasesRun masks the rows in dtype d on the device and returns the
// kernel's per-row counters.
func phasesRun(b *testing.B, nc *native.Ctx, d sampler.DType, logits []float32, batch, vocab int, k []int32, p []float32,
	a native.Ablation) []native.RowStats {
	b.Helper()
	dev, _ := uploadAs(b, nc, d, logits)
	defer nc.Free(dev)
	return benchRun(b, nc, dev, native.DType(d), batch, vocab, k, p, false, a, 0)
}

// printSlowestRows prints the n rows of a call with the most cycles in
// their four phases, slowest first.
func printSlowestRows(name string, rows []native.RowStats, n int) {
	if n <= 0 {
		return
	}
	total := func(r native.RowStats) int64 {
		var t int64
		for _, cy := range r.Cycles {
			t += int64(cy)
		}
		return t
	}
	order := make([]int, len(rows))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return total(rows[order[a]]) > total(rows[order[b]]) })
	for _, i := range order[:min(n, len(order))] {
		r := rows[i]
		fmt.Printf("qrita-gpu-phases %-28s row %5d  total %9d  threshold %8d gather %8d decide %8d write %8d  hit %d cands %d\n",
			name, i, total(r), r.Cycles[0], r.Cycles[1], r.Cycles[2], r.Cycles[3], r.Hit, r.Candidates)
	}
}
