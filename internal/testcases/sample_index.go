package testcases

// SampleIndex is the row index of sample entry j of a row of vocab
// entries, as the GPU kernels take it (sample_index,
// cuda/truncate_kernel.cuh; kSampleSize 1024 and kSampleRun 8,
// cuda/policy.cuh): 128 runs of 8 consecutive entries, run c starting at
// the multiple of 8 at or below c x vocab / 128, clamped to the row. Tests
// that plant values on the sample, and perf/tools/missmodel, use it.
func SampleIndex(j, vocab int) int {
	const size, run = 1024, 8
	start := (j / run) * vocab / (size / run) / run * run
	return min(start+j%run, vocab-1)
}
