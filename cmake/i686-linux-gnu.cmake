# i686 (32-bit x86), run under qemu-i386-static. Arithmetic in SSE2
# registers, rounded to double at every operation as on every other target:
# the default x87 unit keeps 80-bit intermediates and desyncs at once.
# CAROM_X87=ON asks for the x87 build anyway (the determinism matrix's
# configuration that must be caught diverging).
set(CAROM_CROSS_TRIPLE i686-linux-gnu)
set(CAROM_CROSS_PROCESSOR i686)
set(CAROM_CROSS_MULTIARCH i386-linux-gnu)  # Debian's name for its libraries' directory
set(CAROM_CROSS_QEMU qemu-i386-static)
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES CAROM_X87)
if(CAROM_X87)
  set(CMAKE_CXX_FLAGS_INIT "-mfpmath=387")
else()
  set(CMAKE_CXX_FLAGS_INIT "-msse2 -mfpmath=sse")
endif()
include(${CMAKE_CURRENT_LIST_DIR}/cross-linux-gnu.cmake)
