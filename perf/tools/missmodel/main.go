// Command missmodel counts, on the host, the rows of a qrita-bench draw
// whose first top-p gather should miss: a model of the kernel's
// sigma-truncation (cuda/truncate_kernel.cuh sigma_threshold; top-p alone
// aims at 256 candidates, rows mostly -Inf at -sparse-topp, 0.25
// deviations of margin; -dist draws the rows) and of the settle
// test (the candidates' mass short of p times the row's, or more
// candidates than the buffer holds). It is a model, not the kernel: the
// quantile is the kernels' interpolated table (internal/quantiles), but
// sums are in float64, so rows at the edge may differ. It tells how
// many rows a persistent call would offer for hand-on (cuda/hand_on.cuh),
// for the strided sample and for runs of 8 (PERFLOG runs 130-131).
//
// With -k, it models top-k instead (truncate_kernel.cuh candidate_target
// and regather_top_k): the rows whose first gather finds fewer than k
// candidates, and those the whole row's second gather leaves short too
// (they search the row below the threshold), for a sparse-row boost of
// the aim (-boost, policy.cuh kSparseTargetBoost) and a second gather's
// oversampling (-regather, kRegatherOversample). A first gather past the
// buffer counts as a miss (the search over the row). -sparse-all tries a
// rule the kernel does not have: sparse rows whose sample puts at most
// that many keepable entries in the row take them all.
//
//	go run ./perf/tools/missmodel -batch 1024 -vocab 262208 -seeds 1,2,3
//	go run ./perf/tools/missmodel -k 50 -dist neginf90 -batch 1024 -vocab 128256 -seeds 1
package main

import (
	"flag"
	"fmt"
	"log"
	"math"
	"slices"
	"sort"
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
	// policy.cuh's top-k aim: kTopKOversample, kMinCandidates,
	// kMaxTargetDivisor, kSparseSampleDivisor and kSecondGatherFill.
	topKOversample     = 2
	minCandidates      = 128
	maxTargetDivisor   = 4
	sparseSampleDivide = 4
	secondGatherFill   = 0.75
	sortedCands        = 512 // kSortedCandidates: more are searched by digits
)

// rules are the kernel's choices the model varies (the flags).
type rules struct {
	boost      int // -boost: the sparse rows' top-k aim boost
	regather   int // -regather: the second top-k gather's aim in k
	sparseTopP int // -sparse-topp: top-p alone's aim for rows mostly -Inf
	sparseAll  int // -sparse-all: sparse rows with at most this many keepable take them all
}

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
	k := flag.Int("k", 0, "model top-k with this k (0: top-p alone)")
	distName := flag.String("dist", "llm", "the rows' distribution (qrita-bench -dist)")
	var rule rules
	flag.IntVar(&rule.boost, "boost", 2, "with -k: the sparse rows' aim boost (kSparseTargetBoost)")
	flag.IntVar(&rule.regather, "regather", 4, "with -k: the second gather's aim in k (kRegatherOversample)")
	flag.IntVar(&rule.sparseTopP, "sparse-topp", capacity/maxTargetDivisor,
		"top-p alone: the aim of rows mostly -Inf (kCandidateCapacity / kMaxTargetDivisor)")
	flag.IntVar(&rule.sparseAll, "sparse-all", 0,
		"rows mostly -Inf whose sample puts at most this many keepable entries in the row take them all (0: off)")
	flag.Parse()
	dist, ok := distByName(*distName)
	if !ok {
		log.Fatalf("-dist %q: unknown", *distName)
	}
	if *vocab <= sampleMinimum {
		log.Fatalf("-vocab %d: rows this short are gathered whole and never miss this way", *vocab)
	}
	for _, field := range strings.Split(*seeds, ",") {
		seed, err := strconv.ParseUint(strings.TrimSpace(field), 10, 64)
		if err != nil {
			log.Fatalf("-seeds: %v", err)
		}
		missed := make([][]int, len(layouts))
		short := make([][]int, len(layouts)) // top-k: missed after the second gather too
		firstCands := make([][]int, len(layouts))
		rng := testcases.NewRand(seed)
		row := make([]float32, *vocab)
		for r := range *batch {
			testcases.Fill(row, dist, rng) // as testcases.Logits draws a batch, row by row
			if *bf16 {
				for i, x := range row {
					row[i] = halfbits.FromBF16(halfbits.ToBF16(x))
				}
			}
			for l, layout := range layouts {
				if *k > 0 {
					first, second, c := topKMisses(row, layout.index, *k, rule)
					firstCands[l] = append(firstCands[l], c)
					if first {
						missed[l] = append(missed[l], r)
					}
					if second {
						short[l] = append(short[l], r)
					}
				} else if misses(row, layout.index, *p, rule) {
					missed[l] = append(missed[l], r)
				}
			}
		}
		for l, layout := range layouts {
			fmt.Printf("seed %d %-9s %3d of %d rows miss: %v\n", seed, layout.name, len(missed[l]), *batch, missed[l])
			if *k > 0 {
				fmt.Printf("seed %d %-9s %3d of %d rows short after the second gather: %v\n", seed, layout.name,
					len(short[l]), *batch, short[l])
				c := firstCands[l]
				slices.Sort(c)
				fmt.Printf("seed %d %-9s first candidates: median %d, 90th percentile %d, most %d; %d of %d rows over %d\n",
					seed, layout.name, c[len(c)/2], c[len(c)*9/10], c[len(c)-1], len(c)-sort.SearchInts(c, sortedCands+1),
					len(c), sortedCands)
			}
		}
	}
}

