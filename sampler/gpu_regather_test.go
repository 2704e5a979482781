//go:build (cuda || hip) && cgo

package sampler_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/qrita-project/qrita/internal/native"
	"github.com/qrita-project/qrita/internal/testcases"
	"github.com/qrita-project/qrita/reference"
)

// A sampled outlier inflates the row's spread: its threshold then lies
// above the k-th entry. plants place m values v on the row's strided
// sample: the first four rows' second gather finds k (cuda/
// truncate_kernel.cuh, regather_top_k), the last four's still does not
// (the search below the second threshold settles them).
var plants = []struct {
	m int
	v float32
}{{1, 40}, {2, 40}, {3, 20}, {8, 20}, {2, 80}, {3, 80}, {6, 80}, {8, 80}}

// plantedRows returns batch rows of N(0,1) values, row r with plants[r %
// len(plants)] on its sample (testcases.SampleIndex).
func plantedRows(batch, vocab int, seed uint64) []float32 {
	rng := testcases.NewRand(seed)
	logits := make([]float32, batch*vocab)
	for r := range batch {
		row := logits[r*vocab : (r+1)*vocab]
		for i := range row {
			row[i] = float32(rng.NormFloat64())
		}
		pl := plants[r%len(plants)]
		for j := range pl.m {
			row[testcases.SampleIndex(j*97+5, vocab)] = pl.v
		}
	}
	return logits
}

// A whole row's top-k whose first gather misses gathers again lower, or
// searches the row below that threshold: the bits must be those of the
// search over the row (the forced fallback) and the reference's, in the
// one-block kernel's many-rows shapes (on 132 multiprocessors, 270 rows:
// two blocks each; 540: four) and in split rows (8 rows: their decider
// searches below the first threshold). With more rows than any supported
// GPU's multiprocessors, the row counters must show both ends: rows with
// fewer than k first candidates that still hit (the second gather settled
// them) and ones that missed.
func TestGPUTopKSecondGatherMatchesFallback(t *testing.T) {
	if gpuSkipReason != "" {
		t.Skip("qrita-gpu: no usable GPU: " + gpuSkipReason)
	}
	nc := newNative(t)
	const vocab, k = 32768, 50
	batches, joints, tieModes := []int{8, 270, 540}, []bool{false, true}, []bool{false, true}
	if testing.Short() { // under the sanitizers (scripts/device-run.sh)
		batches, joints, tieModes = []int{8, 270}, []bool{true}, []bool{false}
	}
	for _, batch := range batches {
		for _, joint := range joints {
			t.Run(fmt.Sprintf("%dx%d_joint%v", batch, vocab, joint), func(t *testing.T) {
				logits := plantedRows(batch, vocab, uint64(batch))
				ks := make([]int32, batch)
				var ps []float32
				if joint {
					ps = make([]float32, batch)
				}
				for r := range ks {
					ks[r] = k
					if joint {
						ps[r] = 0.9
					}
				}
				for _, keepTies := range tieModes {
					got, stats := ablatedRun(t, nc, logits, batch, vocab, ks, ps, keepTies, 0)
					want, _ := ablatedRun(t, nc, logits, batch, vocab, ks, ps, keepTies, native.AblateForceFallback)
					require.Equal(t, bitsOf(want), bitsOf(got), "keepTies %v", keepTies)
					mode := reference.Exact
					if keepTies {
						mode = reference.KeepTies
					}
					checkRows(t, logits, got, batch, vocab, ks, ps, mode)
					settled, searched := 0, 0
					for r, st := range stats {
						if st.Candidates >= k {
							continue
						}
						if st.Hit == 1 {
							settled++
						} else {
							searched++
						}
						if batch > 256 && r < len(plants) {
							require.Equal(t, r < 4, st.Hit == 1, "row %d (plant %v, %d first candidates)", r,
								plants[r], st.Candidates)
						}
					}
					require.Positive(t, searched, "no row searched below the threshold")
					if batch > 256 {
						require.Positive(t, settled, "no row settled by the second gather")
					}
				}
			})
		}
	}
}
