# s390x (64-bit IBM Z, big-endian: proves the file and wire formats are
# byte-order independent), run under qemu-s390x-static.
set(CAROM_CROSS_TRIPLE s390x-linux-gnu)
set(CAROM_CROSS_PROCESSOR s390x)
set(CAROM_CROSS_QEMU qemu-s390x-static)
include(${CMAKE_CURRENT_LIST_DIR}/cross-linux-gnu.cmake)
