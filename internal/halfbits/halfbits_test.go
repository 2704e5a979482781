package halfbits

import (
	"math"
	"testing"
)

// Every 16-bit pattern widens and narrows back to itself (NaNs stay NaN).
func TestRoundTrip(t *testing.T) {
	for h := 0; h <= 0xffff; h++ {
		b := uint16(h)
		if f := FromHalf(b); f == f {
			if got := ToHalf(f); got != b {
				t.Fatalf("half %#04x -> %v -> %#04x", b, f, got)
			}
		}
		if f := FromBF16(b); f == f {
			if got := ToBF16(f); got != b {
				t.Fatalf("bf16 %#04x -> %v -> %#04x", b, f, got)
			}
		}
	}
}

func TestRounding(t *testing.T) {
	cases := []struct {
		x    float32
		half uint16
	}{
		{1, 0x3c00}, {-2, 0xc000}, {65504, 0x7bff}, {65520, 0x7c00}, {1e-8, 0},
		{float32(math.Inf(-1)), 0xfc00}, {5.9604645e-08, 0x0001}, {1.0009765625, 0x3c01},
		{1.00048828125, 0x3c00}, // tie rounds to even
	}
	for _, c := range cases {
		if got := ToHalf(c.x); got != c.half {
			t.Errorf("ToHalf(%v) = %#04x, want %#04x", c.x, got, c.half)
		}
	}
	if got := ToBF16(1.00390625); got != 0x3f80 { // tie to even
		t.Errorf("ToBF16 tie = %#04x", got)
	}
}

// Format.Round (Encode, then Decode) gives each format's bits and the values
// they widen to.
func TestFormatRound(t *testing.T) {
	xs := []float32{1.0009766, -3.1415927, 65520, float32(math.Inf(-1)), 1e-8}
	for _, c := range []struct {
		f    Format
		to   func(float32) uint16
		from func(uint16) float32
	}{{Half, ToHalf, FromHalf}, {BFloat16, ToBF16, FromBF16}} {
		bits, rounded := c.f.Round(xs)
		for i, x := range xs {
			if bits[i] != c.to(x) || math.Float32bits(rounded[i]) != math.Float32bits(c.from(c.to(x))) {
				t.Errorf("format %d, %v: got %#04x %v, want %#04x %v", c.f, x, bits[i], rounded[i], c.to(x), c.from(c.to(x)))
			}
		}
	}
	if Half.Float(0x3c00) != 1 || BFloat16.Float(0x3f80) != 1 {
		t.Error("1.0 does not widen to 1 in both formats")
	}
}
