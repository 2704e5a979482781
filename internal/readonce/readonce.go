// Package readonce is the floor qrita's CPU figures are measured against:
// a plain parallel sum that reads every logit once.
package readonce

import (
	"math"
	"sync"
	"sync/atomic"
)

// Sum sums every logit, rows spread over workers goroutines as the
// CPU backend spreads them: the time any implementation needs at least,
// since each must read every logit once. It returns the bits of the sum
// so that the reads cannot be optimised away.
func Sum(logits []float32, batch, vocab, workers int) uint32 {
	var next atomic.Int64
	parts := make([]uint32, min(workers, batch))
	var wg sync.WaitGroup
	for w := range parts {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= batch {
					break
				}
				parts[w] ^= math.Float32bits(sumRow(logits[i*vocab : (i+1)*vocab]))
			}
		})
	}
	wg.Wait()
	var total uint32
	for _, p := range parts {
		total ^= p
	}
	return total
}

// sumRow is the fastest plain scalar sum: eight independent accumulators
// keep it bound by loads rather than by add latency.
func sumRow(row []float32) float32 {
	var a0, a1, a2, a3, a4, a5, a6, a7 float32
	i := 0
	for ; i+8 <= len(row); i += 8 {
		r := row[i : i+8 : i+8]
		a0 += r[0]
		a1 += r[1]
		a2 += r[2]
		a3 += r[3]
		a4 += r[4]
		a5 += r[5]
		a6 += r[6]
		a7 += r[7]
	}
	for ; i < len(row); i++ {
		a0 += row[i]
	}
	return a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7
}
