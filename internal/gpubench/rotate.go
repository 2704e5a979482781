package gpubench

// L2Mode says whether a call may find its input in the device's L2.
type L2Mode string

const (
	// L2Cold rotates over enough work buffers that the L2 cannot hold the
	// input a call reads: the figure a serving step sees, where the logits
	// were written by the LM head long before (and other kernels since).
	L2Cold L2Mode = "cold"
	// L2Hot times one buffer just restored: shapes under the L2 size read
	// it from L2 (the peers' warm anchor protocol). An L2 figure.
	L2Hot L2Mode = "hot"
)

// Cache states a Result reports: whether its inputs were cold.
const (
	CacheCold = "cold"
	CacheHot  = "hot"
	// CachePartial: cold was asked for but the rotation caps left the
	// buffers smaller than ColdL2Multiple x the L2 (tiny shapes).
	CachePartial = "partial"
)

const (
	// ColdL2Multiple is how many L2 sizes the rotated work buffers span.
	// See Rotation for why three make the L2's share of the input small.
	ColdL2Multiple = 3
	// MaxRotationBytes caps the work buffers of one case (the pristine
	// copies double it): shapes this big are far above any L2 anyway.
	MaxRotationBytes = 2 << 30
	// MaxRotation caps the buffer count: a timing enqueues one call per
	// buffer, and the smallest shape of the presets (1 x 128256 bf16,
	// 256 KB) needs ~600 buffers for 3 x 50 MiB.
	MaxRotation = 1024
	// BufferAlign is the offset alignment of the buffers in a rotation
	// (cudaMalloc's own), so every buffer suits vector loads and the
	// 16-byte aligned pure read.
	BufferAlign = 256
	// FallbackL2Bytes stands in for a device that reports no L2 size: at
	// least as large as the L2 of any current GPU, so cold stays cold.
	FallbackL2Bytes = 256 << 20
)

// Stride is the distance between buffers of bytes each in a rotation.
func Stride(bytes int) int { return (bytes + BufferAlign - 1) / BufferAlign * BufferAlign }

// Rotation is the number of work buffers of bytes each that the cold
// protocol cycles through on a device with an L2 of l2Bytes, and whether
// they span ColdL2Multiple L2 sizes (false: the caps bound them first).
//
// The protocol restores all buffers in order 0..R-1 (untimed), then calls
// on them in the same order (timed). Between the restore of buffer i and
// its call come the restores of buffers i+1..R-1 and the calls on 0..i-1:
// about the same traffic for every i, some 2 x x bytes of reads and
// writes, which the L2 (tiny next to R x bytes >= 3 x L2) cannot hold. A
// single buffer of at least 3 x L2 (R = 1) is called right after its
// restore: only the restore's tail, at most an L2's worth and so at most a
// third of the input, can still be cached, and the kernel reads the rows
// from the first. Good enough for a memory-bound figure; documented.
func Rotation(bytes, l2Bytes int) (count int, cold bool) {
	if bytes <= 0 {
		return 1, false
	}
	if l2Bytes <= 0 {
		l2Bytes = FallbackL2Bytes
	}
	stride := Stride(bytes)
	target := ColdL2Multiple * l2Bytes
	count = min((target+stride-1)/stride, MaxRotation, MaxRotationBytes/stride)
	count = max(count, 1)
	return count, count*stride >= target
}

// Timing says how the timed calls are launched.
type Timing string

const (
	// TimingEvents: the calls are launched back to back between two
	// device events (launch gaps hide behind the running kernels).
	TimingEvents Timing = "events"
	// TimingGraph: the calls are captured once into a CUDA graph, and the
	// events bracket its replays (no per-launch CPU cost at all).
	TimingGraph Timing = "graph"
)

// Baseline is the time of one call of a baseline on the same inputs.
type Baseline struct {
	Us         float64 // median time of one call; 0 when unavailable
	ExtraBytes int     // device memory it needs beyond the logits (workspace)
	// Unavailable, when not empty, says why it was not timed (e.g. the
	// library reports it as not built); the run goes on without it.
	Unavailable string
}

// RowCounters mirror one row's native counters (Table 1's columns).
type RowCounters struct {
	Candidates int32 // entries at or above the sigma threshold
	Hit        int32 // 1: the kept set was decided from the candidates alone
}

// RowStats summarises the counters of a call's rows.
type RowStats struct {
	Rows           int
	Hits           int
	MeanCandidates float64
}

// HitRate is the fraction of rows decided from the candidates alone.
func (s RowStats) HitRate() float64 {
	if s.Rows == 0 {
		return 0
	}
	return float64(s.Hits) / float64(s.Rows)
}

// UnwrittenCandidates marks counters a call has not written: they are
// filled with it before the call, and a negative count is never real.
const UnwrittenCandidates = -1

// SummarizeRows sums the counters; ok is false when a row still holds
// UnwrittenCandidates (the library wrote no counters) or a hit flag other
// than 0 or 1.
func SummarizeRows(rows []RowCounters) (s RowStats, ok bool) {
	var cands int64
	for _, r := range rows {
		if r.Candidates < 0 || (r.Hit != 0 && r.Hit != 1) {
			return RowStats{}, false
		}
		cands += int64(r.Candidates)
		s.Hits += int(r.Hit)
	}
	s.Rows = len(rows)
	if s.Rows > 0 {
		s.MeanCandidates = float64(cands) / float64(s.Rows)
	}
	return s, true
}
