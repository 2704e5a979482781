//go:build (cuda || hip) && cgo

package sampler_test

import (
	"context"
	"slices"
	"testing"

	"github.com/qrita-project/qrita/internal/testcases"
	"github.com/qrita-project/qrita/sampler"
)

// FuzzGPUvsReference: random shape, distribution, k, p and tie mode; the
// GPU must agree with the reference under the exactness contract.
func FuzzGPUvsReference(f *testing.F) {
	f.Add(uint64(1), uint16(5000), uint8(3), uint8(0), int32(50), float32(0.9), false)
	f.Add(uint64(2), uint16(9000), uint8(2), uint8(1), int32(0), float32(0.5), true)
	f.Add(uint64(3), uint16(300), uint8(1), uint8(4), int32(7), float32(0), false)
	f.Fuzz(func(t *testing.T, seed uint64, vocab uint16, batch uint8, dist uint8, k int32, p float32, keepTies bool) {
		if p != p || vocab == 0 || batch == 0 {
			t.Skip()
		}
		mode := sampler.Exact
		if keepTies {
			mode = sampler.KeepTies
		}
		s := newGPU(t, sampler.WithTieMode(mode))
		dists := testcases.Dists()
		d := dists[int(dist)%len(dists)]
		b, v := int(batch%8)+1, int(vocab)
		logits := testcases.Logits(b, v, d, seed)
		ks, ps := make([]int32, b), make([]float32, b)
		for i := range ks {
			ks[i], ps[i] = k+int32(i), p
		}
		got := slices.Clone(logits)
		if err := s.TopKTopP(context.Background(), got, b, v, ks, ps); err != nil {
			t.Fatal(err)
		}
		checkRows(t, logits, got, b, v, ks, ps, mode)
	})
}
