package testcases

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/qrita-project/qrita/reference"
)

func TestLogitsAreAFunctionOfTheSeed(t *testing.T) {
	for _, d := range Dists() {
		a := Logits(3, 100, d, 42)
		b := Logits(3, 100, d, 42)
		require.Empty(t, Compare(a, b, 3, 100), d)
	}
	assert.NotEmpty(t, Compare(Logits(2, 100, LLMLike, 1), Logits(2, 100, LLMLike, 2), 2, 100))
	rows := Logits(2, 100, LLMLike, 7)
	assert.NotEmpty(t, Compare(rows[:100], rows[100:], 1, 100), "rows of one batch must differ")
}

func TestDistributionsHaveTheirDefiningProperty(t *testing.T) {
	const v = 4000
	count := func(row []float32, f func(float32) bool) int {
		n := 0
		for _, x := range row {
			if f(x) {
				n++
			}
		}
		return n
	}
	isNaN := func(x float32) bool { return x != x }
	isNegInf := func(x float32) bool { return math.IsInf(float64(x), -1) }
	isPosInf := func(x float32) bool { return math.IsInf(float64(x), 1) }
	for _, d := range Dists() {
		row := Logits(1, v, d, 3)
		distinctValues := map[float32]bool{}
		for _, x := range row {
			distinctValues[x] = true
		}
		switch d {
		case LLMLike, Peaked:
			assert.Greater(t, count(row, func(x float32) bool { return x > 8 }), 30, d)
			assert.Zero(t, count(row, func(x float32) bool { return x != x || math.IsInf(float64(x), 0) }), d)
		case Flat:
			assert.Zero(t, count(row, func(x float32) bool { return math.Abs(float64(x)) > 0.1 }), d)
		case OneHot:
			assert.Equal(t, 1, count(row, func(x float32) bool { return x == 10 }), d)
			assert.Equal(t, v-1, count(row, func(x float32) bool { return x == 0 }), d)
		case AllEqual:
			assert.Len(t, distinctValues, 1, d)
		case BF16Ties:
			assert.Zero(t, count(row, func(x float32) bool { return math.Float32bits(x)&0xffff != 0 }), d)
			assert.Less(t, len(distinctValues), v/2, d)
		case SignedZeros:
			assert.Greater(t, count(row, func(x float32) bool { return math.Float32bits(x) == 1<<31 }), v/4, d)
			assert.Greater(t, count(row, func(x float32) bool { return math.Float32bits(x) == 0 }), v/4, d)
		case NegInfMask50:
			assert.Equal(t, v/2, count(row, isNegInf), d)
		case NegInfMask90:
			assert.Equal(t, v*9/10, count(row, isNegInf), d)
		case NegInfMask99:
			assert.Equal(t, v*99/100, count(row, isNegInf), d)
		case WithNaN:
			assert.Equal(t, v/100, count(row, isNaN), d)
		case WithPosInf:
			assert.GreaterOrEqual(t, count(row, isPosInf), 1, d)
			assert.LessOrEqual(t, count(row, isPosInf), 3, d)
		case Denormals:
			denormal := func(x float32) bool { return x != 0 && math.Abs(float64(x)) < 0x1p-126 }
			assert.Greater(t, count(row, denormal), v/4, d)
		case Huge:
			assert.Positive(t, count(row, func(x float32) bool { return x == math.MaxFloat32 }), d)
			assert.Equal(t, 1, count(row, func(x float32) bool { return x == -math.MaxFloat32 }), d)
			assert.Zero(t, count(row, func(x float32) bool { return math.IsInf(float64(x), 0) }), d)
		case AllNegInf:
			assert.Equal(t, v, count(row, func(x float32) bool { return isNaN(x) || isNegInf(x) }), d)
			assert.Positive(t, count(row, isNaN), d)
		case SmallInts:
			assert.Len(t, distinctValues, 8, d)
		case Plateau:
			assert.GreaterOrEqual(t, count(row, func(x float32) bool { return x == 0 }), v*996/1000, d)
			high := count(row, func(x float32) bool { return x >= 5 && x < 7 })
			assert.Positive(t, high, d)
			assert.LessOrEqual(t, high, max(1, v*35/10000), d)
			assert.Zero(t, count(row, func(x float32) bool { return x != 0 && (x <= -2 || x > 0 && x < 5 || x >= 7) }), d)
		default:
			t.Errorf("no property checked for %v", d)
		}
	}
}

