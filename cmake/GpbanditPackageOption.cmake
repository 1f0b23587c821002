# gpbandit_package_option(NAME DOC FOUND PACKAGE): a part that needs a package, as a cache
# string AUTO (the default), ON or OFF. AUTO is decided again at every configure by FOUND: a
# build tree configured before the package was installed (.ci/demo, then .ci/test) gets it at
# the next configure, so every order of installing and configuring gives the same build. ON
# without the package is an error naming PACKAGE. Sets NAME to ON or OFF for the rest of the
# configuration (a normal variable over the cache string).
function(gpbandit_package_option name doc found package)
  set(${name} AUTO CACHE STRING "${doc}: AUTO (when ${package} is found), ON or OFF")
  set_property(CACHE ${name} PROPERTY STRINGS AUTO ON OFF)
  set(choice "${${name}}")
  string(TOUPPER "${choice}" choice)
  if(choice STREQUAL "AUTO")
    if(found)
      set(value ON)
    else()
      set(value OFF)
    endif()
  elseif(choice)
    set(value ON)
  else()
    set(value OFF)
  endif()
  if(value AND NOT found)
    message(FATAL_ERROR "${name}=${${name}} needs ${package}")
  endif()
  set(${name} ${value} PARENT_SCOPE)
endfunction()
