//go:build (cuda || hip) && cgo

package gpubench

import (
	"context"
	"errors"
	"fmt"

	"github.com/qrita-project/qrita/internal/halfbits"
	"github.com/qrita-project/qrita/internal/native"
	"github.com/qrita-project/qrita/internal/testcases"
	"github.com/qrita-project/qrita/sampler"
)

// Spec is one benchmark case.
type Spec struct {
	Batch, Vocab int
	DType        sampler.DType
	Dist         testcases.Dist
	K            int32   // 0: top-k off
	P            float32 // 1: top-p off
	IDs          bool    // the compact id output instead of the mask
	Seed         uint64
	// Logits, when not nil, are the [Batch][Vocab] input (e.g. real
	// logits from a file) instead of ones drawn from Dist.
	Logits []float32
	// Ablation, when not nil, times the benchmark entry point
	// (nc.BenchTopKTopP) with its switches instead of the sampler. Mask
	// output only.
	Ablation *Ablation
}

// Ablation is a set of the kernel's ablation switches (paper Table 4).
type Ablation struct {
	Bits     native.Ablation
	KeepTies bool // duplicate handling off: the KeepTies tie mode
	Parts    int  // parts a row in place of the launch policy's (0: the policy's)
}

func (s Spec) String() string {
	mode := "mask"
	if s.IDs {
		mode = "ids"
	}
	name := fmt.Sprintf("B%d_V%d_%s_%s_k%d_p%g_%s", s.Batch, s.Vocab, s.DType, s.Dist, s.K, s.P, mode)
	if s.Ablation != nil {
		name += fmt.Sprintf("_ablate%d_keepties%v", s.Ablation.Bits, s.Ablation.KeepTies)
		if s.Ablation.Parts != 0 {
			name += fmt.Sprintf("_parts%d", s.Ablation.Parts)
		}
	}
	return name
}

// Options sets the protocol; zero values take the defaults.
type Options struct {
	Reps   int    // timings whose median is taken
	Inner  int    // hot mode: back-to-back calls per timing
	Warmup int    // untimed timings before the timed ones; 0: DefaultWarmup
	L2     L2Mode // "": L2Cold
	Timing Timing // "": TimingEvents
	Read   bool   // also time the pure read of the same bytes
	Sort   bool   // also time the sort-based baseline
	Stats  bool   // also collect the per-row counters of one untimed call
}

func (o Options) withDefaults() (Options, error) {
	if o.Warmup == 0 {
		o.Warmup = DefaultWarmup
	}
	if o.L2 == "" {
		o.L2 = L2Cold
	}
	if o.Timing == "" {
		o.Timing = TimingEvents
	}
	switch {
	case o.Reps <= 0 || o.Warmup < 0:
		return o, fmt.Errorf("gpubench: Reps must be positive and Warmup not negative")
	case o.L2 == L2Hot && o.Inner <= 0:
		return o, fmt.Errorf("gpubench: the hot protocol needs a positive Inner")
	case o.L2 != L2Cold && o.L2 != L2Hot:
		return o, fmt.Errorf("gpubench: unknown L2 mode %q", o.L2)
	case o.Timing != TimingEvents && o.Timing != TimingGraph:
		return o, fmt.Errorf("gpubench: unknown timing %q", o.Timing)
	}
	return o, nil
}

// Result is one timed case.
type Result struct {
	Spec
	CallUs     float64 // median time of one call
	CopyUs     float64 // median time of a device-to-device copy of the same bytes (the floor)
	RowsPerSec float64
	Cache      string // CacheCold, CacheHot or CachePartial
	Rotation   int    // work buffers the calls rotate over (1 when hot)
	L2Bytes    int    // the device's L2 as reported (0: unknown)
	Timing     Timing
	// ExtraBytes is the device memory a call needs beyond the logits: the
	// library allocates no workspace, so 0 for the mask and the ids and
	// counts arrays for the id output.
	ExtraBytes int
	Read       *Baseline // nil: not asked for
	Sort       *Baseline // nil: not asked for
	Stats      *RowStats // nil: not asked for or not available
	StatsNote  string    // why Stats is nil although asked for
}

// Ratio is the call time over the copy time.
func (r Result) Ratio() float64 { return r.CallUs / r.CopyUs }

func elemSize(d sampler.DType) int {
	if d == sampler.Float32 {
		return 4
	}
	return 2
}

