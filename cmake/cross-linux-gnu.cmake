# Cross-compiling carom for aarch64 Linux with Debian's g++-aarch64-linux-gnu;
# the binaries run on x86_64 under qemu-aarch64-static (scripts/determinism.sh).
#   cmake -B build/aarch64 -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake -DCAROM_MAP_FILES=OFF
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)

# Debian's cross gcc searches the host's /usr/include after its own headers, so
# a header missing from the arm64 set would silently come from x86_64 glibc.
# With the cross headers as sysroot, /usr/include drops out of the search path.
set(CMAKE_SYSROOT /usr/aarch64-linux-gnu)

# Static, so qemu-aarch64-static runs it without an arm64 loader and libraries.
set(CMAKE_EXE_LINKER_FLAGS_INIT -static)

# The header-only libraries carom uses are architecture independent, but they
# live in /usr/include next to host glibc. Stage just them (and the CMake
# package files of those that have one) as symlinks in a prefix under the build
# tree; the package files derive their include directory from their own path,
# so they point into the stage too.
set(_stage "${CMAKE_BINARY_DIR}/aarch64-host-headers")
if(NOT CMAKE_IN_TRY_COMPILE)
  file(MAKE_DIRECTORY "${_stage}/usr/include" "${_stage}/usr/share/cmake")
  foreach(_entry
      include/flatbuffers include/CLI include/nlohmann include/xxhash.h
      share/cmake/CLI11 share/cmake/nlohmann_json)
    if(NOT EXISTS "/usr/${_entry}")
      message(FATAL_ERROR "aarch64 toolchain: /usr/${_entry} is missing (scripts/install-deps.sh)")
    endif()
    if(NOT IS_SYMLINK "${_stage}/usr/${_entry}")
      file(CREATE_LINK "/usr/${_entry}" "${_stage}/usr/${_entry}" SYMBOLIC)
    endif()
  endforeach()
endif()
set(CMAKE_FIND_ROOT_PATH "${_stage}")

# Programs (flatc) are host tools; everything else comes from the sysroot or the stage.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# Lets CTest and custom commands run the arm64 binaries.
find_program(CAROM_QEMU_AARCH64 qemu-aarch64-static)
if(CAROM_QEMU_AARCH64)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${CAROM_QEMU_AARCH64})
endif()
