package main

import (
	"math"

	"github.com/qrita-project/qrita/internal/testcases"
	"github.com/qrita-project/qrita/reference"
)

// verdict counts how the backend's rows compare with the reference's.
type verdict struct {
	rows, mismatched, ambiguous int
}

// compareRows checks got (the backend's output) against want (the
// reference's), both truncated from orig. Rows that differ are explained
// with the reference: a difference is allowed only where the top-p cut is
// ambiguous (see reference.Row.Ambiguous).
func compareRows(orig, got, want []float32, batch, vocab int, k []int32, p []float32, mode reference.TieMode) verdict {
	v := verdict{rows: batch}
	for i := range batch {
		lo, hi := i*vocab, (i+1)*vocab
		if sameBits(got[lo:hi], want[lo:hi]) {
			continue
		}
		bad, ambiguous := testcases.Diff(orig[lo:hi], got[lo:hi], 1, vocab, k[i:i+1], p[i:i+1], mode)
		v.mismatched += len(bad)
		v.ambiguous += ambiguous
	}
	return v
}

func sameBits(a, b []float32) bool {
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return false
		}
	}
	return true
}
