# carom_page_script(TARGET OUT PART...): builds OUT from the page's parts
# after the shared ones (shared/render/web: carom.h's structs, the field's
# drawing), with carom.h's layout as wasm32 has it (carom_abi_layout, run by
# Node) written in.
set(_carom_page_script_dir "${CMAKE_CURRENT_LIST_DIR}")
function(carom_page_script target out)
  set(_shared "${PROJECT_SOURCE_DIR}/shared/render/web/abi.js"
              "${PROJECT_SOURCE_DIR}/shared/render/web/draw.js")
  set(_parts ${_shared})
  foreach(_part IN LISTS ARGN)
    list(APPEND _parts "${CMAKE_CURRENT_SOURCE_DIR}/${_part}")
  endforeach()
  set(_abi "${CMAKE_CURRENT_BINARY_DIR}/carom-abi.json")
  add_custom_command(OUTPUT "${out}"
    COMMAND "${CAROM_NODE}" $<TARGET_FILE:carom_abi_layout> > "${_abi}"
    COMMAND "${CMAKE_COMMAND}" -DABI=${_abi} "-DPARTS=${_parts}" -DOUT=${out}
            -P "${_carom_page_script_dir}/page_script.cmake"
    DEPENDS carom_abi_layout ${_parts} "${_carom_page_script_dir}/page_script.cmake"
    COMMENT "${target}: the page's script, with carom.h's wasm32 layout" VERBATIM)
  add_custom_target(${target} ALL DEPENDS "${out}")
endfunction()

# carom_module_exports(VAR EXCLUDE): the -sEXPORTED_FUNCTIONS list of a
# WebAssembly module made of libcarom: every function carom.h declares but
# those whose names match the regex EXCLUDE, and the allocator.
function(carom_module_exports var exclude)
  set(_exports _malloc _free)
  set(_header "${PROJECT_SOURCE_DIR}/shared/libcarom/include/carom.h")
  file(READ "${_header}" _text)
  string(REGEX MATCHALL "CAROM_API[^;(]* \\**(carom_[a-z0-9_]+)\\(" _declarations "${_text}")
  foreach(_declaration IN LISTS _declarations)
    string(REGEX REPLACE ".*[ *](carom_[a-z0-9_]+)\\($" "\\1" _name "${_declaration}")
    if(NOT _name MATCHES "${exclude}")
      list(APPEND _exports "_${_name}")
    endif()
  endforeach()
  list(JOIN _exports "," _exported)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${_header}")
  set(${var} "${_exported}" PARENT_SCOPE)
endfunction()
