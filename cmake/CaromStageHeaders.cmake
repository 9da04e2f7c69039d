# carom_stage_host_headers(STAGE WHO ENTRY...): links each /usr/ENTRY (a
# header-only library's headers, or its CMake package directory) into
# STAGE/usr/ENTRY, for a toolchain whose compiler must not see the rest of
# the host's /usr/include (glibc's headers): the cross builds and
# WebAssembly. The package files derive their include directory from their
# own path, so they point into the stage too. WHO names the toolchain in
# the error for a missing entry.
function(carom_stage_host_headers stage who)
  if(CMAKE_IN_TRY_COMPILE)
    return()
  endif()
  foreach(_entry IN LISTS ARGN)
    if(NOT EXISTS "/usr/${_entry}")
      message(FATAL_ERROR "${who} toolchain: /usr/${_entry} is missing (scripts/install-deps.sh)")
    endif()
    get_filename_component(_parent "${stage}/usr/${_entry}" DIRECTORY)
    file(MAKE_DIRECTORY "${_parent}")
    if(NOT IS_SYMLINK "${stage}/usr/${_entry}")
      file(CREATE_LINK "/usr/${_entry}" "${stage}/usr/${_entry}" SYMBOLIC)
    endif()
  endforeach()
endfunction()
