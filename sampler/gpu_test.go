//go:build (cuda || hip) && cgo

package sampler_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/qrita-project/qrita/internal/native"
	"github.com/qrita-project/qrita/internal/testcases"
	"github.com/qrita-project/qrita/reference"
	"github.com/qrita-project/qrita/sampler"
)

func TestGPUMatchesReferenceOnTable(t *testing.T) {
	for _, mode := range []sampler.TieMode{sampler.Exact, sampler.KeepTies} {
		t.Run(mode.String(), func(t *testing.T) {
			s := newGPU(t, sampler.WithTieMode(mode))
			require.Equal(t, sampler.Backend(native.Vendor), s.Backend())
			runTable(t, s)
		})
	}
}

// The row settings the large-row tests take: top-k, top-p, joint, and a
// top-k beyond the ranked top-p.
var largeRowSettings = []struct {
	name string
	k    testcases.KFunc
	p    testcases.PFunc
}{
	{"k50", testcases.KConst(50), nil},
	{"p0.9", nil, testcases.PConst(0.9)},
	{"k50_p0.9", testcases.KConst(50), testcases.PConst(0.9)},
	{"k1000_p0.5", testcases.KConst(1000), testcases.PConst(0.5)},
}

var largeRowDists = []testcases.Dist{testcases.LLMLike, testcases.Flat, testcases.Peaked, testcases.OneHot,
	testcases.NegInfMask90, testcases.BF16Ties, testcases.Plateau}

// Cases of every large-row distribution and setting at one shape.
func largeRowCases(batch, vocab int, seed uint64) []testcases.Case {
	var cases []testcases.Case
	for _, d := range largeRowDists {
		for _, kp := range largeRowSettings {
			cases = append(cases, testcases.Case{Name: fmt.Sprintf("%s_%s_%dx%d", d, kp.name, batch, vocab),
				Batch: batch, Vocab: vocab, Dist: d, Seed: seed + uint64(len(cases)), K: kp.k, P: kp.p})
		}
	}
	return cases
}

// manyRowsCases run the one-block kernel in its many-rows shape (a batch
// too large to split rows), misses included.
func manyRowsCases() []testcases.Case { return largeRowCases(270, 8192, 300) }

// LLM-sized rows through the paths that matter: candidates in shared
// memory (top-k, joint, top-p alone) and the exact fallback (flat and
// one-hot rows), in split rows (on an H200, batch 8: 16 parts a row;
// batch 2: 32, the most) and in the many-rows shape.
func TestGPUMatchesReferenceOnLargeRows(t *testing.T) {
	s := newGPU(t)
	cases := append(largeRowCases(8, 128256, 77), largeRowCases(2, 160000, 500)...)
	cases = append(cases, manyRowsCases()...)
	// Heavy-tailed rows at the largest preset vocabulary: some top-p rows
	// have a nucleus below the first threshold (the second gather) or
	// beyond the buffer (the whole-row search).
	for i, p := range []float32{0.9, 0.95, 0.99} {
		cases = append(cases, testcases.Case{Name: fmt.Sprintf("llm_262208_p%g", p), Batch: 48, Vocab: 262208,
			Dist: testcases.LLMLike, Seed: uint64(900 + i), P: testcases.PConst(p)})
	}
	runCases(t, s, cases)
}

