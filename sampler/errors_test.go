package sampler_test

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/qrita-project/qrita/reference"
	"github.com/qrita-project/qrita/sampler"
)

// badCall is a TopKTopP call that must fail with want.
type badCall struct {
	name         string
	logits       []float32
	batch, vocab int
	k            []int32
	p            []float32
	want         error
}

func badCalls() []badCall {
	four := []float32{1, 2, 3, 4}
	nan := float32(math.NaN())
	return []badCall{
		{"vocab 0", nil, 1, 0, nil, nil, sampler.ErrInvalidArgument},
		{"batch 0 vocab 0", nil, 0, 0, nil, nil, sampler.ErrInvalidArgument},
		{"negative batch", four, -1, -4, nil, nil, sampler.ErrInvalidArgument},
		{"negative vocab", four, -2, 2, nil, nil, sampler.ErrInvalidArgument},
		{"len(logits) < batch*vocab", four[:3], 1, 4, nil, nil, sampler.ErrInvalidArgument},
		{"len(logits) > batch*vocab", four, 1, 3, nil, nil, sampler.ErrInvalidArgument},
		{"batch*vocab overflows", four, 1 << 62, 4, nil, nil, sampler.ErrInvalidArgument},
		{"batch*vocab wraps to len", four, 1<<62 + 1, 4, nil, nil, sampler.ErrInvalidArgument},
		{"max int shape", four, math.MaxInt, math.MaxInt, nil, nil, sampler.ErrInvalidArgument},
		{"len(k) < batch", four, 2, 2, []int32{1}, nil, sampler.ErrInvalidArgument},
		{"len(k) > batch", four, 2, 2, []int32{1, 2, 3}, nil, sampler.ErrInvalidArgument},
		{"empty non-nil k", four, 2, 2, []int32{}, nil, sampler.ErrInvalidArgument},
		{"len(p) < batch", four, 2, 2, nil, []float32{0.5}, sampler.ErrInvalidArgument},
		{"len(p) > batch", four, 2, 2, nil, []float32{0.5, 0.5, 0.5}, sampler.ErrInvalidArgument},
		{"empty non-nil p", four, 2, 2, nil, []float32{}, sampler.ErrInvalidArgument},
		{"NaN p", four, 2, 2, []int32{1, 1}, []float32{0.5, nan}, sampler.ErrInvalidArgument},
		{"NaN p with payload", four, 1, 4, nil, []float32{math.Float32frombits(0xffc00001)}, sampler.ErrInvalidArgument},
	}
}

// runBadCalls checks that every bad call on s fails with its sentinel,
// wrapped in a *sampler.Error naming the method, leaves the logits alone
// and does not panic.
func runBadCalls(t *testing.T, s *sampler.Sampler) {
	t.Helper()
	for _, c := range badCalls() {
		t.Run(c.name, func(t *testing.T) {
			logits := slices.Clone(c.logits)
			var err error
			require.NotPanics(t, func() {
				err = s.TopKTopP(context.Background(), logits, c.batch, c.vocab, c.k, c.p)
			})
			require.ErrorIs(t, err, c.want)
			var e *sampler.Error
			require.ErrorAs(t, err, &e)
			assert.Equal(t, "TopKTopP", e.Op)
			assert.Equal(t, c.logits, logits, "a rejected call must not touch the logits")
		})
	}
}

func TestCPUBadCalls(t *testing.T) {
	runBadCalls(t, newCPU(t))
}

func TestNilContext(t *testing.T) {
	s := newCPU(t)
	var ctx context.Context // nil, as a careless caller would pass
	logits := []float32{1, 2}
	var err error
	require.NotPanics(t, func() { err = s.TopKTopP(ctx, logits, 1, 2, nil, nil) })
	require.ErrorIs(t, err, sampler.ErrInvalidArgument)
	assert.Equal(t, []float32{1, 2}, logits)
}

func TestClosedSamplerRejectsCalls(t *testing.T) {
	s, err := sampler.New(sampler.WithBackend(sampler.BackendCPU))
	require.NoError(t, err)
	require.NoError(t, s.Close())
	err = s.TopKTopP(context.Background(), []float32{1}, 1, 1, nil, nil)
	require.ErrorIs(t, err, sampler.ErrClosed)
	var e *sampler.Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, "TopKTopP", e.Op)
	// A cancelled context on a closed sampler is still an error.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	assert.Error(t, s.TopKTopP(ctx, []float32{1}, 1, 1, nil, nil))
}

func TestCancelledContextIsNotWrappedAsAnotherSentinel(t *testing.T) {
	s := newCPU(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := s.TopKTopP(ctx, []float32{1, 2}, 1, 2, nil, nil)
	require.ErrorIs(t, err, context.Canceled)
	for _, sentinel := range []error{sampler.ErrInvalidArgument, sampler.ErrUnsupported, sampler.ErrNoDevice, sampler.ErrDevice, sampler.ErrClosed} {
		assert.False(t, errors.Is(err, sentinel), "cancellation reported as %v", sentinel)
	}
}

func TestBadOptions(t *testing.T) {
	for _, tc := range []struct {
		name string
		opt  sampler.Option
	}{
		{"unknown backend", sampler.WithBackend("x")},
		{"empty backend", sampler.WithBackend("")},
		{"zero workers", sampler.WithWorkers(0)},
		{"negative workers", sampler.WithWorkers(-3)},
		{"negative device", sampler.WithDevice(-1)},
		{"unknown tie mode", sampler.WithTieMode(sampler.TieMode(7))},
		{"negative tie mode", sampler.WithTieMode(sampler.TieMode(-1))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s *sampler.Sampler
			var err error
			require.NotPanics(t, func() { s, err = sampler.New(tc.opt) })
			require.ErrorIs(t, err, sampler.ErrInvalidArgument)
			assert.Nil(t, s)
			var e *sampler.Error
			require.ErrorAs(t, err, &e)
			assert.Equal(t, "New", e.Op)
		})
	}
}

