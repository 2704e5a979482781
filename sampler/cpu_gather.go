package sampler

import "math"

// gatherUnroll is how many tokens the gather loops test per branch: the
// common case, no candidate among them, costs one predictable branch.
const gatherUnroll = 8

// gatherAbove packs every token x >= t, in index order, into cands (its
// length is the capacity) and returns how many there were. ok is false if
// cands overflowed; the scan then stops early. t must be finite, so NaN and
// -Inf are never gathered.
func gatherAbove(row []float32, t float32, cands []uint64) (n int, ok bool) {
	i := 0
	for ; i+gatherUnroll <= len(row); i += gatherUnroll {
		r := row[i : i+gatherUnroll : i+gatherUnroll]
		if r[0] >= t || r[1] >= t || r[2] >= t || r[3] >= t ||
			r[4] >= t || r[5] >= t || r[6] >= t || r[7] >= t {
			if n+gatherUnroll > len(cands) {
				return gatherTail(row, i, t, cands, n)
			}
			// Branch-free: write every token, advance only past
			// candidates. Which of the eight qualify is unpredictable.
			w := cands[n : n+gatherUnroll : n+gatherUnroll]
			m := 0
			for j, x := range r {
				w[m&(gatherUnroll-1)] = packCandidate(orderedKey(x), i+j)
				m += isAtLeast(x, t)
			}
			n += m
		}
	}
	return gatherTail(row, i, t, cands, n)
}

// gatherTail is gatherAbove from token i on, with n candidates so far,
// one token at a time.
func gatherTail(row []float32, i int, t float32, cands []uint64, n int) (int, bool) {
	for ; i < len(row); i++ {
		if x := row[i]; x >= t {
			if n == len(cands) {
				return n, false
			}
			cands[n] = packCandidate(orderedKey(x), i)
			n++
		}
	}
	return n, true
}

// gatherAboveWithMass is gatherAbove that also returns below, the sum of
// exp(x - t) over the tokens under t (NaN and -Inf contribute nothing),
// so that top-p knows the softmax mass it did not gather without a second
// pass.
func gatherAboveWithMass(row []float32, t float32, cands []uint64) (n int, below float64, ok bool) {
	tf := float64(t)
	// Four independent sums hide the add latency.
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(row); i += 4 {
		r := row[i : i+4 : i+4]
		for j, x := range r {
			if x >= t {
				if n == len(cands) {
					return n, 0, false
				}
				cands[n] = packCandidate(orderedKey(x), i+j)
				n++
			}
		}
		if d := float64(r[0]) - tf; d < 0 && d >= expMinArg {
			s0 += expNonPositive(d)
		}
		if d := float64(r[1]) - tf; d < 0 && d >= expMinArg {
			s1 += expNonPositive(d)
		}
		if d := float64(r[2]) - tf; d < 0 && d >= expMinArg {
			s2 += expNonPositive(d)
		}
		if d := float64(r[3]) - tf; d < 0 && d >= expMinArg {
			s3 += expNonPositive(d)
		}
	}
	for ; i < len(row); i++ {
		x := row[i]
		if x >= t {
			if n == len(cands) {
				return n, 0, false
			}
			cands[n] = packCandidate(orderedKey(x), i)
			n++
		} else if d := float64(x) - tf; d >= expMinArg {
			s0 += expNonPositive(d)
		}
	}
	return n, s0 + s1 + s2 + s3, true
}

// gatherValid packs every token that can be kept (neither NaN nor -Inf)
// into cands, which must hold len(row) entries.
func gatherValid(row []float32, cands []uint64) int {
	n, _ := gatherAbove(row, -math.MaxFloat32, cands)
	return n
}

// isAtLeast is x >= t as 0 or 1, compiled without a branch.
func isAtLeast(x, t float32) int {
	b := 0
	if x >= t {
		b = 1
	}
	return b
}
