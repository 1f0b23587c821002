#!/bin/bash
# More threads never slower (docs/design.md, "Faults": a busy machine): the default thread setting
# against one thread, with a spinning process on the last CPU (the user's simulator beside the
# optimizer) or on an idle machine.
#
#   bash bench/busy_core_bench.sh [--idle] [--reps N (default 5)] [--build DIR] [--skip-large]
#
# Scenarios, each run alternately with one thread and with the default setting (N times;
# medians and the ratio default / one thread are printed):
#   bo-branin, bo-hartmann6  one 200-evaluation run per seed, 20 seeds, the median run time
#                            (bench/plugin_bench: UCB beta 0.25, refits every 50, the defaults)
#   cli-fit                  gpbandit fit on 200 noisy observations in 6-D
#   cli-run                  gpbandit run --problem branin --kernel se --strategy ei --fit
#                            (100 rounds, 5 trials)
#   lml-1000                 one likelihood evaluation with its gradient at t = 1000, d = 6
#                            (bench/hyperparams_bench)
#   fit-1000                 gpbandit fit --restarts 0 on 1000 observations in 6-D (once per rep)
# One thread is OptimizerOptions::num_threads = 1 for the BO runs, --threads 1 for gpbandit run,
# OMP_NUM_THREADS=1 for gpbandit fit; the default is 0 / unset. --skip-large leaves out
# lml-1000 and fit-1000. The hog is started by this script and killed when it exits.
set -euo pipefail

build=build
reps=5
idle=0
large=1
while [ $# -gt 0 ]; do
  case "$1" in
    --idle) idle=1 ;;
    --reps) reps="$2"; shift ;;
    --build) build="$2"; shift ;;
    --skip-large) large=0 ;;
    *) echo "usage: $0 [--idle] [--reps N] [--build DIR] [--skip-large]" >&2; exit 2 ;;
  esac
  shift
done
cli="$build/cli/gpbandit"
for program in "$cli" "$build/bench/plugin_bench" "$build/bench/hyperparams_bench"; do
  [ -x "$program" ] || { echo "missing $program: build it first" >&2; exit 2; }
done
unset OMP_NUM_THREADS OMP_WAIT_POLICY GOMP_SPINCOUNT
export GLOG_minloglevel=3
work=$(mktemp -d)
hog=""
cleanup() {
  if [ -n "$hog" ]; then kill "$hog" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# Observations of a smooth 6-D function with 1% noise, a fixed seed.
make_data() {
  /usr/bin/python3 - "$1" "$2" <<'PY'
import math, random, sys
n, path = int(sys.argv[1]), sys.argv[2]
rng = random.Random(12345)
with open(path, "w") as out:
    out.write("x1,x2,x3,x4,x5,x6,y\n")
    for _ in range(n):
        x = [rng.random() for _ in range(6)]
        y = (math.sin(3 * x[0]) + math.cos(2 * x[1]) * x[2] + x[3] ** 2 - x[4] * x[5]
             + 0.01 * rng.gauss(0, 1))
        out.write(",".join(repr(v) for v in x + [y]) + "\n")
PY
}
make_data 200 "$work/fit200.csv"
make_data 1000 "$work/fit1000.csv"

if [ "$idle" = 0 ]; then
  last=$(( $(nproc) - 1 ))
  taskset -c "$last" sh -c 'while :; do :; done' &
  hog=$!
  sleep 0.5
  echo "hog: pid $hog spinning on CPU $last"
fi
echo "machine: $(nproc) CPUs, load average $(cut -d' ' -f1-4 /proc/loadavg)"

seconds() {  # seconds <command...>: wall time of one run
  local start end
  start=$(date +%s.%N)
  "$@" > /dev/null 2>&1
  end=$(date +%s.%N)
  echo "$end - $start" | bc -l
}
bo_ms() {  # bo_ms <hartmann6 0|1> <threads>: the median run_ms over 20 seeds
  local rest="srinivas_beta:0/first_seed:0/"
  "$build/bench/plugin_bench" \
    --benchmark_filter="BM_Run/hartmann6:$1/default_schedule:0/settings:0/threads:$2/$rest" \
    2>/dev/null | sed -n 's/.*run_ms=\([0-9.]*[kM]\?\).*/\1/p' |
    awk '{v=$1; if (v ~ /k$/) v=substr(v,1,length(v)-1)*1000; print v/1000}'
}
lml_s() {  # lml_s <threads>: seconds per likelihood evaluation at t = 1000, d = 6
  "$build/bench/hyperparams_bench" \
    --benchmark_filter="BM_LogMarginalLikelihoodWithGradient/t:1000/d:6/threads:$1/" \
    --benchmark_min_time=1 2>/dev/null |
    awk '/BM_LogMarginal/ {print $2 / 1000}'
}
median() {
  sort -g | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'
}

declare -A one_runs default_runs
run_scenario() {  # run_scenario <name> <command for one thread> <command for the default>
  local name=$1 i
  for ((i = 0; i < reps; i++)); do
    one_runs[$name]+="$(eval "$2") "
    default_runs[$name]+="$(eval "$3") "
  done
}
run_scenario bo-branin "bo_ms 0 1" "bo_ms 0 0"
run_scenario bo-hartmann6 "bo_ms 1 1" "bo_ms 1 0"
run_scenario cli-fit "OMP_NUM_THREADS=1 seconds $cli fit --data $work/fit200.csv" \
  "seconds $cli fit --data $work/fit200.csv"
run_scenario cli-run \
  "seconds $cli run --problem branin --kernel se --strategy ei --fit --threads 1 --out $work/r.csv" \
  "seconds $cli run --problem branin --kernel se --strategy ei --fit --out $work/r.csv"
if [ "$large" = 1 ]; then
  run_scenario lml-1000 "lml_s 1" "lml_s 0"
  run_scenario fit-1000 "OMP_NUM_THREADS=1 seconds $cli fit --data $work/fit1000.csv --restarts 0" \
    "seconds $cli fit --data $work/fit1000.csv --restarts 0"
fi

echo
where=$( [ "$idle" = 1 ] && echo "idle machine" || echo "a spinning process on CPU $last" )
echo "$where: medians of $reps, seconds"
printf "%-14s %12s %12s %8s\n" scenario "1 thread" default ratio
for name in bo-branin bo-hartmann6 cli-fit cli-run lml-1000 fit-1000; do
  [ -n "${one_runs[$name]:-}" ] || continue
  one=$(echo "${one_runs[$name]}" | tr ' ' '\n' | grep . | median)
  def=$(echo "${default_runs[$name]}" | tr ' ' '\n' | grep . | median)
  if [ -z "$one" ] || [ -z "$def" ]; then echo "$name: no measurement"; continue; fi
  printf "%-14s %12.4f %12.4f %8.2f\n" "$name" "$one" "$def" "$(echo "$def / $one" | bc -l)"
done
echo "load average at the end: $(cut -d' ' -f1-4 /proc/loadavg)"
