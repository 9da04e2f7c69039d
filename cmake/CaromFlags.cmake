# Compiler flags for carom's own targets.
#
# Determinism: every translation unit that may inline core math must round the
# same way, so fused multiply-add contraction is off everywhere (aarch64 and
# clang would otherwise fuse a*b+c) and fast-math is never enabled.
add_compile_options(-ffp-contract=off -fno-fast-math)

# A target that evaluates double arithmetic in wider registers (x87: 80-bit
# intermediates, FLT_EVAL_METHOD 2) cannot re-simulate a match recorded
# elsewhere. Refuse it unless the build asks for it (CAROM_X87: the
# determinism matrix's configuration that must be caught diverging).
include(CheckCXXSourceCompiles)
check_cxx_source_compiles([=[
#include <cfloat>
#if !defined(FLT_EVAL_METHOD) || FLT_EVAL_METHOD != 0
#error "double arithmetic is not evaluated in double"
#endif
int main() { return 0; }
]=] CAROM_DOUBLE_EVALUATED_IN_DOUBLE)
if(NOT CAROM_DOUBLE_EVALUATED_IN_DOUBLE AND NOT CAROM_X87)
  message(FATAL_ERROR
    "carom: this target evaluates double arithmetic with excess precision (FLT_EVAL_METHOD != 0, "
    "as x87 does), so matches would not re-simulate bit for bit. On 32-bit x86 build with SSE2 "
    "(-msse2 -mfpmath=sse, as cmake/i686-linux-gnu.cmake does); -DCAROM_X87=ON builds it anyway.")
endif()

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

# carom_refuse_untransportable_test_names(SOURCES...): fails the configure on a
# TEST_CASE name CTest cannot carry. doctest_discover_tests hands each name to
# CMake, which splits a list at ';' and reads '[', ']' and '\' as brackets and
# escapes: such a case would be registered as entries that run nothing. It reads
# the given sources and every C++ file beside them (sources added to the target
# later included); they are configure dependencies, so an edit that adds such a
# name is seen by the next build.
function(carom_refuse_untransportable_test_names)
  file(GLOB _beside CONFIGURE_DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/*.cpp"
                                      "${CMAKE_CURRENT_SOURCE_DIR}/*.hpp")
  set(_sources ${ARGN} ${_beside})
  foreach(_source IN LISTS _sources)
    get_filename_component(_path "${_source}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    if(NOT _path MATCHES "\\.(cpp|hpp|h)$" OR NOT EXISTS "${_path}" OR _path IN_LIST _seen)
      continue()
    endif()
    list(APPEND _seen "${_path}")
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${_path}")
    file(READ "${_path}" _text)
    # Stand-ins first, so that CMake's own list syntax cannot cut or join the matches.
    string(REPLACE ";" "<semicolon>" _text "${_text}")
    string(REPLACE "[" "<open-bracket>" _text "${_text}")
    string(REPLACE "]" "<close-bracket>" _text "${_text}")
    # The name may be split over adjacent string literals.
    string(REGEX MATCHALL "TEST_CASE[A-Z_]*\\([^\")]*\"[^\"]*\"([ \t\r\n]*\"[^\"]*\")*"
           _cases "${_text}")
    foreach(_case IN LISTS _cases)
      string(REGEX REPLACE "\"[ \t\r\n]*\"" "" _name "${_case}")
      string(REGEX REPLACE "^[^\"]*\"([^\"]*)\"$" "\\1" _name "${_name}")
      if(_name MATCHES "<semicolon>|<open-bracket>|<close-bracket>|\\\\")
        string(REPLACE "<semicolon>" ";" _name "${_name}")
        string(REPLACE "<open-bracket>" "[" _name "${_name}")
        string(REPLACE "<close-bracket>" "]" _name "${_name}")
        message(FATAL_ERROR "${_path}: test case \"${_name}\": CTest cannot carry "
                            "';', '[', ']' or '\\' in a test name; rename it")
      endif()
    endforeach()
  endforeach()
endfunction()

# carom_add_test(name SOURCES...): a doctest binary whose cases CTest sees one by one.
# A test that ran no case fails (a name CTest mangled, or a filter that matches
# nothing), instead of passing on doctest's "test cases: 0" summary.
function(carom_add_test name)
  carom_refuse_untransportable_test_names(${ARGN})
  add_executable(${name} ${ARGN})
  target_link_libraries(${name} PRIVATE doctest::doctest)
  carom_strict_warnings(${name})
  doctest_discover_tests(${name} TEST_PREFIX "${name}: "
    PROPERTIES FAIL_REGULAR_EXPRESSION "test cases: +0 [|]")
endfunction()
