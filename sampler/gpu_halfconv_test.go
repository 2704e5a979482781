//go:build (cuda || hip) && cgo

package sampler_test

import (
	"github.com/qrita-project/qrita/internal/halfbits"
	"github.com/qrita-project/qrita/sampler"
)

// format is d's 16-bit format (d is Float16 or BFloat16).
func format(d sampler.DType) halfbits.Format {
	if d == sampler.Float16 {
		return halfbits.Half
	}
	return halfbits.BFloat16
}

// encode returns the element bits of xs in dtype d and xs as they read back
// after that rounding.
func encode(d sampler.DType, xs []float32) (bits []uint16, rounded []float32) {
	return format(d).Round(xs)
}

func decode(d sampler.DType, bits []uint16) []float32 { return format(d).Decode(bits) }
