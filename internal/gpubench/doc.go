// Package gpubench times the GPU backends against the memory floor and
// the baselines. It is shared by qrita-bench and the GPU Go benchmarks;
// the timing builds only with a GPU backend (-tags cuda or hip, cgo), the
// pure arithmetic (rotation counts, counter summaries) everywhere.
//
// Protocol (Options): device events around the timed calls, Warmup
// untimed rounds, the median over Reps. A pristine device copy of the
// logits is restored into a work buffer before each call (the call masks
// in place); the restore is a device-to-device copy of exactly the
// logits' bytes, so its time is the floor a mask can reach (one read plus
// one write), measured the same way as the call.
//
// L2Cold (default): the calls rotate over R work buffers spanning at
// least ColdL2Multiple L2 sizes (Rotation): restore all R (untimed), time
// the R calls back to back, per call = elapsed / R. L2Hot: the peers'
// warm anchor protocol, Inner back-to-back [restore; call] pairs minus
// Inner restores alone; shapes under the L2 size read their input from
// L2. TimingGraph replays the timed calls from a CUDA graph instead of
// launching them one by one; the restores stay outside the timed region
// (hot: inside both timings, so they cancel).
package gpubench
