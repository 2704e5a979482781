//go:build (cuda || hip) && cgo

package sampler_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/qrita-project/qrita/internal/native"
	"github.com/qrita-project/qrita/internal/testcases"
	"github.com/qrita-project/qrita/sampler"
)

// chainKs is a run of top-k calls whose order shows: each masks the row
// the one before it wrote, so after k = 5 the row holds five tokens and
// k = 200 must keep those five. A call that read its row before the
// previous one finished writing it would keep more.
var chainKs = []int32{1000, 30, 500, 5, 200}

// Back-to-back calls on one stream with k on the device (nothing but the
// kernels in between): on sm_90 each call's kernel starts during the one
// before it (a programmatic dependent launch, cuda/launch.cu) and must
// touch neither the row nor the split rows' workspace before that one has
// finished. Every kernel shape: split rows (1, 8 and 64 rows), the
// one-block kernel with two blocks an SM (300 rows) and with four (1100
// rows, every row a top-k), on the legacy stream and on a created one.
func TestGPUChainedCallsReadThePreviousCallsOutput(t *testing.T) {
	s, nc := newGPU(t), newNative(t)
	created, err := nc.NewStream()
	require.NoError(t, err)
	t.Cleanup(func() { nc.DestroyStream(created) })
	shapes := []struct{ batch, vocab int }{{1, 128256}, {8, 32768}, {64, 32768}, {300, 8192}, {1100, 4096}}
	if testing.Short() { // under the sanitizers
		shapes = []struct{ batch, vocab int }{{1, 32768}, {8, 8192}, {300, 2048}}
	}
	for _, sh := range shapes {
		ks := make([]uintptr, len(chainKs))
		for i, k := range chainKs {
			ks[i] = deviceCopy(t, nc, constK(sh.batch, k))
			defer nc.Free(ks[i])
		}
		orig := testcases.Logits(sh.batch, sh.vocab, testcases.LLMLike, uint64(sh.batch+sh.vocab))
		for _, d := range []sampler.DType{sampler.Float32, sampler.BFloat16} {
			for _, stream := range []uintptr{0, created} {
				name := fmt.Sprintf("%dx%d/%v/stream%d", sh.batch, sh.vocab, d, min(stream, 1))
				t.Run(name, func(t *testing.T) {
					got, rounded := chainOnDevice(t, s, nc, d, orig, sh.batch, sh.vocab, ks, stream)
					want := rounded
					for _, k := range chainKs {
						want = testcases.Expected(want, sh.batch, sh.vocab, constK(sh.batch, k), nil, s.TieMode())
					}
					for r := range sh.batch {
						row := r * sh.vocab
						if !testcases.EqualBits(got[row:row+sh.vocab], want[row:row+sh.vocab]) {
							t.Fatalf("row %d: %s", r, testcases.Compare(got[row:row+sh.vocab],
								want[row:row+sh.vocab], 1, sh.vocab))
						}
					}
				})
			}
		}
	}
}

func constK(batch int, k int32) []int32 {
	ks := make([]int32, batch)
	for i := range ks {
		ks[i] = k
	}
	return ks
}

// chainOnDevice runs the chain over orig in dtype d on stream, enqueued
// at once and synchronised once; it returns the output and orig as d
// rounds it.
func chainOnDevice(t *testing.T, s *sampler.Sampler, nc *native.Ctx, d sampler.DType, orig []float32, batch,
	vocab int, ks []uintptr, stream uintptr) (got, rounded []float32) {
	t.Helper()
	dev, rounded := uploadAs(t, nc, d, orig)
	defer nc.Free(dev)
	b := sampler.DeviceBatch{Logits: dev, DType: d, Batch: batch, Vocab: vocab}
	for _, k := range ks {
		require.NoError(t, s.TopKTopPDevice(context.Background(), b, sampler.RowParams{KDevice: k}, stream))
	}
	require.NoError(t, nc.Sync(stream))
	return downloadAs(t, nc, d, dev, len(orig)), rounded
}
