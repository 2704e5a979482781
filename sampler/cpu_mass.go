package sampler

import "math"

// Top-p rows without top-k need the softmax mass of the tokens they do not
// gather. The gathering pass sums exp(x - t) of those tokens per bin of
// x - t, so that a row whose candidates turn out to hold too little mass
// can find how far below t its cut lies and gather down to there in one
// more pass, which computes no exp (only the newly gathered tokens need
// theirs again), instead of redoing the whole row exactly.

const (
	// massBinShift: a bin spans 2^massBinShift steps of the exp table,
	// 16 * ln2/64 ~ 0.17 in logit units.
	massBinShift = 4
	massBinCount = 128 // ~22 logit units; the last bin takes everything lower
	massBinWidth = (1 << massBinShift) * expLn2N
	// massUnroll tokens are handled per step: independent exp evaluations
	// and bins keep the core busy without store-forwarding stalls.
	massUnroll = 4
)

// massBins[j] is the sum of exp(x - t) over the tokens x < t that lie
// about j*massBinWidth to (j+1)*massBinWidth below t.
type massBins [massBinCount]float64

func (m *massBins) total() float64 {
	s := 0.0
	for _, v := range m {
		s += v
	}
	return s
}

// gatherAboveWithMass is gatherAbove that also bins the softmax mass of
// the tokens under t (NaN and -Inf contribute nothing) into bins.
func gatherAboveWithMass(row []float32, t float32, cands []uint64, bins *massBins) (n int, ok bool) {
	tf := float64(t)
	var lanes [massUnroll]massBins
	i := 0
	for ; i+massUnroll <= len(row); i += massUnroll {
		r := row[i : i+massUnroll : i+massUnroll]
		if r[0] >= t || r[1] >= t || r[2] >= t || r[3] >= t {
			// Rare: a candidate among the four; take them one by one.
			if n, ok = gatherMassTail(r, i, t, cands, n, &lanes[0]); !ok {
				return n, false
			}
			continue
		}
		// No candidate: d < 0, or NaN, which fails the test below.
		for j, x := range r {
			if d := float64(x) - tf; d >= expMinArg {
				e, steps := expNonPositiveSteps(d)
				lanes[j][min(steps>>massBinShift, massBinCount-1)] += e
			}
		}
	}
	if n, ok = gatherMassTail(row[i:], i, t, cands, n, &lanes[0]); !ok {
		return n, false
	}
	for j := range bins {
		bins[j] = lanes[0][j] + lanes[1][j] + lanes[2][j] + lanes[3][j]
	}
	return n, true
}

// gatherMassTail is gatherAboveWithMass one token at a time over part,
// which starts at token offset of the row, with n candidates so far.
func gatherMassTail(part []float32, offset int, t float32, cands []uint64, n int, bins *massBins) (int, bool) {
	tf := float64(t)
	for j, x := range part {
		if x >= t {
			if n == len(cands) {
				return n, false
			}
			cands[n] = packCandidate(orderedKey(x), offset+j)
			n++
		} else if d := float64(x) - tf; d >= expMinArg {
			e, steps := expNonPositiveSteps(d)
			bins[min(steps>>massBinShift, massBinCount-1)] += e
		}
	}
	return n, true
}

// lowerThreshold returns a threshold below t above which the tokens hold
// at least need of mass, given the binned mass under t (both scaled
// alike): the cut of a row whose candidates above t fell short by need
// lies above it. ok is false when only the whole row will do.
func (m *massBins) lowerThreshold(t float32, need, scale float64) (float32, bool) {
	acc := 0.0
	for j := range massBinCount - 1 {
		acc += m[j] * scale
		if acc >= need {
			// Bin j ends less than half a step beyond (j+1) bin widths
			// below t; one more bin of margin absorbs every rounding.
			t2 := float64(t) - float64(j+2)*massBinWidth
			return roundDown32(t2), true
		}
	}
	return 0, false
}

// roundDown32 is the largest float32 not above x, clamped to the finite
// range (a gathering threshold must never admit -Inf).
func roundDown32(x float64) float32 {
	f := float32(x)
	if float64(f) > x {
		f = math.Nextafter32(f, float32(math.Inf(-1)))
	}
	return max(f, -math.MaxFloat32)
}
