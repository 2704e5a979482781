//go:build (cuda || hip) && cgo

package sampler_test

import (
	"fmt"
	"testing"

	"github.com/qrita-project/qrita/internal/gpubench"
	"github.com/qrita-project/qrita/internal/testcases"
	"github.com/qrita-project/qrita/sampler"
)

// BenchmarkGPU times the anchor shapes (and dtype, distribution and output
// variants) with the gpubench protocol; us/call and x-copy are the figures
// to read (ns/op covers the whole protocol). Run with -test.benchtime=1x.
func BenchmarkGPU(b *testing.B) {
	var specs []gpubench.Spec
	modes := []struct {
		name string
		k    int32
		p    float32
	}{{"kp", 50, 0.9}, {"k", 50, 1}, {"p", 0, 0.9}}
	for _, m := range modes {
		for _, a := range gpubench.AnchorShapes {
			specs = append(specs, gpubench.Spec{Batch: a.Batch, Vocab: a.Vocab, Dist: testcases.LLMLike, K: m.k, P: m.p})
		}
		for _, d := range []testcases.Dist{testcases.Flat, testcases.Peaked, testcases.OneHot, testcases.NegInfMask90} {
			specs = append(specs, gpubench.Spec{Batch: 256, Vocab: 128256, Dist: d, K: m.k, P: m.p})
		}
	}
	for _, d := range []sampler.DType{sampler.Float16, sampler.BFloat16} {
		specs = append(specs, gpubench.Spec{Batch: 256, Vocab: 128256, DType: d, Dist: testcases.LLMLike, K: 50, P: 0.9})
		specs = append(specs, gpubench.Spec{Batch: 1, Vocab: 128256, DType: d, Dist: testcases.LLMLike, K: 50, P: 0.9})
	}
	specs = append(specs, gpubench.Spec{Batch: 256, Vocab: 128256, Dist: testcases.LLMLike, K: 50, P: 0.9, IDs: true})
	for _, spec := range specs {
		spec.Seed = uint64(spec.Batch)*1000003 + uint64(spec.Vocab)
		b.Run(spec.String(), func(b *testing.B) {
			if gpuSkipReason != "" {
				b.Skip("qrita-gpu: no usable GPU: " + gpuSkipReason)
			}
			s, err := sampler.New()
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			nc := newNativeB(b)
			var r gpubench.Result
			for i := 0; i < b.N; i++ {
				if r, err = gpubench.Run(s, nc, spec, gpubench.Options{Reps: 15, Inner: 20}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(r.CallUs, "us/call")
			b.ReportMetric(r.CopyUs, "copy-us")
			b.ReportMetric(r.Ratio(), "x-copy")
			fmt.Printf("qrita-gpu-bench %-55s call %9.2f us  copy %8.2f us  ratio %5.2f\n", spec, r.CallUs, r.CopyUs, r.Ratio())
		})
	}
}
