package sampler

import (
	"math"
	"math/bits"
)

// Radix machinery shared by the top-k select and the top-p mass select:
// keys are split into 8-bit digits from the top; each round histograms the
// highest digit in which the set's keys still differ and narrows the set
// to one bucket, so a set of equal keys (one-hot, flat or tied rows) costs
// no round at all.

const (
	radixBits    = 8
	radixBuckets = 1 << radixBits
	keyBits      = 32
	// splitHistogramMin: sets this large histogram into four interleaved
	// copies, so that runs of one digit (few distinct values) do not chain
	// every increment on the previous one through memory.
	splitHistogramMin = 2048
	splitHistograms   = 4
)

// keyRange returns the smallest and largest key of a non-empty set.
func keyRange(set []uint64) (lo, hi uint32) {
	lo, hi = candidateKey(set[0]), candidateKey(set[0])
	for _, c := range set[1:] {
		k := candidateKey(c)
		lo = min(lo, k)
		hi = max(hi, k)
	}
	return lo, hi
}

// firstDifferingShift returns the shift of the highest digit in which lo
// and hi differ (every key between them shares the digits above it), or
// -1 when lo == hi.
func firstDifferingShift(lo, hi uint32) int {
	if lo == hi {
		return -1
	}
	return keyBits - radixBits*(1+bits.LeadingZeros32(lo^hi)/radixBits)
}

// digitPrefix is key's digits above shift followed by digit d.
func digitPrefix(key uint32, shift, d int) uint32 {
	above := uint64(key) >> (shift + radixBits) << (shift + radixBits)
	return uint32(above) | uint32(d)<<shift
}

// countDigits counts the set's keys by their digit at shift.
func countDigits(set []uint64, shift int, hist *[radixBuckets]int) {
	*hist = [radixBuckets]int{}
	if len(set) < splitHistogramMin {
		for _, c := range set {
			hist[byte(candidateKey(c)>>shift)]++
		}
		return
	}
	var split [splitHistograms][radixBuckets]int32
	i := 0
	for ; i+splitHistograms <= len(set); i += splitHistograms {
		q := set[i : i+splitHistograms : i+splitHistograms]
		split[0][byte(candidateKey(q[0])>>shift)]++
		split[1][byte(candidateKey(q[1])>>shift)]++
		split[2][byte(candidateKey(q[2])>>shift)]++
		split[3][byte(candidateKey(q[3])>>shift)]++
	}
	for _, c := range set[i:] {
		split[0][byte(candidateKey(c)>>shift)]++
	}
	for d := range hist {
		hist[d] = int(split[0][d]) + int(split[1][d]) + int(split[2][d]) + int(split[3][d])
	}
}

// massDigits counts the set's keys by their digit at shift and sums their
// mass (aligned with set) per digit.
func massDigits(set []uint64, mass []float64, shift int, count *[radixBuckets]int, sum *[radixBuckets]float64) {
	*count = [radixBuckets]int{}
	*sum = [radixBuckets]float64{}
	mass = mass[:len(set)]
	if len(set) < splitHistogramMin {
		for i, c := range set {
			d := byte(candidateKey(c) >> shift)
			count[d]++
			sum[d] += mass[i]
		}
		return
	}
	var splitC [splitHistograms][radixBuckets]int32
	var splitM [splitHistograms][radixBuckets]float64
	i := 0
	for ; i+splitHistograms <= len(set); i += splitHistograms {
		for j := range splitHistograms {
			d := byte(candidateKey(set[i+j]) >> shift)
			splitC[j][d]++
			splitM[j][d] += mass[i+j]
		}
	}
	for ; i < len(set); i++ {
		d := byte(candidateKey(set[i]) >> shift)
		splitC[0][d]++
		splitM[0][d] += mass[i]
	}
	for d := range count {
		for j := range splitHistograms {
			count[d] += int(splitC[j][d])
			sum[d] += splitM[j][d]
		}
	}
}

// narrow keeps, in order, the candidates whose key digits from shift up
// equal prefix's, in s.sub (in place when set already is s.sub: writes
// trail reads), and returns them with their smallest and largest key.
// Branch-free: which tokens match is unpredictable when a row has few
// distinct values.
func (s *cpuScratch) narrow(set []uint64, prefix uint32, shift int) (out []uint64, lo, hi uint32) {
	s.sub = grow(s.sub, max(len(s.sub), len(set)))
	sub := s.sub[:len(set)]
	want := prefix >> shift
	lo, hi = math.MaxUint32, 0
	n := 0
	for _, c := range set {
		k := candidateKey(c)
		match := isTrue(k>>shift == want)
		lo, hi = keyBounds(lo, hi, k, match)
		sub[n] = c
		n += match
	}
	return sub[:n], lo, hi
}

// narrowWithMass is narrow that carries the mass alongside, in s.subM.
func (s *cpuScratch) narrowWithMass(set []uint64, mass []float64, prefix uint32, shift int) (out []uint64, outMass []float64, lo, hi uint32) {
	s.sub = grow(s.sub, max(len(s.sub), len(set)))
	s.subM = grow(s.subM, max(len(s.subM), len(set)))
	sub, subM := s.sub[:len(set)], s.subM[:len(set)]
	mass = mass[:len(set)]
	want := prefix >> shift
	lo, hi = math.MaxUint32, 0
	n := 0
	for i, c := range set {
		k := candidateKey(c)
		match := isTrue(k>>shift == want)
		lo, hi = keyBounds(lo, hi, k, match)
		sub[n] = c
		subM[n] = mass[i]
		n += match
	}
	return sub[:n], subM[:n], lo, hi
}

// keyBounds widens [lo, hi] to take in k when match is 1, without a
// branch.
func keyBounds(lo, hi, k uint32, match int) (uint32, uint32) {
	ignore := uint32(match) - 1 // all ones when match is 0
	return min(lo, k|ignore), max(hi, k&^ignore)
}
