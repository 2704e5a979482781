package sampler

import (
	"math"
	"slices"
)

// sortedCutLimit: survivor sets up to this size are sorted into rank order
// and cut by a running sum, exactly like the reference; larger ones use the
// radix mass select, which does not sort.
const sortedCutLimit = 512

// outsideMass gives the softmax mass, in units of exp(top), of the
// survivors that a cut's set lacks; setMass is the set's own. nil means
// the set holds every survivor.
type outsideMass func(top, setMass float64) float64

// cutTopP applies top-p (0 < p < 1) to set, whose tokens must be a
// rank-order prefix of the survivors, in index order. It returns the kept
// tokens; ok is false when the cut may lie outside set.
func (s *cpuScratch) cutTopP(set []uint64, p float64, ties TieMode, outside outsideMass) (kept []uint64, ok bool) {
	if len(set) == 0 {
		return set, outside == nil
	}
	_, maxKey := keyRange(set)
	if maxKey == posInfKey {
		return s.cutInfinite(set, p, ties, outside == nil)
	}
	top := float64(keyValue(maxKey))
	if len(set) <= sortedCutLimit {
		return s.cutSorted(set, p, ties, top, outside)
	}
	return s.cutByMass(set, p, ties, top, outside)
}

// setMass returns the softmax numerators exp(x - top) of set, aligned
// with it, in s.mass, and their sum.
func (s *cpuScratch) setMass(set []uint64, top float64) ([]float64, float64) {
	mass := grow(s.mass, len(set))
	s.mass = mass
	sum := 0.0
	for i, c := range set {
		e := 0.0 // exp underflows to 0 below expMinArg
		if d := float64(keyValue(candidateKey(c))) - top; d >= expMinArg {
			e, _ = expNonPositiveSteps(d)
		}
		mass[i] = e
		sum += e
	}
	return mass, sum
}

// denominator is the softmax denominator of a set with mass setMass.
func denominator(outside outsideMass, top, setMass float64) float64 {
	if outside == nil {
		return setMass
	}
	return setMass + outside(top, setMass)
}

// cutSorted sorts set into rank order and keeps the shortest prefix whose
// cumulative probability reaches p, as the reference does.
func (s *cpuScratch) cutSorted(set []uint64, p float64, ties TieMode, top float64, outside outsideMass) ([]uint64, bool) {
	sorted := append(grow(s.sorted, 0), set...)
	slices.Sort(sorted)
	slices.Reverse(sorted) // rank order: largest packed value first
	s.sorted = sorted
	mass, sum := s.setMass(sorted, top)
	z := denominator(outside, top, sum)
	cum := 0.0
	cut := 0
	for cut < len(sorted) && cum < p {
		cum += mass[cut] / z
		cut++
	}
	if cum < p {
		// The running sum never reached p within set.
		return sorted, outside == nil
	}
	if ties == KeepTies {
		last := candidateKey(sorted[cut-1])
		for cut < len(sorted) && candidateKey(sorted[cut]) == last {
			cut++
		}
	}
	return sorted[:cut], true
}

// cutInfinite handles a set whose maximum is +Inf: the +Inf tokens share
// all the mass equally and everything else has probability 0. complete
// says whether set holds every survivor.
func (s *cpuScratch) cutInfinite(set []uint64, p float64, ties TieMode, complete bool) ([]uint64, bool) {
	inf := 0
	for _, c := range set {
		if candidateKey(c) == posInfKey {
			inf++
		}
	}
	// Accumulate 1/inf as the reference does, so rounding agrees.
	share := 1 / float64(inf)
	cum := 0.0
	cut := 0
	for cut < inf && cum < p {
		cum += share
		cut++
	}
	if cum < p {
		// Never reached: the reference keeps every survivor.
		return set, complete
	}
	if ties == KeepTies {
		cut = inf
	}
	out := grow(s.cut, 0)
	for _, c := range set {
		if candidateKey(c) == posInfKey && cut > 0 {
			out = append(out, c)
			cut--
		}
	}
	s.cut = out
	return out, true
}

// cutByMass finds the top-p cut of a large set without sorting: a radix
// select over the keys that sums softmax numerators per digit bucket and
// narrows to the bucket where the mass from the top reaches p*z. The last
// value's ties are then taken in index order until the mass reaches p*z.
func (s *cpuScratch) cutByMass(set []uint64, p float64, ties TieMode, top float64, outside outsideMass) ([]uint64, bool) {
	mass, total := s.setMass(set, top)
	target := p * denominator(outside, top, total)
	if total < target {
		return set, outside == nil
	}
	// above and aboveN are the mass and number of the tokens ranked above
	// the current set.
	above, aboveN := 0.0, 0
	cur, curM := set, mass
	lo, hi := keyRange(cur)
	for {
		shift := firstDifferingShift(lo, hi)
		if shift < 0 {
			return s.keepByMass(set, lo, aboveN, len(cur), curM[0], above, target, ties), true
		}
		var count [radixBuckets]int
		var sum [radixBuckets]float64
		massDigits(cur, curM, shift, &count, &sum)
		d := radixBuckets - 1
		for ; d > 0; d-- {
			if count[d] > 0 && above+sum[d] >= target {
				break
			}
			above += sum[d]
			aboveN += count[d]
		}
		// Sums in a different order may round short of target: then the
		// lowest non-empty bucket takes the cut.
		for count[d] == 0 && d < radixBuckets-1 {
			d++
			above -= sum[d]
			aboveN -= count[d]
		}
		cur, curM, lo, hi = s.narrowWithMass(cur, curM, digitPrefix(hi, shift, d), shift)
	}
}

// keepByMass keeps the aboveN tokens of set above key, then the tied
// tokens equal to key in index order until the mass from the top reaches
// target (all of them in KeepTies mode).
func (s *cpuScratch) keepByMass(set []uint64, key uint32, aboveN, tied int, each, above, target float64, ties TieMode) []uint64 {
	take := tied
	if ties == Exact && each > 0 {
		need := math.Ceil((target - above) / each)
		take = int(min(max(need, 1), float64(tied)))
	}
	s.cut = grow(s.cut, len(set))
	return keepAboveAndTies(set, key, aboveN, take, s.cut)
}
