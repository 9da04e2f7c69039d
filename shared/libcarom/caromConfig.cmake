# find_package(carom): carom::carom (libcarom.so) and carom::carom_static (libcarom.a).
include("${CMAKE_CURRENT_LIST_DIR}/caromTargets.cmake")
