# gpbandit_add_part(NAME LINK ... [EXCLUDE file.cc ...]): the static library of one part of the
# tree (gp/, hyperparams/, ...), made of every .cc file in that folder but the excluded ones
# (alternatives chosen by the configuration), with the project's warnings and the
# "gpbandit/..." include prefix.
function(gpbandit_add_part name)
  cmake_parse_arguments(ARG "" "" "LINK;EXCLUDE" ${ARGN})
  file(GLOB sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.cc)
  foreach(excluded ${ARG_EXCLUDE})
    list(REMOVE_ITEM sources ${CMAKE_CURRENT_SOURCE_DIR}/${excluded})
  endforeach()
  if(NOT sources)  # a part still being written: headers only
    add_library(${name} INTERFACE)
    target_include_directories(${name} INTERFACE
        $<BUILD_INTERFACE:${GPBANDIT_INCLUDE_ROOT}>
        $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
    target_link_libraries(${name} INTERFACE ${ARG_LINK})
    target_compile_definitions(${name} INTERFACE ${GPBANDIT_EIGEN_DEFINITIONS})
    return()
  endif()
  add_library(${name} STATIC ${sources})
  target_include_directories(${name} PUBLIC
      $<BUILD_INTERFACE:${GPBANDIT_INCLUDE_ROOT}>
      $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_link_libraries(${name} PUBLIC ${ARG_LINK})
  target_compile_definitions(${name} PUBLIC ${GPBANDIT_EIGEN_DEFINITIONS})
  gpbandit_warnings(${name})
endfunction()

# Warnings on for our code; no warnings is the rule.
function(gpbandit_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic)
  if(GPBANDIT_NATIVE)
    # GCC 12's own AVX-512 intrinsic headers trip -Wmaybe-uninitialized and -Warray-bounds
    # when Eigen's small fixed-size vectors are compiled for AVX-512 (false positives inside
    # the compiler's headers); the default (portable) build keeps both warnings on.
    target_compile_options(${target} PRIVATE -Wno-maybe-uninitialized -Wno-array-bounds)
  endif()
endfunction()
