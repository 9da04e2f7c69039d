# Compiler flags for carom's own targets.
#
# Determinism: every translation unit that may inline core math must round the
# same way, so fused multiply-add contraction is off everywhere (aarch64 and
# clang would otherwise fuse a*b+c) and fast-math is never enabled.
add_compile_options(-ffp-contract=off -fno-fast-math)

# carom_strict_warnings(target): the warning set for code we write; generated
# and third-party headers are included as SYSTEM and stay exempt.
function(carom_strict_warnings target)
  target_compile_options(${target} PRIVATE
    -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion
    -Wold-style-cast -Wnon-virtual-dtor)
  if(CAROM_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

# carom_add_test(name SOURCES...): a doctest binary whose cases CTest sees one by one.
function(carom_add_test name)
  add_executable(${name} ${ARGN})
  target_link_libraries(${name} PRIVATE doctest::doctest)
  carom_strict_warnings(${name})
  doctest_discover_tests(${name} TEST_PREFIX "${name}: ")
endfunction()
