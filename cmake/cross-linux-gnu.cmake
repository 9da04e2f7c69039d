# Cross-compiling carom for another Linux architecture with Debian's cross
# gcc (g++-<triple>); the static binaries run on x86_64 under qemu user-mode
# emulation (scripts/determinism.sh). Included by the per-target files
# (aarch64-linux-gnu.cmake, i686-linux-gnu.cmake, s390x-linux-gnu.cmake), which
# set CAROM_CROSS_TRIPLE, CAROM_CROSS_PROCESSOR and CAROM_CROSS_QEMU first.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR ${CAROM_CROSS_PROCESSOR})

set(CMAKE_C_COMPILER ${CAROM_CROSS_TRIPLE}-gcc)
set(CMAKE_CXX_COMPILER ${CAROM_CROSS_TRIPLE}-g++)

# Debian's cross gcc searches the host's /usr/include after its own headers, so
# a header missing from the target's set would silently come from x86_64 glibc.
# With the cross headers as sysroot, /usr/include drops out of the search path.
set(CMAKE_SYSROOT /usr/${CAROM_CROSS_TRIPLE})

# Static, so qemu runs it without the target's loader and libraries.
set(CMAKE_EXE_LINKER_FLAGS_INIT -static)

# The header-only libraries carom uses are architecture independent, but they
# live in /usr/include next to host glibc. Stage just them (and the CMake
# package files of those that have one) as symlinks in a prefix under the build
# tree; the package files derive their include directory from their own path,
# so they point into the stage too.
set(_stage "${CMAKE_BINARY_DIR}/${CAROM_CROSS_TRIPLE}-host-headers")
set(CAROM_CROSS_HEADERS "${_stage}/usr/include")
include(${CMAKE_CURRENT_LIST_DIR}/CaromStageHeaders.cmake)
carom_stage_host_headers("${_stage}" ${CAROM_CROSS_TRIPLE}
  include/flatbuffers include/CLI include/nlohmann include/xxhash.h include/doctest
  include/zstd.h include/zstd_errors.h
  share/cmake/CLI11 share/cmake/nlohmann_json lib/cmake/doctest)

# FlatBuffers' JSON parser (map files) is a compiled library: the target's
# build comes from Debian's multiarch package (libflatbuffers-dev:<arch>,
# scripts/install-deps.sh determinism). Its package files are staged one by
# one in a real directory, so they resolve the prefix to the stage (whose
# include/ holds only the staged headers), not to the host's /usr.
if(NOT DEFINED CAROM_CROSS_MULTIARCH)
  set(CAROM_CROSS_MULTIARCH ${CAROM_CROSS_TRIPLE})
endif()
set(_fb_lib "/usr/lib/${CAROM_CROSS_MULTIARCH}/libflatbuffers.a")
set(_fb_cmake "/usr/lib/${CAROM_CROSS_MULTIARCH}/cmake/flatbuffers")
if(NOT CMAKE_IN_TRY_COMPILE AND EXISTS "${_fb_lib}")
  file(MAKE_DIRECTORY "${_stage}${_fb_cmake}")
  # The static library's targets only: flatc is the host's, and the shared
  # library's targets would point at a .so a static build never links.
  foreach(_file FlatBuffersConfig.cmake FlatBuffersConfigVersion.cmake
                FlatBuffersTargets.cmake FlatBuffersTargets-none.cmake)
    if(NOT IS_SYMLINK "${_stage}${_fb_cmake}/${_file}")
      file(CREATE_LINK "${_fb_cmake}/${_file}" "${_stage}${_fb_cmake}/${_file}" SYMBOLIC)
    endif()
  endforeach()
  if(NOT IS_SYMLINK "${_stage}${_fb_lib}")
    file(CREATE_LINK "${_fb_lib}" "${_stage}${_fb_lib}" SYMBOLIC)
  endif()
endif()
# zstd (replay keyframes and headers) likewise: the target's static library
# from libzstd-dev:<arch>, its header from the stage above.
set(_zstd_lib "/usr/lib/${CAROM_CROSS_MULTIARCH}/libzstd.a")
if(NOT CMAKE_IN_TRY_COMPILE AND EXISTS "${_zstd_lib}" AND NOT IS_SYMLINK "${_stage}${_zstd_lib}")
  file(MAKE_DIRECTORY "${_stage}/usr/lib/${CAROM_CROSS_MULTIARCH}")
  file(CREATE_LINK "${_zstd_lib}" "${_stage}${_zstd_lib}" SYMBOLIC)
endif()
set(CMAKE_LIBRARY_ARCHITECTURE ${CAROM_CROSS_MULTIARCH})
set(CMAKE_FIND_ROOT_PATH "${_stage}")

# Programs (flatc) are host tools; everything else comes from the sysroot or the stage.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# Lets CTest and custom commands run the target's binaries.
find_program(CAROM_CROSS_EMULATOR ${CAROM_CROSS_QEMU})
if(CAROM_CROSS_EMULATOR)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${CAROM_CROSS_EMULATOR})
endif()