func TestSmallVocabulariesStillGetATail(t *testing.T) {
	for v := 1; v < 70; v++ {
		row := Logits(1, v, LLMLike, uint64(v))
		for _, x := range row {
			require.False(t, x != x || math.IsInf(float64(x), 0), "vocab %d", v)
		}
	}
}

func TestTableIsValidAndCoversTheRules(t *testing.T) {
	names := map[string]bool{}
	vocabs, batches, dists := map[int]bool{}, map[int]bool{}, map[Dist]bool{}
	var ks []int
	var ps []float32
	kNilSeen, pNilSeen := false, false
	for _, c := range append(Table(), Benchmarks()...) {
		require.False(t, names[c.Name], "duplicate case %s", c.Name)
		names[c.Name] = true
		if c.Size() > 1<<22 {
			continue // benchmark shapes: generating them is slow
		}
		logits, k, p := c.Args()
		require.NoError(t, reference.CheckArgs(len(logits), c.Batch, c.Vocab, k, p), c.Name)
		vocabs[c.Vocab], batches[c.Batch], dists[c.Dist] = true, true, true
		kNilSeen, pNilSeen = kNilSeen || k == nil, pNilSeen || p == nil
		for i := range k {
			ks = append(ks, int(k[i])-c.Vocab) // relative to vocab: the edges matter
			ks = append(ks, int(k[i]))
		}
		ps = append(ps, p...)
	}
	for _, v := range []int{1, 2, 3, 7, 64, 1000, 4099, 32000, 128256} {
		assert.True(t, vocabs[v], "vocab %d missing", v)
	}
	for _, b := range []int{1, 64} {
		assert.True(t, batches[b], "batch %d missing", b)
	}
	for _, d := range Dists() {
		assert.True(t, dists[d], "%v missing", d)
	}
	assert.True(t, kNilSeen && pNilSeen)
	for _, want := range []int{1, -1, 0, 1, -5} { // k=1, V-1, V / 0, V+1 / -5
		assert.Contains(t, ks, want)
	}
	for _, want := range []float32{1e-7, 0, -0.25, 1, 1.5, 0.9, 0.5} {
		assert.Contains(t, ps, want)
	}
}

func TestBoundaryCasesAreAmbiguous(t *testing.T) {
	topP, ambiguous := 0, 0
	for _, c := range Table() {
		if !c.Boundary {
			continue
		}
		logits, k, p := c.Args()
		for i := 0; i < c.Batch; i++ {
			r := reference.Explain(logits[i*c.Vocab:(i+1)*c.Vocab], reference.RowK(k, i), p[i], reference.Exact)
			if r.TopP {
				topP++
				if r.Ambiguous(p[i]) {
					ambiguous++
				}
			}
		}
	}
	require.Positive(t, topP)
	assert.Equal(t, topP, ambiguous, "every boundary row with an active top-p must be ambiguous")
}

func TestBenchmarkHeadline(t *testing.T) {
	c := Benchmarks()[0]
	assert.Equal(t, "B64_V128256_k50_p0.9_llm", c.Name)
	assert.Equal(t, []int{64, 128256}, []int{c.Batch, c.Vocab})
	assert.Equal(t, LLMLike, c.Dist)
	assert.Equal(t, int32(50), c.K(0, c.Vocab))
	assert.Equal(t, float32(0.9), c.P(0, nil, 50))
}

func TestCompareIsBitExact(t *testing.T) {
	negZero := float32(math.Copysign(0, -1))
	assert.Empty(t, Compare([]float32{1, 0}, []float32{1, 0}, 1, 2))
	assert.Contains(t, Compare([]float32{1, 0, 2, 3}, []float32{1, 0, 2, negZero}, 2, 2), "row 1 token 1")
	nan1, nan2 := math.Float32frombits(0x7fc00000), math.Float32frombits(0x7fc00001)
	assert.NotEmpty(t, Compare([]float32{nan1}, []float32{nan2}, 1, 1))
	assert.NotEmpty(t, Compare([]float32{1}, []float32{1, 2}, 1, 1))
}

