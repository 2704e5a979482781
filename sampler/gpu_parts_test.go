//go:build (cuda || hip) && cgo

package sampler_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/qrita-project/qrita/internal/native"
	"github.com/qrita-project/qrita/internal/testcases"
	"github.com/qrita-project/qrita/sampler"
)

// partsRun masks a copy of logits (fp32 or bf16) with each row cut into
// parts (qrita_bench_options.split_parts) and returns the output.
func partsRun(t *testing.T, nc *native.Ctx, d sampler.DType, logits []float32, batch, vocab int, k []int32,
	p []float32, parts int) []float32 {
	t.Helper()
	dev, _ := uploadAs(t, nc, d, logits)
	defer nc.Free(dev)
	benchRun(t, nc, dev, native.DType(d), batch, vocab, k, p, false, 0, parts)
	return downloadAs(t, nc, d, dev, len(logits))
}

// A row's bits do not depend on how many blocks share it: every parts
// count the benchmark knob allows (one block a row, 2-32 parts, one or two
// blocks a multiprocessor) gives the one-block output, bit for bit, and
// the reference's, for hits and misses, fp32 and bf16. The launch policy
// picks among these counts by batch, vocabulary and element type (PERFLOG
// run 163); the knob reaches counts it does not pick for these shapes.
func TestGPUAnyPartsCountGivesTheSameBits(t *testing.T) {
	if gpuSkipReason != "" {
		t.Skip("qrita-gpu: no usable GPU: " + gpuSkipReason)
	}
	nc := newNative(t)
	const batch, vocab = 2, 65536 // 32 parts of 2048 entries
	counts := []int{2, 3, 5, 8, 13, 16, 32}
	if testing.Short() {
		counts = []int{2, 16}
	}
	for _, d := range []sampler.DType{sampler.Float32, sampler.BFloat16} {
		for _, dist := range []testcases.Dist{testcases.LLMLike, testcases.Flat, testcases.NegInfMask90, testcases.BF16Ties} {
			for _, kp := range []struct {
				name string
				k    int32
				p    float32
			}{{"k50_p0.9", 50, 0.9}, {"k50", 50, 1}, {"p0.9", 0, 0.9}} {
				t.Run(fmt.Sprintf("%v/%v/%s", d, dist, kp.name), func(t *testing.T) {
					logits := testcases.Logits(batch, vocab, dist, 21)
					if d != sampler.Float32 {
						_, logits = encode(d, logits)
					}
					k, p := make([]int32, batch), make([]float32, batch)
					for r := range batch {
						k[r], p[r] = kp.k, kp.p
					}
					one := partsRun(t, nc, d, logits, batch, vocab, k, p, 1)
					checkRows(t, logits, one, batch, vocab, k, p, sampler.Exact)
					for _, parts := range counts {
						got := partsRun(t, nc, d, logits, batch, vocab, k, p, parts)
						require.Equal(t, bitsOf(one), bitsOf(got), "%d parts a row against one block a row", parts)
					}
				})
			}
		}
	}
}

// Parts counts the split kernel cannot take are refused with an error,
// not run.
func TestGPUPartsKnobRejectsImpossibleCounts(t *testing.T) {
	if gpuSkipReason != "" {
		t.Skip("qrita-gpu: no usable GPU: " + gpuSkipReason)
	}
	nc := newNative(t)
	for _, c := range []struct{ batch, vocab, parts int }{
		{1, 65536, 33},  // more than kMaxSlices
		{1, 8192, 8},    // parts under 2048 entries
		{4096, 8192, 2}, // more blocks than stay resident
		{1, 65536, -1},  // negative
	} {
		logits := testcases.Logits(c.batch, c.vocab, testcases.LLMLike, 3)
		dev := deviceCopy(t, nc, logits)
		r := &native.Request{Logits: dev, DType: native.F32, Batch: c.batch, Vocab: c.vocab, RowStride: c.vocab}
		err := nc.BenchTopKTopP(r, 0, 0, c.parts)
		var ne *native.Error
		require.True(t, errors.As(err, &ne), "%+v: %v", c, err)
		require.Equal(t, native.InvalidArg, ne.Code, "%+v", c)
		require.NoError(t, nc.Free(dev))
	}
}
