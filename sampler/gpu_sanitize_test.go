//go:build (cuda || hip) && cgo

package sampler_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/qrita-project/qrita/internal/native"
	"github.com/qrita-project/qrita/internal/testcases"
	"github.com/qrita-project/qrita/sampler"
)

// TestGPUSanitizerCoverage is small enough for racecheck and synccheck yet
// takes every kernel path: whole-row gather and sampled threshold, ranked
// and searched top-p, the in-row fallback (flat, one-hot, all-equal rows:
// the search below the threshold, ties read in index order, survivors
// gathered again, a row search moving to shared memory), NaN and -Inf
// handling, both tie modes, every launch shape (one block per row, few or
// many rows; rows cut over two blocks at 2 x 16384), the id output
// (ranked, compacted and sorted, searched in the row), and top-p alone
// settled from a whole row's candidates.
func TestGPUSanitizerCoverage(t *testing.T) {
	for _, mode := range []sampler.TieMode{sampler.Exact, sampler.KeepTies} {
		s := newGPU(t, sampler.WithTieMode(mode))
		var idCases []testcases.Case
		for _, d := range []testcases.Dist{testcases.LLMLike, testcases.Flat, testcases.OneHot} {
			idCases = append(idCases,
				testcases.Case{Name: d.String() + "_ids_k50_p0.9", Batch: 2, Vocab: 6000, Dist: d, Seed: 6,
					K: testcases.KConst(50), P: testcases.PConst(0.9)},
				testcases.Case{Name: d.String() + "_ids_p0.9", Batch: 2, Vocab: 6000, Dist: d, Seed: 7, P: testcases.PConst(0.9)})
		}
		// Four blocks a multiprocessor (on 132 SMs) write ids too.
		idCases = append(idCases, testcases.Case{Name: "llm_four_blocks_ids_k50_p0.9", Batch: 540, Vocab: 300,
			Dist: testcases.LLMLike, Seed: 11, K: testcases.KConst(50), P: testcases.PConst(0.9)})
		checkIDs(t, s, newNative(t), idCases, []int{64, sampler.MaxIDs})
		var cases []testcases.Case
		for _, d := range []testcases.Dist{testcases.LLMLike, testcases.Flat, testcases.OneHot, testcases.AllEqual,
			testcases.WithNaN, testcases.NegInfMask90} {
			for _, v := range []int{300, 6000, 16384} {
				for _, b := range []int{2, 200} { // below and above the multiprocessor count
					if b == 200 && v >= 6000 {
						continue
					}
					cases = append(cases,
						testcases.Case{Name: d.String() + "_k5", Batch: b, Vocab: v, Dist: d, Seed: 1, K: testcases.KConst(5)},
						testcases.Case{Name: d.String() + "_k50_p0.9", Batch: b, Vocab: v, Dist: d, Seed: 2,
							K: testcases.KConst(50), P: testcases.PConst(0.9)},
						testcases.Case{Name: d.String() + "_p0.9", Batch: b, Vocab: v, Dist: d, Seed: 3, P: testcases.PConst(0.9)},
						testcases.Case{Name: d.String() + "_k400_p0.5", Batch: b, Vocab: v, Dist: d, Seed: 4,
							K: testcases.KConst(400), P: testcases.PConst(0.5)},
						testcases.Case{Name: d.String() + "_p0", Batch: b, Vocab: v, Dist: d, Seed: 5, P: testcases.PConst(0)})
				}
			}
		}
		// More rows than multiprocessors, rows that miss: handed on as
		// two-part split rows (cuda/hand_on.cuh), more than the list holds.
		for _, d := range []testcases.Dist{testcases.Flat, testcases.NegInfMask90} {
			cases = append(cases, testcases.Case{Name: d.String() + "_handed_on_p0.9", Batch: 140, Vocab: 4104, Dist: d,
				Seed: 8, P: testcases.PConst(0.9)})
		}
		// Rows cut into two parts (on 132 SMs), rows that miss: their
		// passes sliced, taken by blocks past their parts too
		// (cuda/sliced_passes.cuh), more rows than the board lists.
		for _, d := range []testcases.Dist{testcases.Flat, testcases.NegInfMask90} {
			cases = append(cases, testcases.Case{Name: d.String() + "_sliced_p0.9", Batch: 130, Vocab: 16384, Dist: d,
				Seed: 13, P: testcases.PConst(0.9)})
		}
		// Rows enough for four blocks a multiprocessor (on 132 SMs): every
		// row has a top-k (launch_typed), found in the candidates or, for
		// flat rows, by a search over the row.
		cases = append(cases,
			testcases.Case{Name: "llm_four_blocks_k50_p0.9", Batch: 540, Vocab: 300, Dist: testcases.LLMLike, Seed: 9,
				K: testcases.KConst(50), P: testcases.PConst(0.9)},
			testcases.Case{Name: "flat_four_blocks_k50_p0.9", Batch: 540, Vocab: 4104, Dist: testcases.Flat,
				Seed: 10, K: testcases.KConst(50), P: testcases.PConst(0.9)})
		// Whole rows (more rows than multiprocessors) of a sampled
		// threshold: top-p alone settled from the candidates and the rest
		// mass of the row.
		cases = append(cases, testcases.Case{Name: "llm_whole_rows_pmixed", Batch: 140, Vocab: 5000,
			Dist: testcases.LLMLike, Seed: 12, P: testcases.PMixed()})
		runCases(t, s, cases)
	}
}

// TestGPUSanitizerCoverageSliced runs split rows of two parts whose passes
// are all sliced (the slice-at-once ablation: under a sanitizer the plain
// call's choice, which waits for most rows to be decided, is a matter of
// timing), rows that miss against the in-place ablation, bit for bit.
func TestGPUSanitizerCoverageSliced(t *testing.T) {
	nc := newNative(t)
	for _, d := range []testcases.Dist{testcases.Flat, testcases.NegInfMask90, testcases.LLMLike} {
		const batch, vocab = 130, 16384 // two parts a row on 132 SMs
		logits := testcases.Logits(batch, vocab, d, 14)
		p := make([]float32, batch)
		for r := range p {
			p[r] = 0.9
		}
		inPlace, _ := ablatedRun(t, nc, logits, batch, vocab, nil, p, false, native.AblateInPlace)
		sliced, _ := ablatedRun(t, nc, logits, batch, vocab, nil, p, false, native.AblateSliceAtOnce)
		require.Equal(t, bitsOf(inPlace), bitsOf(sliced), "%s: sliced at once differs from in place", d)
	}
}
