# libsodium compiled from source, for a target with no libsodium package
# (WebAssembly): every C file of CAROM_SODIUM_SOURCE's src/libsodium (set by
# cmake/wasm32-emscripten.cmake), its portable code only (no assembly, no
# CPU-specific paths: none is enabled without configure's HAVE_* macros).
# Sets SODIUM_INCLUDE_DIR and SODIUM_LIBRARY as find_path/find_library would.
if(TARGET carom_sodium)
  return()
endif()
if(NOT CAROM_SODIUM_SOURCE OR NOT EXISTS "${CAROM_SODIUM_SOURCE}/src/libsodium/include/sodium.h")
  message(FATAL_ERROR "libsodium's source was not found (CAROM_SODIUM_SOURCE='${CAROM_SODIUM_SOURCE}'): "
                      "scripts/install-deps.sh web fetches it")
endif()
enable_language(C)
set(_sodium "${CAROM_SODIUM_SOURCE}/src/libsodium")
# version.h is made by configure; these are its values for the source Debian ships.
file(STRINGS "${CAROM_SODIUM_SOURCE}/configure.ac" _sodium_init REGEX "^AC_INIT\\(\\[libsodium\\],\\[")
string(REGEX REPLACE ".*\\],\\[([0-9.]+)\\].*" "\\1" VERSION "${_sodium_init}")
file(STRINGS "${CAROM_SODIUM_SOURCE}/configure.ac" _sodium_major REGEX "^SODIUM_LIBRARY_VERSION_MAJOR=")
file(STRINGS "${CAROM_SODIUM_SOURCE}/configure.ac" _sodium_minor REGEX "^SODIUM_LIBRARY_VERSION_MINOR=")
string(REGEX REPLACE ".*=" "" SODIUM_LIBRARY_VERSION_MAJOR "${_sodium_major}")
string(REGEX REPLACE ".*=" "" SODIUM_LIBRARY_VERSION_MINOR "${_sodium_minor}")
set(SODIUM_LIBRARY_MINIMAL_DEF "")
# Its headers, staged with the version.h configure would have made.
set(_sodium_generated "${CMAKE_BINARY_DIR}/sodium-include")
file(COPY "${_sodium}/include/" DESTINATION "${_sodium_generated}" PATTERN "*.in" EXCLUDE
     PATTERN "Makefile*" EXCLUDE)
configure_file("${_sodium}/include/sodium/version.h.in" "${_sodium_generated}/sodium/version.h" @ONLY)
file(GLOB_RECURSE _sodium_c CONFIGURE_DEPENDS "${_sodium}/*.c")
add_library(carom_sodium STATIC ${_sodium_c})
target_compile_definitions(carom_sodium PRIVATE CONFIGURED=1 SODIUM_STATIC=1 NATIVE_LITTLE_ENDIAN=1
                           HAVE_WEAK_SYMBOLS=0)
target_compile_options(carom_sodium PRIVATE -w)  # not carom's code
target_include_directories(carom_sodium PRIVATE "${_sodium_generated}/sodium")
target_include_directories(carom_sodium SYSTEM BEFORE PUBLIC "${_sodium_generated}")
target_compile_definitions(carom_sodium PUBLIC SODIUM_STATIC=1)
set(SODIUM_INCLUDE_DIR "${_sodium_generated}")
set(SODIUM_LIBRARY carom_sodium)
