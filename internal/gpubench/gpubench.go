//go:build (cuda || hip) && cgo

package gpubench

import (
	"context"
	"fmt"
	"sort"

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
}

func (s Spec) String() string {
	mode := "mask"
	if s.IDs {
		mode = "ids"
	}
	return fmt.Sprintf("B%d_V%d_%s_%s_k%d_p%g_%s", s.Batch, s.Vocab, s.DType, s.Dist, s.K, s.P, mode)
}

// Options sets the repetition counts.
type Options struct {
	Reps  int // timings whose median is taken
	Inner int // back-to-back calls per timing
}

// Result is one timed case.
type Result struct {
	Spec
	CallUs     float64 // median time of one call
	CopyUs     float64 // median time of a device-to-device copy of the same bytes
	RowsPerSec float64
}

// Ratio is the call time over the copy time.
func (r Result) Ratio() float64 { return r.CallUs / r.CopyUs }

func elemSize(d sampler.DType) int {
	if d == sampler.Float32 {
		return 4
	}
	return 2
}

// Run times spec with sampler s; nc provides memory and events on the
// same device.
func Run(s *sampler.Sampler, nc *native.Ctx, spec Spec, o Options) (Result, error) {
	n := spec.Batch * spec.Vocab
	bytes := n * elemSize(spec.DType)
	var bufs []uintptr
	defer func() {
		for _, b := range bufs {
			nc.Free(b)
		}
	}()
	alloc := func(size int) (uintptr, error) {
		p, err := nc.Malloc(size)
		if err == nil {
			bufs = append(bufs, p)
		}
		return p, err
	}
	pristine, err := alloc(bytes)
	if err != nil {
		return Result{}, err
	}
	work, err := alloc(bytes)
	if err != nil {
		return Result{}, err
	}
	if err := upload(nc, pristine, spec); err != nil {
		return Result{}, err
	}
	rp := sampler.RowParams{}
	if spec.K != 0 {
		if rp.KDevice, err = uploadRows(nc, alloc, spec.Batch, spec.K); err != nil {
			return Result{}, err
		}
	}
	if spec.P < 1 {
		if rp.PDevice, err = uploadRows(nc, alloc, spec.Batch, spec.P); err != nil {
			return Result{}, err
		}
	}
	var out sampler.DeviceIDs
	if spec.IDs {
		out.MaxIDs = 1024
		if out.IDs, err = alloc(4 * spec.Batch * out.MaxIDs); err != nil {
			return Result{}, err
		}
		if out.Counts, err = alloc(4 * spec.Batch); err != nil {
			return Result{}, err
		}
	}
	stream, err := nc.NewStream()
	if err != nil {
		return Result{}, err
	}
	defer nc.DestroyStream(stream)
	b := sampler.DeviceBatch{Logits: work, DType: spec.DType, Batch: spec.Batch, Vocab: spec.Vocab}
	ctx := context.Background()
	call := func() error {
		if spec.IDs {
			return s.TopKTopPIDsDevice(ctx, b, rp, out, stream)
		}
		return s.TopKTopPDevice(ctx, b, rp, stream)
	}
	restore := func() error { return nc.CopyDeviceAsync(work, pristine, bytes, stream) }
	both := func() error {
		if err := restore(); err != nil {
			return err
		}
		return call()
	}
	ev0, err := nc.NewEvent()
	if err != nil {
		return Result{}, err
	}
	defer nc.DestroyEvent(ev0)
	ev1, err := nc.NewEvent()
	if err != nil {
		return Result{}, err
	}
	defer nc.DestroyEvent(ev1)
	timeLoop := func(f func() error) (float64, error) {
		if err := nc.Record(ev0, stream); err != nil {
			return 0, err
		}
		for i := 0; i < o.Inner; i++ {
			if err := f(); err != nil {
				return 0, err
			}
		}
		if err := nc.Record(ev1, stream); err != nil {
			return 0, err
		}
		ms, err := nc.ElapsedMs(ev0, ev1)
		return float64(ms) * 1000, err
	}
	for i := 0; i < 3; i++ { // warm-up
		if _, err := timeLoop(both); err != nil {
			return Result{}, err
		}
	}
	var full, floor []float64
	for r := 0; r < o.Reps; r++ {
		f, err := timeLoop(both)
		if err != nil {
			return Result{}, err
		}
		c, err := timeLoop(restore)
		if err != nil {
			return Result{}, err
		}
		full, floor = append(full, f), append(floor, c)
	}
	copyUs := median(floor) / float64(o.Inner)
	callUs := (median(full) - median(floor)) / float64(o.Inner)
	return Result{Spec: spec, CallUs: callUs, CopyUs: copyUs, RowsPerSec: float64(spec.Batch) / callUs * 1e6}, nil
}

// uploadRows puts batch copies of v in a new device array.
func uploadRows[T int32 | float32](nc *native.Ctx, alloc func(int) (uintptr, error), batch int, v T) (uintptr, error) {
	rows := make([]T, batch)
	for i := range rows {
		rows[i] = v
	}
	dev, err := alloc(4 * batch)
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
	bits := make([]uint16, len(logits))
	for i, x := range logits {
		if spec.DType == sampler.BFloat16 {
			bits[i] = halfbits.ToBF16(x)
		} else {
			bits[i] = halfbits.ToHalf(x)
		}
	}
	return native.CopyToDevice(nc, dst, bits)
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[len(s)/2]
}
