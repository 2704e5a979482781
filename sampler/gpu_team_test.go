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

// Top-p rows whose nucleus reaches below the candidates take passes over
// the whole row (a second gather, the value-binned histogram and the
// bin's gather). In a small batch the split row's blocks share those
// passes, each over its part; in a batch of 300 one block takes the row
// (the in-place ablation).
// The bits must be the same, and the reference's.
func TestGPUSplitRowTeamMatchesOneBlock(t *testing.T) {
	s := newGPU(t)
	nc := newNative(t)
	const batch = 300 // beyond every split: one block a row
	cases := []struct {
		dist  testcases.Dist
		vocab int
		p     float32
		rows  []int
	}{
		// Seed 1 (qrita-bench's): rows 86, 148 and 219 end their nucleus
		// below the second gather's candidates, in a value bin.
		{testcases.LLMLike, 262208, 0.9, []int{86, 148, 219}},
		{testcases.LLMLike, 262208, 0.99, []int{0, 1, 2}},
		{testcases.Flat, 128256, 0.9, []int{0, 1, 299}},
		{testcases.NegInfMask90, 128256, 0.9, []int{3, 4}},
		{testcases.BF16Ties, 151936, 0.95, []int{5, 6, 7}},
		{testcases.Plateau, 128256, 0.9, []int{8, 9}},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s_%d_p%g", c.dist, c.vocab, c.p), func(t *testing.T) {
			logits := testcases.Logits(batch, c.vocab, c.dist, 1)
			p := make([]float32, batch)
			for i := range p {
				p[i] = c.p
			}
			// In place: the batch's rows that miss are not handed on to
			// split rows (TestGPUHandedOnRowsMatchInPlace covers that).
			whole, _ := ablatedRun(t, nc, logits, batch, c.vocab, nil, p, s.TieMode() == sampler.KeepTies,
				native.AblateInPlace)
			rowOf := func(xs []float32, r int) []float32 { return xs[r*c.vocab : (r+1)*c.vocab] }

			// Each row alone (the most parts), then the rows together.
			for _, r := range c.rows {
				alone := slices.Clone(rowOf(logits, r))
				require.NoError(t, s.TopKTopP(context.Background(), alone, 1, c.vocab, nil, p[:1]))
				require.True(t, slices.Equal(bitsOf(alone), bitsOf(rowOf(whole, r))), "row %d alone differs", r)
				checkRows(t, rowOf(logits, r), alone, 1, c.vocab, nil, p[:1], s.TieMode())
			}
			var some []float32
			for _, r := range c.rows {
				some = append(some, rowOf(logits, r)...)
			}
			require.NoError(t, s.TopKTopP(context.Background(), some, len(c.rows), c.vocab, nil, p[:len(c.rows)]))
			for i, r := range c.rows {
				require.True(t, slices.Equal(bitsOf(rowOf(some, i)), bitsOf(rowOf(whole, r))),
					"row %d among %d rows differs", r, len(c.rows))
			}
		})
	}
}
