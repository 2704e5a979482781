//go:build cgo

package nvmlinfo

import (
	"fmt"

	"github.com/NVIDIA/go-nvml/pkg/nvml"
)

// System queries the machine's NVML library (libnvidia-ml.so.1, opened
// with dlopen on Init).
func System() Report { return Query(nvml.New()) }

// Query asks lib about the system and every device. It calls lib.Init
// first and returns at once, having called nothing else, if Init fails.
func Query(lib nvml.Interface) Report {
	if ret := lib.Init(); ret != nvml.SUCCESS {
		return Report{Err: "init: " + ret.Error()}
	}
	defer lib.Shutdown()
	var r Report
	var ret nvml.Return
	if r.DriverVersion, ret = lib.SystemGetDriverVersion(); ret != nvml.SUCCESS {
		r.DriverVersion = "?"
	}
	if r.NVMLVersion, ret = lib.SystemGetNVMLVersion(); ret != nvml.SUCCESS {
		r.NVMLVersion = "?"
	}
	if r.CUDADriverVersion, ret = lib.SystemGetCudaDriverVersion(); ret != nvml.SUCCESS {
		r.CUDADriverVersion = 0
	}
	n, ret := lib.DeviceGetCount()
	if ret != nvml.SUCCESS {
		return Report{Err: "device count: " + ret.Error()}
	}
	for i := range n {
		r.GPUs = append(r.GPUs, device(lib, i))
	}
	return r
}

func device(lib nvml.Interface, i int) GPU {
	g := GPU{Index: i}
	miss := func(what string, ret nvml.Return) {
		g.Missing = append(g.Missing, fmt.Sprintf("%s: %s", what, ret.Error()))
	}
	d, ret := lib.DeviceGetHandleByIndex(i)
	if ret != nvml.SUCCESS {
		miss("handle", ret)
		return g
	}
	if g.Name, ret = d.GetName(); ret != nvml.SUCCESS {
		miss("name", ret)
	}
	if g.UUID, ret = d.GetUUID(); ret != nvml.SUCCESS {
		g.UUID = ""
	}
	if g.CCMajor, g.CCMinor, ret = d.GetCudaComputeCapability(); ret != nvml.SUCCESS {
		miss("compute capability", ret)
	}
	if mem, ret := d.GetMemoryInfo(); ret == nvml.SUCCESS {
		g.MemoryTotal = mem.Total
	} else {
		miss("memory", ret)
	}
	sm, ret1 := d.GetMaxClockInfo(nvml.CLOCK_SM)
	mem, ret2 := d.GetMaxClockInfo(nvml.CLOCK_MEM)
	if ret1 == nvml.SUCCESS && ret2 == nvml.SUCCESS {
		g.MaxSMClockMHz, g.MaxMemClockMHz = sm, mem
	} else {
		miss("max clocks", firstError(ret1, ret2))
	}
	sm, ret1 = d.GetClockInfo(nvml.CLOCK_SM)
	mem, ret2 = d.GetClockInfo(nvml.CLOCK_MEM)
	if ret1 == nvml.SUCCESS && ret2 == nvml.SUCCESS {
		g.SMClockMHz, g.MemClockMHz = sm, mem
	} else {
		miss("clocks", firstError(ret1, ret2))
	}
	return g
}

func firstError(rets ...nvml.Return) nvml.Return {
	for _, r := range rets {
		if r != nvml.SUCCESS {
			return r
		}
	}
	return nvml.SUCCESS
}
