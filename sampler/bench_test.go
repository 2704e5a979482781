package sampler_test

import (
	"context"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/qrita-project/qrita/internal/testcases"
	"github.com/qrita-project/qrita/reference"
	"github.com/qrita-project/qrita/sampler"
)

// The benchmarks run every shape of testcases.Benchmarks (the first is the
// headline: batch 64, vocab 128256, k=50, p=0.9, LLM-like logits) three
// ways, in one run so that their figures compare:
//
//	BenchmarkCPU        the CPU backend through the public API
//	BenchmarkReference  the reference oracle (sort per row, float64)
//	BenchmarkReadOnce   a sum of every logit, parallel over rows with as
//	                    many goroutines as the CPU backend: the floor for
//	                    anything that must read its input once
//
// Truncation is in place, so every iteration first restores the logits
// from a pristine copy with the timer stopped. All three benchmarks do the
// same restore, so they start from the same cache state (the copy leaves
// the tail of the batch in cache for each of them alike).
//
// Metrics: ns/op per call, ns/row, and MB/s of logits processed. To see the
// three side by side with their ratios:
//
//	go test ./sampler -run '^$' -bench . -count 6 | tee bench.txt
//	benchstat -col .name bench.txt

func BenchmarkCPU(b *testing.B) {
	s, err := sampler.New(sampler.WithBackend(sampler.BackendCPU))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	forEachShape(b, func(c testcases.Case, logits []float32, k []int32, p []float32) {
		if err := s.TopKTopP(ctx, logits, c.Batch, c.Vocab, k, p); err != nil {
			b.Fatal(err)
		}
	})
}

func BenchmarkReference(b *testing.B) {
	forEachShape(b, func(c testcases.Case, logits []float32, k []int32, p []float32) {
		if err := reference.TopKTopP(logits, c.Batch, c.Vocab, k, p); err != nil {
			b.Fatal(err)
		}
	})
}

func BenchmarkReadOnce(b *testing.B) {
	workers := runtime.GOMAXPROCS(0) // the CPU backend's default
	forEachShape(b, func(c testcases.Case, logits []float32, _ []int32, _ []float32) {
		readOnceSink.Store(sumRowsParallel(logits, c.Batch, c.Vocab, workers))
	})
}

// forEachShape runs one sub-benchmark per benchmark shape, restoring the
// logits before each timed call of run.
func forEachShape(b *testing.B, run func(c testcases.Case, logits []float32, k []int32, p []float32)) {
	for _, c := range testcases.Benchmarks() {
		b.Run(c.Name, func(b *testing.B) {
			pristine, k, p := c.Args()
			logits := make([]float32, len(pristine))
			b.SetBytes(int64(len(pristine)) * 4)
			for b.Loop() {
				b.StopTimer()
				copy(logits, pristine)
				b.StartTimer()
				run(c, logits, k, p)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(c.Batch), "ns/row")
		})
	}
}

var readOnceSink atomic.Uint32

// sumRowsParallel sums every logit, rows spread over workers goroutines
// the way the CPU backend spreads them, and returns the bits of the total
// so the compiler cannot drop the reads.
func sumRowsParallel(logits []float32, batch, vocab, workers int) uint32 {
	var next atomic.Int64
	var total atomic.Uint32
	var wg sync.WaitGroup
	for range min(workers, batch) {
		wg.Go(func() {
			var bits uint32
			for {
				i := int(next.Add(1)) - 1
				if i >= batch {
					break
				}
				bits ^= float32Bits(sumRow(logits[i*vocab : (i+1)*vocab]))
			}
			total.Add(bits)
		})
	}
	wg.Wait()
	return total.Load()
}

// sumRow is the fastest plain scalar sum: eight independent accumulators
// keep the loop bound by loads, not by add latency.
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

func float32Bits(x float32) uint32 { return math.Float32bits(x) }
