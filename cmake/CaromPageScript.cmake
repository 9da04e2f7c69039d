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
