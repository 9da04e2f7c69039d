# aarch64 (64-bit Arm, little-endian), run under qemu-aarch64-static.
#   cmake -B build/aarch64 -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake -DCAROM_MAP_FILES=OFF
set(CAROM_CROSS_TRIPLE aarch64-linux-gnu)
set(CAROM_CROSS_PROCESSOR aarch64)
set(CAROM_CROSS_QEMU qemu-aarch64-static)
include(${CMAKE_CURRENT_LIST_DIR}/cross-linux-gnu.cmake)