// deviceRun masks logits (dense [batch][vocab] values, rounded to dtype d)
// through the device API with the given row stride, checks the padding is
// untouched and returns the rounded input and the output as float32.
func deviceRun(t *testing.T, s *sampler.Sampler, nc *native.Ctx, d sampler.DType, logits []float32, batch, vocab,
	stride int, k []int32, p []float32, kOnDevice, pOnDevice bool) (orig, got []float32) {
	t.Helper()
	const pad = 1234.5
	padded := make([]float32, batch*stride)
	for i := range padded {
		padded[i] = pad
	}
	for r := 0; r < batch; r++ {
		copy(padded[r*stride:], logits[r*vocab:(r+1)*vocab])
	}
	dev, padRounded := uploadAs(t, nc, d, padded)
	defer nc.Free(dev)
	rp := sampler.RowParams{K: k, P: p}
	if kOnDevice && k != nil {
		rp.K, rp.KDevice = nil, deviceCopy(t, nc, k)
		defer nc.Free(rp.KDevice)
	}
	if pOnDevice && p != nil {
		rp.P, rp.PDevice = nil, deviceCopy(t, nc, p)
		defer nc.Free(rp.PDevice)
	}
	b := sampler.DeviceBatch{Logits: dev, DType: d, Batch: batch, Vocab: vocab, RowStride: stride}
	require.NoError(t, s.TopKTopPDevice(context.Background(), b, rp, 0))
	require.NoError(t, nc.Sync(0))
	out := downloadAs(t, nc, d, dev, len(padded))
	orig, got = make([]float32, batch*vocab), make([]float32, batch*vocab)
	for r := 0; r < batch; r++ {
		copy(orig[r*vocab:], padRounded[r*stride:r*stride+vocab])
		copy(got[r*vocab:], out[r*stride:r*stride+vocab])
		for j := r*stride + vocab; j < (r+1)*stride; j++ {
			require.Equal(t, math.Float32bits(padRounded[j]), math.Float32bits(out[j]), "padding at %d changed", j)
		}
	}
	return orig, got
}

func TestGPUDeviceAPIDTypesStridesAndDeviceParams(t *testing.T) {
	s, nc := newGPU(t), newNative(t)
	for _, d := range []sampler.DType{sampler.Float32, sampler.Float16, sampler.BFloat16} {
		for _, c := range testcases.Table() {
			if c.Size() > 1<<18 || c.Boundary {
				continue // boundary p values are placed for fp32 rows
			}
			for _, layout := range []struct {
				name       string
				extra      int
				kDev, pDev bool
			}{{"dense", 0, false, false}, {"stride+3_devparams", 3, true, true}} {
				t.Run(d.String()+"/"+c.Name+"/"+layout.name, func(t *testing.T) {
					logits, k, p := c.Args()
					orig, got := deviceRun(t, s, nc, d, logits, c.Batch, c.Vocab, c.Vocab+layout.extra, k, p,
						layout.kDev, layout.pDev)
					checkRows(t, orig, got, c.Batch, c.Vocab, k, p, s.TieMode())
				})
			}
		}
	}
}

func TestGPUCompactIDs(t *testing.T) {
	s, nc := newGPU(t), newNative(t)
	cases := manyRowsCases()
	for _, c := range testcases.Table() {
		if c.Size() <= 1<<20 && !c.Boundary {
			cases = append(cases, c)
		}
	}
	checkIDs(t, s, nc, cases, []int{1, 64, sampler.MaxIDs})
}