func distByName(name string) (testcases.Dist, bool) {
	for _, d := range testcases.Dists() {
		if d.String() == name {
			return d, true
		}
	}
	return 0, false
}

// sampleStats are the finite sample values' count, mean and deviation.
func sampleStats(row []float32, index func(j, n int) int) (cnt int, mean, sd float64) {
	n := len(row)
	var s1, s2 float64
	for j := range sampleSize {
		if x := float64(row[index(j, n)]); !math.IsInf(x, 0) && x == x {
			s1 += x
			s2 += x * x
			cnt++
		}
	}
	if cnt == 0 {
		return 0, 0, 0
	}
	mean = s1 / float64(cnt)
	return cnt, mean, math.Sqrt(max(0, s2/float64(cnt)-mean*mean))
}

// sigmaThreshold is sigma_threshold's value for a dense and a sparse aim
// (NaN: every keepable entry is a candidate); sparseAll is rules.sparseAll.
func sigmaThreshold(n, cnt int, mean, sd float64, dense, sparse, sparseAll int) float32 {
	target := dense
	isSparse := cnt*sparseSampleDivide < sampleSize
	if isSparse {
		target = sparse
	}
	q := float64(target) * sampleSize / (float64(n) * float64(cnt))
	if cnt == 0 || q >= 0.25 || (isSparse && n*cnt <= sparseAll*sampleSize) {
		return float32(math.NaN())
	}
	return float32(mean + (quantiles.Lookup(q)-sigmaMargin)*sd)
}

// candidates counts the keepable entries at or above thr (all if NaN).
func candidates(row []float32, thr float32) int {
	c := 0
	for _, x := range row {
		if !math.IsInf(float64(x), -1) && x == x && (thr != thr || x >= thr) {
			c++
		}
	}
	return c
}

// topKMisses reports whether a whole row's first top-k gather finds
// fewer than k candidates, and whether its second gather does too.
func topKMisses(row []float32, index func(j, n int) int, k int, rule rules) (first, second bool, firstCands int) {
	n := len(row)
	cnt, mean, sd := sampleStats(row, index)
	want := max(k*topKOversample, minCandidates)
	most := max(capacity/maxTargetDivisor, k+k/4)
	dense, sparse := min(want, most), min(want*rule.boost, most)
	thr := sigmaThreshold(n, cnt, mean, sd, dense, sparse, rule.sparseAll)
	cands := candidates(row, thr)
	if cands > capacity {
		return true, true, cands // the buffer overflows: the search over the row
	}
	if cands >= k || k > capacity || thr != thr {
		// NaN: the gather took every keepable entry, so fewer than k
		// means k keeps them all (decide_row's do_k), not a miss.
		return false, false, cands
	}
	fill := int(capacity * secondGatherFill)
	aim := k * rule.regather
	rescale := func(t int) int { return min(t*aim/max(cands, 1), fill) }
	thr2 := sigmaThreshold(n, cnt, mean, sd, rescale(dense), rescale(sparse), rule.sparseAll)
	if thr2 >= thr {
		return true, true, cands // the sample promises nothing lower (regather_top_k)
	}
	// NaN: every keepable entry, which may overflow the buffer (the
	// search over the row then settles it).
	cands2 := candidates(row, thr2)
	return true, cands2 < k || cands2 > capacity, cands
}

// misses reports whether the row's first gather would not settle top-p
// (rows mostly -Inf aim at a quarter of the buffer, candidate_target).
func misses(row []float32, index func(j, n int) int, p float64, rule rules) bool {
	n := len(row)
	cnt, mean, sd := sampleStats(row, index)
	if cnt == 0 {
		return false
	}
	thr := sigmaThreshold(n, cnt, mean, sd, topPTarget, rule.sparseTopP, rule.sparseAll)
	top := float32(math.Inf(-1))
	for _, x := range row {
		top = max(top, x)
	}
	var in, out float64
	cands := 0
	for _, x := range row {
		if math.IsInf(float64(x), -1) || x != x {
			continue // not keepable
		}
		e := math.Exp(float64(x - top))
		if thr != thr || x >= thr {
			in += e
			cands++
		} else {
			out += e
		}
	}
	return cands > capacity || in < p*(in+out)
}
