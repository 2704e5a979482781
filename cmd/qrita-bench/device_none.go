//go:build !(cuda || hip) || !cgo

package main

import (
	"context"
	"errors"

	"github.com/qrita-project/qrita/internal/benchfmt"
	"github.com/qrita-project/qrita/reference"
	"github.com/qrita-project/qrita/sampler"
)

// runGPU fails in builds without a GPU backend, with sampler.New's reason.
func runGPU(_ context.Context, o options, _ []benchCase, _ reference.TieMode, _ *progress, _ *benchfmt.Env) ([]benchfmt.Result, error) {
	s, err := sampler.New(sampler.WithBackend(o.backend))
	if err == nil {
		s.Close()
		err = errors.New("no GPU backend in this build")
	}
	return nil, err
}
