# The page's script with carom.h's layout written in: viewer.js's
# `@CAROM_ABI@` becomes the JSON the layout program printed.
#   cmake -DABI=carom-abi.json -DSCRIPT=viewer.js -DOUT=out.js -P with_abi.cmake
file(READ "${ABI}" _abi)
string(STRIP "${_abi}" _abi)
if(NOT _abi MATCHES "^{\"structs\"")
  message(FATAL_ERROR "${ABI}: not carom.h's layout")
endif()
file(READ "${SCRIPT}" _script)
string(REPLACE "@CAROM_ABI@" "${_abi}" _script "${_script}")
file(WRITE "${OUT}" "${_script}")
