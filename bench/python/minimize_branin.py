"""gpbandit.minimize on Branin, 200 calls, against the C++ benchmark of the same runs
(bench/plugin_bench.cc, its Branin row with the optimizer's defaults and OpenMP's default
thread count): 10 initial points + 190 rounds, GP-UCB with limbo's constant beta 0.25, refits
after the initial design and then every 50 observations, seeds 0-19; medians of the time per
run and of the final error (best - optimum, divided by 51.95 as limbo does).

    PYTHONPATH=build/python /usr/bin/python3 bench/python/minimize_branin.py \
        build/bench/plugin_bench [rounds=5]

Each round runs the C++ benchmark (its median over the 20 seeds) and then the same 20 runs
through gpbandit.minimize (their median), so that a machine whose load drifts affects both
alike; the script prints every round and the medians over the rounds. The two make the same
suggestions (test_parity.py), so their errors must be equal; the script checks it."""

import csv
import io
import math
import statistics
import subprocess
import sys
import time

import gpbandit

SEEDS = range(20)
CALLS = 200
BRANIN_MIN = 0.397887357729738
ROW = "BM_Run/hartmann6:0/default_schedule:0/settings:0/threads:0/srinivas_beta:0/first_seed:0"
# plugin_bench.cc's settings for that row.
OPTIONS = dict(
    n_initial_points=10,
    sync_log=False,
    refit={"every_while_small": 10, "small_until": 11, "every": 50},
    beta_schedule="constant",
    constant_beta=0.25,
)


def branin(x):
    """examples/problems/synthetic_functions.h's Branin, the same operations in order."""
    pi = math.pi
    a, b, c, r, s, t = 1.0, 5.1 / (4 * pi * pi), 5.0 / pi, 6.0, 10.0, 1.0 / (8 * pi)
    u = x[1] - b * x[0] * x[0] + c * x[0] - r
    return a * u * u + s * (1 - t) * math.cos(x[0]) + s


def cpp(plugin_bench):
    out = subprocess.run(
        [plugin_bench, f"--benchmark_filter={ROW}/iterations", "--benchmark_format=csv"],
        capture_output=True, text=True, check=True,
    ).stdout
    table = out[out.index("name,"):]
    (row,) = list(csv.DictReader(io.StringIO(table)))
    return float(row["run_ms"]), float(row["error"])


def python():
    run_ms, errors = [], []
    for seed in SEEDS:
        start = time.perf_counter()
        result = gpbandit.minimize(branin, [(-5.0, 10.0), (0.0, 15.0)], n_calls=CALLS, seed=seed,
                                   **OPTIONS)
        run_ms.append(1e3 * (time.perf_counter() - start))
        # plugin_bench's error: max reward - best reward, with reward = -branin.
        errors.append((-BRANIN_MIN - (-result.fun)) / 51.95)
    return statistics.median(run_ms), statistics.median(errors)


def main(plugin_bench, rounds=5):
    print(f"Branin, {CALLS} calls, seeds 0-19: median ms per run (median error)")
    cpp_ms, py_ms, ratios = [], [], []
    for r in range(rounds):
        c_ms, c_error = cpp(plugin_bench)
        p_ms, p_error = python()
        print(f"round {r + 1}: C++ (plugin_bench) {c_ms:7.1f} ({c_error:.3g}), Python (minimize) "
              f"{p_ms:7.1f} ({p_error:.3g}), ratio {p_ms / c_ms:.3f}")
        if not math.isclose(c_error, p_error, rel_tol=1e-3):
            sys.exit("the errors differ: the two did not make the same runs")
        cpp_ms.append(c_ms)
        py_ms.append(p_ms)
        ratios.append(p_ms / c_ms)
    c, p = statistics.median(cpp_ms), statistics.median(py_ms)
    print(f"median over {rounds} rounds: C++ {c:.1f} ms, Python {p:.1f} ms, ratio {p / c:.3f}; "
          f"median of the rounds' ratios {statistics.median(ratios):.3f}")


if __name__ == "__main__":
    main(sys.argv[1], *(int(a) for a in sys.argv[2:3]))
