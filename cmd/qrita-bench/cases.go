package main

import (
	"fmt"
	"path/filepath"

	"github.com/qrita-project/qrita/internal/benchfmt"
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
	out          string    // GPU: benchfmt.OutMask or OutIDs
	ablation     ablation  // GPU: kernel switches (none on the CPU)
}

// shape is what the logits of a case depend on: cases of one shape share
// their input (and, on the CPU, the floor).
type shape struct {
	batch, vocab int
	distName     string
}

func (c benchCase) shape() shape { return shape{c.batch, c.vocab, c.distName} }

func (c benchCase) String() string {
	s := fmt.Sprintf("B=%d V=%d k=%d p=%g %s %s", c.batch, c.vocab, c.k, c.p, c.distName, c.dtype)
	if c.out == benchfmt.OutIDs {
		s += " ids"
	}
	if !c.ablation.none() {
		s += " ablation=" + c.ablation.String()
	}
	return s
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
// batch, k, p, output, ablation (consecutive cases share a shape as long
// as possible), or a fixed preset's cases.
func buildCases(o options) ([]benchCase, error) {
	if fixedPreset(o.sweep) {
		return presetCases(o.sweep)
	}
	type source struct {
		dist   testcases.Dist
		name   string
		logits []float32
		pairs  [][2]int
	}
	var pairs [][2]int
	if o.sweep == sweepAnchors {
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
						for _, out := range o.outs {
							for _, a := range o.ablation {
								cases = append(cases, benchCase{batch: bv[0], vocab: bv[1], k: k, p: p, dist: s.dist,
									distName: s.name, dtype: dt, logits: s.logits, out: out, ablation: a})
							}
						}
					}
				}
			}
		}
	}
	return cases, nil
}

// genKey names a generated draw: the logits of a case depend on its
// distribution and vocab (and the run's seed), the batch only takes rows.
type genKey struct {
	dist  testcases.Dist
	vocab int
}

// logitsSource hands out generated logits, drawing each (dist, vocab)
// once for the largest batch of the sweep that needs it: testcases.Logits
// draws the rows in order from one seeded stream, so the first B rows of a
// larger draw are exactly the B-row draw (TestLogitsSourcePrefix). It
// keeps one draw at a time (4096 x 262208 fp32 is 4.3 GB of host memory),
// so sweeps should keep cases of one (dist, vocab) together.
type logitsSource struct {
	seed     uint64
	maxBatch map[genKey]int
	key      genKey
	data     []float32
}

func newLogitsSource(cases []benchCase, seed uint64) *logitsSource {
	s := &logitsSource{seed: seed, maxBatch: map[genKey]int{}}
	for _, c := range cases {
		k := genKey{c.dist, c.vocab}
		s.maxBatch[k] = max(s.maxBatch[k], c.batch)
	}
	return s
}

// logits returns the case's logits (shared: the caller must not write).
func (s *logitsSource) logits(c benchCase) []float32 {
	if c.logits != nil {
		return c.logits
	}
	k := genKey{c.dist, c.vocab}
	rows := max(s.maxBatch[k], c.batch)
	if s.data == nil || s.key != k || len(s.data) < rows*c.vocab {
		s.data = nil // let the previous draw go before the next
		s.key, s.data = k, testcases.Logits(rows, c.vocab, c.dist, s.seed)
	}
	n := c.batch * c.vocab
	return s.data[:n:n]
}
