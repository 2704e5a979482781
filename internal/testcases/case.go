package testcases

import (
	"math"

	"github.com/qrita-project/qrita/reference"
)

// KFunc gives the top-k of row i for a given vocab.
type KFunc func(row, vocab int) int32

// PFunc gives the top-p of row i; it sees the row's logits and k so that it
// can place p on a cumulative-probability boundary.
type PFunc func(row int, logits []float32, k int32) float32

// Case is one input: a shape, a distribution, and per-row k and p.
type Case struct {
	Name         string
	Batch, Vocab int
	Dist         Dist
	Seed         uint64
	K            KFunc // nil: k is nil (top-k disabled for every row)
	P            PFunc // nil: p is nil (top-p disabled for every row)
	// Boundary marks cases whose p is placed on a cumulative boundary on
	// purpose: their rows are ambiguous by construction, so they do not
	// count in the rate of ambiguous random rows.
	Boundary bool
}

// Args builds the case's inputs. Each call returns fresh slices.
func (c Case) Args() (logits []float32, k []int32, p []float32) {
	logits = Logits(c.Batch, c.Vocab, c.Dist, c.Seed)
	if c.K != nil {
		k = make([]int32, c.Batch)
		for i := range k {
			k[i] = c.K(i, c.Vocab)
		}
	}
	if c.P != nil {
		p = make([]float32, c.Batch)
		for i := range p {
			kk := int32(0)
			if k != nil {
				kk = k[i]
			}
			p[i] = c.P(i, logits[i*c.Vocab:(i+1)*c.Vocab], kk)
		}
	}
	return logits, k, p
}

// Size is the number of logits, to trim large cases under testing.Short.
func (c Case) Size() int { return c.Batch * c.Vocab }

// KConst is the same k for every row.
func KConst(k int32) KFunc { return func(int, int) int32 { return k } }

// KVocabPlus is k = vocab + d for every row (d = -1, 0, 1: the edges of
// "k >= vocab disables top-k").
func KVocabPlus(d int) KFunc {
	return func(_, vocab int) int32 { return clampInt32(vocab + d) }
}

// KMixed cycles through k values that cover every per-row rule, so that a
// batch mixes active and disabled top-k rows.
func KMixed() KFunc {
	return func(row, vocab int) int32 {
		switch row % 10 {
		case 0:
			return 1
		case 1:
			return 2
		case 2:
			return 50
		case 3:
			return 0
		case 4:
			return -1
		case 5:
			return clampInt32(vocab - 1)
		case 6:
			return clampInt32(vocab)
		case 7:
			return clampInt32(vocab + 1)
		case 8:
			return 5
		default:
			return math.MaxInt32
		}
	}
}

// PConst is the same p for every row.
func PConst(p float32) PFunc { return func(int, []float32, int32) float32 { return p } }

var mixedP = []float32{0.9, 0.5, 1e-7, 0, -0.5, 1, 1.5, 0.95, 0.99, 0.2, float32(math.Inf(1)), float32(math.Inf(-1))}

// PMixed cycles through p values that cover every per-row rule.
func PMixed() PFunc {
	return func(row int, _ []float32, _ int32) float32 { return mixedP[row%len(mixedP)] }
}

// PBoundary places p on a cumulative probability of the row, computed by
// reference.Explain in Exact mode: even rows use the cumulative at the cut,
// odd rows the one just before it. step moves p that many float32 ulps
// (-1 below, 0 on, +1 above). These rows are ambiguous by construction.
func PBoundary(step int) PFunc {
	return func(row int, logits []float32, k int32) float32 {
		target := float32(0.05 + math.Mod(float64(row)*0.37, 0.9))
		r := reference.Explain(logits, k, target, reference.Exact)
		if !r.TopP {
			return target
		}
		cum := r.CumAt
		if row%2 == 1 && r.CumBefore > 0 {
			cum = r.CumBefore
		}
		p := float32(cum)
		for ; step > 0; step-- {
			p = math.Nextafter32(p, 2)
		}
		for ; step < 0; step++ {
			p = math.Nextafter32(p, -1)
		}
		return p
	}
}

func clampInt32(v int) int32 {
	return int32(min(max(v, math.MinInt32), math.MaxInt32))
}
