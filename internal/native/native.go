//go:build (cuda || hip) && cgo

package native

/*
#include <stdlib.h>
#include "qrita.h"

// Host k/p arrays travel as separate arguments: a request struct holding
// Go pointers may not cross into C.
static qrita_status qrita_call_mask(qrita_ctx* c, qrita_request r, const int32_t* k, const float* p) {
	if (!r.k_on_device) r.k = k;
	if (!r.p_on_device) r.p = p;
	return qrita_topk_topp(c, &r);
}
static qrita_status qrita_call_ids(qrita_ctx* c, qrita_request r, const int32_t* k, const float* p,
                                   int32_t* ids, int32_t* counts, int64_t max_ids) {
	if (!r.k_on_device) r.k = k;
	if (!r.p_on_device) r.p = p;
	return qrita_topk_topp_ids(c, &r, ids, counts, max_ids);
}

// Device pointers cross as integers: they are not Go memory.
static void* qrita_devptr(uintptr_t p) { return (void*)p; }
*/
import "C"

import (
	"fmt"
	"sync"
	"unsafe"
)

// devptr turns a device address (or stream, or event) into a C pointer.
func devptr(u uintptr) unsafe.Pointer { return C.qrita_devptr(C.uintptr_t(u)) }

// Status mirrors qrita_status.
type Status int

const (
	OK          Status = C.QRITA_OK
	InvalidArg  Status = C.QRITA_ERR_INVALID_ARG
	Unsupported Status = C.QRITA_ERR_UNSUPPORTED
	NoDevice    Status = C.QRITA_ERR_NO_DEVICE
	DeviceError Status = C.QRITA_ERR_DEVICE
	OutOfMemory Status = C.QRITA_ERR_OUT_OF_MEMORY
	MaxVocab           = C.QRITA_MAX_VOCAB
	MaxIDs             = C.QRITA_MAX_IDS
)

// Error is a failed call: its status and the context's error text.
type Error struct {
	Code Status
	Msg  string
}

func (e *Error) Error() string { return fmt.Sprintf("qrita status %d: %s", int(e.Code), e.Msg) }

// DType mirrors qrita_dtype.
type DType int

const (
	F32  DType = C.QRITA_F32
	F16  DType = C.QRITA_F16
	BF16 DType = C.QRITA_BF16
)

// Request mirrors qrita_request; K and P are host slices unless the
// device pointers are set.
type Request struct {
	Logits    uintptr
	DType     DType
	Batch     int
	Vocab     int
	RowStride int
	K         []int32
	P         []float32
	KDevice   uintptr
	PDevice   uintptr
	KeepTies  bool
	Stream    uintptr
}

// Ctx is a context on one device. Its methods may be called from several
// goroutines; the C side serialises them.
type Ctx struct {
	c  *C.qrita_ctx
	mu sync.Mutex // a call and the read of its error text happen together
}

// do runs one C call and reads its error text before any other call on
// the context can replace it.
func (x *Ctx) do(call func() C.qrita_status) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.err(call())
}

func (x *Ctx) err(st C.qrita_status) error {
	if st == C.QRITA_OK {
		return nil
	}
	return &Error{Code: Status(st), Msg: C.GoString(C.qrita_last_error(x.c))}
}

// DeviceCount is the number of visible devices (0 when there is no
// driver or device).
func DeviceCount() int {
	var n C.int
	if C.qrita_device_count(&n) != C.QRITA_OK {
		return 0
	}
	return int(n)
}

// Create opens a context on device.
func Create(device int) (*Ctx, error) {
	var c *C.qrita_ctx
	st := C.qrita_create(C.int(device), &c)
	if st == C.QRITA_OK {
		return &Ctx{c: c}, nil
	}
	msg := "out of host memory"
	if c != nil {
		msg = C.GoString(C.qrita_last_error(c))
		C.qrita_destroy(c)
	}
	return nil, &Error{Code: Status(st), Msg: msg}
}

// Destroy frees the context; x must not be used afterwards.
func (x *Ctx) Destroy() {
	C.qrita_destroy(x.c)
	x.c = nil
}

func (r *Request) c() (C.qrita_request, *C.int32_t, *C.float) {
	cr := C.qrita_request{
		logits:     devptr(r.Logits),
		dtype:      C.qrita_dtype(r.DType),
		batch:      C.int64_t(r.Batch),
		vocab:      C.int64_t(r.Vocab),
		row_stride: C.int64_t(r.RowStride),
		ties:       C.QRITA_TIES_EXACT,
		stream:     devptr(r.Stream),
	}
	if r.KeepTies {
		cr.ties = C.QRITA_TIES_KEEP
	}
	var k *C.int32_t
	var p *C.float
	if r.KDevice != 0 {
		cr.k, cr.k_on_device = (*C.int32_t)(devptr(r.KDevice)), 1
	} else if r.K != nil {
		k = (*C.int32_t)(unsafe.Pointer(unsafe.SliceData(r.K)))
	}
	if r.PDevice != 0 {
		cr.p, cr.p_on_device = (*C.float)(devptr(r.PDevice)), 1
	} else if r.P != nil {
		p = (*C.float)(unsafe.Pointer(unsafe.SliceData(r.P)))
	}
	return cr, k, p
}

// TopKTopP enqueues the in-place mask.
func (x *Ctx) TopKTopP(r *Request) error {
	cr, k, p := r.c()
	return x.do(func() C.qrita_status { return C.qrita_call_mask(x.c, cr, k, p) })
}

// TopKTopPIDs enqueues the id output to device arrays ids [batch][maxIDs]
// and counts [batch].
func (x *Ctx) TopKTopPIDs(r *Request, ids, counts uintptr, maxIDs int) error {
	cr, k, p := r.c()
	return x.do(func() C.qrita_status {
		return C.qrita_call_ids(x.c, cr, k, p, (*C.int32_t)(devptr(ids)),
			(*C.int32_t)(devptr(counts)), C.int64_t(maxIDs))
	})
}
