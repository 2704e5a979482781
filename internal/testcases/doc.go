// Package testcases is the single source of test inputs for qrita: one
// table of cases that drives the unit tests, seeds the fuzz targets and
// names the benchmark shapes, plus deterministic generators of logit rows
// and a comparison against the reference oracle that knows which top-p
// differences the exactness contract allows.
//
// Everything is a pure function of its seed, so a failing case reproduces
// from its name alone.
package testcases
