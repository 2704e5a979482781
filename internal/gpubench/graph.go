//go:build (cuda || hip) && cgo

package gpubench

import (
	"fmt"
	"runtime"

	"github.com/qrita-project/qrita/internal/native"
)

// capture records what body enqueues on stream into an instantiated graph
// (the caller destroys it). The library captures in thread-local mode, so
// the goroutine stays on one OS thread from the capture's begin to its end.
// Every call in body must be capturable: device k and p (host ones would
// be staged with a host wait), no allocation, no synchronisation.
func capture(nc *native.Ctx, stream uintptr, body func() error) (uintptr, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := nc.BeginCapture(stream); err != nil {
		return 0, fmt.Errorf("graph capture cannot start (use -timing events on this device): %w", err)
	}
	bodyErr := body()
	g, endErr := nc.EndCapture(stream) // always ends the capture, even after a failed call
	if bodyErr != nil || endErr != nil {
		if g != 0 {
			nc.DestroyGraph(g)
		}
		if bodyErr != nil {
			return 0, fmt.Errorf("a call failed during graph capture: %w", bodyErr)
		}
		return 0, fmt.Errorf("graph capture failed (use -timing events on this device): %w", endErr)
	}
	if g == 0 {
		return 0, fmt.Errorf("graph capture returned no graph (use -timing events on this device)")
	}
	return g, nil
}
