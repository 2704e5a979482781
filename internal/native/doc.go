// Package native is the cgo binding of the C ABI in csrc/qrita.h (the
// static library libqrita.a). It is built only with -tags cuda or -tags
// hip and cgo; package sampler and cmd/qrita-bench use it. C never keeps a
// Go pointer: host arrays are copied before each call returns.
package native
