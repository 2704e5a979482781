# Build entry points. The CPU backend needs only `go`; the GPU backends need
# the toolchains from scripts/install-toolchains.sh.
GO ?= go
CUDA_ARCHS ?= 80;90
HIP_ARCHS ?= gfx950
# nvcc 11.8 (Debian 12) accepts host compilers up to gcc 11.
CUDA_HOST_CXX ?= $(shell command -v g++-11 2>/dev/null)
HIP_CXX ?= $(shell command -v clang++-15 2>/dev/null || command -v clang++ 2>/dev/null)
ROCM_CMAKE ?= /usr/lib/x86_64-linux-gnu/cmake
ROCM_BITCODE ?= /usr/lib/x86_64-linux-gnu/amdgcn/bitcode

.PHONY: test race cuda hip check-cuda check-hip device device-pack clean

test:
	$(GO) test ./...

race:
	$(GO) test -race ./...

build/cuda/libqrita.a: cuda
cuda:
	cmake -S . -B build/cuda -G Ninja -DQRITA_BACKEND=cuda -DCMAKE_BUILD_TYPE=Release \
	  "-DCMAKE_CUDA_ARCHITECTURES=$(CUDA_ARCHS)" \
	  $(if $(CUDA_HOST_CXX),-DCMAKE_CUDA_HOST_COMPILER=$(CUDA_HOST_CXX))
	cmake --build build/cuda

hip:
	CMAKE_PREFIX_PATH=$(ROCM_CMAKE) cmake -S . -B build/hip -G Ninja -DQRITA_BACKEND=hip \
	  -DCMAKE_BUILD_TYPE=Release -DCMAKE_HIP_COMPILER=$(HIP_CXX) "-DCMAKE_HIP_ARCHITECTURES=$(HIP_ARCHS)" \
	  "-DCMAKE_HIP_FLAGS=--rocm-path=/usr --rocm-device-lib-path=$(ROCM_BITCODE)"
	cmake --build build/hip

# Type-checks and links the cuda-tagged binaries (needs `make cuda`).
check-cuda: cuda
	CGO_ENABLED=1 $(GO) vet -tags cuda ./...
	$(MAKE) device

# The binaries that run on a GPU machine without Go (build/device/).
device: cuda
	mkdir -p build/device
	# Go's build cache does not see libqrita.a change: its hash in the link
	# flags makes every new library relink the binaries.
	stamp=$$(sha1sum build/cuda/libqrita.a | cut -c1-16); \
	flags="-X main.qritaLib=$$stamp"; \
	CGO_ENABLED=1 $(GO) test -c -tags cuda -ldflags="$$flags" -o build/device/sampler.test ./sampler && \
	CGO_ENABLED=1 $(GO) test -c -tags cuda -ldflags="$$flags" -o build/device/native.test ./internal/native && \
	CGO_ENABLED=1 $(GO) build -tags cuda -ldflags="$$flags" -o build/device/qrita-bench ./cmd/qrita-bench

# The same binaries in one archive (the device tool carries at most 64 MiB):
# on the GPU machine, tar -xzf build/pack/device.tar.gz -C build.
device-pack: device
	mkdir -p build/pack
	tar -C build -czf build/pack/device.tar.gz device

check-hip: hip
	CGO_ENABLED=1 $(GO) vet -tags hip ./...
	mkdir -p build/hip-bin
	CGO_ENABLED=1 $(GO) test -c -tags hip -o build/hip-bin/sampler.test ./sampler
	CGO_ENABLED=1 $(GO) build -tags hip -o build/hip-bin/qrita-bench ./cmd/qrita-bench

clean:
	rm -rf build
