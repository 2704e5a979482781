package main

import (
	"context"
	"errors"
	"fmt"
)

// errInterrupted ends a sweep stopped by SIGINT or SIGTERM (a Ctrl-C, or
// a timeout around the command): the cases finished so far are still
// written, with a note, and the command exits non-zero.
var errInterrupted = errors.New("interrupted before the sweep ended; the finished cases were written")

// stopRequested says, between cases, whether the sweep should stop. A case
// already running finishes (a GPU case cannot be cut short safely).
func stopRequested(ctx context.Context) bool { return ctx.Err() != nil }

// interruptedNote is the protocol line's addition for a partial sweep.
func interruptedNote(done, total int) string {
	return fmt.Sprintf("; INTERRUPTED: %d of %d cases finished", done, total)
}
