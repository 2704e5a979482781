package sampler

import "math"

// Tunables of the sigma-truncation threshold.
const (
	// sampleSize is how many evenly strided tokens estimate a row's mean
	// and standard deviation.
	sampleSize = 1024
	// sigmaMargin lowers z by this many standard deviations: logits are
	// only roughly Gaussian, and a miss costs an exact pass over the row.
	sigmaMargin = 0.5
	// maxTailFraction is the largest share of a row worth gathering as
	// candidates; beyond it the exact path is as cheap.
	maxTailFraction = 1.0 / 8
)

// rowStats are the mean and standard deviation of a row's finite sample.
type rowStats struct {
	mean, std float64
	n         int // finite tokens sampled
}

// sampleStats estimates the mean and standard deviation of the row's
// finite values from a strided sample (NaN and ±Inf are skipped).
func sampleStats(row []float32) rowStats {
	var sample [sampleSize]float64
	stride := max(1, len(row)/sampleSize)
	n := 0
	sum := 0.0
	for i := stride / 2; i < len(row) && n < sampleSize; i += stride {
		x := float64(row[i])
		if math.IsInf(x, 0) || x != x {
			continue
		}
		sample[n] = x
		sum += x
		n++
	}
	if n == 0 {
		return rowStats{}
	}
	mean := sum / float64(n)
	ss := 0.0
	for _, x := range sample[:n] {
		ss += (x - mean) * (x - mean)
	}
	return rowStats{mean: mean, std: math.Sqrt(ss / float64(n)), n: n}
}

// truncationThreshold returns t such that about a fraction q (or more) of
// a Gaussian row with these stats lies at or above t. ok is false when no
// useful finite threshold exists (no finite sample, overflowing stats).
// A constant sample (std 0) gives the next float above it, so a one-hot
// row gathers only what stands out.
func truncationThreshold(st rowStats, q float64) (t float32, ok bool) {
	if st.n == 0 {
		return 0, false
	}
	var t64 float64
	if st.std == 0 {
		t64 = float64(math.Nextafter32(float32(st.mean), float32(math.Inf(1))))
	} else {
		t64 = st.mean + (tailQuantile(q)-sigmaMargin)*st.std
	}
	if math.IsInf(t64, 0) || t64 != t64 {
		return 0, false
	}
	// -MaxFloat32 at the lowest: a candidate must never be -Inf.
	return float32(max(t64, -math.MaxFloat32)), true
}
