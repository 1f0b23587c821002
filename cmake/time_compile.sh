#!/usr/bin/env bash
# A compiler launcher (CMAKE_CXX_COMPILER_LAUNCHER, CMAKE_CXX_LINKER_LAUNCHER) that logs the CPU
# time (user + system seconds, from /usr/bin/time) of every compile and link, one line each:
# "seconds output-file", to $GPBANDIT_TIME_LOG (default: time_compile.log in the build folder's
# working directory). CPU time, not wall time, so that a profile taken on a busy machine is
# still the build's own cost. docs/building.md shows how to use it and summarize the log.
log="${GPBANDIT_TIME_LOG:-$PWD/time_compile.log}"
out="" prev=""
for a in "$@"; do
  [ "$prev" = "-o" ] && out="$a"
  prev="$a"
done
tmp="$(mktemp)"
/usr/bin/time -o "$tmp" -f "%U %S" "$@"
rc=$?
awk -v out="$out" '{ printf "%.2f %s\n", $1 + $2, out }' "$tmp" >>"$log"
rm -f "$tmp"
exit $rc
