package sampler

import (
	"context"
	"fmt"
	"math"
)

// DType is the element type of logits in device memory.
type DType int

const (
	Float32  DType = iota // IEEE binary32
	Float16               // IEEE binary16
	BFloat16              // bfloat16
)

func (d DType) String() string {
	switch d {
	case Float32:
		return "fp32"
	case Float16:
		return "fp16"
	case BFloat16:
		return "bf16"
	}
	return fmt.Sprintf("DType(%d)", int(d))
}

// DeviceBatch describes row-major logits in the GPU memory of the
// sampler's device.
type DeviceBatch struct {
	Logits    uintptr // device address of row 0
	DType     DType
	Batch     int
	Vocab     int
	RowStride int // elements between row starts; 0 means Vocab
}

// RowParams holds per-row k and p, each either a host slice of Batch
// entries or a device array of Batch entries (not both); nil/0 turns the
// filter off for every row. A NaN in a host p is an invalid argument; in a
// device p it turns top-p off for that row (the host cannot check it
// without a sync).
type RowParams struct {
	K       []int32
	P       []float32
	KDevice uintptr
	PDevice uintptr
}

// DeviceIDs receives the compact output: IDs is a device array of
// [Batch][MaxIDs] int32 (kept token ids in rank order, -1 past the end),
// Counts a device array of [Batch] int32 (tokens kept, which may exceed
// MaxIDs). 1 <= MaxIDs <= 4096.
type DeviceIDs struct {
	IDs    uintptr
	Counts uintptr
	MaxIDs int
}

// TopKTopPDevice masks device-resident logits in place. It is enqueued on
// stream (a cudaStream_t or hipStream_t; 0 for the default stream) and
// returns without waiting for the GPU; host slices in rp may be reused as
// soon as it returns. Only GPU backends support it.
//
// Small batches spread each row over several blocks, and large batches
// with top-p hand rows that miss on to blocks that ran out of rows; both
// need a workspace per stream, fixed by the device (8.7 MB on an H200) and
// allocated by the first such call on that stream; calls on one stream
// share it in stream order. A call captured into a CUDA graph before its
// stream has one uses the one-block-per-row kernel, rows in place (same
// results); replay a graph on the stream it was captured on (graphs
// replayed at once on other streams would share that stream's workspace).
func (s *Sampler) TopKTopPDevice(ctx context.Context, b DeviceBatch, rp RowParams, stream uintptr) error {
	const op = "TopKTopPDevice"
	if err := checkDevice(b, rp); err != nil {
		return &Error{Op: op, Err: err}
	}
	return s.onGPU(ctx, op, b, func() error { return s.gpu.mask(op, b, rp, s.cfg.ties, stream) })
}

// TopKTopPIDsDevice writes the kept token ids of each row, in rank order,
// instead of masking; the logits are left unchanged. Enqueued on stream
// like [Sampler.TopKTopPDevice].
func (s *Sampler) TopKTopPIDsDevice(ctx context.Context, b DeviceBatch, rp RowParams, out DeviceIDs, stream uintptr) error {
	const op = "TopKTopPIDsDevice"
	if err := checkDevice(b, rp); err != nil {
		return &Error{Op: op, Err: err}
	}
	if out.IDs == 0 || out.Counts == 0 || out.MaxIDs < 1 || out.MaxIDs > MaxIDs {
		return newError(op, ErrInvalidArgument, fmt.Sprintf("ids output needs IDs, Counts and 1 <= MaxIDs <= %d", MaxIDs))
	}
	return s.onGPU(ctx, op, b, func() error { return s.gpu.ids(op, b, rp, out, s.cfg.ties, stream) })
}

// onGPU runs a device-memory call, which needs a GPU backend, under the
// read lock; an empty batch does nothing.
func (s *Sampler) onGPU(ctx context.Context, op string, b DeviceBatch, call func() error) error {
	release, err := s.enter(ctx, op)
	if err != nil {
		return err
	}
	defer release()
	if s.gpu == nil {
		return newError(op, ErrUnsupported, "the "+string(s.cfg.backend)+" backend works on host memory only")
	}
	if b.Batch == 0 {
		return nil
	}
	return call()
}

// MaxIDs bounds DeviceIDs.MaxIDs; MaxVocab bounds the vocabulary of the
// GPU backends.
const (
	MaxIDs   = 4096
	MaxVocab = 1 << 24
)

func checkDevice(b DeviceBatch, rp RowParams) error {
	stride := b.RowStride
	if stride == 0 {
		stride = b.Vocab
	}
	switch {
	case b.Logits == 0 && b.Batch > 0:
		return fmt.Errorf("%w: nil device logits", ErrInvalidArgument)
	case b.DType < Float32 || b.DType > BFloat16:
		return fmt.Errorf("%w: unknown dtype %d", ErrInvalidArgument, int(b.DType))
	case b.Batch < 0 || b.Vocab <= 0:
		return fmt.Errorf("%w: batch %d must not be negative and vocab %d must be positive", ErrInvalidArgument, b.Batch, b.Vocab)
	case b.Vocab > MaxVocab:
		return fmt.Errorf("%w: vocab %d above %d", ErrInvalidArgument, b.Vocab, MaxVocab)
	case stride < b.Vocab:
		return fmt.Errorf("%w: row stride %d below vocab %d", ErrInvalidArgument, stride, b.Vocab)
	case b.Batch > math.MaxInt/4/stride:
		return fmt.Errorf("%w: batch x row stride overflows (%d x %d)", ErrInvalidArgument, b.Batch, stride)
	case rp.K != nil && rp.KDevice != 0, rp.P != nil && rp.PDevice != 0:
		return fmt.Errorf("%w: k and p each come from the host or the device, not both", ErrInvalidArgument)
	case rp.K != nil && len(rp.K) != b.Batch:
		return fmt.Errorf("%w: len(k) = %d, want batch = %d", ErrInvalidArgument, len(rp.K), b.Batch)
	case rp.P != nil && len(rp.P) != b.Batch:
		return fmt.Errorf("%w: len(p) = %d, want batch = %d", ErrInvalidArgument, len(rp.P), b.Batch)
	}
	for i, v := range rp.P {
		if v != v {
			return fmt.Errorf("%w: p[%d] is NaN", ErrInvalidArgument, i)
		}
	}
	return nil
}
