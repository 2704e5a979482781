package reference

import (
	"errors"
	"fmt"
	"math"
	"sort"
)

// ErrInvalidArgument is returned (wrapped) for arguments that break the
// documented conventions: wrong slice lengths, non-positive shapes, a NaN p.
var ErrInvalidArgument = errors.New("invalid argument")

// AmbiguityTolerance is how close p may lie to a cumulative probability at
// the cut before a top-p row counts as ambiguous.
const AmbiguityTolerance = 1e-6

// TieMode chooses how tokens equal in value to the last kept one are treated.
type TieMode int

const (
	// Exact keeps exactly the stable-sort prefix: ties break by lower index.
	Exact TieMode = iota
	// KeepTies also keeps every token equal in value to the last kept one.
	KeepTies
)

func (m TieMode) String() string {
	switch m {
	case Exact:
		return "exact"
	case KeepTies:
		return "keep-ties"
	}
	return fmt.Sprintf("TieMode(%d)", int(m))
}

// TopKTopP truncates row-major [batch][vocab] logits in place with the
// [Exact] tie mode. A nil k or p disables that filter for every row.
func TopKTopP(logits []float32, batch, vocab int, k []int32, p []float32) error {
	return TopKTopPTies(logits, batch, vocab, k, p, Exact)
}

// TopKTopPTies is [TopKTopP] with an explicit tie mode.
func TopKTopPTies(logits []float32, batch, vocab int, k []int32, p []float32, mode TieMode) error {
	if err := CheckArgs(len(logits), batch, vocab, k, p); err != nil {
		return err
	}
	if mode != Exact && mode != KeepTies {
		return fmt.Errorf("%w: unknown tie mode %d", ErrInvalidArgument, int(mode))
	}
	for i := 0; i < batch; i++ {
		row := logits[i*vocab : (i+1)*vocab]
		r := Explain(row, RowK(k, i), RowP(p, i), mode)
		apply(row, r.Kept)
	}
	return nil
}

// CheckArgs validates the shape and per-row arguments shared by every
// backend. The error wraps [ErrInvalidArgument].
func CheckArgs(n, batch, vocab int, k []int32, p []float32) error {
	switch {
	case batch < 0:
		return fmt.Errorf("%w: batch %d is negative", ErrInvalidArgument, batch)
	case vocab <= 0:
		return fmt.Errorf("%w: vocab %d must be positive", ErrInvalidArgument, vocab)
	case batch > math.MaxInt/vocab:
		return fmt.Errorf("%w: batch*vocab overflows (%d x %d)", ErrInvalidArgument, batch, vocab)
	case n != batch*vocab:
		return fmt.Errorf("%w: len(logits) = %d, want batch*vocab = %d", ErrInvalidArgument, n, batch*vocab)
	case k != nil && len(k) != batch:
		return fmt.Errorf("%w: len(k) = %d, want batch = %d", ErrInvalidArgument, len(k), batch)
	case p != nil && len(p) != batch:
		return fmt.Errorf("%w: len(p) = %d, want batch = %d", ErrInvalidArgument, len(p), batch)
	}
	for i, v := range p {
		if v != v {
			return fmt.Errorf("%w: p[%d] is NaN", ErrInvalidArgument, i)
		}
	}
	return nil
}

// RowK is row i's top-k under the nil convention: a nil k disables top-k
// (0) for every row.
func RowK(k []int32, i int) int32 {
	if k == nil {
		return 0
	}
	return k[i]
}

// RowP is row i's top-p under the nil convention: a nil p disables top-p
// (1) for every row.
func RowP(p []float32, i int) float32 {
	if p == nil {
		return 1
	}
	return p[i]
}

// Row describes how one row was truncated.
type Row struct {
	// Kept holds the kept token indices in rank order.
	Kept []int32
	// TopP reports whether top-p was active (0 < p < 1 with survivors).
	TopP bool
	// CumBefore and CumAt are the float64 cumulative probabilities just
	// before and at the last token kept by top-p (valid when TopP).
	CumBefore, CumAt float64
}

// Ambiguous reports whether p lies within [AmbiguityTolerance] of the
// cumulative probability before or at the top-p cut: a backend with a
// different but correct summation order may then cut one token earlier or
// later.
func (r Row) Ambiguous(p float32) bool {
	if !r.TopP {
		return false
	}
	q := float64(p)
	return math.Abs(q-r.CumBefore) <= AmbiguityTolerance || math.Abs(q-r.CumAt) <= AmbiguityTolerance
}

// Explain computes the kept set of one row without changing it.
func Explain(row []float32, k int32, p float32, mode TieMode) Row {
	order := rankOrder(row)
	n := len(order)
	if k > 0 && int(k) < len(row) && int(k) < n {
		n = extendTies(row, order, int(k), mode)
	}
	order = order[:n]
	r := Row{Kept: order}
	if p >= 1 || n == 0 {
		return r
	}
	if p <= 0 {
		r.Kept = order[:extendTies(row, order, 1, mode)]
		return r
	}
	probs := probabilities(row, order)
	cum := 0.0
	cut := n
	for j, q := range probs {
		r.CumBefore = cum
		cum += q
		r.CumAt = cum
		if cum >= float64(p) {
			cut = j + 1
			break
		}
	}
	r.TopP = true
	r.Kept = order[:extendTies(row, order, cut, mode)]
	return r
}

// rankOrder returns the indices of the entries that can be kept (neither
// NaN nor -Inf), higher value first, ties by lower index (stable sort; Go's
// < already treats -0 and +0 as equal).
func rankOrder(row []float32) []int32 {
	order := make([]int32, 0, len(row))
	for i, v := range row {
		if v == v && !math.IsInf(float64(v), -1) {
			order = append(order, int32(i))
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return row[order[a]] > row[order[b]] })
	return order
}

// extendTies returns n, or in KeepTies mode the length of the prefix that
// also holds every token equal in value to order[n-1].
func extendTies(row []float32, order []int32, n int, mode TieMode) int {
	if mode != KeepTies {
		return n
	}
	last := row[order[n-1]]
	for n < len(order) && row[order[n]] == last {
		n++
	}
	return n
}

// probabilities returns the softmax, in float64, over row[order] in rank
// order. +Inf tokens, if any, share all the mass equally.
func probabilities(row []float32, order []int32) []float64 {
	probs := make([]float64, len(order))
	top := float64(row[order[0]])
	if math.IsInf(top, 1) {
		inf := 0
		for _, i := range order {
			if math.IsInf(float64(row[i]), 1) {
				inf++
			}
		}
		for j := 0; j < inf; j++ {
			probs[j] = 1 / float64(inf)
		}
		return probs
	}
	z := 0.0
	for j, i := range order {
		probs[j] = math.Exp(float64(row[i]) - top)
		z += probs[j]
	}
	for j := range probs {
		probs[j] /= z
	}
	return probs
}

func apply(row []float32, kept []int32) {
	keep := make([]bool, len(row))
	for _, i := range kept {
		keep[i] = true
	}
	negInf := float32(math.Inf(-1))
	for i := range row {
		if !keep[i] {
			row[i] = negInf
		}
	}
}
