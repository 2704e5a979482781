package sampler

import (
	"math"

	"github.com/qrita-project/qrita/internal/quantiles"
)

// Sigma-truncation turns "keep about a fraction q of the row" into a
// threshold mean + z*std, with z the standard normal upper-tail quantile
// of q. The table holds z for q = 2^(-i/quantileStepsPerOctave), in
// float64 and deeper than the GPU's float32 table.
const (
	quantileStepsPerOctave = 4
	quantileOctaves        = 30 // q down to 2^-30, below any 1/vocab in use
	quantileEntries        = quantileOctaves*quantileStepsPerOctave + 1
)

var normalQuantiles = func() (t [quantileEntries]float64) {
	for i := range t {
		t[i] = upperTailQuantile(quantileTailFraction(i))
	}
	return t
}()

// quantileTailFraction is the upper-tail fraction of table entry i.
func quantileTailFraction(i int) float64 {
	return math.Exp2(-float64(i) / quantileStepsPerOctave)
}

// upperTailQuantile returns z with P(Z > z) = q for a standard normal Z
// (the function the GPU kernels' table is generated from).
func upperTailQuantile(q float64) float64 { return quantiles.Z(q) }

// tailQuantile returns the table's z for tail fraction q in (0, 1]. It
// picks the entry whose fraction is the next one at or above q, so the
// threshold errs towards more candidates, never fewer.
func tailQuantile(q float64) float64 {
	i := int(math.Floor(-math.Log2(q) * quantileStepsPerOctave))
	return normalQuantiles[min(max(i, 0), quantileEntries-1)]
}
