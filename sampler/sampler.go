// Package sampler truncates LLM logits with exact Top-k and Top-p (the Qrita
// algorithm) on the CPU, on NVIDIA GPUs (-tags cuda) or on AMD GPUs
// (-tags hip). The semantics are those documented in package reference:
// rank by value then lower index, NaN and -Inf never kept, top-p over the
// top-k survivors, kept entries keep their exact bits, removed entries
// become -Inf.
//
// A Sampler is safe for concurrent use by many goroutines. Close waits for
// calls in flight and frees every resource; later calls return ErrClosed.
//
// On a GPU backend, TopKTopP copies host rows to the device and back. Logits
// already in device memory go through TopKTopPDevice (mask in place) or
// TopKTopPIDsDevice (kept ids in rank order): fp32, fp16 or bf16, any row
// stride, k and p from host slices or device arrays, enqueued on the
// caller's stream without a host sync. The GPU kernels never allocate
// memory of vocabulary size, and the same row gives the same bits whatever
// the batch it travels in.
package sampler

import (
	"context"
	"sync"

	"github.com/qrita-project/qrita/reference"
)

// backend is what each implementation provides. Arguments reach it
// validated.
type backend interface {
	kind() Backend
	topKTopP(ctx context.Context, logits []float32, batch, vocab int, k []int32, p []float32, ties TieMode) error
	close() error
}

// Sampler truncates logits. Create one with [New].
type Sampler struct {
	mu   sync.RWMutex // held for reading by calls, for writing by Close
	b    backend
	cfg  config
	gpu  *gpuState // nil unless a GPU backend is in use
	done bool
}

// New returns a Sampler on the chosen backend (see [WithBackend]).
func New(opts ...Option) (*Sampler, error) {
	cfg, err := newConfig(opts)
	if err != nil {
		return nil, &Error{Op: "New", Err: err}
	}
	s := &Sampler{cfg: cfg}
	switch cfg.backend {
	case BackendCPU:
		s.b = newCPUBackend(cfg)
	default:
		g, b, err := newGPUBackend(cfg)
		if err != nil {
			return nil, err
		}
		s.gpu, s.b = g, b
	}
	return s, nil
}

// Backend reports the backend in use.
func (s *Sampler) Backend() Backend { return s.cfg.backend }

// TieMode reports the tie mode every call uses.
func (s *Sampler) TieMode() TieMode { return s.cfg.ties }

// Close frees the sampler's resources. It is safe to call more than once.
func (s *Sampler) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.done {
		return nil
	}
	s.done = true
	return s.b.close()
}

// TopKTopP truncates row-major [batch][vocab] logits in host memory, in
// place: row i keeps its top k[i] tokens, then the shortest prefix of those
// whose probability reaches p[i]. A nil k or p disables that filter.
// On a GPU backend the rows travel to the device and back.
func (s *Sampler) TopKTopP(ctx context.Context, logits []float32, batch, vocab int, k []int32, p []float32) error {
	const op = "TopKTopP"
	if err := reference.CheckArgs(len(logits), batch, vocab, k, p); err != nil {
		return &Error{Op: op, Err: err}
	}
	release, err := s.enter(ctx, op)
	if err != nil {
		return err
	}
	defer release()
	if batch == 0 {
		return nil // an empty batch is a no-op
	}
	return s.b.topKTopP(ctx, logits, batch, vocab, k, p, s.cfg.ties)
}

// enter takes the read lock after checking ctx and the closed state.
func (s *Sampler) enter(ctx context.Context, op string) (func(), error) {
	if ctx == nil {
		return nil, newError(op, ErrInvalidArgument, "nil context")
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.RLock()
	if s.done {
		s.mu.RUnlock()
		return nil, newError(op, ErrClosed, "")
	}
	return s.mu.RUnlock, nil
}
