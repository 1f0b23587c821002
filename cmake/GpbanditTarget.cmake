# How gpbandit's parts (GPBANDIT_PARTS in the top CMakeLists.txt) become libraries.
#
# A part's installed headers are include/gpbandit/<part>/*.h (listed in PUBLIC_HEADERS, checked
# here); its sources and internal headers are <part>/*. Users and gpbandit's own code include
# installed headers as "gpbandit/<part>/x.h" (include/ on the public include path) and internal
# ones as "<part>/x.h" (the top of the tree on the private include path).

# gpbandit_add_part(NAME PUBLIC_HEADERS h... [LINK_PUBLIC ...] [LINK_PRIVATE ...]
#                   [SOURCES f.cc ... | EXCLUDE f.cc ...] [EXPORT_NAME name] [COMPONENT c])
# The library of one part of the tree, made of SOURCES, or else of every .cc file in the
# current folder but the EXCLUDE'd ones (alternatives chosen by the configuration, or another
# library's files), with the project's warnings, C++17 required of every user, the include paths above.
#
# PUBLIC_HEADERS is the part's installed API (file names in include/gpbandit/<part>/); the
# headers of the part's own folder are internal: used by the part's sources, its tests and the
# programs in this tree, never installed. A public header may include only public headers, and
# only the dependencies linked PUBLIC (the downstream test compiles each installed header on
# its own).
# The library joins the export set of COMPONENT (default: core): gpbandit::NAME, or
# gpbandit::EXPORT_NAME.
# gpbandit_library_batches(TARGET): with GPBANDIT_UNITY_BUILD, TARGET's sources are compiled
# 16 to a translation unit (each library's file-local names are kept distinct for this).
function(gpbandit_library_batches target)
  if(GPBANDIT_UNITY_BUILD)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 16)
  endif()
endfunction()

function(gpbandit_add_part name)
  cmake_parse_arguments(ARG "" "EXPORT_NAME;COMPONENT"
                        "PUBLIC_HEADERS;LINK_PUBLIC;LINK_PRIVATE;SOURCES;EXCLUDE" ${ARGN})
  if(NOT ARG_COMPONENT)
    set(ARG_COMPONENT core)
  endif()
  if(ARG_SOURCES)
    list(TRANSFORM ARG_SOURCES PREPEND ${CMAKE_CURRENT_SOURCE_DIR}/ OUTPUT_VARIABLE sources)
  else()
    file(GLOB sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.cc)
    foreach(excluded ${ARG_EXCLUDE})
      list(REMOVE_ITEM sources ${CMAKE_CURRENT_SOURCE_DIR}/${excluded})
    endforeach()
  endif()
  file(RELATIVE_PATH folder ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_SOURCE_DIR})
  set(public_dir ${GPBANDIT_PUBLIC_INCLUDE_DIR}/gpbandit/${folder})
  list(TRANSFORM ARG_PUBLIC_HEADERS PREPEND ${public_dir}/ OUTPUT_VARIABLE public_headers)
  foreach(header ${public_headers})
    if(NOT EXISTS ${header})
      message(FATAL_ERROR "${name}: public header ${header} does not exist")
    endif()
  endforeach()

  if(sources)
    add_library(${name} ${sources})  # static or shared by BUILD_SHARED_LIBS
    set(scope PUBLIC)
    gpbandit_warnings(${name})
    gpbandit_library_batches(${name})
    set_target_properties(${name} PROPERTIES
        VERSION ${PROJECT_VERSION}
        # 0.x releases promise no ABI stability: each minor version is its own soname.
        SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR}
        INSTALL_RPATH "$ORIGIN")
    target_link_libraries(${name} PRIVATE ${ARG_LINK_PRIVATE})
  else()  # a part still being written: headers only
    add_library(${name} INTERFACE)
    set(scope INTERFACE)
  endif()
  target_include_directories(${name} ${scope}
      $<BUILD_INTERFACE:${GPBANDIT_PUBLIC_INCLUDE_DIR}>
      $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  if(sources)
    target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR})
  endif()
  target_compile_features(${name} ${scope} cxx_std_17)
  target_compile_definitions(${name} ${scope} ${GPBANDIT_EIGEN_DEFINITIONS})
  target_link_libraries(${name} ${scope} ${ARG_LINK_PUBLIC})
  if(ARG_EXPORT_NAME)
    set_target_properties(${name} PROPERTIES EXPORT_NAME ${ARG_EXPORT_NAME})
  endif()

  install(TARGETS ${name} EXPORT gpbandit_${ARG_COMPONENT}
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
          RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(FILES ${public_headers}
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/gpbandit/${folder})
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
