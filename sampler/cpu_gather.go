package sampler

import (
	"math"
	"unsafe"
)

// gatherUnroll is how many tokens gatherAbove tests per branch: the common
// case, no candidate among them, costs one predictable branch.
const gatherUnroll = 16

// gatherAbove packs every token x >= t, in index order, into cands (its
// length is the capacity) and returns how many there were. ok is false if
// cands overflowed; the scan then stops early. t must be finite, so NaN and
// -Inf are never gathered.
//
// The scan compares the float bits as integers, which the core does
// several at a time where float compares issue one per cycle: for t > 0,
// x >= t implies int32(bits(x)) >= int32(bits(t)); for t <= 0 (with +0
// taken as -0, which compares the same), it implies
// bits(x) <= bits(t) as unsigned. Positive NaN passes these filters and is
// rejected by the exact float compare in gatherBlock.
func gatherAbove(row []float32, t float32, cands []uint64) (n int, ok bool) {
	if t == 0 {
		t = float32(math.Copysign(0, -1))
	}
	bits := float32Bits(row)
	tb := math.Float32bits(t)
	i := 0
	if tb < signBit32 {
		ts := int32(tb)
		for ; i+gatherUnroll <= len(bits); i += gatherUnroll {
			r := bits[i : i+gatherUnroll : i+gatherUnroll]
			if int32(r[0]) >= ts || int32(r[1]) >= ts || int32(r[2]) >= ts || int32(r[3]) >= ts ||
				int32(r[4]) >= ts || int32(r[5]) >= ts || int32(r[6]) >= ts || int32(r[7]) >= ts ||
				int32(r[8]) >= ts || int32(r[9]) >= ts || int32(r[10]) >= ts || int32(r[11]) >= ts ||
				int32(r[12]) >= ts || int32(r[13]) >= ts || int32(r[14]) >= ts || int32(r[15]) >= ts {
				if n, ok = gatherBlock(row[i:i+gatherUnroll], i, t, cands, n); !ok {
					return n, false
				}
			}
		}
	} else {
		for ; i+gatherUnroll <= len(bits); i += gatherUnroll {
			r := bits[i : i+gatherUnroll : i+gatherUnroll]
			if r[0] <= tb || r[1] <= tb || r[2] <= tb || r[3] <= tb ||
				r[4] <= tb || r[5] <= tb || r[6] <= tb || r[7] <= tb ||
				r[8] <= tb || r[9] <= tb || r[10] <= tb || r[11] <= tb ||
				r[12] <= tb || r[13] <= tb || r[14] <= tb || r[15] <= tb {
				if n, ok = gatherBlock(row[i:i+gatherUnroll], i, t, cands, n); !ok {
					return n, false
				}
			}
		}
	}
	return gatherBlock(row[i:], i, t, cands, n)
}

// gatherBlock packs the tokens x >= t of block, which starts at token
// offset of the row, after the n candidates so far.
func gatherBlock(block []float32, offset int, t float32, cands []uint64, n int) (int, bool) {
	for j, x := range block {
		if x >= t {
			if n == len(cands) {
				return n, false
			}
			cands[n] = packCandidate(orderedKey(x), offset+j)
			n++
		}
	}
	return n, true
}

// float32Bits views a float32 slice as its bit patterns, without a copy.
func float32Bits(row []float32) []uint32 {
	if len(row) == 0 {
		return nil
	}
	return unsafe.Slice((*uint32)(unsafe.Pointer(&row[0])), len(row))
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
	for ; i+massUnroll <= len(row); i += massUnroll {
		r := row[i : i+massUnroll : i+massUnroll]
		if r[0] >= t || r[1] >= t || r[2] >= t || r[3] >= t {
			// Rare: a candidate among the four; take them one by one.
			var sum float64
			if n, sum, ok = gatherMassTail(r, i, t, cands, n); !ok {
				return n, 0, false
			}
			s0 += sum
			continue
		}
		// No candidate: d < 0, or NaN, which fails the test below.
		if d := float64(r[0]) - tf; d >= expMinArg {
			s0 += expNonPositive(d)
		}
		if d := float64(r[1]) - tf; d >= expMinArg {
			s1 += expNonPositive(d)
		}
		if d := float64(r[2]) - tf; d >= expMinArg {
			s2 += expNonPositive(d)
		}
		if d := float64(r[3]) - tf; d >= expMinArg {
			s3 += expNonPositive(d)
		}
	}
	n, sum, ok := gatherMassTail(row[i:], i, t, cands, n)
	return n, s0 + s1 + s2 + s3 + sum, ok
}

// massUnroll is how many tokens gatherAboveWithMass handles per step:
// four independent exp evaluations keep the core busy.
const massUnroll = 4

// gatherMassTail is gatherAboveWithMass one token at a time over part,
// which starts at token offset of the row, with n candidates so far.
func gatherMassTail(part []float32, offset int, t float32, cands []uint64, n int) (int, float64, bool) {
	tf := float64(t)
	sum := 0.0
	for j, x := range part {
		if x >= t {
			if n == len(cands) {
				return n, 0, false
			}
			cands[n] = packCandidate(orderedKey(x), offset+j)
			n++
		} else if d := float64(x) - tf; d >= expMinArg {
			sum += expNonPositive(d)
		}
	}
	return n, sum, true
}

// gatherValid packs every token that can be kept (neither NaN nor -Inf)
// into cands, which must hold len(row) entries.
func gatherValid(row []float32, cands []uint64) int {
	n, _ := gatherAbove(row, -math.MaxFloat32, cands)
	return n
}
