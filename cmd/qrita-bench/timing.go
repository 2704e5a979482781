package main

import (
	"slices"
	"time"
)

// timeCalls runs restore then call warmup times untimed, then reps times
// timing only call, and returns the median call time. restore undoes the
// in-place truncation so that every call sees the same input.
func timeCalls(warmup, reps int, restore func(), call func() error) (time.Duration, error) {
	for range warmup {
		restore()
		if err := call(); err != nil {
			return 0, err
		}
	}
	times := make([]time.Duration, reps)
	for i := range times {
		restore()
		start := time.Now()
		if err := call(); err != nil {
			return 0, err
		}
		times[i] = time.Since(start)
	}
	slices.Sort(times)
	return median(times), nil
}

// median of sorted, non-empty times.
func median(times []time.Duration) time.Duration {
	n := len(times)
	if n%2 == 1 {
		return times[n/2]
	}
	return (times[n/2-1] + times[n/2]) / 2
}
