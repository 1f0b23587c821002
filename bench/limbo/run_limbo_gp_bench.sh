#!/bin/bash
# limbo's GP measured beside gpbandit's, in one run on one machine: the cost of adding one
# observation at t = 2000 (d = 6, Matern-5/2, noise 1e-3), of refactorizing all t + 1, and of
# predicting one point at t = 1000 (docs/benchmarks.md, "The GP model").
#
#   bash bench/limbo/run_limbo_gp_bench.sh LIMBO_CHECKOUT [--build DIR (default build)]
#        [--rounds N (default 5)] [--reps N (default 15)]
#
# LIMBO_CHECKOUT: a checkout of https://github.com/resibots/limbo; only its headers (src/) are
# read, nothing is built or written there, and nothing of it enters this repository. Needs g++
# and Eigen 3 (Debian: libeigen3-dev; limbo's other headers, not used here, need Boost).
# bench/limbo/limbo_gp_bench.cc is compiled into a temporary directory twice: with gpbandit's
# Release flags (-O3 -DNDEBUG, "portable") and with -march=native added ("native", as limbo's own
# wscript builds by default). Then, N rounds, alternately: DIR/bench/gp_bench (its
# BM_AddObservationIncremental/2000, BM_AddObservationRefactorize/2000 and
# BM_PredictOnePoint/1000, median of 3 repetitions) and both limbo programs (each the median of
# --reps timings); all single-threaded. Prints every round and the medians over the rounds (ms,
# prediction in us), of wall-clock time and of the
# process's CPU time (on a busy machine the wall clock also counts the time other processes
# held the core; the CPU time does not, though their use of the shared caches still slows
# it). The rounds alternate so that load drifts hit both sides alike.
set -euo pipefail

if [ $# -lt 1 ] || [ ! -f "$1/src/limbo/model/gp.hpp" ]; then
  echo "usage: $0 LIMBO_CHECKOUT [--build DIR] [--rounds N] [--reps N]" >&2
  echo "(LIMBO_CHECKOUT must contain src/limbo/model/gp.hpp)" >&2
  exit 2
fi
limbo=$(cd "$1" && pwd)
shift
build=build
rounds=5
reps=15
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build="$2"; shift ;;
    --rounds) rounds="$2"; shift ;;
    --reps) reps="$2"; shift ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
here=$(cd "$(dirname "$0")" && pwd)
gp_bench="$build/bench/gp_bench"
[ -x "$gp_bench" ] || { echo "$gp_bench not built (cmake --build $build --target gp_bench)" >&2; exit 2; }
python=/usr/bin/python3

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags=(-std=c++17 -O3 -DNDEBUG -I"$limbo/src" -I/usr/include/eigen3)
g++ "${flags[@]}" "$here/limbo_gp_bench.cc" -o "$work/limbo_portable"
g++ "${flags[@]}" -march=native "$here/limbo_gp_bench.cc" -o "$work/limbo_native"
echo "limbo: $(git -C "$limbo" rev-parse HEAD 2>/dev/null || echo "$limbo")"

# "<add ms> <refactorize ms> <predict us>", then the same in CPU time, of one gp_bench run
# (medians of its 3 repetitions).
gpbandit_round() {
  "$gp_bench" --benchmark_filter='BM_AddObservation(Incremental|Refactorize)/2000$|BM_PredictOnePoint/1000$' \
    --benchmark_repetitions=3 --benchmark_report_aggregates_only=true \
    --benchmark_format=json 2>/dev/null |
    "$python" -c '
import json, sys
rows = {b["name"]: b for b in json.load(sys.stdin)["benchmarks"]}
def time(name, unit, column):
    row = rows[name + "_median"]
    assert row["time_unit"] == unit, row["time_unit"]
    return "%.4g" % row[column]
names = [("BM_AddObservationIncremental/2000", "ms"), ("BM_AddObservationRefactorize/2000", "ms"),
         ("BM_PredictOnePoint/1000", "us")]
print(*[time(n, u, c) for c in ("real_time", "cpu_time") for n, u in names])'
}

# The same six figures of one limbo program run.
limbo_round() {
  "$1" --t 2000 --reps "$reps" |
    awk '/^add_one_sample_ms/ {a = $2} /^refactorize_ms/ {r = $2} /^predict_one_point_us/ {p = $2}
         /^add_one_sample_cpu_ms/ {ac = $2} /^refactorize_cpu_ms/ {rc = $2}
         /^predict_one_point_cpu_us/ {pc = $2}
         END {print a, r, p, ac, rc, pc}'
}

: > "$work/rows"
echo "each: add one observation at t = 2000 (ms), refactorize t + 1 (ms), predict one point at"
echo "t = 1000 (us), in wall-clock time, then the same in CPU time"
printf "%-6s %-48s %-48s %-48s\n" round gpbandit "limbo portable" "limbo native"
for round in $(seq 1 "$rounds"); do
  g=$(gpbandit_round)
  p=$(limbo_round "$work/limbo_portable")
  n=$(limbo_round "$work/limbo_native")
  echo "$g $p $n" >> "$work/rows"
  printf "%-6s %-48s %-48s %-48s\n" "$round" "$g" "$p" "$n"
done
"$python" - "$work/rows" <<'EOF'
import statistics, sys
rows = [list(map(float, line.split())) for line in open(sys.argv[1])]
med = [statistics.median(column) for column in zip(*rows)]
print("medians over %d rounds: add one observation at t = 2000 (ms) / refactorize t + 1 (ms) /"
      " predict one point at t = 1000 (us)" % len(rows))
print("%-22s %-26s %-26s" % ("", "wall clock", "CPU time"))
for k, name in enumerate(["gpbandit (portable)", "limbo (portable)", "limbo (native)"]):
    m = med[6 * k : 6 * k + 6]
    print("%-22s %-26s %-26s" % (name, "%.3g / %.4g / %.3g" % tuple(m[:3]),
                                 "%.3g / %.4g / %.3g" % tuple(m[3:])))
EOF