func TestNilOptionIsIgnored(t *testing.T) {
	s, err := sampler.New(nil, sampler.WithBackend(sampler.BackendCPU))
	require.NoError(t, err)
	require.NoError(t, s.Close())
}

// TestGPUBackendsUnsupportedWithoutGPUBuild applies to builds whose
// default backend is the CPU, i.e. built without -tags cuda/hip.
func TestGPUBackendsUnsupportedWithoutGPUBuild(t *testing.T) {
	def, err := sampler.New()
	if err != nil || def.Backend() != sampler.BackendCPU {
		t.Skip("this build has a GPU backend")
	}
	require.NoError(t, def.Close())
	for _, b := range []sampler.Backend{sampler.BackendCUDA, sampler.BackendHIP} {
		s, err := sampler.New(sampler.WithBackend(b))
		require.ErrorIs(t, err, sampler.ErrUnsupported, b)
		assert.Nil(t, s)
	}
}

func TestDeviceCallsOnCPUSampler(t *testing.T) {
	s := newCPU(t)
	ctx := context.Background()
	ok := sampler.DeviceBatch{Logits: 0x1000, DType: sampler.Float32, Batch: 2, Vocab: 8}
	out := sampler.DeviceIDs{IDs: 0x2000, Counts: 0x3000, MaxIDs: 8}

	require.ErrorIs(t, s.TopKTopPDevice(ctx, ok, sampler.RowParams{}, 0), sampler.ErrUnsupported)
	require.ErrorIs(t, s.TopKTopPIDsDevice(ctx, ok, sampler.RowParams{}, out, 0), sampler.ErrUnsupported)

	for _, tc := range []struct {
		name string
		b    sampler.DeviceBatch
		rp   sampler.RowParams
	}{
		{"nil logits", sampler.DeviceBatch{Batch: 2, Vocab: 8}, sampler.RowParams{}},
		{"unknown dtype", sampler.DeviceBatch{Logits: 0x1000, DType: 9, Batch: 2, Vocab: 8}, sampler.RowParams{}},
		{"negative batch", sampler.DeviceBatch{Logits: 0x1000, Batch: -1, Vocab: 8}, sampler.RowParams{}},
		{"vocab too big", sampler.DeviceBatch{Logits: 0x1000, Batch: 1, Vocab: sampler.MaxVocab + 1}, sampler.RowParams{}},
		{"stride below vocab", sampler.DeviceBatch{Logits: 0x1000, Batch: 2, Vocab: 8, RowStride: 7}, sampler.RowParams{}},
		{"size overflow", sampler.DeviceBatch{Logits: 0x1000, Batch: 1 << 62, Vocab: 4}, sampler.RowParams{}},
		{"k twice", ok, sampler.RowParams{K: []int32{1, 1}, KDevice: 0x4000}},
		{"len(p)", ok, sampler.RowParams{P: []float32{0.5}}},
		{"NaN p", ok, sampler.RowParams{P: []float32{0.5, float32(math.NaN())}}},
	} {
		require.ErrorIs(t, s.TopKTopPDevice(ctx, tc.b, tc.rp, 0), sampler.ErrInvalidArgument, tc.name)
		require.ErrorIs(t, s.TopKTopPIDsDevice(ctx, tc.b, tc.rp, out, 0), sampler.ErrInvalidArgument, tc.name)
	}
	for _, bad := range []sampler.DeviceIDs{{Counts: 1, MaxIDs: 8}, {IDs: 1, MaxIDs: 8}, {IDs: 1, Counts: 1}, {IDs: 1, Counts: 1, MaxIDs: sampler.MaxIDs + 1}} {
		require.ErrorIs(t, s.TopKTopPIDsDevice(ctx, ok, sampler.RowParams{}, bad, 0), sampler.ErrInvalidArgument)
	}
}

// An empty batch is valid and changes nothing; the checks that do not
// depend on the batch still apply.
func TestEmptyBatchIsANoOp(t *testing.T) {
	s := newCPU(t)
	ctx := context.Background()
	require.NoError(t, s.TopKTopP(ctx, nil, 0, 128, nil, nil))
	require.NoError(t, s.TopKTopP(ctx, []float32{}, 0, 128, []int32{}, []float32{}))
	require.ErrorIs(t, s.TopKTopP(ctx, nil, 0, 0, nil, nil), sampler.ErrInvalidArgument)
	require.ErrorIs(t, s.TopKTopP(ctx, []float32{1}, 0, 1, nil, nil), sampler.ErrInvalidArgument)
	require.ErrorIs(t, s.TopKTopP(ctx, nil, 0, 8, []int32{1}, nil), sampler.ErrInvalidArgument)
	require.NoError(t, reference.TopKTopP(nil, 0, 128, nil, nil))
}
