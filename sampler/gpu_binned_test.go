//go:build (cuda || hip) && cgo

package sampler_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/qrita-project/qrita/internal/testcases"
	"github.com/qrita-project/qrita/reference"
)

// flatRows returns batch rows of N(0, 0.01^2) values (testcases.Flat):
// top-p at 0.9 keeps most of such a row, so its nucleus ends far below
// any candidate buffer and the value-binned search over the row decides
// it (cuda/binned_topp.cuh), its last bin a few hundredths of a binade
// wide. On odd rows the sample (testcases.SampleIndex) holds values three
// deviations higher, which moves the threshold and the bins.
func flatRows(batch, vocab int, seed uint64) []float32 {
	logits := testcases.Logits(batch, vocab, testcases.Flat, seed)
	for r := 1; r < batch; r += 2 {
		row := logits[r*vocab : (r+1)*vocab]
		for j := range 1024 {
			row[testcases.SampleIndex(j, vocab)] += 0.03
		}
	}
	return logits
}

// The value-binned top-p search must cut where the reference does, for
// split rows (8) and the one-block kernels (270 rows: two blocks a
// multiprocessor on 132), with the same bits for the same row in either.
// p = 0.2 ends the nucleus in the high bins (a goal of which the ~5 %
// of the row in the candidates held half would gather again: a hit),
// and p = 0.99999 in the lowest: the bin edges near both ends.
func TestGPUBinnedTopPMatchesReference(t *testing.T) {
	if gpuSkipReason != "" {
		t.Skip("qrita-gpu: no usable GPU: " + gpuSkipReason)
	}
	nc := newNative(t)
	const vocab, few, many = 32768, 8, 270
	logits := flatRows(many, vocab, 94)
	pvs, tieModes := []float32{0.9, 0.5, 0.2, 0.99999}, []bool{false, true}
	if testing.Short() { // under the sanitizers
		pvs, tieModes = pvs[:1], tieModes[:1]
	}
	for _, pv := range pvs {
		for _, keepTies := range tieModes {
			t.Run(fmt.Sprintf("p%v_keepTies%v", pv, keepTies), func(t *testing.T) {
				mode := reference.Exact
				if keepTies {
					mode = reference.KeepTies
				}
				ps := make([]float32, many)
				for r := range ps {
					ps[r] = pv
				}
				all, stats := ablatedRun(t, nc, logits, many, vocab, nil, ps, keepTies, 0)
				checkRows(t, logits, all, many, vocab, nil, ps, mode)
				split, _ := ablatedRun(t, nc, logits[:few*vocab], few, vocab, nil, ps[:few], keepTies, 0)
				checkRows(t, logits[:few*vocab], split, few, vocab, nil, ps[:few], mode)
				require.Equal(t, bitsOf(all[:few*vocab]), bitsOf(split), "the same rows alone and in a batch")
				for r, st := range stats {
					require.Zero(t, st.Hit, "row %d: its nucleus should not end among its candidates", r)
				}
			})
		}
	}
}