// Run times spec with sampler s; nc provides memory, streams, events and
// the benchmark entry points on the same device.
func Run(s *sampler.Sampler, nc *native.Ctx, spec Spec, o Options) (Result, error) {
	o, err := o.withDefaults()
	if err != nil {
		return Result{}, err
	}
	if spec.Batch <= 0 || spec.Vocab <= 0 {
		return Result{}, fmt.Errorf("gpubench: empty shape %d x %d", spec.Batch, spec.Vocab)
	}
	if spec.Ablation != nil && spec.IDs {
		return Result{}, fmt.Errorf("gpubench: ablations time the mask only")
	}
	res := Result{Spec: spec, Timing: o.Timing, Cache: CacheHot, Rotation: 1}
	bytes := spec.Batch * spec.Vocab * elemSize(spec.DType)
	if res.L2Bytes, err = nc.L2Bytes(); err != nil {
		res.L2Bytes = 0 // unknown: Rotation assumes a large one
	}
	if o.L2 == L2Cold {
		var cold bool
		res.Rotation, cold = Rotation(bytes, res.L2Bytes)
		res.Cache = CacheCold
		if !cold {
			res.Cache = CachePartial
		}
	}
	mem := &deviceMem{nc: nc}
	defer mem.freeAll()
	stream, err := nc.NewStream()
	if err != nil {
		return Result{}, err
	}
	defer nc.DestroyStream(stream)
	bufs, err := newRotation(nc, mem, stream, spec, bytes, res.Rotation)
	if err != nil {
		return Result{}, err
	}
	k, p, err := uploadParams(nc, mem, spec)
	if err != nil {
		return Result{}, err
	}
	var out sampler.DeviceIDs
	if spec.IDs {
		out.MaxIDs = DefaultMaxIDs
		if out.IDs, err = mem.alloc(4 * spec.Batch * out.MaxIDs); err != nil {
			return Result{}, err
		}
		if out.Counts, err = mem.alloc(4 * spec.Batch); err != nil {
			return Result{}, err
		}
		res.ExtraBytes = 4*spec.Batch*out.MaxIDs + 4*spec.Batch
	}
	t, err := newTimer(nc, stream, o)
	if err != nil {
		return Result{}, err
	}
	defer t.close()
	ctx := context.Background()
	call := func(i int) error {
		if spec.Ablation != nil {
			r := bufs.request(i, spec, k, p, stream)
			r.KeepTies = spec.Ablation.KeepTies
			return nc.BenchTopKTopP(&r, spec.Ablation.Bits, 0, spec.Ablation.Parts)
		}
		b := sampler.DeviceBatch{Logits: bufs.work(i), DType: spec.DType, Batch: spec.Batch, Vocab: spec.Vocab}
		rp := sampler.RowParams{KDevice: k, PDevice: p}
		if spec.IDs {
			return s.TopKTopPIDsDevice(ctx, b, rp, out, stream)
		}
		return s.TopKTopPDevice(ctx, b, rp, stream)
	}
	// The floor: a device-to-device copy of the logits' bytes, which is
	// exactly a restore (pristine i to work i, distinct cold sources).
	if res.CopyUs, err = t.perCall(bufs, bufs.restore); err != nil {
		return Result{}, fmt.Errorf("floor copy: %w", err)
	}
	if res.CallUs, err = t.perCall(bufs, call); err != nil {
		return Result{}, err
	}
	if res.CallUs > 0 {
		res.RowsPerSec = float64(spec.Batch) / res.CallUs * 1e6
	}
	if o.Read {
		if res.Read, err = timeRead(nc, mem, t, bufs, stream); err != nil {
			return Result{}, fmt.Errorf("read baseline: %w", err)
		}
	}
	if o.Sort {
		if res.Sort, err = timeSort(nc, mem, t, bufs, spec, k, p, stream); err != nil {
			return Result{}, fmt.Errorf("sort baseline: %w", err)
		}
	}
	if o.Stats {
		keepTies := s.TieMode() == sampler.KeepTies
		if spec.Ablation != nil {
			keepTies = spec.Ablation.KeepTies
		}
		if res.Stats, res.StatsNote, err = rowStats(nc, mem, bufs, spec, keepTies, k, p, stream); err != nil {
			return Result{}, fmt.Errorf("row counters: %w", err)
		}
	}
	return res, nil
}

// unsupported says whether err is the library's "not built" status: a
// baseline or counter that is missing, not a failure of the run.
func unsupported(err error) bool {
	var ne *native.Error
	return errors.As(err, &ne) && ne.Code == native.Unsupported
}

// uploadParams puts the per-row k and p in device arrays (0 when off), so
// the calls are capturable in a graph (host arrays would be staged).
func uploadParams(nc *native.Ctx, mem *deviceMem, spec Spec) (k, p uintptr, err error) {
	if spec.K != 0 {
		if k, err = uploadRows(nc, mem, spec.Batch, spec.K); err != nil {
			return 0, 0, err
		}
	}
	if spec.P < 1 {
		if p, err = uploadRows(nc, mem, spec.Batch, spec.P); err != nil {
			return 0, 0, err
		}
	}
	return k, p, nil
}

// uploadRows puts batch copies of v in a new device array.
func uploadRows[T int32 | float32](nc *native.Ctx, mem *deviceMem, batch int, v T) (uintptr, error) {
	rows := make([]T, batch)
	for i := range rows {
		rows[i] = v
	}
	dev, err := mem.alloc(4 * batch)
	if err != nil {
		return 0, err
	}
	return dev, native.CopyToDevice(nc, dev, rows)
}

// upload fills dst with the case's logits in its dtype.
func upload(nc *native.Ctx, dst uintptr, spec Spec) error {
	logits := spec.Logits
	if logits == nil {
		logits = testcases.Logits(spec.Batch, spec.Vocab, spec.Dist, spec.Seed)
	} else if len(logits) != spec.Batch*spec.Vocab {
		return fmt.Errorf("gpubench: %d logits for %d x %d", len(logits), spec.Batch, spec.Vocab)
	}
	if spec.DType == sampler.Float32 {
		return native.CopyToDevice(nc, dst, logits)
	}
	f := halfbits.Half
	if spec.DType == sampler.BFloat16 {
		f = halfbits.BFloat16
	}
	return native.CopyToDevice(nc, dst, f.Encode(logits))
}
