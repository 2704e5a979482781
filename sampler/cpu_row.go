package sampler

import "math"

// Tunables of the per-row strategy.
const (
	// Top-k aims at max(kTargetFactor*k, kTargetMin) candidates (before the
	// margin): the k-th largest lies far inside them.
	kTargetFactor = 2
	kTargetMin    = 64
	// pTarget is how many candidates a top-p-only row gathers: enough
	// that they usually hold p of the mass.
	pTarget = 1024
	// candidateCapFactor bounds the candidate buffer at this multiple of
	// the target (and at least candidateCapMin); an overflow means the
	// threshold missed and the row takes the exact path.
	candidateCapFactor = 8
	candidateCapMin    = 8192
	// minTruncatedVocab: shorter rows go straight to the exact path, where
	// gathering the whole row costs next to nothing.
	minTruncatedVocab = 4 * sampleSize
)

// truncateRow applies top-k then top-p to one row, in place. k and p are
// the row's raw arguments (k <= 0 or k >= len(row) disables top-k, p >= 1
// disables top-p).
func (s *cpuScratch) truncateRow(row []float32, k int32, p float32, ties TieMode) {
	if p <= 0 {
		// Keeping exactly the top token (with its ties in KeepTies mode) is
		// top-1 without top-p, whatever k is.
		k, p = 1, 1
	}
	kk := 0
	if k > 0 && int64(k) < int64(len(row)) {
		kk = int(k)
	}
	if kk == 0 && p >= 1 {
		scrubNaN(row)
		return
	}
	kept, ok := s.truncated(row, kk, float64(p), ties)
	if !ok {
		kept = s.exact(row, kk, float64(p), ties)
	}
	s.writeKept(row, kept)
}

// truncated is the fast path: gather the candidates above a
// sigma-truncation threshold in one pass, then select among them. ok is
// false when the candidates may not hold the answer.
func (s *cpuScratch) truncated(row []float32, k int, p float64, ties TieMode) (kept []uint64, ok bool) {
	if len(row) < minTruncatedVocab {
		return nil, false
	}
	target := pTarget
	if k > 0 {
		target = max(kTargetFactor*k, kTargetMin)
	}
	st := sampleStats(row)
	// The target counts finite tokens: rows masked with -Inf hold fewer.
	q := float64(target) / max(1, st.finiteShare*float64(len(row)))
	if q > maxTailFraction {
		return nil, false
	}
	t, ok := truncationThreshold(st, q)
	if !ok {
		return nil, false
	}
	s.cands = grow(s.cands, min(len(row), max(candidateCapFactor*target, candidateCapMin)))
	if k == 0 {
		return s.truncatedTopP(row, p, ties, t)
	}
	n, ok := gatherAbove(row, t, s.cands)
	if !ok || n < k {
		return nil, false
	}
	survivors := s.cands[:n]
	if n > k {
		survivors = s.selectTopK(survivors, k, ties)
	}
	if p >= 1 {
		return survivors, true
	}
	return s.cutTopP(survivors, p, ties, nil)
}

// truncatedTopP is the fast path of a row with top-p and no top-k. The
// candidates above t usually hold p of the mass; when they do not, the
// mass binned below t during the same pass says how far down the cut
// lies, and one more pass, without exps, gathers down to there.
func (s *cpuScratch) truncatedTopP(row []float32, p float64, ties TieMode, t float32) ([]uint64, bool) {
	var bins massBins
	n, ok := gatherAboveWithMass(row, t, s.cands, &bins)
	if !ok || n == 0 {
		return nil, false
	}
	cands := s.cands[:n]
	below, ref := bins.total(), float64(t)
	kept, ok := s.cutTopP(cands, p, ties, func(top, _ float64) float64 {
		return below * math.Exp(ref-top)
	})
	if ok {
		return kept, true
	}
	_, maxKey := keyRange(cands)
	if maxKey == posInfKey {
		return nil, false // +Inf tokens hold all the mass; rare enough for the exact path
	}
	top := float64(keyValue(maxKey))
	_, above := s.setMass(cands, top)
	scale := math.Exp(ref - top)
	z := above + below*scale
	t2, ok := bins.lowerThreshold(t, p*z-above, scale)
	if !ok {
		return nil, false
	}
	s.cands = grow(s.cands, len(row))
	n, _ = gatherAbove(row, t2, s.cands) // room for the whole row: no overflow
	return s.cutTopP(s.cands[:n], p, ties, func(_, setMass float64) float64 {
		return max(0, z-setMass)
	})
}

// exact is the fallback: every keepable token is a candidate.
func (s *cpuScratch) exact(row []float32, k int, p float64, ties TieMode) []uint64 {
	s.cands = grow(s.cands, len(row))
	survivors := s.cands[:gatherValid(row, s.cands)]
	if k > 0 && len(survivors) > k {
		survivors = s.selectTopK(survivors, k, ties)
	}
	if p >= 1 {
		return survivors
	}
	kept, _ := s.cutTopP(survivors, p, ties, nil)
	return kept
}
