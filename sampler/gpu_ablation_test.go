//go:build (cuda || hip) && cgo

package sampler_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/qrita-project/qrita/internal/native"
	"github.com/qrita-project/qrita/internal/testcases"
	"github.com/qrita-project/qrita/sampler"
)

// The benchmark ablations change how the kernel finds the kept set, never
// which set it finds: every ablation must give the plain call's bits. The
// row counters must say what happened (no candidates without truncation,
// no hits when the fallback is forced).
func TestGPUAblationsKeepTheOutputAndCountRows(t *testing.T) {
	if gpuSkipReason != "" {
		t.Skip("qrita-gpu: no usable GPU: " + gpuSkipReason)
	}
	nc := newNative(t)
	var cases []testcases.Case
	for _, c := range testcases.Table() {
		if c.Batch > 0 && c.Size() <= 1<<16 {
			cases = append(cases, c)
		}
	}
	cases = append(cases,
		testcases.Case{Name: "llm_large_k50_p0.9", Batch: 4, Vocab: 128256, Dist: testcases.LLMLike, Seed: 5,
			K: testcases.KConst(50), P: testcases.PConst(0.9)},
		testcases.Case{Name: "llm_large_p0.9", Batch: 4, Vocab: 128256, Dist: testcases.LLMLike, Seed: 6,
			P: testcases.PConst(0.9)},
		// Beyond every split (one block a row, rows of a sampled threshold):
		// top-p alone settled from a whole row's candidates and rest mass.
		testcases.Case{Name: "llm_whole_rows_pmixed", Batch: 300, Vocab: 8192, Dist: testcases.LLMLike, Seed: 7,
			P: testcases.PMixed()},
		testcases.Case{Name: "neginf50_whole_rows_p0.9", Batch: 300, Vocab: 8192, Dist: testcases.NegInfMask50,
			Seed: 8, P: testcases.PConst(0.9)},
		testcases.Case{Name: "posinf_whole_rows_p0.9", Batch: 300, Vocab: 8192, Dist: testcases.WithPosInf, Seed: 9,
			P: testcases.PConst(0.9)})
	ablations := []native.Ablation{native.AblateNoTruncation, native.AblateForceFallback, native.AblateBinarySearch,
		native.AblateBinarySearch | native.AblateForceFallback, native.AblateNoSort}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			orig, k, p := c.Args()
			for _, keepTies := range []bool{false, true} {
				want, wantStats := ablatedRun(t, nc, orig, c.Batch, c.Vocab, k, p, keepTies, 0)
				for r, st := range wantStats {
					require.Contains(t, []int32{0, 1}, st.Hit, "row %d", r)
					require.GreaterOrEqual(t, st.Candidates, int32(0), "row %d", r)
				}
				for _, a := range ablations {
					got, stats := ablatedRun(t, nc, orig, c.Batch, c.Vocab, k, p, keepTies, a)
					if c.Boundary {
						// p sits on a cumulative boundary: a top-p row settled
						// from the candidates estimates the mass below the
						// threshold, the whole-row search sums it, and the
						// cut may differ within the ambiguity contract.
						mode := sampler.Exact
						if keepTies {
							mode = sampler.KeepTies
						}
						checkRows(t, orig, got, c.Batch, c.Vocab, k, p, mode)
					} else {
						require.Equal(t, bitsOf(want), bitsOf(got), "ablation %#x keepTies %v", a, keepTies)
					}
					for r, st := range stats {
						filtered := (k != nil && k[r] > 0 && int(k[r]) < c.Vocab) || (p != nil && p[r] < 1)
						if !filtered || !anyKeepable(orig[r*c.Vocab:(r+1)*c.Vocab]) {
							continue // nothing to search: decided without the row
						}
						if a&native.AblateNoTruncation != 0 {
							require.Zero(t, st.Candidates, "row %d: candidates without truncation", r)
						}
						if a&(native.AblateNoTruncation|native.AblateForceFallback) != 0 {
							require.Zero(t, st.Hit, "row %d: a hit despite ablation %#x", r, a)
						}
					}
				}
			}
		})
	}
}

// anyKeepable says whether a row has an entry that may be kept.
func anyKeepable(row []float32) bool {
	for _, x := range row {
		if !math.IsNaN(float64(x)) && !math.IsInf(float64(x), -1) {
			return true
		}
	}
	return false
}

// ablatedRun masks a copy of logits on the device with BenchTopKTopP and
// returns the output and the row counters.
func ablatedRun(t testing.TB, nc *native.Ctx, logits []float32, batch, vocab int, k []int32, p []float32,
	keepTies bool, a native.Ablation) ([]float32, []native.RowStats) {
	t.Helper()
	dev := deviceCopy(t, nc, logits)
	defer nc.Free(dev)
	rows := benchRun(t, nc, dev, native.F32, batch, vocab, k, p, keepTies, a, 0)
	out := make([]float32, len(logits))
	require.NoError(t, native.CopyFromDevice(nc, out, dev))
	return out, rows
}

// benchRun masks the dense rows at dev (element type d) with
// BenchTopKTopP, k and p uploaded for the call, each row in parts parts (0:
// the launch policy's), and returns the row counters once the call has
// finished.
func benchRun(t testing.TB, nc *native.Ctx, dev uintptr, d native.DType, batch, vocab int, k []int32, p []float32,
	keepTies bool, a native.Ablation, parts int) []native.RowStats {
	t.Helper()
	stats, err := nc.Malloc(batch * native.RowStatsBytes)
	require.NoError(t, err)
	defer nc.Free(stats)
	r := &native.Request{Logits: dev, DType: d, Batch: batch, Vocab: vocab, RowStride: vocab, KeepTies: keepTies}
	if k != nil {
		r.KDevice = deviceCopy(t, nc, k)
		defer nc.Free(r.KDevice)
	}
	if p != nil {
		r.PDevice = deviceCopy(t, nc, p)
		defer nc.Free(r.PDevice)
	}
	require.NoError(t, nc.BenchTopKTopP(r, a, stats, parts))
	require.NoError(t, nc.Sync(0))
	rows := make([]native.RowStats, batch)
	require.NoError(t, native.CopyFromDevice(nc, rows, stats))
	return rows
}

// deviceCopy uploads xs to new device memory.
func deviceCopy[T int32 | float32](t testing.TB, nc *native.Ctx, xs []T) uintptr {
	t.Helper()
	dev, err := nc.Malloc(max(len(xs), 1) * 4)
	require.NoError(t, err)
	require.NoError(t, native.CopyToDevice(nc, dev, xs))
	return dev
}
