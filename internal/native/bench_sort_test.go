//go:build (cuda || hip) && cgo

package native_test

import (
	"encoding/binary"
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/qrita-project/qrita/internal/halfbits"
	"github.com/qrita-project/qrita/internal/native"
	"github.com/qrita-project/qrita/internal/testcases"
	"github.com/qrita-project/qrita/reference"
)

// newCtx returns a context on device 0, or skips t visibly without one.
func newCtx(t *testing.T) *native.Ctx {
	t.Helper()
	if native.DeviceCount() == 0 {
		t.Skip("qrita-gpu: SKIPPING: no GPU device visible (the sort baseline and read floor run on a GPU)")
	}
	x, err := native.Create(0)
	require.NoError(t, err)
	t.Cleanup(x.Destroy)
	return x
}

func deviceArray[T any](t *testing.T, x *native.Ctx, host []T, elem int) uintptr {
	t.Helper()
	if host == nil {
		return 0
	}
	d, err := x.Malloc(len(host) * elem)
	require.NoError(t, err)
	t.Cleanup(func() { x.Free(d) })
	require.NoError(t, native.CopyToDevice(x, d, host))
	return d
}

// halfFormat is d's 16-bit format; false for fp32.
func halfFormat(d native.DType) (halfbits.Format, bool) {
	switch d {
	case native.F16:
		return halfbits.Half, true
	case native.BF16:
		return halfbits.BFloat16, true
	}
	return 0, false
}

// runSort masks c's logits (rounded to d, rows extra elements apart beyond
// vocab) with the sort baseline, optionally through a captured graph, and
// checks the padding is untouched and the rows match the reference.
func runSort(t *testing.T, x *native.Ctx, d native.DType, c testcases.Case, extra int, graph bool) {
	t.Helper()
	logits, k, p := c.Args()
	stride := c.Vocab + extra
	padded := make([]float32, c.Batch*stride)
	for i := range padded {
		padded[i] = 1234.5
	}
	for r := 0; r < c.Batch; r++ {
		copy(padded[r*stride:], logits[r*c.Vocab:(r+1)*c.Vocab])
	}
	rounded := padded
	var dev uintptr
	if f, half := halfFormat(d); half {
		var b16 []uint16
		b16, rounded = f.Round(padded)
		dev = deviceArray(t, x, b16, 2)
	} else {
		dev = deviceArray(t, x, padded, 4)
	}
	n, err := x.SortWorkspace(d, c.Batch, c.Vocab)
	require.NoError(t, err)
	ws, err := x.Malloc(n)
	require.NoError(t, err)
	defer x.Free(ws)
	req := &native.Request{Logits: dev, DType: d, Batch: c.Batch, Vocab: c.Vocab, RowStride: stride,
		KDevice: deviceArray(t, x, k, 4), PDevice: deviceArray(t, x, p, 4)}
	if graph {
		s, err := x.NewStream()
		require.NoError(t, err)
		defer x.DestroyStream(s)
		req.Stream = s
		require.NoError(t, x.BeginCapture(s))
		err = x.SortTopKTopP(req, ws, n)
		g, cerr := x.EndCapture(s)
		require.NoError(t, err)
		require.NoError(t, cerr)
		defer x.DestroyGraph(g)
		require.NoError(t, x.LaunchGraph(g, s))
		require.NoError(t, x.Sync(s))
	} else {
		require.NoError(t, x.SortTopKTopP(req, ws, n))
		require.NoError(t, x.Sync(0))
	}
	var out []float32
	if f, half := halfFormat(d); half {
		b16 := make([]uint16, len(padded))
		require.NoError(t, native.CopyFromDevice(x, b16, dev))
		out = f.Decode(b16)
	} else {
		out = make([]float32, len(padded))
		require.NoError(t, native.CopyFromDevice(x, out, dev))
	}
	orig, got := make([]float32, c.Batch*c.Vocab), make([]float32, c.Batch*c.Vocab)
	for r := 0; r < c.Batch; r++ {
		copy(orig[r*c.Vocab:], rounded[r*stride:r*stride+c.Vocab])
		copy(got[r*c.Vocab:], out[r*stride:r*stride+c.Vocab])
		for j := r*stride + c.Vocab; j < (r+1)*stride; j++ {
			require.Equal(t, math.Float32bits(rounded[j]), math.Float32bits(out[j]), "padding at %d changed", j)
		}
	}
	bad, _ := testcases.Diff(orig, got, c.Batch, c.Vocab, k, p, reference.Exact)
	if len(bad) > 0 {
		want := testcases.Expected(orig, c.Batch, c.Vocab, k, p, reference.Exact)
		r := bad[0]
		t.Errorf("%d of %d rows differ from the reference; row %d: %s", len(bad), c.Batch, r,
			testcases.Compare(got[r*c.Vocab:(r+1)*c.Vocab], want[r*c.Vocab:(r+1)*c.Vocab], 1, c.Vocab))
	}
}

