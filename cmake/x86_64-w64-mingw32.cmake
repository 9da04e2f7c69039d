# 64-bit Windows with Debian's MinGW-w64 (g++-mingw-w64-x86-64-posix: the
# posix thread model, which has std::thread), run on Linux under Wine
# (scripts/wine.sh): the `windows` preset, `make windows` and the
# determinism matrix's win64 column. Programs are static (no MinGW runtime
# DLLs beside them), and so is carom.dll.
#   cmake --preset windows && cmake --build --preset windows
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(CMAKE_C_COMPILER x86_64-w64-mingw32-gcc-posix)
set(CMAKE_CXX_COMPILER x86_64-w64-mingw32-g++-posix)
set(CMAKE_RC_COMPILER x86_64-w64-mingw32-windres)
set(CMAKE_EXE_LINKER_FLAGS_INIT -static)
set(CMAKE_SHARED_LINKER_FLAGS_INIT -static)

# MinGW's compiler does not search the host's /usr/include. The header-only
# libraries carom uses live there next to glibc: stage just them, as for the
# Linux cross builds (cmake/cross-linux-gnu.cmake).
set(_stage "${CMAKE_BINARY_DIR}/x86_64-w64-mingw32-host-headers")
set(CAROM_CROSS_HEADERS "${_stage}/usr/include")
include(${CMAKE_CURRENT_LIST_DIR}/CaromStageHeaders.cmake)
carom_stage_host_headers("${_stage}" x86_64-w64-mingw32
  include/flatbuffers include/CLI include/nlohmann include/xxhash.h include/doctest include/fmt
  share/cmake/CLI11 share/cmake/nlohmann_json lib/cmake/doctest)

# zstd is compiled from the source of the host's libzstd-dev (Debian has no
# MinGW build of it), which scripts/install-deps.sh determinism unpacks here.
file(GLOB _zstd_sources LIST_DIRECTORIES true /usr/local/src/carom/zstd-*)
if(NOT DEFINED CAROM_ZSTD_SOURCE AND _zstd_sources)
  list(GET _zstd_sources -1 _zstd_source)
  set(CAROM_ZSTD_SOURCE "${_zstd_source}" CACHE PATH "zstd's source tree (its lib/ is compiled)")
endif()

set(CMAKE_FIND_ROOT_PATH /usr/x86_64-w64-mingw32 "${_stage}")
list(APPEND CMAKE_SYSTEM_PREFIX_PATH /usr)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# CTest and custom commands (doctest's test discovery) run the .exe under Wine.
set(CMAKE_CROSSCOMPILING_EMULATOR ${CMAKE_CURRENT_LIST_DIR}/../scripts/wine.sh)
