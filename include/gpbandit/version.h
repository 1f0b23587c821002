// gpbandit's version: the version of the headers a program was compiled against. CMakeLists.txt
// reads it from here (project(gpbandit VERSION ...)), so it is written in this one place. 0.x
// versions promise no API or ABI stability from one minor version to the next.
#ifndef GPBANDIT_VERSION_H_
#define GPBANDIT_VERSION_H_

#define GPBANDIT_VERSION_MAJOR 0
#define GPBANDIT_VERSION_MINOR 1
#define GPBANDIT_VERSION_PATCH 0
// "major.minor.patch".
#define GPBANDIT_VERSION_STRING "0.1.0"
// One number that grows with every release: major * 10000 + minor * 100 + patch.
#define GPBANDIT_VERSION \
  (GPBANDIT_VERSION_MAJOR * 10000 + GPBANDIT_VERSION_MINOR * 100 + GPBANDIT_VERSION_PATCH)

#endif  // GPBANDIT_VERSION_H_
