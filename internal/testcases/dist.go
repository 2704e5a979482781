package testcases

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Dist names a distribution of logit values within one row.
type Dist int

const (
	// LLMLike is a Gaussian bulk 1.5*N(0,1) plus a heavy tail: 64 random
	// tokens (V/4+1 when V < 64) get Exponential(scale 1.5)+9 added.
	LLMLike Dist = iota
	// Flat is N(0, 0.01^2): probabilities nearly uniform, many tokens
	// needed to reach p.
	Flat
	// Peaked is the LLMLike bulk with a tail of Exponential(scale 3)+6.
	Peaked
	// OneHot is all 0 except one token at 10.
	OneHot
	// AllEqual is every token 0.5: the whole row is one tie.
	AllEqual
	// BF16Ties is LLMLike rounded to bfloat16 precision: many exact ties.
	BF16Ties
	// SignedZeros mixes +0, -0 and a few small values: +0 == -0 must tie.
	SignedZeros
	// NegInfMask50 is LLMLike with 50% of the tokens set to -Inf.
	NegInfMask50
	// NegInfMask90 is LLMLike with 90% of the tokens set to -Inf.
	NegInfMask90
	// NegInfMask99 is LLMLike with 99% of the tokens set to -Inf.
	NegInfMask99
	// WithNaN is LLMLike with about 1% NaN (at least one).
	WithNaN
	// WithPosInf is LLMLike with 1 to 3 +Inf tokens, which share all mass.
	WithPosInf
	// Denormals mixes tiny denormals of both signs, signed zeros and a few
	// normals: a backend that flushes denormals to zero breaks ties wrongly.
	Denormals
	// Huge holds values around ±3e38 including ±math.MaxFloat32, where
	// x - max overflows in float32.
	Huge
	// AllNegInf is a row with nothing to keep: -Inf with some NaN.
	AllNegInf
	// SmallInts is integers 0..7: heavy ties at every rank.
	SmallInts
	// Plateau is 0 almost everywhere, with 0.35 % of the tokens in [5, 7)
	// and 0.05 % in (-2, 0]: a strided sample sees (nearly) only the
	// plateau, so a sampled threshold sits just above it, and a top-p
	// nucleus of p = 0.9 takes part of the plateau's ties beyond the
	// tokens above it (the GPU's second top-p gather finds no lower
	// threshold there).
	Plateau

	numDists // keep last
)

var distNames = [numDists]string{
	LLMLike:      "llm",
	Flat:         "flat",
	Peaked:       "peaked",
	OneHot:       "onehot",
	AllEqual:     "allequal",
	BF16Ties:     "bf16ties",
	SignedZeros:  "signedzeros",
	NegInfMask50: "neginf50",
	NegInfMask90: "neginf90",
	NegInfMask99: "neginf99",
	WithNaN:      "nan",
	WithPosInf:   "posinf",
	Denormals:    "denormals",
	Huge:         "huge",
	AllNegInf:    "allneginf",
	SmallInts:    "smallints",
	Plateau:      "plateau",
}

func (d Dist) String() string {
	if d >= 0 && d < numDists {
		return distNames[d]
	}
	return fmt.Sprintf("Dist(%d)", int(d))
}

// Dists returns every distribution, in declaration order.
func Dists() []Dist {
	ds := make([]Dist, numDists)
	for i := range ds {
		ds[i] = Dist(i)
	}
	return ds
}

// NewRand returns the deterministic generator used for seed.
func NewRand(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}

// Logits returns batch rows of vocab values drawn from d; every row comes
// from the same generator stream, so rows differ but the result is a pure
// function of the arguments.
func Logits(batch, vocab int, d Dist, seed uint64) []float32 {
	logits := make([]float32, batch*vocab)
	rng := NewRand(seed)
	for i := 0; i < batch; i++ {
		Fill(logits[i*vocab:(i+1)*vocab], d, rng)
	}
	return logits
}

