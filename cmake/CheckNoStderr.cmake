# Fails when a file of the library (the parts in PARTS, ';'-separated: GPBANDIT_PARTS of the top
# CMakeLists.txt; their <part>/* and include/gpbandit/<part>/*) writes to standard error itself:
# names std::cerr, std::clog or stderr outside a comment. The library's warnings go through the
# warning sink (include/gpbandit/numerics/warning_sink.h), whose default, in
# numerics/warning_sink.cc, is the one writer allowed; the command line (cli/) is not a part.
# Lists every offending line.
#   cmake -DROOT=<source dir> -DPARTS="numerics;kernel;..." -P cmake/CheckNoStderr.cmake
set(allowed numerics/warning_sink.cc)
set(offending "")
set(checked 0)
foreach(part ${PARTS})
  file(GLOB files ${ROOT}/${part}/*.cc ${ROOT}/${part}/*.h ${ROOT}/include/gpbandit/${part}/*.h)
  foreach(file ${files})
    file(RELATIVE_PATH relative ${ROOT} ${file})
    math(EXPR checked "${checked} + 1")
    list(FIND allowed "${relative}" allowed_index)
    if(NOT allowed_index EQUAL -1)
      continue()
    endif()
    file(STRINGS ${file} lines REGEX "std::cerr|std::clog|stderr")
    foreach(line ${lines})
      # The code before a line comment ("reported on stderr" in a comment is fine).
      string(REGEX REPLACE "//.*" "" code "${line}")
      if(code MATCHES "std::cerr|std::clog|stderr")
        string(STRIP "${line}" shown)
        string(APPEND offending "\n  ${relative}: ${shown}")
      endif()
    endforeach()
  endforeach()
endforeach()
if(checked EQUAL 0)
  message(FATAL_ERROR "no .cc or .h file found in the parts ${PARTS} under ${ROOT}")
endif()
if(offending)
  message(FATAL_ERROR "library code writes to standard error itself; hand the message to "
                      "gpbandit::Warn (gpbandit/numerics/warning_sink.h) instead:${offending}")
endif()
message(STATUS "${checked} files of the library: none writes to standard error but the default "
               "warning sink")
