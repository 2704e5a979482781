//go:build (cuda || hip) && cgo

package sampler_test

import (
	"errors"
	"fmt"
	"os"
	"testing"

	"github.com/qrita-project/qrita/internal/native"
	"github.com/qrita-project/qrita/sampler"
)

// gpuSkipReason is empty when a device is usable. Every GPU test prints a
// marker line, so CI can prove the GPU tests ran rather than skipped.
var gpuSkipReason string

func TestMain(m *testing.M) {
	s, err := sampler.New()
	switch {
	case err == nil:
		ctx, cerr := native.Create(0)
		if cerr == nil {
			info, _ := ctx.Info()
			fmt.Printf("qrita-gpu: running on %s (%s, cc %d.%d, %d SMs)\n", info.Name, native.Vendor,
				info.CCMajor, info.CCMinor, info.Multiprocessors)
			ctx.Destroy()
		}
		s.Close()
	case errors.Is(err, sampler.ErrNoDevice), errors.Is(err, sampler.ErrUnsupported):
		gpuSkipReason = err.Error()
		fmt.Printf("qrita-gpu: SKIPPING GPU tests: %v\n", err)
	default:
		fmt.Printf("qrita-gpu: cannot create a GPU sampler: %v\n", err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}

// newGPU returns a GPU sampler, or skips t visibly without a device.
func newGPU(t *testing.T, opts ...sampler.Option) *sampler.Sampler {
	t.Helper()
	if gpuSkipReason != "" {
		t.Skip("qrita-gpu: no usable GPU: " + gpuSkipReason)
	}
	s, err := sampler.New(opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// newNative returns a context for device memory in tests.
func newNative(t *testing.T) *native.Ctx { return newNativeB(t) }

func newNativeB(t testing.TB) *native.Ctx {
	t.Helper()
	if gpuSkipReason != "" {
		t.Skip("qrita-gpu: no usable GPU: " + gpuSkipReason)
	}
	c, err := native.Create(0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Destroy)
	return c
}
