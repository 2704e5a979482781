package sampler

// cpuScratch is one worker's reusable memory; buffers grow on demand and
// are kept for the next row and the next call (through a sync.Pool).
type cpuScratch struct {
	cands  []uint64  // gathered candidates, index order
	sub    []uint64  // candidates narrowed by the radix digits so far
	mass   []float64 // exp(x - max) of the candidates, aligned with cands
	subM   []float64 // mass aligned with sub
	topK   []uint64  // top-k survivors, index order
	cut    []uint64  // top-p survivors
	sorted []uint64  // small survivor sets in rank order
	vals   []float32 // kept values, saved while the row is overwritten
}

// grow returns buf resized to n, reallocating only when it is too small.
func grow[T any](buf []T, n int) []T {
	if cap(buf) < n {
		return make([]T, n)
	}
	return buf[:n]
}
