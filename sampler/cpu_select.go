package sampler

import "math/bits"

// Exact top-k over packed candidates: a radix select on the value keys, 8
// bits per level from the top, narrowing to the digit bucket that holds
// the k-th largest key. Duplicates then follow the stable-sort rule: the
// tokens equal to the k-th value are taken in index order.

const (
	radixBits    = 8
	radixBuckets = 1 << radixBits
	keyBits      = 32
)

// kthKey returns the key of the k-th largest candidate (1 <= k <= len) and
// how many candidates have a strictly larger key.
func (s *cpuScratch) kthKey(cands []uint64, k int) (key uint32, above int) {
	lo, hi := keyRange(cands)
	if lo == hi {
		return lo, 0
	}
	// Digits above the highest one where lo and hi differ are shared by all.
	shift := keyBits - radixBits*(1+bits.LeadingZeros32(lo^hi)/radixBits)
	prefix := hi &^ (1<<(shift+radixBits) - 1)
	set := cands
	for {
		var hist [radixBuckets]int
		for _, c := range set {
			hist[byte(candidateKey(c)>>shift)]++
		}
		need := k - above
		d := radixBuckets - 1
		for hist[d] < need {
			need -= hist[d]
			above += hist[d]
			d--
		}
		prefix |= uint32(d) << shift
		if shift == 0 {
			return prefix, above
		}
		if hist[d] < len(set) {
			set = s.narrow(set, prefix, shift)
		}
		shift -= radixBits
	}
}

// narrow keeps the candidates whose key digits from shift up equal prefix,
// in order, in s.sub.
func (s *cpuScratch) narrow(set []uint64, prefix uint32, shift int) []uint64 {
	if len(s.sub) < len(set) {
		s.sub = grow(s.sub, len(set))
	}
	out := s.sub[:0] // in place when set is already s.sub: writes trail reads
	for _, c := range set {
		if candidateKey(c)>>shift == prefix>>shift {
			out = append(out, c)
		}
	}
	return out
}

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

// selectTopK returns the top k of cands (k < len(cands)) in index order:
// every key above the k-th, then ties with the k-th in index order,
// exactly k of them, or all ties in KeepTies mode.
func (s *cpuScratch) selectTopK(cands []uint64, k int, ties TieMode) []uint64 {
	key, above := s.kthKey(cands, k)
	take := k - above
	if ties == KeepTies {
		take = len(cands)
	}
	out := grow(s.topK, 0)
	for _, c := range cands {
		switch ck := candidateKey(c); {
		case ck > key:
			out = append(out, c)
		case ck == key && take > 0:
			out = append(out, c)
			take--
		}
	}
	s.topK = out
	return out
}
