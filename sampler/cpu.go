package sampler

import (
	"context"

	"github.com/qrita-project/qrita/reference"
)

// TEMPORARY: replaced by the Qrita CPU backend.
type cpuBackend struct{ workers int }

func newCPUBackend(cfg config) backend { return &cpuBackend{workers: cfg.workers} }

func (c *cpuBackend) kind() Backend { return BackendCPU }
func (c *cpuBackend) close() error  { return nil }
func (c *cpuBackend) topKTopP(ctx context.Context, logits []float32, batch, vocab int, k []int32, p []float32, ties TieMode) error {
	return reference.TopKTopPTies(logits, batch, vocab, k, p, ties)
}
