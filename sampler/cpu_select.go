package sampler

// Exact top-k over packed candidates: a radix select on the value keys
// (cpu_radix.go) narrows to the key of the k-th largest. Duplicates then
// follow the stable-sort rule: the tokens equal to the k-th value are taken
// in index order.

// kthKey returns the key of the k-th largest candidate (1 <= k <= len) and
// how many candidates have a strictly larger key.
func (s *cpuScratch) kthKey(cands []uint64, k int) (key uint32, above int) {
	set := cands
	lo, hi := keyRange(set)
	for {
		shift := firstDifferingShift(lo, hi)
		if shift < 0 {
			return lo, above
		}
		var hist [radixBuckets]int
		countDigits(set, shift, &hist)
		need := k - above
		d := radixBuckets - 1
		for hist[d] < need {
			need -= hist[d]
			above += hist[d]
			d--
		}
		set, lo, hi = s.narrow(set, digitPrefix(hi, shift, d), shift)
	}
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
	s.topK = grow(s.topK, len(cands))
	return keepAboveAndTies(cands, key, above, take, s.topK)
}

// keepAboveAndTies copies into out (as long as set) the tokens of set
// whose key is above key and the first take tokens (in index order) equal
// to it, and returns them. above is how many keys exceed key.
func keepAboveAndTies(set []uint64, key uint32, above, take int, out []uint64) []uint64 {
	if above+take <= len(set)/sparseKeepDivisor {
		// Few kept: the keep branch is rarely taken, so well predicted.
		out = out[:0]
		for _, c := range set {
			if ck := candidateKey(c); ck > key || (ck == key && take > 0) {
				if ck == key {
					take--
				}
				out = append(out, c)
			}
		}
		return out
	}
	// Many kept, at unpredictable places: every token is written and the
	// count advances past the kept ones, without a branch.
	n, tied := 0, 0 // tied counts the ties so far: a 1-cycle dependency chain
	for _, c := range set {
		ck := candidateKey(c)
		tied += isTrue(ck == key)
		out[n] = c
		n += isTrue(ck > key) | (isTrue(ck == key) & isTrue(tied <= take))
	}
	return out[:n]
}

// sparseKeepDivisor: when at most 1/sparseKeepDivisor of a set is kept,
// keepAboveAndTies branches instead of writing every token.
const sparseKeepDivisor = 8

// isTrue is 1 for true and 0 for false, compiled without a branch.
func isTrue(b bool) int {
	i := 0
	if b {
		i = 1
	}
	return i
}
