package sampler_test

import (
	"context"
	"encoding/binary"
	"flag"
	"math"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/qrita-project/qrita/internal/testcases"
	"github.com/qrita-project/qrita/reference"
	"github.com/qrita-project/qrita/sampler"
)

// Fuzz inputs stay small (at most 1<<16 logits) so that each execution is
// fast, but the vocab reaches 16384: the CPU backend's sampling fast path
// needs vocab >= 4096 for top-k and >= 8192 for top-p, below which it
// always takes the exact fallback.
const (
	fuzzMaxBatch = 64
	fuzzMaxVocab = 16384
	fuzzMaxSize  = 1 << 16
)

// fuzzing reports whether this run is -fuzz (not the seed-corpus check
// that every go test runs); only then is the whole table added as seeds.
func fuzzing() bool {
	f := flag.Lookup("test.fuzz")
	return f != nil && f.Value.String() != ""
}

// seedCases are the table cases small enough to be fuzz seeds; outside
// -fuzz a sample keeps go test fast (the table test runs them all anyway).
func seedCases() []testcases.Case {
	var cs []testcases.Case
	for i, c := range testcases.Table() {
		if c.Batch > fuzzMaxBatch || c.Vocab > fuzzMaxVocab || c.Size() > fuzzMaxSize {
			continue
		}
		if fuzzing() || i%16 == 0 {
			cs = append(cs, c)
		}
	}
	return cs
}

// fuzzShape decodes a batch and vocab within the fuzz limits.
func fuzzShape(batch uint8, vocab uint16) (b, v int) {
	b, v = 1+int(batch)%fuzzMaxBatch, 1+int(vocab)%fuzzMaxVocab
	if b*v > fuzzMaxSize {
		b = fuzzMaxSize / v
	}
	return b, v
}

// encodeKP writes k and p as decodeKP reads them: a flags byte (bit 0:
// k is nil, bit 1: p is nil), then per row k as int32 and p as float32
// bits, little endian.
func encodeKP(k []int32, p []float32, batch int) []byte {
	out := []byte{0}
	if k == nil {
		out[0] |= 1
	}
	if p == nil {
		out[0] |= 2
	}
	for i := 0; i < batch; i++ {
		var kk int32
		pp := float32(1)
		if k != nil {
			kk = k[i]
		}
		if p != nil {
			pp = p[i]
		}
		out = binary.LittleEndian.AppendUint32(out, uint32(kk))
		out = binary.LittleEndian.AppendUint32(out, math.Float32bits(pp))
	}
	return out
}

// decodeKP reads encodeKP's format; rows past the end of the data repeat
// the rows given, so short fuzz inputs still vary k and p per row.
func decodeKP(data []byte, batch int) (k []int32, p []float32) {
	flags := byte(0)
	if len(data) > 0 {
		flags, data = data[0], data[1:]
	}
	given := len(data) / 8
	if flags&1 == 0 {
		k = make([]int32, batch)
	}
	if flags&2 == 0 {
		p = make([]float32, batch)
	}
	for i := 0; i < batch; i++ {
		kk, pp := int32(0), float32(1)
		if given > 0 {
			j := 8 * (i % given)
			kk = int32(binary.LittleEndian.Uint32(data[j:]))
			pp = math.Float32frombits(binary.LittleEndian.Uint32(data[j+4:]))
		}
		if k != nil {
			k[i] = kk
		}
		if p != nil {
			p[i] = pp
		}
	}
	return k, p
}

// overlayRaw lets the fuzzer write arbitrary float32 bits (NaN payloads,
// signed zeros, denormals, infinities) over the start of the logits, or,
// with tile, repeat them over all of them (adversarial ties and masses).
func overlayRaw(logits []float32, raw []byte, tile bool) {
	n := len(raw) / 4
	if n == 0 {
		return
	}
	if !tile {
		logits = logits[:min(n, len(logits))]
	}
	for j := range logits {
		logits[j] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*(j%n):]))
	}
}

func rawOf(xs ...float32) []byte {
	var out []byte
	for _, x := range xs {
		out = binary.LittleEndian.AppendUint32(out, math.Float32bits(x))
	}
	return out
}

