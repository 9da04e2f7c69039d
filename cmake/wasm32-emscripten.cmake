# WebAssembly with Debian's emscripten (the `web` preset, `make web`):
# carom-replay for Node (the determinism matrix's wasm32 column) and the
# replay viewer's module for the browser (replays/web).
#   scripts/install-deps.sh web && cmake --preset web && cmake --build --preset web
if(NOT DEFINED ENV{NODE_PATH})
  # Debian's emscripten runs its JavaScript optimiser with Debian's acorn.
  set(ENV{NODE_PATH} /usr/share/nodejs)
endif()
include(/usr/share/emscripten/cmake/Modules/Platform/Emscripten.cmake)

# emscripten has its own libc and libc++; the header-only libraries carom
# uses live in /usr/include next to glibc. Stage just them as symlinks.
set(_stage "${CMAKE_BINARY_DIR}/wasm32-host-headers")
set(CAROM_CROSS_HEADERS "${_stage}/usr/include")
include(${CMAKE_CURRENT_LIST_DIR}/CaromStageHeaders.cmake)
carom_stage_host_headers("${_stage}" wasm32
  include/flatbuffers include/CLI include/nlohmann include/xxhash.h include/fmt
  share/cmake/CLI11 share/cmake/nlohmann_json)
# The stage keeps /usr's layout (the package files find their headers
# relative to themselves), so /usr is searched under each root.
list(APPEND CMAKE_FIND_ROOT_PATH "${_stage}")
list(APPEND CMAKE_SYSTEM_PREFIX_PATH /usr)

# zstd is compiled from the source of the host's libzstd-dev (the same
# version the native builds link), which install-deps.sh web unpacks here.
file(GLOB _zstd_sources LIST_DIRECTORIES true /usr/local/src/carom/zstd-*)
if(NOT DEFINED CAROM_ZSTD_SOURCE AND _zstd_sources)
  list(GET _zstd_sources -1 _zstd_source)
  set(CAROM_ZSTD_SOURCE "${_zstd_source}" CACHE PATH "zstd's source tree (its lib/ is compiled)")
endif()

# libsodium the same way (scripts/install-deps.sh web): the client's proofs.
file(GLOB _sodium_sources LIST_DIRECTORIES true /usr/local/src/carom/libsodium-*)
if(NOT DEFINED CAROM_SODIUM_SOURCE AND _sodium_sources)
  list(GET _sodium_sources -1 _sodium_source)
  set(CAROM_SODIUM_SOURCE "${_sodium_source}" CACHE PATH "libsodium's source tree (its src/libsodium is compiled)")
endif()

if(NOT _carom_wasm_flags)  # this file is read more than once
  set(_carom_wasm_flags ON)
  # Programs run under Node (CTest, custom commands); one file each, the
  # WebAssembly inside (Node 20's fetch cannot load a separate .wasm file).
  find_program(CAROM_NODE node REQUIRED)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${CAROM_NODE})
  set(CMAKE_EXECUTABLE_SUFFIX ".js")
  string(APPEND CMAKE_EXE_LINKER_FLAGS_INIT " -sSINGLE_FILE=1 -sALLOW_MEMORY_GROWTH=1")
  # carom reports errors with exceptions (emscripten ignores them by default):
  # WebAssembly's own, which cost nothing until one is thrown.
  string(APPEND CMAKE_CXX_FLAGS_INIT " -fwasm-exceptions")
  # What its libc++ 13 lacks of C++20 and carom uses (std::bit_cast).
  string(APPEND CMAKE_CXX_FLAGS_INIT " -include ${CMAKE_CURRENT_LIST_DIR}/wasm32-libcxx-compat.hpp")
  string(APPEND CMAKE_EXE_LINKER_FLAGS_INIT " -fwasm-exceptions")
  # The link runs emscripten's JavaScript optimiser, which needs acorn.
  set(CMAKE_CXX_LINKER_LAUNCHER ${CMAKE_COMMAND} -E env NODE_PATH=$ENV{NODE_PATH})
  set(CMAKE_C_LINKER_LAUNCHER ${CMAKE_COMMAND} -E env NODE_PATH=$ENV{NODE_PATH})
endif()
