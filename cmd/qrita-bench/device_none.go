//go:build !(cuda || hip) || !cgo

package main

import (
	"io"

	"github.com/qrita-project/qrita/sampler"
)

// deviceReport is unreachable without a GPU backend: sampler.New refuses
// the cuda and hip backends in such builds.
func deviceReport(options, *sampler.Sampler, io.Writer) error { return nil }