// FuzzCPUvsReference: shape, distribution, seed, tie mode, per-row k and p
// and raw float32 bits from the fuzzer; the CPU backend must agree with the
// reference under the exactness contract.
func FuzzCPUvsReference(f *testing.F) {
	for i, c := range seedCases() {
		_, k, p := c.Args()
		f.Add(uint8(c.Batch-1), uint16(c.Vocab-1), uint8(c.Dist), c.Seed, i%2 == 1, encodeKP(k, p, c.Batch), []byte(nil))
	}
	negZero := float32(math.Copysign(0, -1))
	inf := float32(math.Inf(1))
	special := rawOf(negZero, 0, math.Float32frombits(0x7fc00001), math.Float32frombits(0xffc00000),
		math.SmallestNonzeroFloat32, -math.SmallestNonzeroFloat32, math.MaxFloat32, -math.MaxFloat32, inf, -inf, 1, 1)
	f.Add(uint8(0), uint16(11), uint8(testcases.LLMLike), uint64(1), false, encodeKP([]int32{3}, []float32{0.5}, 1), special)
	f.Add(uint8(1), uint16(11), uint8(testcases.SignedZeros), uint64(2), true, []byte{2, 2, 0, 0, 0}, special)
	f.Add(uint8(3), uint16(999), uint8(0x80), uint64(3), false, encodeKP([]int32{50}, []float32{0.9}, 1), special)
	f.Add(uint8(3), uint16(999), uint8(0x80), uint64(4), true, encodeKP([]int32{0}, []float32{0.5}, 1), rawOf(1, 1, 0, 2, 2, 2, -1))

	s := map[bool]*sampler.Sampler{
		false: newFuzzSampler(f, sampler.Exact),
		true:  newFuzzSampler(f, sampler.KeepTies),
	}
	f.Fuzz(func(t *testing.T, batch uint8, vocab uint16, dist uint8, seed uint64, keepTies bool, kp, raw []byte) {
		b, v := fuzzShape(batch, vocab)
		dists := testcases.Dists()
		logits := testcases.Logits(b, v, dists[int(dist&0x7f)%len(dists)], seed)
		overlayRaw(logits, raw, dist&0x80 != 0)
		k, p := decodeKP(kp, b)
		got := slices.Clone(logits)
		err := s[keepTies].TopKTopP(context.Background(), got, b, v, k, p)
		if reference.CheckArgs(len(logits), b, v, k, p) != nil { // only a NaN p can get here
			require.ErrorIs(t, err, sampler.ErrInvalidArgument)
			return
		}
		require.NoError(t, err)
		checkRows(t, logits, got, b, v, k, p, s[keepTies].TieMode())
	})
}

func newFuzzSampler(f *testing.F, mode sampler.TieMode) *sampler.Sampler {
	s, err := sampler.New(sampler.WithBackend(sampler.BackendCPU), sampler.WithTieMode(mode))
	require.NoError(f, err)
	f.Cleanup(func() { s.Close() })
	return s
}

// FuzzBadInput: arbitrary shapes, slice lengths, NaN p and a nil context
// never panic; the sampler errs exactly when reference.CheckArgs does (or
// the context is nil), with ErrInvalidArgument, leaving the logits alone,
// and otherwise agrees with the reference.
func FuzzBadInput(f *testing.F) {
	for _, c := range seedCases() {
		if c.Size() >= math.MaxUint16 {
			continue
		}
		for _, off := range []int{0, 1, -1} {
			f.Add(uint16(c.Size()+off), int64(c.Batch), int64(c.Vocab), int16(c.Batch), int16(c.Batch+off), int16(-1), float32(0.9), int32(50), false)
		}
	}
	for _, c := range badCalls() {
		kLen, pLen, nanAt := int16(-1), int16(-1), int16(-1)
		if c.k != nil {
			kLen = int16(len(c.k))
		}
		if c.p != nil {
			pLen = int16(len(c.p))
			for i, x := range c.p {
				if x != x {
					nanAt = int16(i)
				}
			}
		}
		f.Add(uint16(len(c.logits)), int64(c.batch), int64(c.vocab), kLen, pLen, nanAt, float32(0.5), int32(1), false)
	}
	f.Add(uint16(4), int64(1), int64(4), int16(-1), int16(-1), int16(-1), float32(1), int32(0), true)

	s := newFuzzSampler(f, sampler.Exact)
	f.Fuzz(func(t *testing.T, n uint16, batch, vocab int64, kLen, pLen, nanAt int16, pVal float32, kVal int32, nilCtx bool) {
		logits := testcases.Logits(1, int(n), testcases.SmallInts, uint64(n))
		var k []int32
		var p []float32
		if kLen >= 0 {
			k = make([]int32, kLen)
			for i := range k {
				k[i] = kVal + int32(i)
			}
		}
		if pLen >= 0 {
			p = make([]float32, pLen)
			for i := range p {
				p[i] = pVal
			}
			if nanAt >= 0 && nanAt < pLen {
				p[nanAt] = float32(math.NaN())
			}
		}
		ctx := context.Background()
		if nilCtx {
			ctx = nil
		}
		got := slices.Clone(logits)
		var err error
		require.NotPanics(t, func() { err = s.TopKTopP(ctx, got, int(batch), int(vocab), k, p) })
		refErr := reference.CheckArgs(len(logits), int(batch), int(vocab), k, p)
		if refErr != nil || nilCtx {
			require.ErrorIs(t, err, sampler.ErrInvalidArgument, "reference says: %v", refErr)
			require.Empty(t, testcases.Compare(got, logits, 1, len(logits)), "a rejected call must not touch the logits")
			return
		}
		require.NoError(t, err)
		checkRows(t, logits, got, int(batch), int(vocab), k, p, sampler.Exact)
	})
}
