package sampler

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/qrita-project/qrita/internal/testcases"
	"github.com/qrita-project/qrita/reference"
)

func TestOrderedKeyFollowsFloatOrder(t *testing.T) {
	negZero := float32(math.Copysign(0, -1))
	ascending := []float32{
		float32(math.Inf(-1)), -math.MaxFloat32, -1e30, -1, -math.SmallestNonzeroFloat32,
		negZero, 0, math.SmallestNonzeroFloat32, 1e-38, 1, 1e30, math.MaxFloat32, float32(math.Inf(1)),
	}
	for i := 1; i < len(ascending); i++ {
		a, b := ascending[i-1], ascending[i]
		ka, kb := orderedKey(a), orderedKey(b)
		if a == b {
			if ka != kb {
				t.Errorf("orderedKey(%v) = %#x != orderedKey(%v) = %#x, want equal", a, ka, b, kb)
			}
		} else if ka >= kb {
			t.Errorf("orderedKey(%v) = %#x >= orderedKey(%v) = %#x", a, ka, b, kb)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 100000 {
		a := math.Float32frombits(rng.Uint32())
		b := math.Float32frombits(rng.Uint32())
		if a != a || b != b {
			continue
		}
		if (a < b) != (orderedKey(a) < orderedKey(b)) || (a == b) != (orderedKey(a) == orderedKey(b)) {
			t.Fatalf("order of %v, %v not kept: keys %#x, %#x", a, b, orderedKey(a), orderedKey(b))
		}
		want := math.Float32bits(a)
		if a == 0 {
			want = 0
		}
		if got := math.Float32bits(keyValue(orderedKey(a))); got != want {
			t.Fatalf("keyValue(orderedKey(%v)) has bits %#x, want %#x", a, got, want)
		}
	}
}

func TestPackedCandidatesSortInRankOrder(t *testing.T) {
	row := []float32{2, 5, 2, float32(math.Copysign(0, -1)), 5, 0, -1}
	var packed []uint64
	for i, x := range row {
		packed = append(packed, packCandidate(orderedKey(x), i))
	}
	slices.Sort(packed)
	slices.Reverse(packed)
	var order []int
	for _, c := range packed {
		order = append(order, candidateIndex(c))
	}
	// Higher value first; equal values (and -0 == +0) by lower index.
	if want := []int{1, 4, 0, 2, 3, 5, 6}; !slices.Equal(order, want) {
		t.Errorf("rank order %v, want %v", order, want)
	}
}

func TestNormalQuantileTable(t *testing.T) {
	upperTail := func(z float64) float64 { return 0.5 * math.Erfc(z/math.Sqrt2) }
	for i := 1; i < quantileEntries; i++ {
		q, z := quantileTailFraction(i), normalQuantiles[i]
		if got := upperTail(z); math.Abs(got-q) > 1e-6*q { // Erfc and Erfcinv agree to ~1e-8 out here
			t.Errorf("entry %d: P(Z > %v) = %v, want %v", i, z, got, q)
		}
		if z <= normalQuantiles[i-1] {
			t.Errorf("entry %d: z = %v not above entry %d's %v", i, z, i-1, normalQuantiles[i-1])
		}
	}
	// Known quantiles.
	for _, c := range []struct{ q, z float64 }{{0.5, 0}, {0.158655254, 1}, {0.022750132, 2}, {0.001349898, 3}} {
		if got := upperTailQuantile(c.q); math.Abs(got-c.z) > 1e-6 {
			t.Errorf("upperTailQuantile(%v) = %v, want %v", c.q, got, c.z)
		}
	}
	// Lookups err towards more candidates, by at most one table step.
	step := math.Exp2(1.0 / quantileStepsPerOctave)
	for q := 0.3; q > 1e-8; q *= 0.91 {
		z := tailQuantile(q)
		if tail := upperTail(z); tail < q*(1-1e-6) || tail > q*step*(1+1e-6) {
			t.Errorf("tailQuantile(%v) = %v has tail %v, want in [q, q*%v]", q, z, tail, step)
		}
	}
}

func TestExpNonPositiveStepsAccuracy(t *testing.T) {
	worst := 0.0
	for x := expMinArg; x <= 0; x += 0.0137 {
		want := math.Exp(x)
		got, _ := expNonPositiveSteps(x)
		worst = max(worst, math.Abs(got-want)/want)
	}
	for _, x := range []float64{0, -1e-300, -math.SmallestNonzeroFloat64, -0.5, -1} {
		want := math.Exp(x)
		got, _ := expNonPositiveSteps(x)
		worst = max(worst, math.Abs(got-want)/want)
	}
	if worst > 1e-10 {
		t.Errorf("worst relative error %g, want <= 1e-10", worst)
	}
}

func TestTruncationThreshold(t *testing.T) {
	if _, ok := truncationThreshold(rowStats{mean: 1, std: 1, n: minFiniteSamples - 1}, 0.01); ok {
		t.Error("too few finite samples must give no threshold")
	}
	if _, ok := truncationThreshold(rowStats{mean: 1e308, std: 1e308, n: minFiniteSamples}, 0.01); ok {
		t.Error("an overflowing threshold must be refused")
	}
	if th, ok := truncationThreshold(rowStats{mean: 0.5, n: minFiniteSamples}, 0.01); !ok || th <= 0.5 || th > math.Nextafter32(0.5, 1) {
		t.Errorf("constant sample: threshold %v, %v, want the next float above 0.5", th, ok)
	}
	if th, ok := truncationThreshold(rowStats{mean: -3.4e38, std: 1e37, n: minFiniteSamples}, 0.5); !ok || th != -math.MaxFloat32 {
		t.Errorf("threshold %v, %v, want -MaxFloat32 (never -Inf)", th, ok)
	}
	// On Gaussian rows the threshold gathers at least the target, and not
	// wildly more.
	rng := rand.New(rand.NewPCG(3, 4))
	row := make([]float32, 128256)
	for i := range row {
		row[i] = float32(2*rng.NormFloat64() - 1)
	}
	for _, target := range []int{128, 400, 4096} {
		th, ok := truncationThreshold(sampleStats(row), float64(target)/float64(len(row)))
		n := 0
		for _, x := range row {
			if x >= th {
				n++
			}
		}
		if !ok || n < target || n > 4*target {
			t.Errorf("target %d: threshold %v gathers %d", target, th, n)
		}
	}
}

func TestSampleStats(t *testing.T) {
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	st := sampleStats([]float32{1, nan, 3, inf})
	if st.n != 2 || st.mean != 2 || st.std != 1 || st.finiteShare != 0.5 {
		t.Errorf("sampleStats = %+v, want mean 2, std 1 over 2 finite values of 4", st)
	}
	long := make([]float32, 10*sampleSize)
	for i := range long {
		long[i] = float32(i % 2)
	}
	if st := sampleStats(long); st.n != sampleSize || math.Abs(st.mean-0.5) > 1e-12 || math.Abs(st.std-0.5) > 1e-12 {
		t.Errorf("sampleStats(long) = %+v, want %d samples, mean 0.5, std 0.5", st, sampleSize)
	}
}

// randomRow has many ties (few distinct values), NaN and ±Inf.
func randomRow(rng *rand.Rand, n int) []float32 {
	row := make([]float32, n)
	for i := range row {
		switch r := rng.IntN(100); {
		case r == 0:
			row[i] = float32(math.NaN())
		case r == 1:
			row[i] = float32(math.Inf(-1))
		case r < 40:
			row[i] = float32(rng.IntN(20)) / 4
		default:
			row[i] = float32(rng.NormFloat64() * 3)
		}
	}
	return row
}

func TestGatherMatchesNaiveScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{0, 1, 7, 8, 9, 1000, 4099} {
		row := randomRow(rng, n)
		for _, th := range []float32{-math.MaxFloat32, -1, 0, 2.5, 100} {
			var want []uint64
			below := 0.0
			for i, x := range row {
				if x >= th {
					want = append(want, packCandidate(orderedKey(x), i))
				} else if x == x && !math.IsInf(float64(x), -1) {
					below += math.Exp(float64(x) - float64(th))
				}
			}
			cands := make([]uint64, n)
			got, ok := gatherAbove(row, th, cands)
			if !ok || !slices.Equal(cands[:got], want) {
				t.Fatalf("n %d t %v: gatherAbove gave %d candidates, want %d", n, th, got, len(want))
			}
			var bins massBins
			got, ok = gatherAboveWithMass(row, th, cands, &bins)
			if gotBelow := bins.total(); !ok || !slices.Equal(cands[:got], want) || math.Abs(gotBelow-below) > 1e-9*below {
				t.Fatalf("n %d t %v: gatherAboveWithMass gave %d, %v; want %d, %v", n, th, got, gotBelow, len(want), below)
			}
			if len(want) > 0 {
				if _, ok := gatherAbove(row, th, cands[:len(want)-1]); ok {
					t.Fatalf("n %d t %v: overflow not reported", n, th)
				}
			}
		}
	}
}

// sortedRank returns the packed candidates of row in rank order.
func sortedRank(row []float32) []uint64 {
	var c []uint64
	for i, x := range row {
		if x == x && !math.IsInf(float64(x), -1) {
			c = append(c, packCandidate(orderedKey(x), i))
		}
	}
	slices.Sort(c)
	slices.Reverse(c)
	return c
}

func TestSelectTopKMatchesSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	s := new(cpuScratch)
	for _, n := range []int{2, 10, 300, 5000} {
		row := randomRow(rng, n)
		ranked := sortedRank(row)
		all := slices.Clone(ranked)
		slices.Sort(all)
		slices.Reverse(all)
		byIndex := slices.SortedFunc(slices.Values(all), func(a, b uint64) int { return candidateIndex(a) - candidateIndex(b) })
		for _, k := range []int{1, 2, len(ranked) / 3, len(ranked) - 1} {
			if k < 1 || k >= len(ranked) {
				continue
			}
			for _, ties := range []TieMode{Exact, KeepTies} {
				want := slices.Clone(ranked[:k])
				if ties == KeepTies {
					for len(want) < len(ranked) && candidateKey(ranked[len(want)]) == candidateKey(ranked[k-1]) {
						want = append(want, ranked[len(want)])
					}
				}
				got := slices.Clone(s.selectTopK(byIndex, k, ties))
				slices.Sort(got)
				slices.Sort(want)
				if !slices.Equal(got, want) {
					t.Fatalf("n %d k %d %v: selected %d tokens, want %d", n, k, ties, len(got), len(want))
				}
			}
		}
	}
}

