// Package gpubench times the GPU backends against the memory floor. It is
// shared by qrita-bench and the GPU Go benchmarks; it builds only with a
// GPU backend (-tags cuda or hip, cgo).
//
// Protocol: a pristine device copy of the logits is restored into the
// working buffer before every call (the call masks in place). Inner pairs
// [restore; call] run back to back between two events, and so do Inner
// restores alone; the per-call time is the difference of the medians over
// Reps such timings, divided by Inner. Back-to-back launches hide the
// launch gaps that dominate small batches. The restore is a
// device-to-device copy of exactly the logits' bytes, so its time is the
// floor a mask can reach (one read plus one write). As in the peers'
// anchor runs (research/anchors-h200.md, "warm protocol"), the input has
// just been written when the call reads it, so shapes under the L2 size
// (60 MB on the H200) read it from L2.
package gpubench
