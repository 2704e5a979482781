package testcases

import (
	"fmt"
	"math"

	"github.com/qrita-project/qrita/reference"
)

// Compare reports the first position where got and want differ bit for
// bit (so -0 != +0 and NaN payloads matter), or "" when they are equal.
func Compare(got, want []float32, batch, vocab int) (firstDiff string) {
	if len(got) != len(want) || len(got) != batch*vocab {
		return fmt.Sprintf("lengths: got %d, want %d, batch*vocab %d", len(got), len(want), batch*vocab)
	}
	for i := range got {
		if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
			return fmt.Sprintf("row %d token %d: got %v (%#08x), want %v (%#08x)",
				i/vocab, i%vocab, got[i], math.Float32bits(got[i]), want[i], math.Float32bits(want[i]))
		}
	}
	return ""
}

// Expected returns what the reference makes of orig (orig is unchanged).
// The arguments must be valid.
func Expected(orig []float32, batch, vocab int, k []int32, p []float32, mode reference.TieMode) []float32 {
	want := append([]float32(nil), orig...)
	if err := reference.TopKTopPTies(want, batch, vocab, k, p, mode); err != nil {
		panic(fmt.Sprintf("testcases.Expected: %v", err))
	}
	return want
}

// Diff checks a backend's output got against the reference applied to
// orig, row by row. mismatched lists the rows that differ in a way the
// exactness contract forbids. ambiguous counts the rows that differ but
// are allowed to: the row is ambiguous (reference.Row.Ambiguous) and got
// is still a well-formed cut that some p within reference.AmbiguityTolerance
// of the requested one produces. Rows without an active top-p (top-k only,
// p <= 0, p >= 1) must match exactly. The arguments must be valid.
func Diff(orig, got []float32, batch, vocab int, k []int32, p []float32, mode reference.TieMode) (mismatched []int, ambiguous int) {
	if err := reference.CheckArgs(len(orig), batch, vocab, k, p); err != nil || len(got) != len(orig) {
		panic(fmt.Sprintf("testcases.Diff: invalid arguments (len(got) %d): %v", len(got), err))
	}
	for i := 0; i < batch; i++ {
		o, g := orig[i*vocab:(i+1)*vocab], got[i*vocab:(i+1)*vocab]
		kk, pp := reference.RowK(k, i), reference.RowP(p, i)
		r := reference.Explain(o, kk, pp, mode)
		if EqualBits(g, masked(o, r.Kept)) {
			continue
		}
		if r.Ambiguous(pp) && withinTolerance(o, g, kk, pp, mode) {
			ambiguous++
			continue
		}
		mismatched = append(mismatched, i)
	}
	return mismatched, ambiguous
}

// withinTolerance reports whether got is the reference output for some p'
// with |p' - p| <= AmbiguityTolerance: a rank-order prefix whose length
// lies between the cuts for p - tol and p + tol (cut only between distinct
// values in KeepTies mode).
func withinTolerance(orig, got []float32, k int32, p float32, mode reference.TieMode) bool {
	// Round outward so float32 rounding never narrows the window.
	pLo := math.Nextafter32(float32(float64(p)-reference.AmbiguityTolerance), float32(math.Inf(-1)))
	pHi := math.Nextafter32(float32(float64(p)+reference.AmbiguityTolerance), float32(math.Inf(1)))
	lo := reference.Explain(orig, k, pLo, mode)
	hi := reference.Explain(orig, k, pHi, mode)
	n := 0
	for _, v := range got {
		if !math.IsInf(float64(v), -1) {
			n++
		}
	}
	if n < len(lo.Kept) || n > len(hi.Kept) {
		return false
	}
	if mode == reference.KeepTies && n < len(hi.Kept) && orig[hi.Kept[n-1]] == orig[hi.Kept[n]] {
		return false
	}
	return EqualBits(got, masked(orig, hi.Kept[:n]))
}

// masked is orig with everything outside kept set to -Inf.
func masked(orig []float32, kept []int32) []float32 {
	out := make([]float32, len(orig))
	for i := range out {
		out[i] = float32(math.Inf(-1))
	}
	for _, i := range kept {
		out[i] = orig[i]
	}
	return out
}

// EqualBits says whether a and b (of one length) hold the same float bits.
func EqualBits(a, b []float32) bool {
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return false
		}
	}
	return true
}
