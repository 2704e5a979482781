package sampler_test

import (
	"context"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/qrita-project/qrita/internal/readonce"
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
		readOnceSink.Store(readonce.Sum(logits, c.Batch, c.Vocab, workers))
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
