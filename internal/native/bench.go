//go:build (cuda || hip) && cgo

package native

/*
#include "qrita_bench.h"

static qrita_status qrita_call_bench(qrita_ctx* c, qrita_request r, unsigned ablation, uintptr_t stats, int parts) {
	qrita_bench_options o = {ablation, (qrita_row_stats*)stats, parts};
	return qrita_bench_topk_topp(c, &r, &o);
}
// Host k/p are passed through so that the C side can reject them.
static qrita_status qrita_call_sort(qrita_ctx* c, qrita_request r, const int32_t* k, const float* p,
                                    uintptr_t ws, size_t bytes) {
	if (!r.k_on_device) r.k = k;
	if (!r.p_on_device) r.p = p;
	return qrita_bench_sort_topk_topp(c, &r, (void*)ws, bytes);
}
*/
import "C"

import "unsafe"

// Ablation mirrors qrita_ablation (bits).
type Ablation uint32

const (
	AblateNoTruncation  Ablation = C.QRITA_ABLATE_NO_TRUNCATION
	AblateForceFallback Ablation = C.QRITA_ABLATE_FORCE_FALLBACK
	AblateBinarySearch  Ablation = C.QRITA_ABLATE_BINARY_SEARCH
	AblateInPlace       Ablation = C.QRITA_ABLATE_IN_PLACE
	AblateNoSort        Ablation = C.QRITA_ABLATE_NO_SORT
	AblateSliceAtOnce   Ablation = C.QRITA_ABLATE_SLICE_AT_ONCE
)

// RowStats mirrors qrita_row_stats: one row's counters.
type RowStats struct {
	Candidates int32    // entries at or above the sigma threshold
	Hit        int32    // 1: decided from the candidates alone
	Cycles     [4]int32 // SM cycles of the phases: threshold, gather, decide, write
}

// RowStatsBytes is the device size of one RowStats.
const RowStatsBytes = int(unsafe.Sizeof(C.qrita_row_stats{}))

// BenchTopKTopP enqueues the mask with ablations and, when stats is not
// 0, per-row counters to the device array stats [batch]RowStats; parts,
// when not 0, cuts each row into that many parts in place of the launch
// policy's (qrita_bench_options.split_parts). r's k and p must be device
// arrays.
func (x *Ctx) BenchTopKTopP(r *Request, ablation Ablation, stats uintptr, parts int) error {
	if (r.K != nil && r.KDevice == 0) || (r.P != nil && r.PDevice == 0) {
		return &Error{Code: InvalidArg, Msg: "BenchTopKTopP takes device k and p only"}
	}
	cr, _, _ := r.c()
	return x.do(func() C.qrita_status {
		return C.qrita_call_bench(x.c, cr, C.unsigned(ablation), C.uintptr_t(stats), C.int(parts))
	})
}

// SortWorkspace is the device workspace the sort baseline needs.
func (x *Ctx) SortWorkspace(d DType, batch, vocab int) (int, error) {
	var n C.size_t
	err := x.do(func() C.qrita_status {
		return C.qrita_bench_sort_workspace(x.c, C.qrita_dtype(d), C.int64_t(batch), C.int64_t(vocab), &n)
	})
	return int(n), err
}

// SortTopKTopP enqueues the sort-based baseline (device k and p only).
func (x *Ctx) SortTopKTopP(r *Request, workspace uintptr, bytes int) error {
	cr, k, p := r.c()
	return x.do(func() C.qrita_status {
		return C.qrita_call_sort(x.c, cr, k, p, C.uintptr_t(workspace), C.size_t(bytes))
	})
}

// Read enqueues a pure read of bytes at data, folded into 8 bytes at sink.
func (x *Ctx) Read(data uintptr, bytes int, sink, stream uintptr) error {
	return x.do(func() C.qrita_status {
		return C.qrita_bench_read(x.c, devptr(data), C.size_t(bytes), devptr(sink), devptr(stream))
	})
}

// BeginCapture starts recording the calls enqueued on stream.
func (x *Ctx) BeginCapture(stream uintptr) error {
	return x.do(func() C.qrita_status { return C.qrita_bench_capture_begin(x.c, devptr(stream)) })
}

// EndCapture stops recording and returns the instantiated graph.
func (x *Ctx) EndCapture(stream uintptr) (uintptr, error) {
	var g unsafe.Pointer
	if err := x.do(func() C.qrita_status { return C.qrita_bench_capture_end(x.c, devptr(stream), &g) }); err != nil {
		return 0, err
	}
	return uintptr(g), nil
}

// LaunchGraph enqueues a replay of graph on stream.
func (x *Ctx) LaunchGraph(graph, stream uintptr) error {
	return x.do(func() C.qrita_status { return C.qrita_bench_graph_launch(x.c, devptr(graph), devptr(stream)) })
}

// DestroyGraph frees a graph from EndCapture.
func (x *Ctx) DestroyGraph(graph uintptr) error {
	return x.do(func() C.qrita_status { return C.qrita_bench_graph_destroy(x.c, devptr(graph)) })
}

// SplitParts is the number of parts the launch policy cuts each row of a
// mask call into (1: one block a row) on a device of multiprocessors SMs
// whose split kernel keeps splitBlocks blocks resident, for elements of
// elemBytes (2 or 4). Host only: no device needed.
func SplitParts(multiprocessors int, splitBlocks int64, elemBytes int, batch, vocab int64) (int, error) {
	var parts C.int
	st := C.qrita_bench_split_parts(C.int(multiprocessors), C.int64_t(splitBlocks), C.int(elemBytes),
		C.int64_t(batch), C.int64_t(vocab), &parts)
	if st != C.QRITA_OK {
		return 0, &Error{Code: Status(st), Msg: "qrita_bench_split_parts: invalid arguments"}
	}
	return int(parts), nil
}

// L2Bytes is the size of the device's L2 cache.
func (x *Ctx) L2Bytes() (int, error) {
	var n C.size_t
	if err := x.do(func() C.qrita_status { return C.qrita_bench_l2_bytes(x.c, &n) }); err != nil {
		return 0, err
	}
	return int(n), nil
}