func TestCutByMassMatchesSortedCut(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	s := new(cpuScratch)
	for trial := range 200 {
		n := sortedCutLimit + 1 + rng.IntN(3000)
		row := randomRow(rng, n)
		set := sortedRank(row)
		slices.SortFunc(set, func(a, b uint64) int { return candidateIndex(a) - candidateIndex(b) })
		p := rng.Float64()
		ties := TieMode(trial % 2)
		_, maxKey := keyRange(set)
		top := float64(keyValue(maxKey))
		cut, ok := s.cutByMass(set, p, ties, top, nil)
		if !ok {
			t.Fatalf("trial %d: cutByMass found no cut in a complete set", trial)
		}
		byMass := slices.Clone(cut)
		sorted, _ := s.cutSorted(set, p, ties, top, nil)
		slices.Sort(byMass)
		want := slices.Clone(sorted)
		slices.Sort(want)
		if !slices.Equal(byMass, want) {
			t.Fatalf("trial %d n %d p %v %v: cutByMass kept %d, sorted cut %d", trial, n, p, ties, len(byMass), len(want))
		}
	}
}

// TestTopPRecoveryMatchesReference covers top-p rows whose first
// candidates hold too little mass (flat rows, p close to 1): the binned
// mass must lead to a second gather that still cuts like the reference.
func TestTopPRecoveryMatchesReference(t *testing.T) {
	const vocab = 20000
	s := new(cpuScratch)
	recovered := 0
	for _, d := range []testcases.Dist{testcases.LLMLike, testcases.Flat, testcases.Peaked, testcases.BF16Ties} {
		logits := testcases.Logits(4, vocab, d, 11)
		for i := range 4 {
			row := logits[i*vocab : (i+1)*vocab]
			for _, p := range []float32{0.3, 0.9, 0.99, 0.999} {
				for _, ties := range []TieMode{Exact, KeepTies} {
					kept, ok := s.truncated(row, 0, float64(p), ties)
					if !ok {
						continue
					}
					if d == testcases.Flat {
						recovered++
					}
					want := reference.Explain(row, 0, p, ties)
					got := make([]int32, 0, len(kept))
					for _, c := range kept {
						got = append(got, int32(candidateIndex(c)))
					}
					slices.Sort(got)
					wantIdx := slices.Sorted(slices.Values(want.Kept))
					if !slices.Equal(got, wantIdx) && !want.Ambiguous(p) {
						t.Errorf("%v row %d p %v %v: kept %d tokens, reference %d", d, i, p, ties, len(got), len(wantIdx))
					}
				}
			}
		}
	}
	if recovered == 0 {
		t.Error("no flat row took the recovery path")
	}
}

// TestTruncateRowReusesScratch: once a worker's buffers have grown, a row
// costs no allocation, whichever path it takes.
func TestTruncateRowReusesScratch(t *testing.T) {
	const vocab = 128256
	for _, c := range []struct {
		name string
		dist testcases.Dist
		k    int32
		p    float32
	}{
		{"k50_p0.9", testcases.LLMLike, 50, 0.9},
		{"k50", testcases.LLMLike, 50, 1},
		{"p0.9", testcases.LLMLike, 0, 0.9},
		{"p0.9_flat", testcases.Flat, 0, 0.9},
		{"k50_allequal", testcases.AllEqual, 50, 0.9},
	} {
		pristine := testcases.Logits(1, vocab, c.dist, 5)
		row := make([]float32, vocab)
		s := new(cpuScratch)
		run := func() {
			copy(row, pristine)
			s.truncateRow(row, c.k, c.p, Exact)
		}
		run()
		if allocs := testing.AllocsPerRun(3, run); allocs != 0 {
			t.Errorf("%s: %v allocations per row", c.name, allocs)
		}
	}
}
