//go:build (cuda || hip) && cgo

package gpubench

import (
	"github.com/qrita-project/qrita/internal/native"
)

// readSinkBytes is the device sink the pure read folds every byte into.
const readSinkBytes = 8

// timeRead times a pure read of each work buffer (the floor of anything
// that must look at every logit once), rotated like the calls. A library
// without the read kernel makes it unavailable, not an error.
func timeRead(nc *native.Ctx, mem *deviceMem, t *timer, bufs *rotation, stream uintptr) (*Baseline, error) {
	sink, err := mem.alloc(readSinkBytes)
	if err != nil {
		return nil, err
	}
	us, err := t.perCall(bufs, func(i int) error { return nc.Read(bufs.work(i), bufs.bytes, sink, stream) })
	if unsupported(err) {
		return &Baseline{Unavailable: err.Error()}, nil
	}
	if err != nil {
		return nil, err
	}
	return &Baseline{Us: us}, nil
}

// timeSort times the sort-based baseline (segmented sort, softmax, cumsum,
// cut) on the same rotated inputs, with its workspace as extra memory.
func timeSort(nc *native.Ctx, mem *deviceMem, t *timer, bufs *rotation, spec Spec, k, p, stream uintptr) (*Baseline, error) {
	wsBytes, err := nc.SortWorkspace(nativeDType(spec.DType), spec.Batch, spec.Vocab)
	if unsupported(err) {
		return &Baseline{Unavailable: err.Error()}, nil
	}
	if err != nil {
		return nil, err
	}
	var ws uintptr
	if wsBytes > 0 {
		if ws, err = mem.alloc(wsBytes); err != nil {
			return nil, err
		}
	}
	us, err := t.perCall(bufs, func(i int) error {
		r := bufs.request(i, spec, k, p, stream)
		return nc.SortTopKTopP(&r, ws, wsBytes)
	})
	if unsupported(err) {
		return &Baseline{Unavailable: err.Error(), ExtraBytes: wsBytes}, nil
	}
	if err != nil {
		return nil, err
	}
	return &Baseline{Us: us, ExtraBytes: wsBytes}, nil
}
