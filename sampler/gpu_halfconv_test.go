//go:build (cuda || hip) && cgo

package sampler_test

import (
	"github.com/qrita-project/qrita/internal/halfbits"
	"github.com/qrita-project/qrita/sampler"
)

// encode returns the element bits of xs in dtype d and xs as they read back
// after that rounding.
func encode(d sampler.DType, xs []float32) (bits []uint16, rounded []float32) {
	bits = make([]uint16, len(xs))
	rounded = make([]float32, len(xs))
	for i, x := range xs {
		if d == sampler.Float16 {
			bits[i] = halfbits.ToHalf(x)
			rounded[i] = halfbits.FromHalf(bits[i])
		} else {
			bits[i] = halfbits.ToBF16(x)
			rounded[i] = halfbits.FromBF16(bits[i])
		}
	}
	return bits, rounded
}

func decode(d sampler.DType, bits []uint16) []float32 {
	out := make([]float32, len(bits))
	for i, b := range bits {
		if d == sampler.Float16 {
			out[i] = halfbits.FromHalf(b)
		} else {
			out[i] = halfbits.FromBF16(b)
		}
	}
	return out
}
