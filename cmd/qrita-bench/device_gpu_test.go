//go:build (cuda || hip) && cgo

package main

import (
	"testing"

	"github.com/qrita-project/qrita/internal/gpubench"
	"github.com/qrita-project/qrita/internal/native"
)

func TestSpecAblation(t *testing.T) {
	if specAblation(ablation{}, false) != nil || specAblation(ablation{}, true) != nil {
		t.Error("none times the sampler")
	}
	a := specAblation(ablation{noTrunc: true, binary: true}, false)
	if a == nil || a.Bits != native.AblateNoTruncation|native.AblateBinarySearch || a.KeepTies {
		t.Errorf("no-trunc+binary: %+v", a)
	}
	a = specAblation(ablation{noDup: true}, false)
	if a == nil || a.Bits != 0 || !a.KeepTies {
		t.Errorf("no-dup: %+v", a)
	}
	a = specAblation(ablation{inPlace: true}, false)
	if a == nil || a.Bits != native.AblateInPlace || a.KeepTies {
		t.Errorf("in-place: %+v", a)
	}
	a = specAblation(ablation{fallback: true}, true)
	if a == nil || a.Bits != native.AblateForceFallback || !a.KeepTies {
		t.Errorf("fallback under -keep-ties: %+v", a)
	}
}

func TestGPUResult(t *testing.T) {
	o := gpuOpts(t)
	c := benchCase{batch: 256, vocab: 128256, k: 50, p: 0.9, distName: "llm", out: "ids", ablation: ablation{}}
	r := gpubench.Result{CallUs: 140, CopyUs: 64, Cache: gpubench.CacheCold, Rotation: 5, ExtraBytes: 1049600,
		Read:  &gpubench.Baseline{Us: 33},
		Sort:  &gpubench.Baseline{Unavailable: "not built"},
		Stats: &gpubench.RowStats{Rows: 256, Hits: 192, MeanCandidates: 600}}
	got := gpuResult(o, 1, c, r)
	if got.CallNs != 140e3 || got.FloorNs != 64e3 || got.Read.Ns != 33e3 || got.Sort.Unavailable != "not built" ||
		got.Stats.HitRate != 0.75 || got.Stats.MeanCandidates != 600 || got.Out != "ids" || got.Ablation != "none" ||
		got.Cache != "cold" || got.Rotation != 5 || got.ExtraBytes != 1049600 || got.Device != 1 {
		t.Errorf("%+v", got)
	}
	if g := gpuResult(o, 0, c, gpubench.Result{StatsNote: "counters unavailable"}); g.Stats != nil || g.Read != nil ||
		g.StatsNote == "" {
		t.Errorf("missing parts: %+v", g)
	}
	opts := gpuOptions(gpuOpts(t, "-l2", "hot", "-timing", "graph", "-baselines", "copy,sort"))
	if opts.L2 != gpubench.L2Hot || opts.Timing != gpubench.TimingGraph || opts.Read || !opts.Sort || !opts.Stats {
		t.Errorf("options %+v", opts)
	}
}
