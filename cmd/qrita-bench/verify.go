package main

import (
	"github.com/qrita-project/qrita/internal/benchfmt"
	"github.com/qrita-project/qrita/internal/testcases"
	"github.com/qrita-project/qrita/reference"
)

// compareRows checks got (the backend's output) against want (the
// reference's), both truncated from orig. Rows that differ are explained
// with the reference: a difference is allowed only where the top-p cut is
// ambiguous (see reference.Row.Ambiguous).
func compareRows(orig, got, want []float32, batch, vocab int, k []int32, p []float32, mode reference.TieMode) benchfmt.Verify {
	v := benchfmt.Verify{Rows: batch}
	for i := range batch {
		lo, hi := i*vocab, (i+1)*vocab
		if testcases.EqualBits(got[lo:hi], want[lo:hi]) {
			continue
		}
		bad, ambiguous := testcases.Diff(orig[lo:hi], got[lo:hi], 1, vocab, k[i:i+1], p[i:i+1], mode)
		v.Mismatched += len(bad)
		v.Ambiguous += ambiguous
	}
	return v
}
