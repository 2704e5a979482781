//go:build (cuda || hip) && cgo

package gpubench

import (
	"github.com/qrita-project/qrita/internal/native"
	"github.com/qrita-project/qrita/sampler"
)

// deviceMem frees every allocation of a case at once.
type deviceMem struct {
	nc   *native.Ctx
	ptrs []uintptr
}

func (m *deviceMem) alloc(bytes int) (uintptr, error) {
	p, err := m.nc.Malloc(bytes)
	if err == nil {
		m.ptrs = append(m.ptrs, p)
	}
	return p, err
}

// freeAll releases the case's memory (cudaFree waits for pending work).
func (m *deviceMem) freeAll() {
	for _, p := range m.ptrs {
		m.nc.Free(p)
	}
	m.ptrs = nil
}

// rotation holds count work buffers and as many pristine copies of the
// logits, each at a Stride: buffer i is restored from pristine i, so the
// floor's copies read distinct (cold) sources too.
type rotation struct {
	nc             *native.Ctx
	stream         uintptr
	pristine, base uintptr // first pristine and first work buffer
	stride, bytes  int
	count          int
}

// newRotation allocates the buffers, uploads the logits to pristine 0 and
// copies them to the other pristine buffers.
func newRotation(nc *native.Ctx, mem *deviceMem, stream uintptr, spec Spec, bytes, count int) (*rotation, error) {
	r := &rotation{nc: nc, stream: stream, stride: Stride(bytes), bytes: bytes, count: count}
	var err error
	if r.pristine, err = mem.alloc(count * r.stride); err != nil {
		return nil, err
	}
	if r.base, err = mem.alloc(count * r.stride); err != nil {
		return nil, err
	}
	if err := upload(nc, r.pristine, spec); err != nil {
		return nil, err
	}
	for i := 1; i < count; i++ {
		if err := nc.CopyDeviceAsync(r.pristineAt(i), r.pristine, bytes, stream); err != nil {
			return nil, err
		}
	}
	return r, nc.Sync(stream)
}

func (r *rotation) work(i int) uintptr       { return r.base + uintptr(i*r.stride) }
func (r *rotation) pristineAt(i int) uintptr { return r.pristine + uintptr(i*r.stride) }

// restore enqueues the copy that undoes the in-place mask of buffer i.
func (r *rotation) restore(i int) error {
	return r.nc.CopyDeviceAsync(r.work(i), r.pristineAt(i), r.bytes, r.stream)
}

// restoreAll restores buffers 0..count-1 in order (see Rotation).
func (r *rotation) restoreAll() error {
	for i := range r.count {
		if err := r.restore(i); err != nil {
			return err
		}
	}
	return nil
}

// request is the native request on buffer i with device k and p.
func (r *rotation) request(i int, spec Spec, k, p, stream uintptr) native.Request {
	return native.Request{Logits: r.work(i), DType: nativeDType(spec.DType), Batch: spec.Batch,
		Vocab: spec.Vocab, RowStride: spec.Vocab, KDevice: k, PDevice: p, Stream: stream}
}

// nativeDType maps the sampler's element type to the library's.
func nativeDType(d sampler.DType) native.DType {
	switch d {
	case sampler.Float16:
		return native.F16
	case sampler.BFloat16:
		return native.BF16
	}
	return native.F32
}
