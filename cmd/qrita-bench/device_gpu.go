//go:build (cuda || hip) && cgo

package main

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/qrita-project/qrita/internal/benchfmt"
	"github.com/qrita-project/qrita/internal/gpubench"
	"github.com/qrita-project/qrita/internal/native"
	"github.com/qrita-project/qrita/reference"
	"github.com/qrita-project/qrita/sampler"
)

// gpuWorker is one device: its own sampler and native context. Every
// native call makes the context's device current, so workers may run in
// parallel on any OS threads.
type gpuWorker struct {
	id      int
	s       *sampler.Sampler
	nc      *native.Ctx
	info    native.Info
	results []benchfmt.Result
}

func (w *gpuWorker) open(o options, mode reference.TieMode) error {
	var err error
	if w.s, err = sampler.New(sampler.WithBackend(o.backend), sampler.WithDevice(w.id), sampler.WithTieMode(mode)); err != nil {
		return err
	}
	if w.nc, err = native.Create(w.id); err != nil {
		return err
	}
	w.info, err = w.nc.Info()
	return err
}

func (w *gpuWorker) close() {
	if w.nc != nil {
		w.nc.Destroy()
	}
	if w.s != nil {
		w.s.Close()
	}
}

// gpuOptions is the protocol of every case.
func gpuOptions(o options) gpubench.Options {
	return gpubench.Options{Reps: o.gpuReps, Inner: o.gpuInner, L2: gpubench.L2Mode(o.l2),
		Timing: gpubench.Timing(o.timing), Read: o.base.read, Sort: o.base.sort, Stats: true}
}

// specAblation maps -ablation to the benchmark entry point's switches;
// nil (none) times the sampler, the production path.
func specAblation(a ablation, keepTies bool) *gpubench.Ablation {
	if a.none() {
		return nil
	}
	var bits native.Ablation
	if a.noTrunc {
		bits |= native.AblateNoTruncation
	}
	if a.fallback {
		bits |= native.AblateForceFallback
	}
	if a.binary {
		bits |= native.AblateBinarySearch
	}
	if a.inPlace {
		bits |= native.AblateInPlace
	}
	if a.noSort {
		bits |= native.AblateNoSort
	}
	return &gpubench.Ablation{Bits: bits, KeepTies: keepTies || a.noDup, Parts: a.parts}
}

// time runs every case in device memory (package gpubench's protocol).
func (w *gpuWorker) time(stop context.Context, o options, cases []benchCase, prog *progress) error {
	opts := gpuOptions(o)
	src := newLogitsSource(cases, o.seed)
	for _, c := range cases {
		if stopRequested(stop) {
			return errInterrupted
		}
		prog.begin(fmt.Sprintf("gpu%d %s", w.id, c))
		spec := gpubench.Spec{Batch: c.batch, Vocab: c.vocab, DType: c.dtype, Dist: c.dist, K: int32(c.k),
			P: float32(c.p), Seed: o.seed, Logits: src.logits(c), IDs: c.out == benchfmt.OutIDs,
			Ablation: specAblation(c.ablation, o.keepTies)}
		r, err := gpubench.Run(w.s, w.nc, spec, opts)
		if err != nil {
			return fmt.Errorf("%s: %w", c, err)
		}
		w.results = append(w.results, gpuResult(o, w.id, c, r))
		prog.end()
	}
	return nil
}

// gpuResult turns a timed case into its printed result.
func gpuResult(o options, dev int, c benchCase, r gpubench.Result) benchfmt.Result {
	out := benchfmt.Result{Backend: string(o.backend), Device: dev, Batch: c.batch, Vocab: c.vocab, K: c.k, P: c.p,
		Dist: c.distName, DType: c.dtype.String(), Reps: o.gpuReps, CallNs: r.CallUs * 1e3,
		Floor: benchfmt.FloorCopy, FloorNs: r.CopyUs * 1e3, Out: c.out, Ablation: c.ablation.String(),
		Cache: r.Cache, Rotation: r.Rotation, ExtraBytes: int64(r.ExtraBytes), Read: baselineOf(r.Read),
		Sort: baselineOf(r.Sort), StatsNote: r.StatsNote}
	if r.Stats != nil {
		out.Stats = &benchfmt.RowStats{Rows: r.Stats.Rows, HitRate: r.Stats.HitRate(),
			MeanCandidates: r.Stats.MeanCandidates}
	}
	return out
}

