package testcases

import (
	"fmt"
	"hash/fnv"
	"math"
)

type kSpec struct {
	name string
	f    KFunc
}

type pSpec struct {
	name     string
	f        PFunc
	boundary bool
}

var (
	kNil   = kSpec{"knil", nil}
	k1     = kSpec{"k1", KConst(1)}
	k50    = kSpec{"k50", KConst(50)}
	kMixed = kSpec{"kmixed", KMixed()}

	pNil   = pSpec{"pnil", nil, false}
	p09    = pSpec{"p0.9", PConst(0.9), false}
	pMixed = pSpec{"pmixed", PMixed(), false}
	pAt    = pSpec{"pat", PBoundary(0), true}
)

// allK covers every per-row top-k rule: active, at the edges of vocab,
// disabled by 0, negative or too large, and mixed within a batch.
var allK = []kSpec{
	kNil, k1, {"k2", KConst(2)}, k50,
	{"kVm1", KVocabPlus(-1)}, {"kV", KVocabPlus(0)}, {"kVp1", KVocabPlus(1)},
	{"k0", KConst(0)}, {"kneg", KConst(-5)}, {"kmax", KConst(math.MaxInt32)},
	kMixed,
}

// allP covers every per-row top-p rule, and p on, just below and just
// above a cumulative boundary.
var allP = []pSpec{
	pNil, p09, {"p0.5", PConst(0.5), false},
	{"p1e-7", PConst(1e-7), false}, {"p0", PConst(0), false},
	{"pneg", PConst(-0.25), false}, {"p1", PConst(1), false},
	{"p1.5", PConst(1.5), false}, {"pinf", PConst(float32(math.Inf(1))), false},
	{"p1m", PConst(math.Nextafter32(1, 0)), false}, pMixed,
	{"pbelow", PBoundary(-1), true}, pAt, {"pabove", PBoundary(1), true},
}

// Table returns every test case. Cases larger than 1<<16 logits are meant
// to be skipped under testing.Short.
func Table() []Case {
	var cs []Case
	add := func(batch, vocab int, d Dist, k kSpec, p pSpec) {
		name := fmt.Sprintf("B%d_V%d_%s_%s_%v", batch, vocab, k.name, p.name, d)
		cs = append(cs, Case{
			Name: name, Batch: batch, Vocab: vocab, Dist: d, Seed: seedOf(name),
			K: k.f, P: p.f, Boundary: p.boundary,
		})
	}
	// Every k rule against every p rule, on a mid-size and a tiny vocab.
	for _, k := range allK {
		for _, p := range allP {
			add(8, 1000, LLMLike, k, p)
			add(16, 7, LLMLike, k, p)
		}
	}
	// Every distribution on small, medium and odd-sized vocabularies, and
	// on one large enough (16384) for sampling-based fast paths to engage
	// on top-p as well as top-k.
	for _, d := range Dists() {
		for _, v := range []int{3, 64, 4099, 16384} {
			b := 8
			switch {
			case v > 10000:
				b = 2
			case v > 1000:
				b = 4
			}
			add(b, v, d, k50, p09)
			add(b, v, d, kMixed, pMixed)
			add(b, v, d, kNil, pAt)
			add(b, v, d, k1, pNil)
		}
	}
	// Vocabulary sweep up to Llama 3's 128256, with small batches when big
	// (vocab 7 is covered by the k x p cross above).
	for _, v := range []int{1, 2, 3, 64, 1000, 4099, 32000, 128256} {
		b := 16
		switch {
		case v >= 100000:
			b = 2
		case v >= 10000:
			b = 4
		}
		add(b, v, LLMLike, k50, p09)
		add(b, v, LLMLike, kMixed, pMixed)
		add(b, v, LLMLike, k1, pNil)
		add(b, v, LLMLike, kNil, p09)
	}
	add(2, 32000, Flat, kNil, p09)
	add(2, 32000, BF16Ties, k50, pNil)
	// Batch sweep.
	for _, b := range []int{1, 2, 3, 5, 17, 33, 64} {
		add(b, 64, LLMLike, kMixed, pMixed)
		add(b, 1000, Peaked, kMixed, pMixed)
	}
	// p on purpose at cumulative boundaries, over distributions whose
	// probabilities range from spread out (flat) to concentrated.
	for _, d := range []Dist{LLMLike, Flat, Peaked, BF16Ties, SmallInts, WithPosInf, NegInfMask90} {
		for _, v := range []int{64, 1000} {
			for _, p := range allP[len(allP)-3:] {
				add(16, v, d, kNil, p)
				add(16, v, d, k50, p)
			}
		}
	}
	return cs
}

// Benchmarks returns the benchmark shapes; the first is the headline
// (batch 64, Llama 3 vocabulary, k=50, p=0.9).
func Benchmarks() []Case {
	bench := func(name string, batch, vocab int, d Dist, k KFunc, p PFunc) Case {
		return Case{Name: name, Batch: batch, Vocab: vocab, Dist: d, Seed: seedOf(name), K: k, P: p}
	}
	return []Case{
		bench("B64_V128256_k50_p0.9_llm", 64, 128256, LLMLike, KConst(50), PConst(0.9)),
		bench("B64_V128256_k50_llm", 64, 128256, LLMLike, KConst(50), nil),
		bench("B64_V128256_p0.9_llm", 64, 128256, LLMLike, nil, PConst(0.9)),
		bench("B64_V128256_k50_p0.9_flat", 64, 128256, Flat, KConst(50), PConst(0.9)),
		bench("B64_V128256_p0.9_flat", 64, 128256, Flat, nil, PConst(0.9)),
		bench("B1_V128256_k50_p0.9_llm", 1, 128256, LLMLike, KConst(50), PConst(0.9)),
		bench("B64_V32000_k50_p0.9_llm", 64, 32000, LLMLike, KConst(50), PConst(0.9)),
	}
}

// seedOf derives a case's seed from its name, so that reordering the table
// does not change any case's data.
func seedOf(name string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(name))
	return h.Sum64()
}
