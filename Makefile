# The README's commands. PRESET picks a CMake preset (release, debug, asan, clang).
PRESET ?= release
JOBS ?= $(shell nproc)

.PHONY: deps deps-bench deps-determinism deps-web build web windows test install play bench determinism fuzz corpus clean

deps:
	@scripts/install-deps.sh

deps-bench:
	@scripts/install-deps.sh bench

deps-determinism:
	@scripts/install-deps.sh determinism

deps-web:
	@scripts/install-deps.sh web

build: deps
	cmake --preset $(PRESET)
	cmake --build --preset $(PRESET) -j $(JOBS)

# carom's core in WebAssembly (emscripten, build/web): carom-replay for Node
# and the module of the page `carom-replay html` writes.
web: deps-web
	cmake --preset web
	cmake --build --preset web -j $(JOBS)

# carom for 64-bit Windows, cross-built with MinGW-w64 (build/windows; no
# network programs): carom-replay.exe, carom.dll (libcarom's maps, matches,
# replays and viewer; its import library carom.dll.a) and carom.h in
# build/windows/carom-windows; then carom.dll's test under Wine.
windows: deps-determinism
	cmake --preset windows
	cmake --build --preset windows -j $(JOBS)
	ctest --preset windows

# The suite, with the replay pages in headless Chromium (which need `web`).
test: build web
	ctest --preset $(PRESET) -j $(JOBS)

# Programs to $(PREFIX)/bin, maps to $(PREFIX)/share/carom/maps, man pages
# to $(PREFIX)/share/man/man1 (PREFIX=/usr/local by default; DESTDIR for packaging).
PREFIX ?= /usr/local
install: build
	$(if $(DESTDIR),DESTDIR=$(DESTDIR)) cmake --install build/$(PRESET) --prefix $(PREFIX)

# A match against bots on a local server, in this terminal (scripts/play.sh;
# REPLAYS=dir picks where its replay goes).
play:
	@PRESET=$(PRESET) $(if $(REPLAYS),REPLAYS=$(REPLAYS)) $(if $(MAP),MAP=$(MAP)) scripts/play.sh

bench: deps-bench
	cmake --preset bench
	cmake --build --preset bench -j $(JOBS) --target carom-bench
	build/bench/bench/carom-bench physics
	build/bench/bench/carom-bench replay
	build/bench/bench/carom-bench server

# The corpus re-simulated bit for bit by gcc -O0/-O2, clang -O3, ASan+UBSan,
# aarch64, i686 and s390x under qemu, WebAssembly under Node and 64-bit
# Windows (MinGW-w64, the `windows` build) under Wine (scripts/determinism.sh).
determinism: deps-determinism
	JOBS=$(JOBS) scripts/determinism.sh

# Every libFuzzer target for FUZZ_SECONDS (60) each, from its committed seeds
# (scripts/fuzz.sh; clang's libFuzzer with ASan + UBSan).
FUZZ_SECONDS ?= 60
fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) JOBS=$(JOBS) scripts/fuzz.sh

# Re-records replays/corpus on purpose, after a change to the rules or physics.
corpus: build
	scripts/record-corpus.sh build/$(PRESET)/replays/carom-replay

clean:
	rm -rf build
