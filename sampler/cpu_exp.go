package sampler

import "math"

// expNonPositiveSteps is exp(x) for x in [expMinArg, 0] with a relative
// error below 1e-10, four orders of magnitude inside the top-p exactness
// contract, and several times faster than math.Exp because it inlines.
// It splits x = (m*expTableSize + j)*ln2/expTableSize + r with
// |r| <= ln2/(2*expTableSize) and evaluates 2^m * 2^(j/expTableSize) * e^r
// (table, exponent bits, cubic Taylor polynomial). Callers treat x < expMinArg
// as 0, which exp(x) is, relative to the row maximum's exp(0) = 1.
//
// It also returns the number of table steps (of ln2/expTableSize) that x
// lies below 0, rounded to nearest: a free binning of x on a fixed grid.
func expNonPositiveSteps(x float64) (e float64, steps uint32) {
	z := x * expInvLn2N
	kd := z + expRoundShift // rounds z to an integer kept in the low bits
	ki := math.Float64bits(kd)
	kd -= expRoundShift
	r := x - kd*expLn2N
	scale := math.Float64frombits(expTable[ki%expTableSize] + ki<<(52-expTableBits))
	return scale * (1 + r*(1+r*(1.0/2+r*(1.0/6)))), uint32(-int32(ki))
}

const (
	expTableBits  = 6
	expTableSize  = 1 << expTableBits
	expInvLn2N    = expTableSize / math.Ln2
	expLn2N       = math.Ln2 / expTableSize
	expRoundShift = 0x1.8p52
	// expMinArg keeps 2^m a normal float64; exp(-708) ~ 3e-308.
	expMinArg = -708.0
)

// expTable[j] holds the bits of 2^(j/expTableSize) less j shifted to where
// the low bits of ki land in expNonPositiveSteps, so that adding ki<<(52-bits)
// leaves exactly m in the exponent field.
var expTable = func() (t [expTableSize]uint64) {
	for j := range t {
		t[j] = math.Float64bits(math.Exp2(float64(j)/expTableSize)) - uint64(j)<<(52-expTableBits)
	}
	return t
}()
