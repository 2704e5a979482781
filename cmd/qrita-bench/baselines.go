package main

import (
	"fmt"
	"slices"
)

// Baseline names of -baselines.
const (
	baseCopy = "copy" // the floor: a device-to-device copy (GPU) or read-once sum (CPU); always on
	baseRead = "read" // a pure read of the same bytes (GPU)
	baseSort = "sort" // the sort-based GPU baseline
	baseRef  = "ref"  // the CPU reference oracle (same as -ref=true)
)

// baselineAuto is -baselines' default: copy, read and sort on GPUs, copy
// on the CPU; the reference follows -ref.
const baselineAuto = "auto"

// baselines is the set -baselines selects.
type baselines struct {
	read, sort, ref bool
}

// parseBaselines reads -baselines for backend gpu (or the CPU).
func parseBaselines(s string, gpu bool) (baselines, error) {
	if s == baselineAuto {
		return baselines{read: gpu, sort: gpu}, nil
	}
	names, err := parseList(s, func(f string) (string, error) {
		if !slices.Contains([]string{baseCopy, baseRead, baseSort, baseRef}, f) {
			return "", fmt.Errorf("unknown -baselines %q (copy, read, sort, ref or auto)", f)
		}
		return f, nil
	})
	if err != nil {
		return baselines{}, err
	}
	b := baselines{read: slices.Contains(names, baseRead), sort: slices.Contains(names, baseSort),
		ref: slices.Contains(names, baseRef)}
	if !gpu && (b.read || b.sort) {
		return b, fmt.Errorf("-baselines read and sort need a GPU backend (the CPU floor is the read-once sum)")
	}
	return b, nil
}