// checkIDs runs the id output of every case for each maxIDs and compares
// the ids and counts with the reference (rows ambiguous at their p are
// skipped); the logits must stay untouched.
func checkIDs(t *testing.T, s *sampler.Sampler, nc *native.Ctx, cases []testcases.Case, maxIDsList []int) {
	t.Helper()
	for _, c := range cases {
		logits, k, p := c.Args()
		refs := make([]reference.Row, c.Batch)
		for r := range refs {
			refs[r] = reference.Explain(logits[r*c.Vocab:(r+1)*c.Vocab], reference.RowK(k, r), reference.RowP(p, r), s.TieMode())
		}
		for _, maxIDs := range maxIDsList {
			dev, err := nc.Malloc(4 * len(logits))
			require.NoError(t, err)
			ids, err := nc.Malloc(4 * c.Batch * maxIDs)
			require.NoError(t, err)
			counts, err := nc.Malloc(4 * c.Batch)
			require.NoError(t, err)
			require.NoError(t, native.CopyToDevice(nc, dev, logits))
			b := sampler.DeviceBatch{Logits: dev, DType: sampler.Float32, Batch: c.Batch, Vocab: c.Vocab}
			out := sampler.DeviceIDs{IDs: ids, Counts: counts, MaxIDs: maxIDs}
			require.NoError(t, s.TopKTopPIDsDevice(context.Background(), b, sampler.RowParams{K: k, P: p}, out, 0))
			gotIDs, gotCounts, after := make([]int32, c.Batch*maxIDs), make([]int32, c.Batch), make([]float32, len(logits))
			require.NoError(t, native.CopyFromDevice(nc, gotIDs, ids))
			require.NoError(t, native.CopyFromDevice(nc, gotCounts, counts))
			require.NoError(t, native.CopyFromDevice(nc, after, dev))
			nc.Free(dev)
			nc.Free(ids)
			nc.Free(counts)
			require.True(t, slices.EqualFunc(logits, after, func(a, b float32) bool {
				return math.Float32bits(a) == math.Float32bits(b)
			}), "%s: the id output changed the logits", c.Name)
			for r, ref := range refs {
				if ref.Ambiguous(reference.RowP(p, r)) {
					continue
				}
				want := make([]int32, maxIDs)
				for j := range want {
					want[j] = -1
					if j < len(ref.Kept) {
						want[j] = ref.Kept[j]
					}
				}
				require.Equal(t, int32(len(ref.Kept)), gotCounts[r], "%s row %d max %d: count", c.Name, r, maxIDs)
				require.Equal(t, want, gotIDs[r*maxIDs:(r+1)*maxIDs], "%s row %d max %d: ids", c.Name, r, maxIDs)
			}
		}
	}
}

// A row gives the same bits alone, at any position of a large batch, and
// on every run.
func TestGPUBatchInvarianceAndDeterminism(t *testing.T) {
	s := newGPU(t)
	const vocab, batch = 32000, 4096
	logits := testcases.Logits(batch, vocab, testcases.LLMLike, 99)
	k, p := make([]int32, batch), make([]float32, batch)
	for i := range k {
		k[i], p[i] = 50, 0.9
	}
	whole := slices.Clone(logits)
	require.NoError(t, s.TopKTopP(context.Background(), whole, batch, vocab, k, p))
	again := slices.Clone(logits)
	require.NoError(t, s.TopKTopP(context.Background(), again, batch, vocab, k, p))
	require.True(t, slices.Equal(bitsOf(whole), bitsOf(again)), "two runs differ")
	for _, r := range []int{0, 1, 777, batch - 1} {
		row := slices.Clone(logits[r*vocab : (r+1)*vocab])
		require.NoError(t, s.TopKTopP(context.Background(), row, 1, vocab, k[:1], p[:1]))
		require.True(t, slices.Equal(bitsOf(row), bitsOf(whole[r*vocab:(r+1)*vocab])), "row %d alone differs", r)
	}
}

// A row's top-p mask does not depend on its address: the gather sums the
// rest mass by chunks at row indices, so rows that are not 16-byte aligned
// (a row stride of vocab+3) give the bits of the same rows packed densely,
// in split rows (3) and whole rows (150) alike.
func TestGPUTopPAlignmentInvariance(t *testing.T) {
	s, nc := newGPU(t), newNative(t)
	const vocab = 20000
	dtypes := []sampler.DType{sampler.Float32, sampler.Float16, sampler.BFloat16}
	dists := []testcases.Dist{testcases.LLMLike, testcases.Flat, testcases.NegInfMask90, testcases.WithNaN}
	if testing.Short() { // under the sanitizers
		dtypes, dists = dtypes[2:], []testcases.Dist{testcases.LLMLike, testcases.NegInfMask90}
	}
	for _, d := range dtypes {
		for _, dist := range dists {
			for _, batch := range []int{3, 150} {
				t.Run(fmt.Sprintf("%s/%s/%d", d, dist, batch), func(t *testing.T) {
					logits := testcases.Logits(batch, vocab, dist, 77)
					p := make([]float32, batch)
					for i := range p {
						p[i] = 0.9
					}
					_, dense := deviceRun(t, s, nc, d, logits, batch, vocab, vocab, nil, p, false, false)
					_, strided := deviceRun(t, s, nc, d, logits, batch, vocab, vocab+3, nil, p, false, false)
					for r := 0; r < batch; r++ {
						row := bitsOf(dense[r*vocab : (r+1)*vocab])
						require.Equal(t, row, bitsOf(strided[r*vocab:(r+1)*vocab]), "row %d at stride %d", r, vocab+3)
					}
				})
			}
		}
	}
}

