#!/bin/bash
# limbo's GP measured beside gpbandit's, in one run on one machine: the cost of adding one
# observation at t = 2000 (d = 6, Matern-5/2, noise 1e-3) and of refactorizing all t + 1
# (docs/benchmarks.md, "The GP model").
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
# BM_AddObservationIncremental/2000 and BM_AddObservationRefactorize/2000, median of 3
# repetitions) and both limbo programs (each the median of --reps timings). Prints every round
# and the medians over the rounds, in ms. Run it with `nice` on a shared machine: the rounds
# alternate so that load drifts hit both sides alike.
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

# "<add ms> <refactorize ms>" of one gp_bench run (medians of its 3 repetitions).
gpbandit_round() {
  "$gp_bench" --benchmark_filter='BM_AddObservation(Incremental|Refactorize)/2000$' \
    --benchmark_repetitions=3 --benchmark_report_aggregates_only=true \
    --benchmark_format=json 2>/dev/null |
    "$python" -c '
import json, sys
rows = {b["name"]: b for b in json.load(sys.stdin)["benchmarks"]}
def ms(name):
    row = rows[name + "/2000_median"]
    assert row["time_unit"] == "ms", row["time_unit"]
    return row["real_time"]
print(ms("BM_AddObservationIncremental"), ms("BM_AddObservationRefactorize"))'
}

# "<add ms> <refactorize ms>" of one limbo program run.
limbo_round() {
  "$1" --t 2000 --reps "$reps" |
    awk '/^add_one_sample_ms/ {a = $2} /^refactorize_ms/ {r = $2} END {print a, r}'
}

: > "$work/rows"
printf "%-6s %-26s %-26s %-26s\n" round "gpbandit add / refactor" "limbo portable" "limbo native"
for round in $(seq 1 "$rounds"); do
  g=$(gpbandit_round)
  p=$(limbo_round "$work/limbo_portable")
  n=$(limbo_round "$work/limbo_native")
  echo "$g $p $n" >> "$work/rows"
  printf "%-6s %-26s %-26s %-26s\n" "$round" "$g" "$p" "$n"
done
"$python" - "$work/rows" <<'EOF'
import statistics, sys
rows = [list(map(float, line.split())) for line in open(sys.argv[1])]
med = [statistics.median(column) for column in zip(*rows)]
print("medians over %d rounds, ms (add one observation at t = 2000 / refactorize t + 1):" % len(rows))
print("  gpbandit (portable)  %.3g / %.4g" % (med[0], med[1]))
print("  limbo (portable)     %.3g / %.4g" % (med[2], med[3]))
print("  limbo (native)       %.3g / %.4g" % (med[4], med[5]))
EOF
