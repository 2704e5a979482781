package sampler

import "math"

var negInf32 = float32(math.Inf(-1))

// negInfBlockLen is the size of the -Inf block copied over removed tokens;
// copy runs as a vectorised memmove, far faster than a scalar store loop.
const negInfBlockLen = 2048

var negInfBlock = func() (b [negInfBlockLen]float32) {
	for i := range b {
		b[i] = negInf32
	}
	return b
}()

// writeKept overwrites row with -Inf except the kept tokens, which keep
// their exact bits.
func (s *cpuScratch) writeKept(row []float32, kept []uint64) {
	vals := grow(s.vals, len(kept))
	s.vals = vals
	for j, c := range kept {
		vals[j] = row[candidateIndex(c)]
	}
	for i := 0; i < len(row); i += negInfBlockLen {
		copy(row[i:], negInfBlock[:])
	}
	for j, c := range kept {
		row[candidateIndex(c)] = vals[j]
	}
}

// scrubNaN turns NaN into -Inf, the only change a row without active
// filters gets.
func scrubNaN(row []float32) {
	for i, x := range row {
		if x != x {
			row[i] = negInf32
		}
	}
}