func TestDiffFlagsForbiddenDifferences(t *testing.T) {
	orig := []float32{3, 1, 2, 0, 2, 5, 4, 1}
	k := []int32{2, 0}
	p := []float32{1, 1}
	want := Expected(orig, 2, 4, k, p, reference.Exact)
	m, a := Diff(orig, want, 2, 4, k, p, reference.Exact)
	assert.Empty(t, m)
	assert.Zero(t, a)

	// Top-k only: of the tied 2s, k=1 keeps the lower index.
	tie := []float32{2, 1, 2, 0}
	wrongTie := []float32{float32(math.Inf(-1)), float32(math.Inf(-1)), 2, float32(math.Inf(-1))}
	m, _ = Diff(tie, wrongTie, 1, 4, []int32{1}, nil, reference.Exact)
	assert.Equal(t, []int{0}, m)

	// One kept token dropped, in a batch whose other row is right.
	got := append([]float32(nil), want...)
	got[6] = float32(math.Inf(-1))
	m, _ = Diff(orig, got, 2, 4, k, p, reference.Exact)
	assert.Equal(t, []int{1}, m)

	// Kept bits must be unchanged: -0 for +0 is a mismatch.
	orig0 := []float32{0, 1}
	got0 := []float32{float32(math.Copysign(0, -1)), 1}
	m, _ = Diff(orig0, got0, 1, 2, nil, nil, reference.Exact)
	assert.Equal(t, []int{0}, m)
}

func TestDiffExcusesOnlyCutsWithinTolerance(t *testing.T) {
	// Two tokens of probability 1/2 each (in float64), then a third far
	// below: p on the cumulative 1/2 is ambiguous between keeping one and
	// keeping two.
	orig := []float32{0, 0, -100}
	one := []float32{0, float32(math.Inf(-1)), float32(math.Inf(-1))}
	two := []float32{0, 0, float32(math.Inf(-1))}
	three := []float32{0, 0, -100}
	for _, tc := range []struct {
		name      string
		got       []float32
		p         float32
		mismatch  bool
		ambiguous int
	}{
		{"reference cut", one, 0.5, false, 0},
		{"one later at the boundary", two, 0.5, false, 1},
		{"one later just above the boundary", two, math.Nextafter32(0.5, 1), false, 0},
		{"one earlier just above the boundary", one, math.Nextafter32(0.5, 1), false, 1},
		{"two later is beyond tolerance", three, 0.5, true, 0},
		{"one later far from the boundary", two, 0.3, true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, a := Diff(orig, tc.got, 1, 3, nil, []float32{tc.p}, reference.Exact)
			assert.Equal(t, tc.mismatch, len(m) > 0)
			assert.Equal(t, tc.ambiguous, a)
		})
	}
}

func TestDiffKeepTiesNeverExcusesASplitTie(t *testing.T) {
	// Tokens 0 and 1 tie; with p at the boundary after token 2 a backend may
	// add the next tie group, but never half of it.
	orig := []float32{1, 1, 0, 0, -40}
	r := reference.Explain(orig, 0, 0.5, reference.KeepTies)
	require.Len(t, r.Kept, 2)
	p := float32(r.CumAt)
	if float64(p) > r.CumAt {
		p = math.Nextafter32(p, 0) // so that the reference still cuts after the first tie group
	}
	require.Len(t, reference.Explain(orig, 0, p, reference.KeepTies).Kept, 2)
	negInf := float32(math.Inf(-1))
	half := []float32{1, 1, 0, negInf, negInf}
	whole := []float32{1, 1, 0, 0, negInf}
	m, a := Diff(orig, whole, 1, 5, nil, []float32{p}, reference.KeepTies)
	assert.Empty(t, m)
	assert.Equal(t, 1, a)
	m, _ = Diff(orig, half, 1, 5, nil, []float32{p}, reference.KeepTies)
	assert.Equal(t, []int{0}, m)
}

// The kernels' sample is 128 runs of 8 consecutive entries, each from a
// multiple of 8, in order and inside the row.
func TestSampleIndexIsRunsOfEightInsideTheRow(t *testing.T) {
	for _, vocab := range []int{4097, 32768, 128256, 151936, 262208} {
		prev := -1
		for j := range 1024 {
			i := SampleIndex(j, vocab)
			if i < 0 || i >= vocab || i <= prev {
				t.Fatalf("vocab %d: entry %d at %d after %d", vocab, j, i, prev)
			}
			if j%8 == 0 && i%8 != 0 || j%8 != 0 && i != prev+1 {
				t.Fatalf("vocab %d: entry %d at %d breaks its run (previous %d)", vocab, j, i, prev)
			}
			prev = i
		}
	}
}
