package sampler

import "math"

// Candidates travel packed in one uint64 per token: the order-preserving
// key of the value in the high 32 bits and the complemented token index in
// the low 32 bits. A larger packed value then ranks first (higher value,
// then lower index, the stable-sort rule), no two tokens of a row are
// equal, and sorting or selecting on the packed value is rank order.

const signBit32 = 1 << 31

// orderedKey maps a non-NaN float32 to a uint32 whose unsigned order is the
// float order. -0 maps like +0 because the two tie in rank order.
func orderedKey(x float32) uint32 {
	b := math.Float32bits(x)
	if b == signBit32 {
		b = 0
	}
	// Negative floats: flip every bit (larger magnitude ranks lower).
	// Non-negative floats: set the sign bit (they rank above negatives).
	return b ^ (uint32(int32(b)>>31) | signBit32)
}

// keyValue inverts orderedKey; both zeros come back as +0.
func keyValue(key uint32) float32 {
	if key&signBit32 != 0 {
		return math.Float32frombits(key ^ signBit32)
	}
	return math.Float32frombits(^key)
}

// posInfKey is the key of +Inf, the largest key a candidate can have.
var posInfKey = orderedKey(float32(math.Inf(1)))

func packCandidate(key uint32, index int) uint64 {
	return uint64(key)<<32 | uint64(^uint32(index))
}

func candidateKey(c uint64) uint32 { return uint32(c >> 32) }

func candidateIndex(c uint64) int { return int(^uint32(c)) }
