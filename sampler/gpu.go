//go:build (cuda || hip) && cgo

package sampler

import (
	"context"
	"errors"
	"sync"

	"github.com/qrita-project/qrita/internal/native"
)

// defaultBackend is the build's GPU backend.
const defaultBackend = Backend(native.Vendor)

// The limits published here are the C library's: a mismatch fails to
// compile (a negative constant does not convert to uint).
const (
	_ = uint(MaxIDs-native.MaxIDs) + uint(native.MaxIDs-MaxIDs)
	_ = uint(MaxVocab-native.MaxVocab) + uint(native.MaxVocab-MaxVocab)
)

// gpuState is a context on one device plus what host-slice calls need: a
// private stream and a device buffer, grown on demand.
type gpuState struct {
	ctx    *native.Ctx
	which  Backend
	mu     sync.Mutex // guards buf for host-slice calls
	buf    uintptr
	bufLen int
	stream uintptr
}

func newGPUBackend(cfg config) (*gpuState, backend, error) {
	if cfg.backend != Backend(native.Vendor) {
		return nil, nil, newError("New", ErrUnsupported,
			"backend "+string(cfg.backend)+" is not in this build (it has "+native.Vendor+")")
	}
	if native.DeviceCount() == 0 {
		return nil, nil, newError("New", ErrNoDevice, "no "+native.Vendor+" device is visible")
	}
	ctx, err := native.Create(cfg.device)
	if err != nil {
		return nil, nil, wrapNative("New", err)
	}
	stream, err := ctx.NewStream()
	if err != nil {
		ctx.Destroy()
		return nil, nil, wrapNative("New", err)
	}
	g := &gpuState{ctx: ctx, which: cfg.backend, stream: stream}
	return g, g, nil
}

// wrapNative maps a C status to the package's sentinels.
func wrapNative(op string, err error) error {
	var ne *native.Error
	if !errors.As(err, &ne) {
		return newError(op, ErrDevice, err.Error())
	}
	sentinel := ErrDevice
	switch ne.Code {
	case native.InvalidArg:
		sentinel = ErrInvalidArgument
	case native.Unsupported:
		sentinel = ErrUnsupported
	case native.NoDevice:
		sentinel = ErrNoDevice
	}
	return newError(op, sentinel, ne.Msg)
}

func (g *gpuState) kind() Backend { return g.which }

func (g *gpuState) close() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	var first error
	if g.buf != 0 {
		first = g.ctx.Free(g.buf)
	}
	if err := g.ctx.DestroyStream(g.stream); err != nil && first == nil {
		first = err
	}
	g.ctx.Destroy()
	if first != nil {
		return wrapNative("Close", first)
	}
	return nil
}

func request(b DeviceBatch, rp RowParams, ties TieMode, stream uintptr) *native.Request {
	stride := b.RowStride
	if stride == 0 {
		stride = b.Vocab
	}
	return &native.Request{
		Logits: b.Logits, DType: native.DType(b.DType), Batch: b.Batch, Vocab: b.Vocab, RowStride: stride,
		K: rp.K, P: rp.P, KDevice: rp.KDevice, PDevice: rp.PDevice, KeepTies: ties == KeepTies, Stream: stream,
	}
}

func (g *gpuState) mask(op string, b DeviceBatch, rp RowParams, ties TieMode, stream uintptr) error {
	if err := g.ctx.TopKTopP(request(b, rp, ties, stream)); err != nil {
		return wrapNative(op, err)
	}
	return nil
}

func (g *gpuState) ids(op string, b DeviceBatch, rp RowParams, out DeviceIDs, ties TieMode, stream uintptr) error {
	if err := g.ctx.TopKTopPIDs(request(b, rp, ties, stream), out.IDs, out.Counts, out.MaxIDs); err != nil {
		return wrapNative(op, err)
	}
	return nil
}

// topKTopP serves host slices: copy in, mask on the private stream, copy
// back.
func (g *gpuState) topKTopP(_ context.Context, logits []float32, batch, vocab int, k []int32, p []float32, ties TieMode) error {
	const op = "TopKTopP"
	if vocab > MaxVocab {
		return newError(op, ErrInvalidArgument, "vocab above the GPU limit")
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	bytes := len(logits) * 4
	if bytes > g.bufLen {
		if g.buf != 0 {
			if err := g.ctx.Free(g.buf); err != nil {
				return wrapNative(op, err)
			}
			g.buf, g.bufLen = 0, 0
		}
		buf, err := g.ctx.Malloc(bytes)
		if err != nil {
			return wrapNative(op, err)
		}
		g.buf, g.bufLen = buf, bytes
	}
	if err := native.CopyToDevice(g.ctx, g.buf, logits); err != nil {
		return wrapNative(op, err)
	}
	b := DeviceBatch{Logits: g.buf, DType: Float32, Batch: batch, Vocab: vocab}
	if err := g.mask(op, b, RowParams{K: k, P: p}, ties, g.stream); err != nil {
		return err
	}
	if err := g.ctx.Sync(g.stream); err != nil {
		return wrapNative(op, err)
	}
	if err := native.CopyFromDevice(g.ctx, logits, g.buf); err != nil {
		return wrapNative(op, err)
	}
	return nil
}
