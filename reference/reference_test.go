package reference_test

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/qrita-project/qrita/internal/testcases"
	"github.com/qrita-project/qrita/reference"
)

var (
	negInf = float32(math.Inf(-1))
	posInf = float32(math.Inf(1))
	nan    = float32(math.NaN())
	modes  = []reference.TieMode{reference.Exact, reference.KeepTies}
)

// smallCases are the table cases cheap enough to check property by
// property (the oracle is slow on purpose): every k x p rule on vocab 7,
// every distribution on vocab 3 and 64, the boundary cases on vocab 64.
func smallCases() []testcases.Case {
	var cs []testcases.Case
	for _, c := range testcases.Table() {
		if c.Size() <= 1<<12 {
			cs = append(cs, c)
		}
	}
	return cs
}

func row(logits []float32, vocab, i int) []float32 { return logits[i*vocab : (i+1)*vocab] }

func keepable(x float32) bool { return x == x && !math.IsInf(float64(x), -1) }

func countKeepable(r []float32) int {
	n := 0
	for _, x := range r {
		if keepable(x) {
			n++
		}
	}
	return n
}

func TestTopKKeepsMinOfKAndKeepableCount(t *testing.T) {
	for _, c := range smallCases() {
		logits, k, _ := c.Args()
		for i := 0; i < c.Batch; i++ {
			r := row(logits, c.Vocab, i)
			kk := reference.RowK(k, i)
			want := countKeepable(r)
			if kk > 0 && int(kk) < c.Vocab {
				want = min(int(kk), want)
			}
			got := reference.Explain(r, kk, 1, reference.Exact)
			require.Len(t, got.Kept, want, "%s row %d k=%d", c.Name, i, kk)
			require.False(t, got.TopP)
		}
	}
}

func TestKeptSetIsARankPrefix(t *testing.T) {
	for _, c := range smallCases() {
		logits, k, p := c.Args()
		for _, mode := range modes {
			for i := 0; i < c.Batch; i++ {
				r := row(logits, c.Vocab, i)
				kept := reference.Explain(r, reference.RowK(k, i), reference.RowP(p, i), mode).Kept
				assertRankPrefix(t, r, kept, mode, fmt.Sprintf("%s %v row %d", c.Name, mode, i))
			}
		}
	}
}

// assertRankPrefix checks that kept lists keepable tokens in rank order
// (value descending, lower index first on ties, +0 == -0) and that no
// token left out outranks a kept one; in KeepTies mode no token left out
// equals the last kept one either.
func assertRankPrefix(t *testing.T, r []float32, kept []int32, mode reference.TieMode, msg string) {
	t.Helper()
	isKept := make([]bool, len(r))
	for j, idx := range kept {
		if !keepable(r[idx]) {
			t.Fatalf("%s: kept %v at %d", msg, r[idx], idx)
		}
		isKept[idx] = true
		if j > 0 {
			prev := kept[j-1]
			if !(r[prev] > r[idx] || (r[prev] == r[idx] && prev < idx)) {
				t.Fatalf("%s: kept %d (%v) ranked after %d (%v)", msg, idx, r[idx], prev, r[prev])
			}
		}
	}
	if len(kept) == 0 {
		return
	}
	last := kept[len(kept)-1]
	for idx, x := range r {
		if isKept[idx] || !keepable(x) {
			continue
		}
		if x > r[last] || (x == r[last] && int32(idx) < last) {
			t.Fatalf("%s: dropped %d (%v) outranks kept %d (%v)", msg, idx, x, last, r[last])
		}
		if mode == reference.KeepTies && x == r[last] {
			t.Fatalf("%s: dropped %d ties the last kept %d (%v)", msg, idx, last, x)
		}
	}
}

func TestKeepTiesExtendsExactByTheLastTieGroup(t *testing.T) {
	for _, c := range smallCases() {
		logits, k, p := c.Args()
		for i := 0; i < c.Batch; i++ {
			r := row(logits, c.Vocab, i)
			exact := reference.Explain(r, reference.RowK(k, i), reference.RowP(p, i), reference.Exact).Kept
			ties := reference.Explain(r, reference.RowK(k, i), reference.RowP(p, i), reference.KeepTies).Kept
			if len(exact) == 0 {
				require.Empty(t, ties)
				continue
			}
			// KeepTies may cut top-p later (its top-k survivors differ), so
			// compare only the top-k-only and p<=0 rows exactly.
			if pp := reference.RowP(p, i); pp < 1 && pp > 0 {
				continue
			}
			last := r[exact[len(exact)-1]]
			want := slices.Clone(exact)
			for idx, x := range r {
				if x == last && !slices.Contains(exact, int32(idx)) {
					want = append(want, int32(idx))
				}
			}
			require.Empty(t, cmp.Diff(want, ties), "%s row %d", c.Name, i)
		}
	}
}

