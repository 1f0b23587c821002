# Fails when a part of the library includes a part that comes after it in PARTS (';'-separated,
# lowest first: GPBANDIT_PARTS of the top CMakeLists.txt), so that the parts stay layered one
# way: numerics below kernels, kernels below posteriors, ..., the optimizer below the pagmo
# adapter. A part's files are <part>/* and include/gpbandit/<part>/*; an include names a part by
# its first folder ("study/x.h") or by the folder after gpbandit/ ("gpbandit/study/x.h").
# Lists every offending line.
#   cmake -DROOT=<source dir> -DPARTS="numerics;kernel;..." -P cmake/CheckLayering.cmake
set(quoted_include "^[ \t]*#[ \t]*include[ \t]*\"([^\"]+)\"")
set(offending "")
set(checked 0)
list(LENGTH PARTS part_count)
foreach(part ${PARTS})
  list(FIND PARTS ${part} rank)
  file(GLOB files ${ROOT}/${part}/*.cc ${ROOT}/${part}/*.h ${ROOT}/include/gpbandit/${part}/*.h)
  foreach(file ${files})
    math(EXPR checked "${checked} + 1")
    file(STRINGS ${file} lines REGEX "${quoted_include}")
    foreach(line ${lines})
      string(REGEX REPLACE "${quoted_include}.*" "\\1" target "${line}")
      string(REGEX REPLACE "^gpbandit/" "" target "${target}")
      string(REGEX REPLACE "/.*" "" target_part "${target}")
      list(FIND PARTS "${target_part}" target_rank)
      if(target_rank GREATER rank)
        file(RELATIVE_PATH relative ${ROOT} ${file})
        string(APPEND offending "\n  ${relative} (${part}) includes ${target_part}: ${line}")
      endif()
    endforeach()
  endforeach()
endforeach()
if(checked EQUAL 0)
  message(FATAL_ERROR "no .cc or .h file found in the parts ${PARTS} under ${ROOT}")
endif()
if(offending)
  message(FATAL_ERROR "a part includes a part above it in the layering (${PARTS}):${offending}")
endif()
message(STATUS "${checked} files of ${part_count} parts: every include points down the layers")
