# A page's script: its parts in order (the shared ABI reader and drawing,
# then the page's own), with carom.h's wasm32 layout written in for
# `@CAROM_ABI@`, so no offset is written by hand.
#   cmake -DABI=carom-abi.json "-DPARTS=abi.js;draw.js;page.js" -DOUT=out.js -P page_script.cmake
file(READ "${ABI}" _abi)
string(STRIP "${_abi}" _abi)
if(NOT _abi MATCHES "^{\"structs\"")
  message(FATAL_ERROR "${ABI}: not carom.h's layout")
endif()
set(_script "")
foreach(_part IN LISTS PARTS)
  file(READ "${_part}" _text)
  string(APPEND _script "${_text}\n")
endforeach()
string(REPLACE "@CAROM_ABI@" "${_abi}" _script "${_script}")
file(WRITE "${OUT}" "${_script}")