func TestOutputKeepsBitsOrWritesNegInf(t *testing.T) {
	for _, c := range smallCases() {
		orig, k, p := c.Args()
		for _, mode := range modes {
			got := slices.Clone(orig)
			require.NoError(t, reference.TopKTopPTies(got, c.Batch, c.Vocab, k, p, mode))
			for j := range got {
				if math.Float32bits(got[j]) == math.Float32bits(orig[j]) && orig[j] == orig[j] {
					continue
				}
				require.Equal(t, math.Float32bits(negInf), math.Float32bits(got[j]), "%s %v token %d", c.Name, mode, j)
			}
		}
	}
}

func TestNaNNeverSurvives(t *testing.T) {
	r := []float32{nan, 1, float32(math.Float32frombits(0xffc00001)), 2}
	require.NoError(t, reference.TopKTopP(r, 1, 4, nil, nil))
	assert.Equal(t, []uint32{0xff800000, math.Float32bits(1), 0xff800000, math.Float32bits(2)},
		[]uint32{math.Float32bits(r[0]), math.Float32bits(r[1]), math.Float32bits(r[2]), math.Float32bits(r[3])})

	allNaN := []float32{nan, nan}
	require.NoError(t, reference.TopKTopP(allNaN, 1, 2, []int32{1}, []float32{0}))
	assert.Equal(t, []float32{negInf, negInf}, allNaN)
}

func TestDisabledFiltersOnlyClearNaN(t *testing.T) {
	for _, c := range smallCases() {
		orig, _, _ := c.Args()
		for _, kk := range []int32{0, -1, int32(c.Vocab), math.MaxInt32} {
			for _, pp := range []float32{1, 1.5, posInf} {
				for _, mode := range modes {
					got := slices.Clone(orig)
					k, p := make([]int32, c.Batch), make([]float32, c.Batch)
					for i := range k {
						k[i], p[i] = kk, pp
					}
					require.NoError(t, reference.TopKTopPTies(got, c.Batch, c.Vocab, k, p, mode))
					want := slices.Clone(orig)
					for j, x := range want {
						if x != x {
							want[j] = negInf
						}
					}
					require.Empty(t, testcases.Compare(got, want, c.Batch, c.Vocab), "%s k=%d p=%v", c.Name, kk, pp)
				}
			}
		}
	}
}

func TestNonPositivePKeepsTheTopToken(t *testing.T) {
	for _, c := range smallCases() {
		logits, k, _ := c.Args()
		for i := 0; i < c.Batch; i++ {
			r := row(logits, c.Vocab, i)
			for _, pp := range []float32{0, float32(math.Copysign(0, -1)), -1, negInf} {
				exact := reference.Explain(r, reference.RowK(k, i), pp, reference.Exact)
				ties := reference.Explain(r, reference.RowK(k, i), pp, reference.KeepTies)
				if countKeepable(r) == 0 {
					require.Empty(t, exact.Kept)
					continue
				}
				require.Len(t, exact.Kept, 1, "%s row %d p=%v", c.Name, i, pp)
				require.False(t, exact.TopP)
				top := r[exact.Kept[0]]
				for _, idx := range ties.Kept {
					require.Equal(t, top, r[idx])
				}
			}
		}
	}
}

