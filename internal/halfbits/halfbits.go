// Package halfbits converts between float32 and the bits of binary16 and
// bfloat16, for tests and benchmarks that feed 16-bit logits to the GPU.
package halfbits

import "math"

// ToHalf rounds x to the nearest binary16 (ties to even).
func ToHalf(x float32) uint16 {
	b := math.Float32bits(x)
	sign := uint16(b>>16) & 0x8000
	exp := int(b>>23&0xff) - 127 + 15
	man := b & 0x7fffff
	switch {
	case b&0x7fffffff > 0x7f800000: // NaN
		return sign | 0x7e00
	case int(b>>23&0xff) == 0xff: // Inf
		return sign | 0x7c00
	case exp >= 0x1f:
		return sign | 0x7c00
	case exp <= 0:
		if exp < -10 {
			return sign
		}
		man |= 0x800000
		shift := uint(14 - exp)
		half := uint32(1) << (shift - 1)
		r := man >> shift
		rest := man & (1<<shift - 1)
		if rest > half || (rest == half && r&1 == 1) {
			r++
		}
		return sign | uint16(r)
	}
	r := uint32(exp)<<10 | man>>13
	rest := man & 0x1fff
	if rest > 0x1000 || (rest == 0x1000 && r&1 == 1) {
		r++
	}
	return sign | uint16(r)
}

// FromHalf widens binary16 bits exactly.
func FromHalf(h uint16) float32 {
	sign := uint32(h&0x8000) << 16
	exp := uint32(h>>10) & 0x1f
	man := uint32(h & 0x3ff)
	switch {
	case exp == 0x1f:
		return math.Float32frombits(sign | 0x7f800000 | man<<13)
	case exp == 0:
		if man == 0 {
			return math.Float32frombits(sign)
		}
		v := float32(man) / 1024 / 16384
		if sign != 0 {
			v = -v
		}
		return v
	}
	return math.Float32frombits(sign | (exp+112)<<23 | man<<13)
}

// ToBF16 rounds x to the nearest bfloat16 (ties to even).
func ToBF16(x float32) uint16 {
	b := math.Float32bits(x)
	if b&0x7fffffff > 0x7f800000 {
		return uint16(b>>16) | 0x40
	}
	return uint16((b + 0x7fff + (b >> 16 & 1)) >> 16)
}

// FromBF16 widens bfloat16 bits exactly.
func FromBF16(h uint16) float32 { return math.Float32frombits(uint32(h) << 16) }

// Format is one of the two 16-bit float formats.
type Format int

const (
	Half     Format = iota // IEEE 754 binary16
	BFloat16               // bfloat16
)

// Bits rounds x to f (ties to even).
func (f Format) Bits(x float32) uint16 {
	if f == Half {
		return ToHalf(x)
	}
	return ToBF16(x)
}

// Float widens bits h of f exactly.
func (f Format) Float(h uint16) float32 {
	if f == Half {
		return FromHalf(h)
	}
	return FromBF16(h)
}

// Encode returns the bits of xs in f.
func (f Format) Encode(xs []float32) []uint16 {
	bits := make([]uint16, len(xs))
	for i, x := range xs {
		bits[i] = f.Bits(x)
	}
	return bits
}

// Decode widens bits of f exactly.
func (f Format) Decode(bits []uint16) []float32 {
	out := make([]float32, len(bits))
	for i, h := range bits {
		out[i] = f.Float(h)
	}
	return out
}

// Round returns the bits of xs in f and the values those bits read back as.
func (f Format) Round(xs []float32) (bits []uint16, rounded []float32) {
	bits = f.Encode(xs)
	return bits, f.Decode(bits)
}
