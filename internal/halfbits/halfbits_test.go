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
