//go:build (cuda || hip) && cgo

package sampler_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/qrita-project/qrita/internal/halfbits"
	"github.com/qrita-project/qrita/internal/native"
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

// uploadAs copies xs to new device memory as elements of d and returns
// its address (the caller frees it) and xs as d rounds them.
func uploadAs(t testing.TB, nc *native.Ctx, d sampler.DType, xs []float32) (dev uintptr, rounded []float32) {
	t.Helper()
	if d == sampler.Float32 {
		return deviceCopy(t, nc, xs), xs
	}
	bits, rounded := encode(d, xs)
	dev, err := nc.Malloc(max(len(bits), 1) * 2)
	require.NoError(t, err)
	require.NoError(t, native.CopyToDevice(nc, dev, bits))
	return dev, rounded
}

// downloadAs reads n elements of d at dev as float32.
func downloadAs(t testing.TB, nc *native.Ctx, d sampler.DType, dev uintptr, n int) []float32 {
	t.Helper()
	if d == sampler.Float32 {
		out := make([]float32, n)
		require.NoError(t, native.CopyFromDevice(nc, out, dev))
		return out
	}
	bits := make([]uint16, n)
	require.NoError(t, native.CopyFromDevice(nc, bits, dev))
	return decode(d, bits)
}
