# Installing carom: programs to bin/, maps to share/carom/maps/, man pages
# (made with help2man when it is there) to share/man/man1/. Programs find
# maps by name in either layout (shared/maps/include/carom/maps/map_search.hpp): installed,
# under ../share/carom/maps; in the build tree, in maps/ beside them.
include(GNUInstallDirs)
set(CAROM_MAPS_SOURCE_DIR "${PROJECT_SOURCE_DIR}/shared/game/maps")
install(DIRECTORY "${CAROM_MAPS_SOURCE_DIR}/" DESTINATION "${CMAKE_INSTALL_DATADIR}/carom/maps"
        FILES_MATCHING PATTERN "*.json")
install(FILES "${PROJECT_SOURCE_DIR}/LICENSE" DESTINATION "${CMAKE_INSTALL_DOCDIR}")

find_program(CAROM_HELP2MAN help2man)
if(NOT TARGET carom-man)
  add_custom_target(carom-man ALL)
endif()

# carom_ship(target "one-line description"): installs the program, copies the
# maps beside it in the build tree, and makes its man page.
function(carom_ship target description)
  install(TARGETS ${target} RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
  add_custom_command(TARGET ${target} POST_BUILD
    COMMAND "${CMAKE_COMMAND}" -E copy_directory "${CAROM_MAPS_SOURCE_DIR}" "$<TARGET_FILE_DIR:${target}>/maps"
    VERBATIM)
  if(CAROM_HELP2MAN AND NOT CMAKE_CROSSCOMPILING)
    set(page "${PROJECT_BINARY_DIR}/man/${target}.1")
    add_custom_command(OUTPUT "${page}"
      COMMAND "${CMAKE_COMMAND}" -E make_directory "${PROJECT_BINARY_DIR}/man"
      COMMAND "${CAROM_HELP2MAN}" --no-info --no-discard-stderr --name "${description}"
              --output "${page}" "$<TARGET_FILE:${target}>"
      DEPENDS ${target}
      VERBATIM)
    add_custom_target(${target}-man DEPENDS "${page}")
    add_dependencies(carom-man ${target}-man)
    install(FILES "${page}" DESTINATION "${CMAKE_INSTALL_MANDIR}/man1")
  endif()
endfunction()
