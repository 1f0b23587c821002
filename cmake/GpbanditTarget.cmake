# gpbandit_add_library(NAME SOURCES ... LINK ...): one static library per part of the tree,
# with the project's warnings and the "gpbandit/..." include prefix.
function(gpbandit_add_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LINK" ${ARGN})
  add_library(${name} STATIC ${ARG_SOURCES})
  target_include_directories(${name} PUBLIC
      $<BUILD_INTERFACE:${GPBANDIT_INCLUDE_ROOT}>
      $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_link_libraries(${name} PUBLIC ${ARG_LINK})
  gpbandit_warnings(${name})
endfunction()

# Warnings on for our code; no warnings is the rule.
function(gpbandit_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic)
endfunction()