func baselineOf(b *gpubench.Baseline) *benchfmt.Baseline {
	if b == nil {
		return nil
	}
	return &benchfmt.Baseline{Ns: b.Us * 1e3, ExtraBytes: int64(b.ExtraBytes), Unavailable: b.Unavailable}
}

// runGPU times the cases on every selected device, one worker each, in
// parallel; then, with the reference on, times the CPU reference per case
// and checks each device's fp32 output (host-slice API) against it.
func runGPU(stop context.Context, o options, cases []benchCase, mode reference.TieMode, prog *progress, env *benchfmt.Env) ([]benchfmt.Result, error) {
	env.NVML = nvmlReport()
	ids, err := o.devices.resolve(native.DeviceCount())
	if err != nil {
		return nil, err
	}
	withRef := o.ref.on(len(cases))
	prog.grow(len(cases) * (len(ids) - 1))
	if withRef {
		prog.grow(len(cases))
	}
	workers := make([]*gpuWorker, len(ids))
	errs := make([]error, len(ids))
	var wg sync.WaitGroup
	for i, id := range ids {
		w := &gpuWorker{id: id}
		workers[i] = w
		wg.Go(func() {
			if err := w.open(o, mode); err != nil {
				errs[i] = fmt.Errorf("device %d: %w", id, err)
				return
			}
			if err := w.time(stop, o, cases, prog); err != nil {
				errs[i] = fmt.Errorf("device %d: %w", id, err)
			}
		})
	}
	wg.Wait()
	defer func() {
		for _, w := range workers {
			w.close()
		}
	}()
	interrupted := false
	for i, err := range errs {
		if errors.Is(err, errInterrupted) {
			interrupted, errs[i] = true, nil
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	for _, w := range workers {
		env.Devices = append(env.Devices, benchfmt.Device{Index: w.id, Vendor: native.Vendor, Name: w.info.Name,
			CCMajor: w.info.CCMajor, CCMinor: w.info.CCMinor, SMs: w.info.Multiprocessors,
			MemoryBytes: w.info.TotalMemory, RuntimeVersion: w.info.RuntimeVersion, DriverVersion: w.info.DriverVersion})
	}
	if withRef && !interrupted { // a partial sweep gets no reference phase
		if err := referencePhase(o, cases, mode, workers, prog); err != nil {
			return nil, err
		}
	}
	var results []benchfmt.Result
	for _, w := range workers {
		results = append(results, w.results...)
	}
	if interrupted {
		return results, errInterrupted
	}
	return results, nil
}

// referencePhase times the CPU reference on each case's logits (as float32)
// and, for fp32 cases with -verify, runs each device's sampler on the same
// host logits and compares.
func referencePhase(o options, cases []benchCase, mode reference.TieMode, workers []*gpuWorker, prog *progress) error {
	ctx := context.Background()
	for ci, c := range cases {
		prog.begin("reference " + c.String())
		pristine := c.input(o.seed)
		k, p := c.perRow()
		logits := make([]float32, len(pristine))
		restore := func() { copy(logits, pristine) }
		ref, err := timeCalls(0, o.refReps, restore, func() error {
			return reference.TopKTopPTies(logits, c.batch, c.vocab, k, p, mode)
		})
		if err != nil {
			return err
		}
		want := append([]float32(nil), logits...)
		for _, w := range workers {
			r := &w.results[ci]
			r.RefNs = float64(ref / time.Nanosecond)
			// The host-slice API runs the production kernel: it checks the
			// sampler's selection, not an ablated kernel's.
			if !o.verify || c.dtype != sampler.Float32 || !c.ablation.none() {
				continue
			}
			restore()
			if err := w.s.TopKTopP(ctx, logits, c.batch, c.vocab, k, p); err != nil {
				return fmt.Errorf("device %d: %s: %w", w.id, c, err)
			}
			v := compareRows(pristine, logits, want, c.batch, c.vocab, k, p, mode)
			r.Verify = &v
		}
		prog.end()
	}
	return nil
}
