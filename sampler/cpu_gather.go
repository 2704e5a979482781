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

// gatherValid packs every token that can be kept (neither NaN nor -Inf)
// into cands, which must hold len(row) entries. It serves the exact path,
// where most tokens qualify, so it writes every token and advances only
// past the valid ones, without a branch.
func gatherValid(row []float32, cands []uint64) int {
	n := 0
	for i, x := range row {
		cands[n] = packCandidate(orderedKey(x), i)
		n += aboveNegInf(x)
	}
	return n
}

// aboveNegInf is 1 if x > -Inf (false for NaN too), else 0, without a
// branch.
func aboveNegInf(x float32) int {
	b := 0
	if x > negInf32 {
		b = 1
	}
	return b
}
