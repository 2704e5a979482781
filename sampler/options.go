package sampler

import (
	"fmt"
	"runtime"

	"github.com/qrita-project/qrita/reference"
)

// Backend names an implementation.
type Backend string

const (
	BackendCPU  Backend = "cpu"  // pure Go, always built
	BackendCUDA Backend = "cuda" // NVIDIA GPUs, built with -tags cuda
	BackendHIP  Backend = "hip"  // AMD GPUs (CDNA, wave64), built with -tags hip
)

// TieMode chooses how tokens equal to the last kept one are treated; see
// the reference package for the semantics.
type TieMode = reference.TieMode

const (
	// Exact keeps exactly the stable-sort prefix (ties by lower index).
	Exact = reference.Exact
	// KeepTies also keeps every token equal to the last kept one, as
	// vLLM's PyTorch path and FlashInfer do.
	KeepTies = reference.KeepTies
)

type config struct {
	backend Backend
	device  int
	ties    TieMode
	workers int
}

// Option configures [New].
type Option func(*config) error

// WithBackend picks the backend. The default is the GPU backend compiled
// into this build (-tags cuda or hip), else [BackendCPU].
func WithBackend(b Backend) Option {
	return func(c *config) error {
		switch b {
		case BackendCPU, BackendCUDA, BackendHIP:
			c.backend = b
			return nil
		}
		return fmt.Errorf("%w: unknown backend %q", ErrInvalidArgument, b)
	}
}

// WithDevice picks the GPU ordinal (default 0). The CPU backend ignores it.
func WithDevice(id int) Option {
	return func(c *config) error {
		if id < 0 {
			return fmt.Errorf("%w: device %d", ErrInvalidArgument, id)
		}
		c.device = id
		return nil
	}
}

// WithTieMode sets the tie mode for every call (default [Exact]).
func WithTieMode(m TieMode) Option {
	return func(c *config) error {
		if m != Exact && m != KeepTies {
			return fmt.Errorf("%w: unknown tie mode %d", ErrInvalidArgument, int(m))
		}
		c.ties = m
		return nil
	}
}

// WithWorkers bounds the goroutines the CPU backend uses per call
// (default GOMAXPROCS).
func WithWorkers(n int) Option {
	return func(c *config) error {
		if n <= 0 {
			return fmt.Errorf("%w: workers %d must be positive", ErrInvalidArgument, n)
		}
		c.workers = n
		return nil
	}
}

func newConfig(opts []Option) (config, error) {
	c := config{backend: defaultBackend, workers: runtime.GOMAXPROCS(0)}
	for _, o := range opts {
		if o == nil {
			continue
		}
		if err := o(&c); err != nil {
			return config{}, err
		}
	}
	return c, nil
}
