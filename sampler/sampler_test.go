package sampler_test

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/qrita-project/qrita/internal/testcases"
	"github.com/qrita-project/qrita/reference"
	"github.com/qrita-project/qrita/sampler"
)

// maxAmbiguousRate bounds the share of random (non-boundary) rows whose
// top-p cut may differ from the reference within the ambiguity tolerance.
const maxAmbiguousRate = 1e-4

// shortSize is the largest case run under -short or the race detector
// (which slows the oracle tenfold and checks concurrency, not arithmetic).
const shortSize = 1 << 16

var raceEnabled = func() bool {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return false
	}
	for _, s := range info.Settings {
		if s.Key == "-race" {
			return s.Value == "true"
		}
	}
	return false
}()

func trimmed() bool { return testing.Short() || raceEnabled }

// The helpers below take a *sampler.Sampler so that a test file built for
// a GPU backend runs the same checks.

// runTable checks s against the reference on every case of the table.
func runTable(t *testing.T, s *sampler.Sampler) {
	t.Helper()
	var cases []testcases.Case
	for _, c := range testcases.Table() {
		if !trimmed() || c.Size() <= shortSize {
			cases = append(cases, c)
		}
	}
	runCases(t, s, cases)
}

// runCases checks s against the reference on cases: no forbidden
// difference in any row, k and p untouched, and ambiguous differences on
// random rows rarer than maxAmbiguousRate.
func runCases(t *testing.T, s *sampler.Sampler, cases []testcases.Case) {
	t.Helper()
	randomRows, ambiguousRows := 0, 0
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			orig, k, p := c.Args()
			kIn, pIn := slices.Clone(k), slices.Clone(p)
			got := slices.Clone(orig)
			require.NoError(t, s.TopKTopP(context.Background(), got, c.Batch, c.Vocab, k, p))
			require.Equal(t, kIn, k, "k must not be modified")
			require.Equal(t, pIn, p, "p must not be modified")
			ambiguous := checkRows(t, orig, got, c.Batch, c.Vocab, k, p, s.TieMode())
			if !c.Boundary {
				randomRows += c.Batch
				ambiguousRows += ambiguous
			}
		})
	}
	t.Logf("%d cases, %d random rows, %d differ within the ambiguity tolerance", len(cases), randomRows, ambiguousRows)
	assert.Less(t, float64(ambiguousRows), maxAmbiguousRate*float64(randomRows),
		"too many random rows cut differently from the reference within the ambiguity tolerance")
}

// checkRows fails t for every row of got that the contract forbids,
// showing the first differing token of each, and returns the number of
// rows that differ within the ambiguity tolerance.
func checkRows(t testing.TB, orig, got []float32, batch, vocab int, k []int32, p []float32, mode reference.TieMode) (ambiguous int) {
	t.Helper()
	bad, ambiguous := testcases.Diff(orig, got, batch, vocab, k, p, mode)
	if len(bad) == 0 {
		return ambiguous
	}
	want := testcases.Expected(orig, batch, vocab, k, p, mode)
	for _, i := range bad[:min(len(bad), 5)] {
		kk, pp := "nil", "nil"
		if k != nil {
			kk = fmt.Sprint(k[i])
		}
		if p != nil {
			pp = fmt.Sprint(p[i])
		}
		t.Errorf("row %d (k=%s p=%s %v): %s", i, kk, pp, mode,
			testcases.Compare(got[i*vocab:(i+1)*vocab], want[i*vocab:(i+1)*vocab], 1, vocab))
	}
	t.Errorf("%d of %d rows differ from the reference", len(bad), batch)
	return ambiguous
}

// runConcurrent has many goroutines share s, each checking its results.
func runConcurrent(t *testing.T, s *sampler.Sampler) {
	t.Helper()
	var cases []testcases.Case
	for _, c := range testcases.Table() {
		if c.Size() <= 1<<14 && !c.Boundary {
			cases = append(cases, c)
		}
	}
	const goroutines, callsEach = 16, 24
	var wg sync.WaitGroup
	for g := 0; g < goroutines; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < callsEach; j++ {
				c := cases[(g*callsEach+j*7)%len(cases)]
				orig, k, p := c.Args()
				got := slices.Clone(orig)
				if !assert.NoError(t, s.TopKTopP(context.Background(), got, c.Batch, c.Vocab, k, p), c.Name) {
					return
				}
				bad, _ := testcases.Diff(orig, got, c.Batch, c.Vocab, k, p, s.TieMode())
				if !assert.Empty(t, bad, c.Name) {
					return
				}
			}
		}()
	}
	wg.Wait()
}

