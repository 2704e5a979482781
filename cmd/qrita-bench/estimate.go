package main

import (
	"time"

	"github.com/qrita-project/qrita/internal/benchfmt"
	"github.com/qrita-project/qrita/internal/gpubench"
	"github.com/qrita-project/qrita/sampler"
)

// deviceModel is a rough cost model of a GPU, for the run-time estimate
// of a sweep (docs/qrita-bench.md); it times nothing.
type deviceModel struct {
	l2Bytes       int
	bytesPerSec   float64       // memory traffic of a copy (read plus write)
	minLaunch     time.Duration // shortest back-to-back kernel or copy
	minCall       time.Duration // qrita at one row per block (the B=1 latency)
	callXCopy     float64       // qrita (top-k, joint) over the copy, memory-bound shapes
	topPXCopy     float64       // qrita top-p alone over the copy (the weak spot)
	missXCall     float64       // miss rows and ablations over a normal call
	sortXCopy     float64       // the sort baseline over the copy
	minSort       time.Duration
	hostGenPerSec float64 // generated logits per second on the host
	uploadPerSec  float64 // host-to-device bytes per second (pageable)
	caseSetup     time.Duration
}

// h200 holds figures of PERFLOG.md's H200 runs (copy 248 us for 525 MB,
// qrita 28-40 us at small batches, 1.3-1.6x copy at B >= 256, top-p
// alone up to 4x copy; the sort baseline ~58x the copy and never under
// ~850 us, runs 14-16). The sort's floor dominates small-batch cases: it
// runs R (~370) times per timing.
var h200 = deviceModel{
	l2Bytes:       50 << 20,
	bytesPerSec:   4.2e12,
	minLaunch:     3 * time.Microsecond,
	minCall:       40 * time.Microsecond,
	callXCopy:     1.6,
	topPXCopy:     4,
	missXCall:     4,
	sortXCopy:     58,
	minSort:       850 * time.Microsecond,
	hostGenPerSec: 130e6,
	uploadPerSec:  10e9,
	caseSetup:     20 * time.Millisecond,
}

func dtypeBytes(d sampler.DType) int {
	if d == sampler.Float32 {
		return 4
	}
	return 2
}

// estimateRun is the modelled wall time of the cases on one device: per
// timed op (floor copy, call, read, sort) (warm-up + reps) rounds of R
// restores plus R ops, and per case the setup, upload and the pristine
// copies, plus the host draws of the logits (one per dist and vocab).
func estimateRun(o options, cases []benchCase, m deviceModel) time.Duration {
	var total time.Duration
	drawn := map[genKey]bool{}
	src := newLogitsSource(cases, o.seed)
	for _, c := range cases {
		bytes := c.batch * c.vocab * dtypeBytes(c.dtype)
		rot, inner := 1, o.gpuInner
		if o.l2 == string(gpubench.L2Cold) {
			rot, _ = gpubench.Rotation(bytes, m.l2Bytes)
			inner = rot
		}
		copyT := max(m.minLaunch, time.Duration(float64(2*bytes)/m.bytesPerSec*float64(time.Second)))
		readT := max(m.minLaunch, copyT/2)
		callT := max(m.minCall, time.Duration(m.callXCopy*float64(copyT)))
		if c.k == 0 {
			callT = max(m.minCall, time.Duration(m.topPXCopy*float64(copyT)))
		}
		if !c.ablation.none() || c.distName != "llm" {
			callT = time.Duration(m.missXCall * float64(callT))
		}
		ops := []time.Duration{copyT, callT}
		if o.base.read {
			ops = append(ops, readT)
		}
		if o.base.sort {
			ops = append(ops, max(m.minSort, time.Duration(m.sortXCopy*float64(copyT))))
		}
		rounds := time.Duration(gpubench.DefaultWarmup + o.gpuReps)
		for _, op := range ops {
			total += rounds * time.Duration(inner) * (copyT + op)
		}
		total += m.caseSetup + time.Duration(rot)*copyT + callT // setup, pristine copies, the counters' call
		total += time.Duration(float64(bytes) / m.uploadPerSec * float64(time.Second))
		if k := (genKey{c.dist, c.vocab}); c.logits == nil && !drawn[k] {
			drawn[k] = true
			rows := src.maxBatch[k]
			total += time.Duration(float64(rows*c.vocab) / m.hostGenPerSec * float64(time.Second))
		}
		if c.out == benchfmt.OutIDs {
			total += callT // the id arrays' allocation and first touch: small
		}
	}
	return total
}
