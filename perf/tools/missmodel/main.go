// Command missmodel counts, on the host, the rows of a qrita-bench draw
// whose first top-p gather should miss: a model of the kernel's
// sigma-truncation (cuda/truncate_kernel.cuh sigma_threshold; top-p alone
// aims at 256 candidates, 0.25 deviations of margin) and of the settle
// test (the candidates' mass short of p times the row's, or more
// candidates than the buffer holds). It is a model, not the kernel: the
// quantile is the kernels' interpolated table (internal/quantiles), but
// sums are in float64, so rows at the edge may differ. It tells how
// many rows a persistent call would offer for hand-on (cuda/hand_on.cuh),
// for the strided sample and for runs of 8 (PERFLOG runs 130-131).
//
//	go run ./perf/tools/missmodel -batch 1024 -vocab 262208 -seeds 1,2,3
package main

import (
	"flag"
	"fmt"
	"log"
	"math"
	"strconv"
	"strings"

	"github.com/qrita-project/qrita/internal/halfbits"
	"github.com/qrita-project/qrita/internal/quantiles"
	"github.com/qrita-project/qrita/internal/testcases"
)

const (
	sampleSize    = 1024
	topPTarget    = 256  // kCandidateCapacity / kTopPTargetDivisor
	capacity      = 4096 // kCandidateCapacity
	sigmaMargin   = 0.25
	sampleMinimum = 4096 // rows this short are gathered whole (kGatherWholeRowBelow)
)

// The sample layouts: entry j of a row of n (strided: the kernels' before
// run 130).
var layouts = []struct {
	name  string
	index func(j, n int) int
}{
	{"strided", func(j, n int) int { return j * n / sampleSize }},
	{"runs-of-8", testcases.SampleIndex}, // the kernels' since run 130
}

func main() {
	batch := flag.Int("batch", 1024, "rows")
	vocab := flag.Int("vocab", 262208, "entries a row")
	seeds := flag.String("seeds", "1,2,3", "comma-separated qrita-bench -seed values")
	p := flag.Float64("p", 0.9, "top-p")
	bf16 := flag.Bool("bf16", true, "round the logits to bfloat16 first (qrita-bench -dtype bf16)")
	flag.Parse()
	if *vocab <= sampleMinimum {
		log.Fatalf("-vocab %d: rows this short are gathered whole and never miss this way", *vocab)
	}
	for _, field := range strings.Split(*seeds, ",") {
		seed, err := strconv.ParseUint(strings.TrimSpace(field), 10, 64)
		if err != nil {
			log.Fatalf("-seeds: %v", err)
		}
		missed := make([][]int, len(layouts))
		rng := testcases.NewRand(seed)
		row := make([]float32, *vocab)
		for r := range *batch {
			testcases.Fill(row, testcases.LLMLike, rng) // as testcases.Logits draws a batch, row by row
			if *bf16 {
				for i, x := range row {
					row[i] = halfbits.FromBF16(halfbits.ToBF16(x))
				}
			}
			for l, layout := range layouts {
				if misses(row, layout.index, *p) {
					missed[l] = append(missed[l], r)
				}
			}
		}
		for l, layout := range layouts {
			fmt.Printf("seed %d %-9s %3d of %d rows miss: %v\n", seed, layout.name, len(missed[l]), *batch, missed[l])
		}
	}
}

// misses reports whether the row's first gather would not settle top-p.
func misses(row []float32, index func(j, n int) int, p float64) bool {
	n := len(row)
	var s1, s2 float64
	cnt := 0
	for j := range sampleSize {
		if x := float64(row[index(j, n)]); !math.IsInf(x, 0) && x == x {
			s1 += x
			s2 += x * x
			cnt++
		}
	}
	if cnt == 0 {
		return false
	}
	mean := s1 / float64(cnt)
	sd := math.Sqrt(max(0, s2/float64(cnt)-mean*mean))
	q := float64(topPTarget) * sampleSize / (float64(n) * float64(cnt))
	z := quantiles.Lookup(q)
	thr := float32(mean + (z-sigmaMargin)*sd)
	top := float32(math.Inf(-1))
	for _, x := range row {
		top = max(top, x)
	}
	var in, out float64
	cands := 0
	for _, x := range row {
		e := math.Exp(float64(x - top))
		if x >= thr {
			in += e
			cands++
		} else {
			out += e
		}
	}
	return cands > capacity || in < p*(in+out)
}
