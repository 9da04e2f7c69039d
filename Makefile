# The README's commands. PRESET picks a CMake preset (release, debug, asan, clang).
PRESET ?= release
JOBS ?= $(shell nproc)

.PHONY: deps deps-bench build test bench clean

deps:
	@scripts/install-deps.sh

deps-bench:
	@scripts/install-deps.sh bench

build: deps
	cmake --preset $(PRESET)
	cmake --build --preset $(PRESET) -j $(JOBS)

test: build
	ctest --preset $(PRESET) -j $(JOBS)

bench: deps-bench
	cmake --preset bench
	cmake --build --preset bench -j $(JOBS) --target carom-bench
	build/bench/bench/carom-bench physics
	build/bench/bench/carom-bench replay

clean:
	rm -rf build
