package sampler

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/qrita-project/qrita/reference"
)

// chunksPerWorker: each worker claims rows in chunks, about this many per
// worker per call, which balances uneven rows (a fallback row costs a few
// times a truncated one) and bounds the delay before a cancelled ctx is
// noticed to one chunk.
const chunksPerWorker = 8

// cpuBackend is the pure-Go Qrita implementation, parallel over rows. Per
// row (cpu_row.go):
//
//  1. Sigma-truncation (cpu_threshold.go, cpu_quantile.go): the mean and
//     standard deviation of a small sample of the row and a normal
//     quantile give a threshold t above which about a target number of
//     tokens should lie (a few times k for top-k, pTarget for top-p).
//  2. One pass gathers the tokens >= t as packed candidates (cpu_gather.go,
//     cpu_key.go); a top-p-only row also sums the softmax mass under t, per
//     bin of distance below t (cpu_mass.go).
//  3. Exact selection over the candidates: a radix select of the k-th
//     largest key, ties by index (cpu_select.go), then the top-p cut over
//     the survivors, sorted when few, else by a radix select on softmax
//     mass (cpu_topp.go).
//  4. When the candidates cannot hold the answer (fewer than k, too little
//     mass, buffer overflow, no usable threshold), a top-p-only row gathers
//     again down to where its binned mass says the cut lies; any other row
//     takes the exact path, where every token is a candidate.
//  5. The row is rewritten in place: kept tokens keep their bits, the rest
//     become -Inf (cpu_output.go).
type cpuBackend struct {
	workers int
	scratch sync.Pool // *cpuScratch, reused across rows and calls
}

func newCPUBackend(cfg config) backend {
	return &cpuBackend{workers: max(1, cfg.workers)}
}

func (c *cpuBackend) kind() Backend { return BackendCPU }
func (c *cpuBackend) close() error  { return nil }

// topKTopP truncates every row. Rows are independent and each is computed
// the same way whatever worker runs it, so results do not depend on the
// number of workers. On cancellation it returns ctx's error with some rows
// truncated and the others untouched.
func (c *cpuBackend) topKTopP(ctx context.Context, logits []float32, batch, vocab int, k []int32, p []float32, ties TieMode) error {
	workers := min(c.workers, batch)
	chunk := max(1, batch/(workers*chunksPerWorker))
	var next atomic.Int64
	var stopped atomic.Bool // a worker saw ctx done before the rows ran out
	run := func() {
		s, _ := c.scratch.Get().(*cpuScratch)
		if s == nil {
			s = new(cpuScratch)
		}
		defer c.scratch.Put(s)
		for {
			start := int(next.Add(int64(chunk))) - chunk
			if start >= batch {
				return
			}
			if ctx.Err() != nil {
				stopped.Store(true)
				return
			}
			for i := start; i < min(start+chunk, batch); i++ {
				s.truncateRow(logits[i*vocab:(i+1)*vocab], reference.RowK(k, i), reference.RowP(p, i), ties)
			}
		}
	}
	if workers == 1 {
		run()
	} else {
		var wg sync.WaitGroup
		for range workers {
			wg.Go(run)
		}
		wg.Wait()
	}
	if stopped.Load() {
		return &Error{Op: "TopKTopP", Err: ctx.Err()}
	}
	return nil
}
