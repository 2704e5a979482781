package main

import (
	"fmt"
	"path/filepath"

	"github.com/qrita-project/qrita/internal/gpubench"
	"github.com/qrita-project/qrita/internal/npy"
	"github.com/qrita-project/qrita/internal/testcases"
	"github.com/qrita-project/qrita/sampler"
)

// benchCase is one point of the sweep.
type benchCase struct {
	batch, vocab int
	k            int
	p            float64
	dist         testcases.Dist
	distName     string // the dist's name, or npy:<file name>
	dtype        sampler.DType
	logits       []float32 // from -npy; nil: generated from dist and the seed
}

// shape is what the logits of a case depend on: cases of one shape share
// their input (and, on the CPU, the floor).
type shape struct {
	batch, vocab int
	distName     string
}

func (c benchCase) shape() shape { return shape{c.batch, c.vocab, c.distName} }

func (c benchCase) String() string {
	return fmt.Sprintf("B=%d V=%d k=%d p=%g %s %s", c.batch, c.vocab, c.k, c.p, c.distName, c.dtype)
}

// input returns the case's logits, fresh.
func (c benchCase) input(seed uint64) []float32 {
	if c.logits != nil {
		return append([]float32(nil), c.logits...)
	}
	return testcases.Logits(c.batch, c.vocab, c.dist, seed)
}

// perRow expands k and p to one value per row.
func (c benchCase) perRow() ([]int32, []float32) {
	k := make([]int32, c.batch)
	p := make([]float32, c.batch)
	for i := range k {
		k[i] = int32(c.k)
		p[i] = float32(c.p)
	}
	return k, p
}

// buildCases expands the options to the sweep, ordered dist, dtype, vocab,
// batch, k, p (consecutive cases share a shape as long as possible).
func buildCases(o options) ([]benchCase, error) {
	type source struct {
		dist   testcases.Dist
		name   string
		logits []float32
		pairs  [][2]int
	}
	var pairs [][2]int
	if o.sweep == "anchors" {
		for _, a := range gpubench.AnchorShapes {
			pairs = append(pairs, [2]int{a.Batch, a.Vocab})
		}
	} else {
		for _, v := range o.vocabs {
			for _, b := range o.batches {
				pairs = append(pairs, [2]int{b, v})
			}
		}
	}
	var sources []source
	if o.npy != "" {
		a, err := npy.ReadFile(o.npy)
		if err != nil {
			return nil, err
		}
		var b, v int
		switch len(a.Shape) {
		case 1:
			b, v = 1, a.Shape[0]
		case 2:
			b, v = a.Shape[0], a.Shape[1]
		default:
			return nil, fmt.Errorf("%s: shape %v, want [batch, vocab] (or [vocab])", o.npy, a.Shape)
		}
		if b == 0 || v == 0 {
			return nil, fmt.Errorf("%s: empty array of shape %v", o.npy, a.Shape)
		}
		sources = append(sources, source{name: "npy:" + filepath.Base(o.npy), logits: a.Data, pairs: [][2]int{{b, v}}})
	} else {
		for _, d := range o.dists {
			sources = append(sources, source{dist: d, name: d.String(), pairs: pairs})
		}
	}
	var cases []benchCase
	for _, s := range sources {
		for _, dt := range o.dtypes {
			for _, bv := range s.pairs {
				for _, k := range o.ks {
					for _, p := range o.ps {
						cases = append(cases, benchCase{batch: bv[0], vocab: bv[1], k: k, p: p, dist: s.dist,
							distName: s.name, dtype: dt, logits: s.logits})
					}
				}
			}
		}
	}
	return cases, nil
}
