# zstd compiled from source, for a target with no zstd package (WebAssembly,
# Windows): the library from CAROM_ZSTD_SOURCE's lib/ (set by the toolchain file),
# single-threaded and without assembly. Sets ZSTD_INCLUDE_DIR and ZSTD_LIBRARY
# as find_path/find_library would.
if(TARGET carom_zstd)
  return()
endif()
if(NOT CAROM_ZSTD_SOURCE OR NOT EXISTS "${CAROM_ZSTD_SOURCE}/lib/zstd.h")
  message(FATAL_ERROR "zstd's source was not found (CAROM_ZSTD_SOURCE='${CAROM_ZSTD_SOURCE}'): "
                      "scripts/install-deps.sh web or determinism fetches it")
endif()
enable_language(C)
file(GLOB _zstd_c CONFIGURE_DEPENDS
     "${CAROM_ZSTD_SOURCE}/lib/common/*.c"
     "${CAROM_ZSTD_SOURCE}/lib/compress/*.c"
     "${CAROM_ZSTD_SOURCE}/lib/decompress/*.c")
add_library(carom_zstd STATIC ${_zstd_c})
target_compile_definitions(carom_zstd PRIVATE ZSTD_DISABLE_ASM=1 ZSTD_MULTITHREAD=0 XXH_NAMESPACE=ZSTD_)
target_include_directories(carom_zstd SYSTEM INTERFACE "${CAROM_ZSTD_SOURCE}/lib")
set(ZSTD_INCLUDE_DIR "${CAROM_ZSTD_SOURCE}/lib")
set(ZSTD_LIBRARY carom_zstd)
