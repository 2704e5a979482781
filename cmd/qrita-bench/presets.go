package main

import (
	"fmt"

	"github.com/qrita-project/qrita/internal/benchfmt"
	"github.com/qrita-project/qrita/internal/testcases"
	"github.com/qrita-project/qrita/sampler"
)

// Sweep presets (-sweep).
const (
	sweepAnchors = "anchors" // the peers' anchor shapes x -k, -p, -dist, -dtype
	sweepFull    = "full"    // the committed H200 record
	sweepTable1  = "table1"  // hit rates and candidate counts (paper Table 1)
	sweepTable4  = "table4"  // ablations (paper Table 4)
)

var sweepNames = []string{sweepAnchors, sweepFull, sweepTable1, sweepTable4}

// fixedPreset says whether the preset fixes every case (not only shapes).
func fixedPreset(sweep string) bool {
	return sweep == sweepFull || sweep == sweepTable1 || sweep == sweepTable4
}

// presetFixedFlags are the flags a fixed preset sets itself.
var presetFixedFlags = []string{"batch", "vocab", "k", "p", "dist", "dtype", "npy", "out", "ablation"}

// checkPreset refuses flags that a fixed preset would silently override.
func checkPreset(sweep string, set map[string]bool) error {
	if !fixedPreset(sweep) {
		return nil
	}
	for _, name := range presetFixedFlags {
		if set[name] {
			return fmt.Errorf("-sweep %s fixes -%s itself (docs/qrita-bench.md lists its cases)", sweep, name)
		}
	}
	return nil
}

// fullGPUReps is -gpu-reps for -sweep full unless set: with the rotation
// it keeps the whole record under 8 minutes on an H200 (estimateRun).
const fullGPUReps = 7

// presetGPUReps is a preset's default -gpu-reps; 0: the flag's default.
func presetGPUReps(sweep string) int {
	if sweep == sweepFull {
		return fullGPUReps
	}
	return 0
}

// truncMode is a (k, p) setting of the presets.
type truncMode struct {
	k int
	p float64
}

var (
	modeJoint = truncMode{50, 0.9} // top-k then top-p, the headline
	modeTopK  = truncMode{50, 1}   // top-k alone
	modeTopP  = truncMode{0, 0.9}  // top-p alone
	modeNone  = truncMode{0, 1}    // no filter: the NaN-cleaning pass alone
	allModes  = []truncMode{modeJoint, modeTopK, modeTopP, modeNone}
)

// The presets' shapes. The full record is what one 10-minute device call
// can hold: host-side generation of the inputs dominates past B=1024
// (4096 x 262208 fp32 alone is 4.3 GB drawn and uploaded; an earlier
// record with batches to 4096 and every vocab in fp32 and bf16 ran past
// 270 s without finishing).
var (
	fullBatches  = []int{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024}
	fullVocabs   = []int{128256, 262208} // the smallest and largest paper vocabularies
	midBatches   = []int{256, 1024}
	midVocabs    = []int{151936, 201088}
	halfBatches  = []int{1, 64, 1024}
	halfDTypes   = []sampler.DType{sampler.BFloat16, sampler.Float16}
	missBatches  = []int{1, 64, 1024}
	missDists    = []testcases.Dist{testcases.Flat, testcases.OneHot, testcases.NegInfMask90}
	idsBatches   = []int{256, 1024}
	idsVocabs    = []int{128256, 262208}
	llama3Vocab  = 128256
	table1Batch  = 1024
	table4Batch  = 1024
	table4Vocab  = 128256
	table4Abl    = []string{"none", "no-dup", "no-trunc", "fallback", "binary", "binary+no-dup", "no-trunc+binary", "fallback+binary", "no-trunc+no-dup"}
	table1Modes  = []truncMode{modeTopK, modeTopP}
	paperVocabs  = presetVocabs()
	fp32         = sampler.Float32
	llm          = testcases.LLMLike
	outMask, ids = benchfmt.OutMask, benchfmt.OutIDs
)

func presetVocabs() []int {
	var vs []int
	for _, p := range vocabPresets {
		vs = append(vs, p.vocab)
	}
	return vs
}

func newCase(batch, vocab int, m truncMode, dist testcases.Dist, dtype sampler.DType, out string, a ablation) benchCase {
	return benchCase{batch: batch, vocab: vocab, k: m.k, p: m.p, dist: dist, distName: dist.String(), dtype: dtype,
		out: out, ablation: a}
}

// presetCases expands a fixed preset, vocab-major so that cases sharing
// logits follow each other.
func presetCases(sweep string) ([]benchCase, error) {
	var cases []benchCase
	switch sweep {
	case sweepFull:
		grid := func(batches, vocabs []int, dtypes []sampler.DType, dists []testcases.Dist) {
			for _, v := range vocabs {
				for _, d := range dists {
					for _, dt := range dtypes {
						for _, b := range batches {
							for _, m := range allModes {
								cases = append(cases, newCase(b, v, m, d, dt, outMask, ablation{}))
							}
						}
					}
				}
			}
		}
		llmOnly, fp32Only := []testcases.Dist{llm}, []sampler.DType{fp32}
		grid(fullBatches, fullVocabs, fp32Only, llmOnly)
		grid(midBatches, midVocabs, fp32Only, llmOnly)
		grid(halfBatches, []int{llama3Vocab}, halfDTypes, llmOnly)
		grid(missBatches, []int{llama3Vocab}, fp32Only, missDists)
		for _, v := range idsVocabs {
			for _, b := range idsBatches {
				for _, m := range allModes {
					cases = append(cases, newCase(b, v, m, llm, fp32, ids, ablation{}))
				}
			}
		}
	case sweepTable1:
		for _, v := range paperVocabs {
			for _, m := range table1Modes {
				cases = append(cases, newCase(table1Batch, v, m, llm, fp32, outMask, ablation{}))
			}
		}
	case sweepTable4:
		for _, name := range table4Abl {
			a, err := parseAblation(name)
			if err != nil {
				return nil, err
			}
			cases = append(cases, newCase(table4Batch, table4Vocab, modeJoint, llm, fp32, outMask, a))
		}
	default:
		return nil, fmt.Errorf("-sweep %s is not a fixed preset", sweep)
	}
	return cases, nil
}
