//go:build !cgo

package nvmlinfo

// System reports NVML as unavailable: go-nvml needs cgo to open the library.
func System() Report { return Report{Err: "built without cgo"} }