func TestSortBaselineMatchesReference(t *testing.T) {
	x := newCtx(t)
	k50, p09 := testcases.KConst(50), testcases.PConst(0.9)
	for _, tc := range []struct {
		name  string
		d     native.DType
		c     testcases.Case
		extra int
		graph bool
	}{
		{"f32_k50_p0.9", native.F32, testcases.Case{Batch: 8, Vocab: 4096, K: k50, P: p09}, 0, false},
		{"f32_k50", native.F32, testcases.Case{Batch: 8, Vocab: 4096, K: k50}, 0, false},
		{"f32_p0.9", native.F32, testcases.Case{Batch: 8, Vocab: 4096, P: p09}, 0, false},
		{"f32_k1", native.F32, testcases.Case{Batch: 4, Vocab: 4096, K: testcases.KConst(1)}, 0, false},
		{"f32_stride+7_k50_p0.9", native.F32, testcases.Case{Batch: 5, Vocab: 1000, K: k50, P: p09}, 7, false},
		{"f32_128256_p0.9", native.F32, testcases.Case{Batch: 3, Vocab: 128256, P: p09}, 0, false},
		{"f32_flat_p0.5", native.F32, testcases.Case{Batch: 3, Vocab: 32000, Dist: testcases.Flat,
			P: testcases.PConst(0.5)}, 0, false},
		{"f32_mixed_kp", native.F32, testcases.Case{Batch: 24, Vocab: 777, K: testcases.KMixed(),
			P: testcases.PMixed()}, 0, false},
		{"f32_nan", native.F32, testcases.Case{Batch: 4, Vocab: 4096, Dist: testcases.WithNaN, K: k50, P: p09}, 0, false},
		{"f32_neginf90", native.F32, testcases.Case{Batch: 4, Vocab: 4096, Dist: testcases.NegInfMask90, P: p09}, 0, false},
		{"f32_posinf", native.F32, testcases.Case{Batch: 4, Vocab: 4096, Dist: testcases.WithPosInf, P: p09}, 0, false},
		{"f32_allneginf", native.F32, testcases.Case{Batch: 2, Vocab: 300, Dist: testcases.AllNegInf, K: k50}, 0, false},
		{"f16_stride+3_k50_p0.9", native.F16, testcases.Case{Batch: 6, Vocab: 5000, K: k50, P: p09}, 3, false},
		{"bf16_ties_k50_p0.9", native.BF16, testcases.Case{Batch: 6, Vocab: 5000, Dist: testcases.BF16Ties,
			K: k50, P: p09}, 0, false},
		{"f32_graph_k50_p0.9", native.F32, testcases.Case{Batch: 4, Vocab: 4096, K: k50, P: p09}, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.c.Seed = uint64(len(tc.name)) + 11
			runSort(t, x, tc.d, tc.c, tc.extra, tc.graph)
		})
	}
}

func requireStatus(t *testing.T, err error, want native.Status) {
	t.Helper()
	var e *native.Error
	require.True(t, errors.As(err, &e), "want status %d, got %v", want, err)
	require.Equal(t, want, e.Code, e.Msg)
}

func TestSortBaselineRejectsBadArguments(t *testing.T) {
	x := newCtx(t)
	const batch, vocab = 2, 100
	n, err := x.SortWorkspace(native.F32, batch, vocab)
	require.NoError(t, err)
	require.Positive(t, n)
	_, err = x.SortWorkspace(native.F32, batch, 0)
	requireStatus(t, err, native.InvalidArg)
	_, err = x.SortWorkspace(native.DType(7), batch, vocab)
	requireStatus(t, err, native.InvalidArg)

	dev := deviceArray(t, x, make([]float32, batch*vocab), 4)
	ws, err := x.Malloc(n)
	require.NoError(t, err)
	defer x.Free(ws)
	req := native.Request{Logits: dev, DType: native.F32, Batch: batch, Vocab: vocab, RowStride: vocab}
	requireStatus(t, x.SortTopKTopP(&req, ws, n-1), native.InvalidArg)
	requireStatus(t, x.SortTopKTopP(&req, 0, n), native.InvalidArg)
	hostK := req
	hostK.K = []int32{1, 1}
	requireStatus(t, x.SortTopKTopP(&hostK, ws, n), native.InvalidArg)
	hostP := req
	hostP.P = []float32{0.5, 0.5}
	requireStatus(t, x.SortTopKTopP(&hostP, ws, n), native.InvalidArg)
	narrow := req
	narrow.RowStride = vocab - 1
	requireStatus(t, x.SortTopKTopP(&narrow, ws, n), native.InvalidArg)
	empty := req
	empty.Batch = 0
	require.NoError(t, x.SortTopKTopP(&empty, 0, 0), "an empty batch is a no-op")
	require.NoError(t, x.SortTopKTopP(&req, ws, n))
	require.NoError(t, x.Sync(0))
}

// readFold is what the read kernel folds bytes into: per 16 bytes, the
// low 8 xor the high 8 times a constant; tail byte j shifted by 8*(j%8);
// all summed mod 2^64, so the order of the sum does not matter.
func readFold(b []byte) uint64 {
	var sum uint64
	n := len(b) / 16 * 16
	for i := 0; i < n; i += 16 {
		lo, hi := binary.LittleEndian.Uint64(b[i:]), binary.LittleEndian.Uint64(b[i+8:])
		sum += lo ^ (hi * 0x9e3779b97f4a7c15)
	}
	for j, v := range b[n:] {
		sum += uint64(v) << (8 * (j % 8))
	}
	return sum
}

func TestReadFloor(t *testing.T) {
	x := newCtx(t)
	const size = 3<<20 + 13 // a tail that is not a multiple of 16
	data := make([]byte, size)
	rng := testcases.NewRand(5)
	for i := range data {
		data[i] = byte(rng.Uint32())
	}
	dev := deviceArray(t, x, data, 1)
	sink := deviceArray(t, x, []uint64{0}, 8)
	require.NoError(t, x.Read(dev, size, sink, 0))
	require.NoError(t, x.Read(dev, 0, sink, 0), "an empty read is a no-op")
	require.NoError(t, x.Sync(0))
	got := []uint64{0}
	require.NoError(t, native.CopyFromDevice(x, got, sink))
	require.Equal(t, readFold(data), got[0])

	requireStatus(t, x.Read(dev+1, 64, sink, 0), native.InvalidArg)
	requireStatus(t, x.Read(dev, 64, 0, 0), native.InvalidArg)
	requireStatus(t, x.Read(0, 64, sink, 0), native.InvalidArg)
}