// TestTopPIsTheShortestPrefixByBruteForce recomputes each cumulative sum
// from scratch for every prefix length and checks that the oracle keeps
// the shortest prefix reaching p. Rows where p lies within rounding noise
// of a cumulative sum are skipped: summation order decides those.
func TestTopPIsTheShortestPrefixByBruteForce(t *testing.T) {
	rng := testcases.NewRand(1)
	checked := 0
	for iter := 0; iter < 20000; iter++ {
		v := 1 + rng.IntN(12)
		d := testcases.Dists()[rng.IntN(len(testcases.Dists()))]
		r := testcases.Logits(1, v, d, rng.Uint64())
		kk := int32(rng.IntN(v+2) - 1)
		pp := float32(rng.Float64())
		order := bruteRank(r)
		if kk > 0 && int(kk) < len(order) {
			order = order[:kk]
		}
		if len(order) == 0 {
			continue
		}
		cums := make([]float64, len(order)+1)
		for n := 1; n <= len(order); n++ {
			cums[n] = bruteCum(r, order, n)
		}
		if slices.ContainsFunc(cums, func(c float64) bool { return math.Abs(c-float64(pp)) < 1e-12 }) {
			continue
		}
		n := 1
		for n < len(order) && cums[n] < float64(pp) {
			n++
		}
		got := reference.Explain(r, kk, pp, reference.Exact)
		require.Empty(t, cmp.Diff(order[:n], got.Kept), "row %v k=%d p=%v", r, kk, pp)
		require.True(t, got.TopP)
		assert.InDelta(t, cums[n], got.CumAt, 1e-12)
		assert.InDelta(t, cums[n-1], got.CumBefore, 1e-12)
		checked++
	}
	require.Greater(t, checked, 10000)
}

// bruteRank orders keepable indices by value descending, then index, by
// comparison sort on an explicit key (independent of the oracle's).
func bruteRank(r []float32) []int32 {
	var order []int32
	for i, x := range r {
		if keepable(x) {
			order = append(order, int32(i))
		}
	}
	slices.SortFunc(order, func(a, b int32) int {
		switch {
		case r[a] > r[b]:
			return -1
		case r[a] < r[b]:
			return 1
		}
		return int(a - b)
	})
	return order
}

// bruteCum is the probability mass of order[:n] within order, with +Inf
// tokens sharing all the mass.
func bruteCum(r []float32, order []int32, n int) float64 {
	infs := 0
	for _, i := range order {
		if math.IsInf(float64(r[i]), 1) {
			infs++
		}
	}
	if infs > 0 {
		return float64(min(n, infs)) / float64(infs)
	}
	top := float64(r[order[0]])
	num, den := 0.0, 0.0
	for j, i := range order {
		e := math.Exp(float64(r[i]) - top)
		den += e
		if j < n {
			num += e
		}
	}
	return num / den
}

func TestTopPAppliesToTopKSurvivors(t *testing.T) {
	r := []float32{2, 1, 0}
	// Over all three tokens the top one has 0.665 < 0.7; over the top-2
	// survivors it has 0.731 >= 0.7.
	assert.Equal(t, []int32{0, 1}, reference.Explain(r, 0, 0.7, reference.Exact).Kept)
	assert.Equal(t, []int32{0}, reference.Explain(r, 2, 0.7, reference.Exact).Kept)
}

func TestPositiveInfinitiesShareTheMass(t *testing.T) {
	r := []float32{1, posInf, 5, posInf, posInf}
	for _, tc := range []struct {
		k    int32
		p    float32
		want []int32
	}{
		{0, 0.3, []int32{1}},
		{0, 0.34, []int32{1, 3}},
		{0, 0.9, []int32{1, 3, 4}},
		{0, math.Nextafter32(1, 0), []int32{1, 3, 4}}, // finite tokens have no mass
		{0, 1, []int32{1, 3, 4, 2, 0}},
		{2, 0.5, []int32{1}},
		{2, 0.51, []int32{1, 3}},
		{4, 0.99, []int32{1, 3, 4}},
	} {
		got := reference.Explain(r, tc.k, tc.p, reference.Exact)
		assert.Equal(t, tc.want, got.Kept, "k=%d p=%v", tc.k, tc.p)
	}
}

func TestSignedZerosTieByIndex(t *testing.T) {
	negZero := float32(math.Copysign(0, -1))
	r := []float32{negZero, 0, -1}
	got := slices.Clone(r)
	require.NoError(t, reference.TopKTopP(got, 1, 3, []int32{1}, nil))
	assert.Equal(t, []uint32{1 << 31, 0xff800000, 0xff800000},
		[]uint32{math.Float32bits(got[0]), math.Float32bits(got[1]), math.Float32bits(got[2])})
	assert.Equal(t, []int32{0, 1}, reference.Explain(r, 1, 1, reference.KeepTies).Kept)
}

func TestExplainLeavesTheRowAlone(t *testing.T) {
	for _, c := range smallCases()[:50] {
		logits, k, p := c.Args()
		before := slices.Clone(logits)
		for i := 0; i < c.Batch; i++ {
			reference.Explain(row(logits, c.Vocab, i), reference.RowK(k, i), reference.RowP(p, i), reference.KeepTies)
		}
		require.Empty(t, testcases.Compare(logits, before, c.Batch, c.Vocab), c.Name)
	}
}

