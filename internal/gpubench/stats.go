//go:build (cuda || hip) && cgo

package gpubench

import (
	"unsafe"

	"github.com/qrita-project/qrita/internal/native"
)

// The host mirror must have the device layout, since the counters are
// copied as raw bytes.
var _ [native.RowStatsBytes - int(unsafe.Sizeof(native.RowStats{}))]struct{}
var _ [int(unsafe.Sizeof(native.RowStats{})) - native.RowStatsBytes]struct{}

// rowStats runs one untimed call with per-row counters on restored buffer
// 0 (the case's ablation and tie mode) and summarises them. A library
// without counters, or one that leaves them unwritten, gives a note
// instead of the summary.
func rowStats(nc *native.Ctx, mem *deviceMem, bufs *rotation, spec Spec, keepTies bool, k, p, stream uintptr) (*RowStats, string, error) {
	host := make([]native.RowStats, spec.Batch)
	for i := range host {
		host[i] = native.RowStats{Candidates: UnwrittenCandidates}
	}
	dev, err := mem.alloc(spec.Batch * native.RowStatsBytes)
	if err != nil {
		return nil, "", err
	}
	if err := native.CopyToDevice(nc, dev, host); err != nil {
		return nil, "", err
	}
	if err := bufs.restore(0); err != nil {
		return nil, "", err
	}
	r := bufs.request(0, spec, k, p, stream)
	r.KeepTies = keepTies
	var bits native.Ablation
	if spec.Ablation != nil {
		bits = spec.Ablation.Bits
	}
	err = nc.BenchTopKTopP(&r, bits, dev, 0)
	if unsupported(err) {
		return nil, "counters unavailable: " + err.Error(), nil
	}
	if err != nil {
		return nil, "", err
	}
	if err := nc.Sync(stream); err != nil {
		return nil, "", err
	}
	if err := native.CopyFromDevice(nc, host, dev); err != nil {
		return nil, "", err
	}
	rows := make([]RowCounters, len(host))
	for i, h := range host {
		rows[i] = RowCounters{Candidates: h.Candidates, Hit: h.Hit}
	}
	s, ok := SummarizeRows(rows)
	if !ok {
		return nil, "counters unavailable: the library left rows unwritten", nil
	}
	return &s, "", nil
}
