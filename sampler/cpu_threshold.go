package sampler

import "math"

// Tunables of the sigma-truncation threshold.
const (
	// The mean and standard deviation come from sampleBlocks short runs
	// of sampleBlockLen tokens spread evenly over the row: contiguous
	// runs cost a few cache lines each, where a strided sample would miss
	// the cache once per token.
	sampleBlocks   = 16
	sampleBlockLen = 64
	sampleSize     = sampleBlocks * sampleBlockLen
	// sigmaMargin lowers z by this many standard deviations: logits are
	// only roughly Gaussian, and a miss costs an exact pass over the row.
	sigmaMargin = 0.25
	// maxTailFraction is the largest share of a row worth gathering as
	// candidates; beyond it the exact path is as cheap.
	maxTailFraction = 1.0 / 8
	// minFiniteSamples: with fewer finite tokens in the sample (a row
	// mostly -Inf) the estimate is too loose, and the exact path gathers
	// the few valid tokens cheaply anyway.
	minFiniteSamples = 64
)

// rowStats are the mean and standard deviation of a row's finite sample.
type rowStats struct {
	mean, std   float64
	n           int     // finite tokens sampled
	finiteShare float64 // n / tokens sampled: the row's estimated finite share
}

// sampleStats estimates the mean and standard deviation of the row's
// finite values (NaN and ±Inf are skipped) from its sample.
func sampleStats(row []float32) rowStats {
	var buf [sampleSize]float32
	sample := sampleRow(row, &buf)
	n := 0
	sum := 0.0
	for _, x := range sample {
		if x := float64(x); !math.IsInf(x, 0) && x == x {
			sum += x
			n++
		}
	}
	if n == 0 {
		return rowStats{}
	}
	mean := sum / float64(n)
	ss := 0.0
	for _, x := range sample {
		if x := float64(x); !math.IsInf(x, 0) && x == x {
			ss += (x - mean) * (x - mean)
		}
	}
	return rowStats{mean: mean, std: math.Sqrt(ss / float64(n)), n: n, finiteShare: float64(n) / float64(len(sample))}
}

// sampleRow returns the sample of a row: the whole row when it is short,
// else sampleBlocks runs of sampleBlockLen tokens evenly spread, copied
// into buf position-major (position j of every block, then j+1) so that
// the first sweep has every block's cache miss in flight at once.
func sampleRow(row []float32, buf *[sampleSize]float32) []float32 {
	if len(row) <= sampleSize {
		return row
	}
	stride := len(row) / sampleBlocks
	for j := range sampleBlockLen {
		for b := range sampleBlocks {
			buf[j*sampleBlocks+b] = row[b*stride+j]
		}
	}
	return buf[:]
}

// truncationThreshold returns t such that about a fraction q (or more) of
// a Gaussian row with these stats lies at or above t. ok is false when no
// useful finite threshold exists (too few finite samples, overflowing
// stats).
// A constant sample (std 0) gives the next float above it, so a one-hot
// row gathers only what stands out.
func truncationThreshold(st rowStats, q float64) (t float32, ok bool) {
	if st.n < minFiniteSamples {
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
