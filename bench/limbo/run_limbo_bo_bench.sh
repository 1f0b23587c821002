#!/bin/bash
# Whole Bayesian-optimization runs of limbo measured beside gpbandit's, in one run on one
# machine: Branin and Hartmann-6, 10 initial points + 190 rounds, UCB mu + 0.5 sigma,
# hyperparameters refitted every 50 rounds (docs/benchmarks.md, "Bayesian optimization runs
# against limbo and BoTorch").
#
#   bash bench/limbo/run_limbo_bo_bench.sh LIMBO_CHECKOUT [--build DIR (default build)]
#        [--rounds N (default 5)] [--runs N (default 20)]
#
# LIMBO_CHECKOUT: a checkout of https://github.com/resibots/limbo; only its headers (src/) are
# read, nothing is built or written there, and nothing of it enters this repository. Needs g++,
# Eigen 3, Boost (headers and Boost.Filesystem, which limbo's BOptimizer links) and NLopt with
# its C++ header (Debian: libeigen3-dev, libboost-dev, libboost-filesystem-dev, libnlopt-dev,
# libnlopt-cxx-dev). bench/limbo/limbo_bo_bench.cc is compiled into a temporary directory with
# gpbandit's Release flags (-O3 -DNDEBUG, portable) and -DUSE_NLOPT (limbo's default acquisition
# maximizer). Then, N rounds, alternately: DIR/bench/plugin_bench's two 1-thread rows of limbo's
# protocol (Branin and Hartmann-6, seeds 0-19, medians over the 20 seeds) and the limbo program
# (--runs independent runs of each problem, medians over them); everything single-threaded
# (OMP_NUM_THREADS=1, gpbandit's num_threads = 1). Prints every round and the medians over the
# rounds of the per-run CPU time of the process (on a busy machine the wall clock also counts
# the time other processes held the core; the CPU time does not, though their use of the shared
# caches still slows it) and of the wall-clock time, the ratio gpbandit / limbo, and the errors
# (best reward found minus the optimum, Branin's divided by 51.95): gpbandit's are the same in
# every round (fixed seeds), limbo's are pooled over all its runs. The rounds alternate so that
# load drifts hit both sides alike.
set -euo pipefail

if [ $# -lt 1 ] || [ ! -f "$1/src/limbo/bayes_opt/boptimizer.hpp" ]; then
  echo "usage: $0 LIMBO_CHECKOUT [--build DIR] [--rounds N] [--runs N]" >&2
  echo "(LIMBO_CHECKOUT must contain src/limbo/bayes_opt/boptimizer.hpp)" >&2
  exit 2
fi
limbo=$(cd "$1" && pwd)
shift
build=build
rounds=5
runs=20
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build="$2"; shift ;;
    --rounds) rounds="$2"; shift ;;
    --runs) runs="$2"; shift ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
plugin_bench="$(cd "$build" && pwd)/bench/plugin_bench"
[ -x "$plugin_bench" ] || { echo "$plugin_bench not built (cmake --build $build --target plugin_bench)" >&2; exit 2; }
python=/usr/bin/python3
export OMP_NUM_THREADS=1

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
g++ -std=c++17 -O3 -DNDEBUG -DUSE_NLOPT -I"$limbo/src" -I/usr/include/eigen3 -I"$repo" \
  "$here/limbo_bo_bench.cc" -o "$work/limbo_bo" -lnlopt -lboost_filesystem 2> "$work/compile.log" ||
  { cat "$work/compile.log" >&2; exit 1; }
echo "limbo: $(git -C "$limbo" rev-parse HEAD 2>/dev/null || echo "$limbo")"

# "<Branin cpu ms> <Hartmann-6 cpu ms> <Branin wall ms> <Hartmann-6 wall ms> <Branin error>
# <Hartmann-6 error> <Hartmann-6 stalled fraction>" of one plugin_bench run.
gpbandit_round() {
  "$plugin_bench" \
    --benchmark_filter='BM_Run/hartmann6:[01]/default_schedule:0/settings:0/threads:1/srinivas_beta:0/first_seed:0/' \
    --benchmark_format=json 2>/dev/null |
    "$python" -c '
import json, sys
rows = {b["name"].split("/")[1]: b for b in json.load(sys.stdin)["benchmarks"]}
b, h = rows["hartmann6:0"], rows["hartmann6:1"]
print("%.4g %.4g %.4g %.4g %.3g %.3g %.3g" % (b["run_cpu_ms"], h["run_cpu_ms"], b["run_ms"],
      h["run_ms"], b["error"], h["error"], h["stalled"]))'
}

# The same seven figures of one limbo program run; its per-run lines go to $work/limbo_runs.
limbo_round() {
  (cd "$work" && ./limbo_bo --runs "$runs") | tee -a "$work/limbo_runs" |
    awk '/^branin_run_cpu_ms/ {bc = $2} /^hartmann6_run_cpu_ms/ {hc = $2}
         /^branin_run_ms/ {bw = $2} /^hartmann6_run_ms/ {hw = $2}
         /^branin_error/ {be = $2} /^hartmann6_error/ {he = $2} /^hartmann6_stalled/ {hs = $2}
         END {print bc, hc, bw, hw, be, he, hs}'
}

: > "$work/rows"
: > "$work/limbo_runs"
echo "each: per-run CPU time, Branin / Hartmann-6 (ms); wall clock (ms); median error;"
echo "Hartmann-6 stalled fraction"
printf "%-6s %-50s %-50s\n" round gpbandit limbo
for round in $(seq 1 "$rounds"); do
  g=$(gpbandit_round)
  l=$(limbo_round)
  echo "$g $l" >> "$work/rows"
  printf "%-6s %-50s %-50s\n" "$round" "$g" "$l"
done
"$python" - "$work/rows" "$work/limbo_runs" <<'EOF'
import statistics, sys
rows = [list(map(float, line.split())) for line in open(sys.argv[1])]
med = [statistics.median(column) for column in zip(*rows)]
runs = {"branin": [], "hartmann6": []}
for line in open(sys.argv[2]):
    f = line.split()
    if f and f[0] == "run":
        runs[f[1]].append(float(f[8]))
print("medians over %d rounds (gpbandit: 20 seeds per round; limbo: %d runs per round)"
      % (len(rows), len(runs["branin"]) // len(rows)))
print("%-11s %-26s %-26s %-10s %-10s" % ("", "CPU ms per run g / l", "wall ms per run g / l",
                                         "CPU ratio", "wall ratio"))
for k, name in enumerate(["Branin", "Hartmann-6"]):
    g, l = med[0:7], med[7:14]
    print("%-11s %-26s %-26s %-10s %-10s" % (name, "%.4g / %.4g" % (g[k], l[k]),
          "%.4g / %.4g" % (g[2 + k], l[2 + k]), "%.3gx" % (g[k] / l[k]),
          "%.3gx" % (g[2 + k] / l[2 + k])))
g = rows[0]
for k, (name, key) in enumerate([("Branin", "branin"), ("Hartmann-6", "hartmann6")]):
    e = runs[key]
    print("%s error: gpbandit %.3g (seeds 0-19), limbo %.3g (median of %d runs, %d stalled > 1e-3)"
          % (name, g[4 + k], statistics.median(e), len(e), sum(x > 1e-3 for x in e)))
print("Hartmann-6 stalled: gpbandit %d/20" % round(20 * g[6]))
EOF
