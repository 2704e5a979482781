//go:build (cuda || hip) && cgo

package sampler_test

// sampleIndex is the row index of sample entry j of a row of vocab
// entries, as the kernels take it (sample_index, cuda/truncate_kernel.cuh;
// kSampleSize 1024 and kSampleRun 8, cuda/policy.cuh): 128 runs of 8
// consecutive entries, run c starting at the multiple of 8 at or below
// c x vocab / 128. Tests that plant values on the sample use it.
func sampleIndex(j, vocab int) int {
	const size, run = 1024, 8
	start := (j / run) * vocab / (size / run) / run * run
	return min(start+j%run, vocab-1)
}
