//go:build (cuda || hip) && cgo

package sampler_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/qrita-project/qrita/internal/native"
	"github.com/qrita-project/qrita/internal/testcases"
	"github.com/qrita-project/qrita/sampler"
)

// With more rows than multiprocessors, a top-p row whose candidates do
// not settle it is handed on: its block lists it and goes on, and blocks
// that ran out of rows take it as a split row (cuda/hand_on.cuh). In a
// batch cut into a few parts a row, such a row's passes are sliced, and
// blocks past their own parts take slices too (cuda/sliced_passes.cuh).
// The bits must be those of the row decided in place (the in-place
// ablation: no hand-on, each split row's passes on its own blocks),
// whether the row was listed or the list was full, and the reference's.
func TestGPUHandedOnRowsMatchInPlace(t *testing.T) {
	s := newGPU(t)
	nc := newNative(t)
	keepTies := s.TieMode() == sampler.KeepTies
	cases := []struct {
		dist  testcases.Dist
		batch int
		vocab int
		p     float32
		joint bool // every third row also has k=50 (never handed on)
		flat  int  // > 0: rows 5, 5 + flat, 5 + 2 flat ... are flat rows instead
	}{
		// Seed 1: rows 86, 148 and 219 end below the second gather.
		{testcases.LLMLike, 300, 262208, 0.9, false, 0},
		{testcases.LLMLike, 300, 262208, 0.9, true, 0},
		{testcases.LLMLike, 200, 262208, 0.99, false, 0},
		// Every row misses: past the first 16 offered, rows stay in place
		// (kHandOnMissShare).
		{testcases.Flat, 300, 32768, 0.9, false, 0},
		// One row in 40 misses: all ~30 are listed, one round of the 32
		// groups; at 2400 rows ~60, more than the groups serve at once
		// (a second round in the groups' regions).
		{testcases.LLMLike, 1200, 32768, 0.9, false, 40},
		{testcases.LLMLike, 2400, 16384, 0.9, false, 40},
		{testcases.NegInfMask90, 200, 32768, 0.9, true, 0},
		{testcases.Plateau, 150, 32768, 0.9, false, 0},
		{testcases.BF16Ties, 200, 151936, 0.95, false, 0},
		{testcases.OneHot, 200, 32768, 0.9, false, 0},
		// Rows shorter than two parts of the minimum size stay in place.
		{testcases.Flat, 400, 3000, 0.5, false, 0},
		// Split rows of 2 parts (89-132 rows on an H200): sliced passes.
		// Seed 1's row 86 ends below the second gather; flat rows all
		// miss, more than the board lists.
		{testcases.LLMLike, 128, 262208, 0.9, false, 0},
		{testcases.LLMLike, 100, 262208, 0.99, false, 0},
		{testcases.Flat, 100, 128256, 0.9, false, 0},
		{testcases.NegInfMask90, 100, 128256, 0.9, true, 0},
		{testcases.Plateau, 120, 32768, 0.9, false, 0},
		{testcases.BF16Ties, 100, 151936, 0.95, false, 0},
		{testcases.OneHot, 120, 32768, 0.9, false, 0},
		// Four parts a row: not sliced.
		{testcases.Flat, 64, 128256, 0.9, false, 0},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s_%dx%d_p%g_joint%v", c.dist, c.batch, c.vocab, c.p, c.joint), func(t *testing.T) {
			logits := testcases.Logits(c.batch, c.vocab, c.dist, 1)
			if c.flat > 0 {
				rng := testcases.NewRand(2)
				for r := 5; r < c.batch; r += c.flat {
					testcases.Fill(logits[r*c.vocab:(r+1)*c.vocab], testcases.Flat, rng)
				}
			}
			p := make([]float32, c.batch)
			var k []int32
			if c.joint {
				k = make([]int32, c.batch)
			}
			for r := range p {
				p[r] = c.p
				if c.joint && r%3 == 0 {
					k[r] = 50
				}
			}
			inPlace, stats := ablatedRun(t, nc, logits, c.batch, c.vocab, k, p, keepTies, native.AblateInPlace)
			// Sliced from the first pass, whatever the other rows' progress
			// (the plain call slices a row's passes once most rows are
			// decided, which no test can time).
			atOnce, _ := ablatedRun(t, nc, logits, c.batch, c.vocab, k, p, keepTies, native.AblateSliceAtOnce)
			got := slices.Clone(logits)
			require.NoError(t, s.TopKTopP(context.Background(), got, c.batch, c.vocab, k, p))
			// And again: the list is back at zero after a call.
			again := slices.Clone(logits)
			require.NoError(t, s.TopKTopP(context.Background(), again, c.batch, c.vocab, k, p))
			rowOf := func(xs []float32, r int) []float32 { return xs[r*c.vocab : (r+1)*c.vocab] }
			missed := 0
			for r := range c.batch {
				require.True(t, slices.Equal(bitsOf(rowOf(got, r)), bitsOf(rowOf(inPlace, r))), "row %d differs", r)
				require.True(t, slices.Equal(bitsOf(rowOf(again, r)), bitsOf(rowOf(got, r))), "row %d differs on the second call", r)
				require.True(t, slices.Equal(bitsOf(rowOf(atOnce, r)), bitsOf(rowOf(got, r))), "row %d differs sliced at once", r)
				// The reference checks the rows that missed (the handed-on
				// kind), at most a few dozen: the CPU sort takes time.
				if stats[r].Hit == 0 && missed < 24 {
					missed++
					var kr []int32
					if k != nil {
						kr = k[r : r+1]
					}
					checkRows(t, rowOf(logits, r), rowOf(got, r), 1, c.vocab, kr, p[r:r+1], s.TieMode())
				}
			}
			t.Logf("%d rows checked against the reference", missed)
		})
	}
}