func bitsOf(xs []float32) []uint32 {
	out := make([]uint32, len(xs))
	for i, x := range xs {
		out[i] = math.Float32bits(x)
	}
	return out
}

func TestGPUConcurrentUse(t *testing.T)    { runConcurrent(t, newGPU(t)) }
func TestGPUCloseDuringCalls(t *testing.T) { runCloseDuringCalls(t, newGPU(t)) }

func TestGPUBadInput(t *testing.T) {
	s, nc := newGPU(t), newNative(t)
	dev, err := nc.Malloc(4 * 64)
	require.NoError(t, err)
	defer nc.Free(dev)
	ctx := context.Background()
	ok := sampler.DeviceBatch{Logits: dev, DType: sampler.Float32, Batch: 2, Vocab: 32}
	for name, c := range map[string]struct {
		b  sampler.DeviceBatch
		rp sampler.RowParams
	}{
		"nil logits":     {sampler.DeviceBatch{DType: sampler.Float32, Batch: 2, Vocab: 32}, sampler.RowParams{}},
		"stride < vocab": {sampler.DeviceBatch{Logits: dev, Batch: 2, Vocab: 32, RowStride: 31}, sampler.RowParams{}},
		"negative batch": {sampler.DeviceBatch{Logits: dev, Batch: -1, Vocab: 32}, sampler.RowParams{}},
		"bad dtype":      {sampler.DeviceBatch{Logits: dev, DType: 7, Batch: 2, Vocab: 32}, sampler.RowParams{}},
		"huge vocab":     {sampler.DeviceBatch{Logits: dev, Batch: 1, Vocab: sampler.MaxVocab + 1}, sampler.RowParams{}},
		"size overflow":  {sampler.DeviceBatch{Logits: dev, Batch: 1 << 62, Vocab: 4}, sampler.RowParams{}},
		"short k":        {ok, sampler.RowParams{K: []int32{1}}},
		"k twice":        {ok, sampler.RowParams{K: []int32{1, 1}, KDevice: dev}},
		"NaN p":          {ok, sampler.RowParams{P: []float32{0.5, float32(math.NaN())}}},
	} {
		err := s.TopKTopPDevice(ctx, c.b, c.rp, 0)
		require.ErrorIs(t, err, sampler.ErrInvalidArgument, name)
	}
	err = s.TopKTopPIDsDevice(ctx, ok, sampler.RowParams{}, sampler.DeviceIDs{IDs: dev, Counts: dev, MaxIDs: sampler.MaxIDs + 1}, 0)
	require.ErrorIs(t, err, sampler.ErrInvalidArgument)
	_, err = sampler.New(sampler.WithDevice(1 << 20))
	require.ErrorIs(t, err, sampler.ErrNoDevice)
	other := sampler.BackendHIP
	if native.Vendor == "hip" {
		other = sampler.BackendCUDA
	}
	_, err = sampler.New(sampler.WithBackend(other))
	require.ErrorIs(t, err, sampler.ErrUnsupported)
	cpu, err := sampler.New(sampler.WithBackend(sampler.BackendCPU))
	require.NoError(t, err)
	require.ErrorIs(t, cpu.TopKTopPDevice(ctx, ok, sampler.RowParams{}, 0), sampler.ErrUnsupported)
	require.NoError(t, cpu.Close())
	// The context survives bad calls: a good one still works.
	require.NoError(t, s.TopKTopPDevice(ctx, ok, sampler.RowParams{K: []int32{3, 3}}, 0))
	require.NoError(t, nc.Sync(0))
	require.False(t, errors.Is(err, sampler.ErrDevice))
}
