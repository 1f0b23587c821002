# Installs the gpbandit build tree into a scratch prefix, then configures, builds and runs, against
# that prefix only, the projects a user would write:
#   core/     the ask/tell Optimizer and the GP model, with pagmo, TBB and Boost hidden;
#   pagmo/    the pagmo adapter (when it was built);
#   headers/  every installed header compiled on its own.
# Variables: BUILD_DIR, SOURCE_DIR, WORK_DIR, WITH_PAGMO, and the build's CXX_COMPILER,
# COMPILER_LAUNCHER and SANITIZE (a sanitized gpbandit needs its users linked with the same
# sanitizers).
file(REMOVE_RECURSE "${WORK_DIR}")
execute_process(COMMAND ${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${WORK_DIR}/prefix"
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(rc)
  message(FATAL_ERROR "install failed: ${rc}")
endif()

set(common_options -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DCMAKE_BUILD_TYPE=Release
                   -DCMAKE_CXX_COMPILER=${CXX_COMPILER})
if(COMPILER_LAUNCHER)
  list(APPEND common_options -DCMAKE_CXX_COMPILER_LAUNCHER=${COMPILER_LAUNCHER})
endif()
if(SANITIZE)
  list(APPEND common_options "-DCMAKE_CXX_FLAGS=-fsanitize=${SANITIZE}"
                             "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=${SANITIZE}")
endif()

# build(NAME [configure options...]): configures and builds SOURCE_DIR/NAME in WORK_DIR/NAME.
function(build name)
  execute_process(COMMAND ${CMAKE_COMMAND} -S "${SOURCE_DIR}/${name}" -B "${WORK_DIR}/${name}"
                          ${common_options} ${ARGN}
                  RESULT_VARIABLE rc)
  if(rc)
    message(FATAL_ERROR "configuring the downstream project ${name} failed: ${rc}")
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} --build "${WORK_DIR}/${name}" --parallel 2
                  RESULT_VARIABLE rc)
  if(rc)
    message(FATAL_ERROR "building the downstream project ${name} failed: ${rc}")
  endif()
endfunction()

# run(PROGRAM): runs a built downstream program; it must exit 0.
function(run program)
  execute_process(COMMAND "${WORK_DIR}/${program}" RESULT_VARIABLE rc)
  if(rc)
    message(FATAL_ERROR "the downstream program ${program} failed: ${rc}")
  endif()
endfunction()

build(core -DCMAKE_DISABLE_FIND_PACKAGE_Pagmo=ON -DCMAKE_DISABLE_FIND_PACKAGE_TBB=ON
           -DCMAKE_DISABLE_FIND_PACKAGE_Boost=ON)
run(core/downstream_core)
if(WITH_PAGMO)
  build(pagmo)
  run(pagmo/downstream_pagmo)
endif()
build(headers)
