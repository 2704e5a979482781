package main

import (
	"fmt"

	"github.com/qrita-project/qrita/internal/gpubench"
)

// gpuProtocol is the one-line description of the GPU timing in the header.
func gpuProtocol(o options) string {
	var how string
	if o.l2 == string(gpubench.L2Hot) {
		how = fmt.Sprintf("per case the median over %d timings of %d back-to-back [restore; call] minus %d "+
			"restores alone, after %d warm-up; input just written (L2-resident below the L2 size: an L2 figure)",
			o.gpuReps, o.gpuInner, o.gpuInner, gpubench.DefaultWarmup)
	} else {
		how = fmt.Sprintf("per case the median over %d timings, after %d warm-up, of R back-to-back calls on R "+
			"rotated buffers (R x bytes >= %d x L2; restores untimed) / R; l2 column = cold:R", o.gpuReps,
			gpubench.DefaultWarmup, gpubench.ColdL2Multiple)
	}
	launch := "launched back to back"
	if o.timing == string(gpubench.TimingGraph) {
		launch = "replayed from a CUDA graph"
	}
	return fmt.Sprintf("device events; %s; calls %s; floor: device-to-device copy of the same bytes, timed alike",
		how, launch)
}
