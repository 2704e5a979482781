package readonce

import (
	"math"
	"testing"
)

// Sum combines the exact per-row sums, whatever the worker count.
func TestSumCombinesRowSums(t *testing.T) {
	const batch, vocab = 5, 21 // vocab not a multiple of the 8 accumulators
	logits := make([]float32, batch*vocab)
	var want uint32
	for r := 0; r < batch; r++ {
		var s float32
		for j := 0; j < vocab; j++ {
			logits[r*vocab+j] = float32(r + 1) // sums are exact in float32
			s += float32(r + 1)
		}
		want ^= math.Float32bits(s)
	}
	for _, workers := range []int{1, 2, 7} {
		if got := Sum(logits, batch, vocab, workers); got != want {
			t.Errorf("workers %d: Sum = %#x, want %#x", workers, got, want)
		}
	}
}
