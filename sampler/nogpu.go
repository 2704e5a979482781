//go:build !(cuda || hip) || !cgo

package sampler

// defaultBackend is the CPU in builds without a GPU backend.
const defaultBackend = BackendCPU

// gpuState is empty in builds without a GPU backend.
type gpuState struct{}

func newGPUBackend(cfg config) (*gpuState, backend, error) {
	return nil, nil, newError("New", ErrUnsupported,
		"backend "+string(cfg.backend)+" is not in this build (build with CGO_ENABLED=1 and -tags cuda or -tags hip)")
}

func (g *gpuState) mask(op string, _ DeviceBatch, _ RowParams, _ TieMode, _ uintptr) error {
	return newError(op, ErrUnsupported, "no GPU backend in this build")
}

func (g *gpuState) ids(op string, _ DeviceBatch, _ RowParams, _ DeviceIDs, _ TieMode, _ uintptr) error {
	return newError(op, ErrUnsupported, "no GPU backend in this build")
}