// runCloseDuringCalls closes s while goroutines call it: each call either
// completes correctly or reports ErrClosed, and every call after Close
// returns ErrClosed.
func runCloseDuringCalls(t *testing.T, s *sampler.Sampler) {
	t.Helper()
	c := testcases.Case{Name: "close", Batch: 4, Vocab: 4099, Dist: testcases.LLMLike, Seed: 1,
		K: testcases.KConst(50), P: testcases.PConst(0.9)}
	orig, k, p := c.Args()
	want := testcases.Expected(orig, c.Batch, c.Vocab, k, p, s.TieMode())
	started := make(chan struct{})
	var once sync.Once
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				got := slices.Clone(orig)
				err := s.TopKTopP(context.Background(), got, c.Batch, c.Vocab, k, p)
				once.Do(func() { close(started) })
				if errors.Is(err, sampler.ErrClosed) {
					return
				}
				if !assert.NoError(t, err) || !assert.Empty(t, testcases.Compare(got, want, c.Batch, c.Vocab)) {
					return
				}
			}
		}()
	}
	<-started
	require.NoError(t, s.Close())
	wg.Wait()
	err := s.TopKTopP(context.Background(), slices.Clone(orig), c.Batch, c.Vocab, k, p)
	require.ErrorIs(t, err, sampler.ErrClosed)
}

func newCPU(t *testing.T, opts ...sampler.Option) *sampler.Sampler {
	t.Helper()
	s, err := sampler.New(append([]sampler.Option{sampler.WithBackend(sampler.BackendCPU)}, opts...)...)
	require.NoError(t, err)
	t.Cleanup(func() { assert.NoError(t, s.Close()) })
	return s
}

func TestCPUMatchesReferenceOnTable(t *testing.T) {
	for _, mode := range []sampler.TieMode{sampler.Exact, sampler.KeepTies} {
		t.Run(mode.String(), func(t *testing.T) {
			s := newCPU(t, sampler.WithTieMode(mode))
			require.Equal(t, mode, s.TieMode())
			runTable(t, s)
		})
	}
}

// TestCPUWorkerCountsAgree runs a spread of mid-size cases with worker
// counts that do and do not divide the batch, as the CPU backend splits
// work by them (and reuses per-worker scratch across rows).
func TestCPUWorkerCountsAgree(t *testing.T) {
	var all []testcases.Case
	for _, c := range testcases.Table() {
		if c.Batch >= 2 && c.Vocab >= 1000 && c.Size() <= 1<<16 && !c.Boundary {
			all = append(all, c)
		}
	}
	var cases []testcases.Case
	for i := 0; i < len(all); i += max(1, len(all)/60) {
		cases = append(cases, all[i])
	}
	for _, workers := range []int{1, 3, 64} {
		t.Run(fmt.Sprintf("workers=%d", workers), func(t *testing.T) {
			runCases(t, newCPU(t, sampler.WithWorkers(workers), sampler.WithTieMode(sampler.KeepTies)), cases)
		})
	}
}

func TestCPUConcurrentUse(t *testing.T) {
	runConcurrent(t, newCPU(t))
}

func TestCPUCloseDuringCalls(t *testing.T) {
	s, err := sampler.New(sampler.WithBackend(sampler.BackendCPU))
	require.NoError(t, err)
	runCloseDuringCalls(t, s)
}

func TestCPUBackendReportsItself(t *testing.T) {
	s := newCPU(t)
	assert.Equal(t, sampler.BackendCPU, s.Backend())
	assert.Equal(t, sampler.Exact, s.TieMode(), "Exact is the default tie mode")
}

func TestCloseIsIdempotent(t *testing.T) {
	s, err := sampler.New(sampler.WithBackend(sampler.BackendCPU))
	require.NoError(t, err)
	require.NoError(t, s.Close())
	require.NoError(t, s.Close())
	logits := []float32{1, 2}
	err = s.TopKTopP(context.Background(), logits, 1, 2, nil, nil)
	require.ErrorIs(t, err, sampler.ErrClosed)
	assert.Equal(t, []float32{1, 2}, logits, "a closed sampler must not touch the logits")
	require.NoError(t, s.Close())
}

func TestCancelledContext(t *testing.T) {
	s := newCPU(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	logits := testcases.Logits(2, 64, testcases.LLMLike, 1)
	err := s.TopKTopP(ctx, logits, 2, 64, nil, nil)
	require.ErrorIs(t, err, context.Canceled)

	past, cancel2 := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel2()
	require.ErrorIs(t, s.TopKTopP(past, logits, 2, 64, nil, nil), context.DeadlineExceeded)
}

// TestCancelDuringCall cancels while a large call runs: it must finish, or
// stop with the context's error, and never fail otherwise.
func TestCancelDuringCall(t *testing.T) {
	s := newCPU(t)
	c := testcases.Case{Name: "cancel", Batch: 16, Vocab: 32000, Dist: testcases.LLMLike, Seed: 2,
		K: testcases.KConst(50), P: testcases.PConst(0.9)}
	orig, k, p := c.Args()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(time.Millisecond, cancel)
	got := slices.Clone(orig)
	err := s.TopKTopP(ctx, got, c.Batch, c.Vocab, k, p)
	if err != nil {
		require.ErrorIs(t, err, context.Canceled)
		return
	}
	checkRows(t, orig, got, c.Batch, c.Vocab, k, p, s.TieMode())
}
