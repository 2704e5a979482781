package main

import (
	"context"

	"github.com/qrita-project/qrita/internal/benchfmt"
	"github.com/qrita-project/qrita/internal/readonce"
	"github.com/qrita-project/qrita/reference"
	"github.com/qrita-project/qrita/sampler"
)

// runCPU times every case on the CPU backend: the read-once floor (once
// per shape), the backend, and with the reference on, the reference and
// the verification. stop ends the sweep between cases.
func runCPU(stop context.Context, o options, cases []benchCase, workers int, mode reference.TieMode, prog *progress) ([]benchfmt.Result, error) {
	s, err := sampler.New(sampler.WithBackend(sampler.BackendCPU), sampler.WithWorkers(workers), sampler.WithTieMode(mode))
	if err != nil {
		return nil, err
	}
	defer s.Close()
	withRef := o.ref.on(len(cases))
	ctx := context.Background()
	var results []benchfmt.Result
	var pristine, logits, got []float32
	var floorNs float64
	var last shape
	for i, c := range cases {
		if stopRequested(stop) {
			return results, errInterrupted
		}
		prog.begin(c.String())
		if i == 0 || c.shape() != last {
			last = c.shape()
			pristine = c.input(o.seed)
			logits = make([]float32, len(pristine))
			got = make([]float32, len(pristine))
			floor, err := timeCalls(o.warmup, o.reps, func() { copy(logits, pristine) }, func() error {
				readonce.Sum(logits, c.batch, c.vocab, workers)
				return nil
			})
			if err != nil {
				return nil, err
			}
			floorNs = float64(floor.Nanoseconds())
		}
		restore := func() { copy(logits, pristine) }
		k, p := c.perRow()
		if err := reference.CheckArgs(len(pristine), c.batch, c.vocab, k, p); err != nil {
			return nil, err
		}
		call, err := timeCalls(o.warmup, o.reps, restore, func() error {
			return s.TopKTopP(ctx, logits, c.batch, c.vocab, k, p)
		})
		if err != nil {
			return nil, err
		}
		r := benchfmt.Result{Backend: string(sampler.BackendCPU), Device: -1, Batch: c.batch, Vocab: c.vocab, K: c.k,
			P: c.p, Dist: c.distName, DType: c.dtype.String(), Reps: o.reps, CallNs: float64(call.Nanoseconds()),
			Floor: benchfmt.FloorReadOnce, FloorNs: floorNs}
		if withRef {
			copy(got, logits)
			ref, err := timeCalls(0, o.refReps, restore, func() error {
				return reference.TopKTopPTies(logits, c.batch, c.vocab, k, p, mode)
			})
			if err != nil {
				return nil, err
			}
			r.RefNs = float64(ref.Nanoseconds())
			if o.verify {
				v := compareRows(pristine, got, logits, c.batch, c.vocab, k, p, mode)
				r.Verify = &v
			}
		}
		results = append(results, r)
		prog.end()
	}
	return results, nil
}