// Fill overwrites row with values drawn from d.
func Fill(row []float32, d Dist, rng *rand.Rand) {
	v := len(row)
	if v == 0 {
		return
	}
	negInf := float32(math.Inf(-1))
	nan := float32(math.NaN())
	switch d {
	case LLMLike:
		fillTailed(row, rng, 1.5, 9)
	case Flat:
		for i := range row {
			row[i] = float32(0.01 * rng.NormFloat64())
		}
	case Peaked:
		fillTailed(row, rng, 3, 6)
	case OneHot:
		clear(row)
		row[rng.IntN(v)] = 10
	case AllEqual:
		for i := range row {
			row[i] = 0.5
		}
	case BF16Ties:
		fillTailed(row, rng, 1.5, 9)
		for i, x := range row {
			row[i] = roundBF16(x)
		}
	case SignedZeros:
		negZero := float32(math.Copysign(0, -1))
		for i := range row {
			switch r := rng.IntN(20); {
			case r < 9:
				row[i] = 0
			case r < 18:
				row[i] = negZero
			default:
				row[i] = float32(rng.Float64()*2e-3 - 1e-3)
			}
		}
	case NegInfMask50, NegInfMask90, NegInfMask99:
		fillTailed(row, rng, 1.5, 9)
		frac := map[Dist]float64{NegInfMask50: 0.5, NegInfMask90: 0.9, NegInfMask99: 0.99}[d]
		for _, i := range distinct(rng, v, int(math.Round(frac*float64(v)))) {
			row[i] = negInf
		}
	case WithNaN:
		fillTailed(row, rng, 1.5, 9)
		for _, i := range distinct(rng, v, max(1, v/100)) {
			row[i] = nan
		}
	case WithPosInf:
		fillTailed(row, rng, 1.5, 9)
		for _, i := range distinct(rng, v, min(v, 1+rng.IntN(3))) {
			row[i] = float32(math.Inf(1))
		}
	case Denormals:
		for i := range row {
			switch r := rng.IntN(50); {
			case r < 30:
				// Few distinct mantissas, so denormal ties occur.
				bits := uint32(1 + rng.IntN(64))
				if rng.IntN(2) == 0 {
					bits |= 1 << 31
				}
				row[i] = math.Float32frombits(bits)
			case r < 48:
				row[i] = float32(math.Copysign(0, float64(rng.IntN(2)*2-1)))
			default:
				row[i] = float32(rng.NormFloat64())
			}
		}
	case Huge:
		for i := range row {
			x := float32(3e38 + rng.Float64()*(math.MaxFloat32-3e38))
			switch r := rng.IntN(20); {
			case r == 0:
				x = math.MaxFloat32
			case r == 1:
				x = math.SmallestNonzeroFloat32
			case r < 10:
				x = -x
			}
			row[i] = x
		}
		row[rng.IntN(v)] = -math.MaxFloat32
	case AllNegInf:
		for i := range row {
			row[i] = negInf
			if rng.IntN(10) == 0 {
				row[i] = nan
			}
		}
	case SmallInts:
		for i := range row {
			row[i] = float32(rng.IntN(8))
		}
	case Plateau:
		clear(row)
		for _, i := range distinct(rng, v, max(1, v*35/10000)) {
			row[i] = float32(5 + 2*rng.Float64())
		}
		for _, i := range distinct(rng, v, v*5/10000) {
			row[i] = float32(-2 * rng.Float64())
		}
	default:
		panic(fmt.Sprintf("testcases: unknown %v", d))
	}
}

// fillTailed draws the 1.5*N(0,1) bulk and adds Exponential(scale)+shift
// to a random set of tail tokens: 64, or V/4+1 for small V.
func fillTailed(row []float32, rng *rand.Rand, scale, shift float64) {
	for i := range row {
		row[i] = float32(1.5 * rng.NormFloat64())
	}
	tail := 64
	if len(row) < 64 {
		tail = len(row)/4 + 1
	}
	for _, i := range distinct(rng, len(row), tail) {
		row[i] += float32(scale*rng.ExpFloat64() + shift)
	}
}

// distinct returns m distinct indices in [0, n), in random order.
func distinct(rng *rand.Rand, n, m int) []int {
	if m*8 > n {
		return rng.Perm(n)[:m]
	}
	seen := make(map[int]bool, m)
	out := make([]int, 0, m)
	for len(out) < m {
		i := rng.IntN(n)
		if !seen[i] {
			seen[i] = true
			out = append(out, i)
		}
	}
	return out
}

// roundBF16 rounds a finite float32 to the nearest bfloat16 (ties to even).
func roundBF16(x float32) float32 {
	b := math.Float32bits(x)
	b += 0x7fff + (b>>16)&1
	return math.Float32frombits(b &^ 0xffff)
}
