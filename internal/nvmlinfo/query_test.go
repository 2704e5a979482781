//go:build cgo

package nvmlinfo

import (
	"bytes"
	"strings"
	"testing"

	"github.com/NVIDIA/go-nvml/pkg/nvml"
	"github.com/NVIDIA/go-nvml/pkg/nvml/mock"
	"github.com/NVIDIA/go-nvml/pkg/nvml/mock/dgxh200"
	"github.com/NVIDIA/go-nvml/pkg/nvml/mock/server"
)

func TestQueryDGXH200(t *testing.T) {
	s := dgxh200.New()
	// The mock leaves clocks unset (a call would panic); give device 0
	// the H200's clocks and let the others report the query as missing.
	d0 := s.Devices[0].(*server.Device)
	d0.GetMaxClockInfoFunc = func(c nvml.ClockType) (uint32, nvml.Return) {
		return map[nvml.ClockType]uint32{nvml.CLOCK_SM: 1980, nvml.CLOCK_MEM: 3201}[c], nvml.SUCCESS
	}
	d0.GetClockInfoFunc = d0.GetMaxClockInfoFunc
	for _, d := range s.Devices[1:] {
		dev := d.(*server.Device)
		dev.GetMaxClockInfoFunc = func(nvml.ClockType) (uint32, nvml.Return) { return 0, nvml.ERROR_NOT_SUPPORTED }
		dev.GetClockInfoFunc = dev.GetMaxClockInfoFunc
	}
	r := Query(s)
	if r.Err != "" || r.DriverVersion != "550.54.15" || r.CUDADriverVersion != 12040 || len(r.GPUs) != 8 {
		t.Fatalf("report %+v", r)
	}
	g := r.GPUs[0]
	if g.Name != "NVIDIA H200 141GB HBM3e" || g.CCMajor != 9 || g.CCMinor != 0 || g.MemoryTotal != 144384<<20 ||
		g.MaxSMClockMHz != 1980 || g.MaxMemClockMHz != 3201 || len(g.Missing) != 0 {
		t.Errorf("gpu 0: %+v", g)
	}
	if m := r.GPUs[7].Missing; len(m) != 2 || m[0] != "max clocks: ERROR_NOT_SUPPORTED" {
		t.Errorf("gpu 7 missing %q", m)
	}
	var out bytes.Buffer
	r.Print(&out)
	for _, want := range []string{
		"nvml: driver 550.54.15, nvml 12.550.54.15, cuda driver 12.4, 8 GPU(s)\n",
		"  gpu 0: NVIDIA H200 141GB HBM3e, cc 9.0, 141.0 GiB, max clocks sm 1980 / mem 3201 MHz, now 1980 / 3201 MHz\n",
		"  gpu 7: NVIDIA H200 141GB HBM3e, cc 9.0, 141.0 GiB; max clocks: ERROR_NOT_SUPPORTED; clocks: ERROR_NOT_SUPPORTED\n",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

// A failed Init must be the only call: every other method of this mock is
// nil and panics if called.
func TestFailedInitCallsNothingElse(t *testing.T) {
	lib := &mock.Interface{InitFunc: func() nvml.Return { return nvml.ERROR_LIBRARY_NOT_FOUND }}
	r := Query(lib)
	if r.Err != "init: ERROR_LIBRARY_NOT_FOUND" || len(r.GPUs) != 0 {
		t.Errorf("report %+v", r)
	}
	if n := len(lib.InitCalls()); n != 1 {
		t.Errorf("Init called %d times", n)
	}
	var out bytes.Buffer
	r.Print(&out)
	if out.String() != "nvml: unavailable (init: ERROR_LIBRARY_NOT_FOUND)\n" {
		t.Errorf("printed %q", out.String())
	}
}

// On this machine NVML may or may not be present; either way System must
// return rather than crash.
func TestSystemReturns(t *testing.T) {
	r := System()
	var out bytes.Buffer
	r.Print(&out)
	t.Log(strings.TrimSpace(out.String()))
}