func TestAmbiguousOnlyNearTheCut(t *testing.T) {
	r := []float32{3, 2, 1, 0}
	cut := reference.Explain(r, 0, 0.8, reference.Exact)
	require.True(t, cut.TopP)
	assert.False(t, cut.Ambiguous(0.8))
	assert.True(t, cut.Ambiguous(float32(cut.CumAt)))
	assert.True(t, cut.Ambiguous(float32(cut.CumBefore)))
	assert.True(t, cut.Ambiguous(float32(cut.CumAt+0.9*reference.AmbiguityTolerance)))
	assert.False(t, cut.Ambiguous(float32(cut.CumAt+2*reference.AmbiguityTolerance)))

	noTopP := reference.Explain(r, 2, 1, reference.Exact)
	assert.False(t, noTopP.TopP)
	assert.False(t, noTopP.Ambiguous(1))
	assert.False(t, reference.Explain(r, 0, 0, reference.Exact).Ambiguous(0), "p <= 0 is no top-p cut")
}

func TestInvalidArgumentsAreErrorsNotPanics(t *testing.T) {
	four := make([]float32, 4)
	for _, tc := range []struct {
		name         string
		logits       []float32
		batch, vocab int
		k            []int32
		p            []float32
	}{
		{"vocab 0", nil, 1, 0, nil, nil},
		{"negative batch", four, -1, -4, nil, nil},
		{"negative vocab", four, -1, 4, nil, nil},
		{"min int batch", four, math.MinInt, 4, nil, nil},
		{"len(logits) short", four[:3], 1, 4, nil, nil},
		{"len(logits) long", four, 1, 3, nil, nil},
		{"batch*vocab overflows", four, 1 << 62, 4, nil, nil},
		{"batch*vocab overflows to len", four, 1<<62 + 1, 4, nil, nil},
		{"max int shape", four, math.MaxInt, math.MaxInt, nil, nil},
		{"len(k) short", four, 2, 2, []int32{1}, nil},
		{"len(k) long", four, 2, 2, []int32{1, 1, 1}, nil},
		{"empty non-nil k", four, 2, 2, []int32{}, nil},
		{"len(p) short", four, 2, 2, nil, []float32{0.5}},
		{"len(p) long", four, 2, 2, nil, []float32{0.5, 0.5, 0.5}},
		{"NaN p", four, 2, 2, nil, []float32{0.5, nan}},
		{"NaN p payload", four, 1, 4, nil, []float32{math.Float32frombits(0xffc00001)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, mode := range modes {
				logits := slices.Clone(tc.logits)
				require.NotPanics(t, func() {
					err := reference.TopKTopPTies(logits, tc.batch, tc.vocab, tc.k, tc.p, mode)
					require.ErrorIs(t, err, reference.ErrInvalidArgument)
				})
				assert.Empty(t, testcases.Compare(logits, tc.logits, 1, len(logits)), "input must be untouched on error")
			}
			require.ErrorIs(t, reference.TopKTopP(slices.Clone(tc.logits), tc.batch, tc.vocab, tc.k, tc.p), reference.ErrInvalidArgument)
			require.ErrorIs(t, reference.CheckArgs(len(tc.logits), tc.batch, tc.vocab, tc.k, tc.p), reference.ErrInvalidArgument)
		})
	}
	for _, mode := range []reference.TieMode{-1, 2, 99} {
		require.ErrorIs(t, reference.TopKTopPTies(make([]float32, 4), 1, 4, nil, nil, mode), reference.ErrInvalidArgument)
	}
}

func TestValidEdgeArgumentsAreAccepted(t *testing.T) {
	for _, tc := range []struct {
		name         string
		batch, vocab int
		k            []int32
		p            []float32
	}{
		{"vocab 1", 3, 1, []int32{1, 0, -1}, []float32{0, 1, 0.5}},
		{"infinite p", 2, 2, nil, []float32{posInf, negInf}},
		{"extreme k", 2, 2, []int32{math.MinInt32, math.MaxInt32}, nil},
	} {
		logits := testcases.Logits(tc.batch, tc.vocab, testcases.LLMLike, 1)
		assert.NoError(t, reference.TopKTopP(logits, tc.batch, tc.vocab, tc.k, tc.p), tc.name)
	}
}
