//go:build (cuda || hip) && cgo

package native

// #include "qrita.h"
import "C"

import "unsafe"

// Malloc allocates device memory.
func (x *Ctx) Malloc(bytes int) (uintptr, error) {
	var p unsafe.Pointer
	if err := x.do(func() C.qrita_status { return C.qrita_malloc(x.c, C.size_t(bytes), &p) }); err != nil {
		return 0, err
	}
	return uintptr(p), nil
}

// Free releases device memory from Malloc.
func (x *Ctx) Free(ptr uintptr) error {
	return x.do(func() C.qrita_status { return C.qrita_free(x.c, devptr(ptr)) })
}

// CopyToDevice copies a host slice to device memory (synchronous).
func CopyToDevice[T any](x *Ctx, dst uintptr, src []T) error {
	if len(src) == 0 {
		return nil
	}
	n := C.size_t(len(src)) * C.size_t(unsafe.Sizeof(src[0]))
	return x.do(func() C.qrita_status {
		return C.qrita_memcpy(x.c, devptr(dst), unsafe.Pointer(unsafe.SliceData(src)), n, C.QRITA_H2D)
	})
}

// CopyFromDevice copies device memory into a host slice (synchronous).
func CopyFromDevice[T any](x *Ctx, dst []T, src uintptr) error {
	if len(dst) == 0 {
		return nil
	}
	n := C.size_t(len(dst)) * C.size_t(unsafe.Sizeof(dst[0]))
	return x.do(func() C.qrita_status {
		return C.qrita_memcpy(x.c, unsafe.Pointer(unsafe.SliceData(dst)), devptr(src), n, C.QRITA_D2H)
	})
}

// CopyDeviceAsync enqueues a device-to-device copy on stream.
func (x *Ctx) CopyDeviceAsync(dst, src uintptr, bytes int, stream uintptr) error {
	return x.do(func() C.qrita_status {
		return C.qrita_memcpy_d2d_async(x.c, devptr(dst), devptr(src), C.size_t(bytes), devptr(stream))
	})
}

// NewStream creates a stream.
func (x *Ctx) NewStream() (uintptr, error) {
	var s unsafe.Pointer
	if err := x.do(func() C.qrita_status { return C.qrita_stream_create(x.c, &s) }); err != nil {
		return 0, err
	}
	return uintptr(s), nil
}

// DestroyStream destroys a stream from NewStream.
func (x *Ctx) DestroyStream(s uintptr) error {
	return x.do(func() C.qrita_status { return C.qrita_stream_destroy(x.c, devptr(s)) })
}

// Sync waits for everything enqueued on stream.
func (x *Ctx) Sync(s uintptr) error {
	return x.do(func() C.qrita_status { return C.qrita_stream_synchronize(x.c, devptr(s)) })
}

// NewEvent creates a timing event.
func (x *Ctx) NewEvent() (uintptr, error) {
	var e unsafe.Pointer
	if err := x.do(func() C.qrita_status { return C.qrita_event_create(x.c, &e) }); err != nil {
		return 0, err
	}
	return uintptr(e), nil
}

// DestroyEvent destroys an event from NewEvent.
func (x *Ctx) DestroyEvent(e uintptr) error {
	return x.do(func() C.qrita_status { return C.qrita_event_destroy(x.c, devptr(e)) })
}

// Record records event on stream.
func (x *Ctx) Record(e, stream uintptr) error {
	return x.do(func() C.qrita_status { return C.qrita_event_record(x.c, devptr(e), devptr(stream)) })
}

// ElapsedMs waits for end and returns the milliseconds since start.
func (x *Ctx) ElapsedMs(start, end uintptr) (float32, error) {
	var ms C.float
	if err := x.do(func() C.qrita_status { return C.qrita_event_elapsed_ms(x.c, devptr(start), devptr(end), &ms) }); err != nil {
		return 0, err
	}
	return float32(ms), nil
}

// Info describes a device.
type Info struct {
	Name            string
	Multiprocessors int
	WarpSize        int
	CCMajor         int
	CCMinor         int
	TotalMemory     uint64
	RuntimeVersion  int
	DriverVersion   int
}

// Info returns the context's device facts.
func (x *Ctx) Info() (Info, error) {
	var ci C.qrita_device_info
	if err := x.do(func() C.qrita_status { return C.qrita_get_device_info(x.c, &ci) }); err != nil {
		return Info{}, err
	}
	return Info{
		Name:            C.GoString(&ci.name[0]),
		Multiprocessors: int(ci.multiprocessors),
		WarpSize:        int(ci.warp_size),
		CCMajor:         int(ci.cc_major),
		CCMinor:         int(ci.cc_minor),
		TotalMemory:     uint64(ci.total_memory),
		RuntimeVersion:  int(ci.runtime_version),
		DriverVersion:   int(ci.driver_version),
	}, nil
}
