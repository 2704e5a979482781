package main

import (
	"fmt"
	"strconv"
	"strings"
)

// ablation is one value of -ablation: a set of the kernel's switches
// (paper Table 4), written as names joined by "+", or none.
type ablation struct {
	noTrunc  bool // no sigma-truncation: the exact search over the whole row
	fallback bool // truncate and gather, then treat every row as a miss
	binary   bool // binary pivot search (32 one-bit steps) instead of 256-way
	noDup    bool // duplicate handling off: the KeepTies tie mode
	inPlace  bool // rows that miss stay with their block (no hand-on)
	noSort   bool // top-k over few candidates by the digit search, not a sort
	parts    int  // parts a row in place of the launch policy's (0: the policy's)
}

// Ablation switch names, in the order a combination is written.
const (
	ablNone     = "none"
	ablNoTrunc  = "no-trunc"
	ablFallback = "fallback"
	ablBinary   = "binary"
	ablNoDup    = "no-dup"
	ablInPlace  = "in-place"
	ablNoSort   = "no-sort"
	ablParts    = "parts" // followed by the count: parts16
)

func (a ablation) String() string {
	var parts []string
	for _, s := range []struct {
		on   bool
		name string
	}{{a.noTrunc, ablNoTrunc}, {a.fallback, ablFallback}, {a.binary, ablBinary}, {a.noDup, ablNoDup}, {a.inPlace, ablInPlace},
		{a.noSort, ablNoSort}} {
		if s.on {
			parts = append(parts, s.name)
		}
	}
	if a.parts != 0 {
		parts = append(parts, ablParts+strconv.Itoa(a.parts))
	}
	if len(parts) == 0 {
		return ablNone
	}
	return strings.Join(parts, "+")
}

// none says whether no switch is on.
func (a ablation) none() bool { return a == ablation{} }

// parseAblation reads none or names joined by "+" (e.g. no-trunc+binary).
func parseAblation(s string) (ablation, error) {
	if s == ablNone {
		return ablation{}, nil
	}
	var a ablation
	for _, name := range strings.Split(s, "+") {
		if n, ok := strings.CutPrefix(name, ablParts); ok {
			parts, err := strconv.Atoi(n)
			if err != nil || parts < 1 || a.parts != 0 {
				return a, fmt.Errorf("-ablation %q: %s wants one count of parts a row from 1 (e.g. parts16)", s, name)
			}
			a.parts = parts
			continue
		}
		var sw *bool
		switch name {
		case ablNoTrunc:
			sw = &a.noTrunc
		case ablFallback:
			sw = &a.fallback
		case ablBinary:
			sw = &a.binary
		case ablNoDup:
			sw = &a.noDup
		case ablInPlace:
			sw = &a.inPlace
		case ablNoSort:
			sw = &a.noSort
		default:
			return a, fmt.Errorf("unknown -ablation %q (none, or %s, %s, %s, %s, %s, %s, partsN joined by +)", s,
				ablNoTrunc, ablFallback, ablBinary, ablNoDup, ablInPlace, ablNoSort)
		}
		if *sw {
			return a, fmt.Errorf("-ablation %q names %s twice", s, name)
		}
		*sw = true
	}
	return a, nil
}
