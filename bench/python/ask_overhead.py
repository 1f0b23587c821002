"""Per-ask overhead of Python over C++ at t = 200 on a 6-D box (GP-UCB, the optimizer's
defaults): the same asks, timed in C++ (ask_bench.cc, a separate process) and through the
Python module, in alternating blocks of one run; medians.

    PYTHONPATH=build/python /usr/bin/python3 bench/python/ask_overhead.py \
        build/bench/python/python_ask_bench [blocks=9] [asks per block=40]

The Python timing is around opt.ask() (the package's wrapper, pybind11's call, the argument
and result conversions, the GIL release and re-acquisition, the signal check). Both sides make
the same asks (the points must agree bit for bit, or the script fails), so the k-th ask of a
block does the same work on both sides: the overhead is the median of the paired ratios
Python / C++ over every ask, besides the ratio of the two medians. A second pass times asks
that hand out initial-design points (microseconds of C++ work): the fixed cost of a call."""

import math
import statistics
import subprocess
import sys
import time

import numpy as np

import gpbandit

N, D = 200, 6


def data():
    """ask_bench.cc's Data(), the same operations in the same order."""
    X, y = np.empty((N, D)), np.empty(N)
    for i in range(N):
        total = 0.0
        for j in range(D):
            x = math.fmod(0.6180339887498949 * (D * i + j + 1), 1.0)
            X[i, j] = x
            total += (x - 0.3) * (x - 0.3)
        y[i] = -total
    return X, y


def python_block(asks, design):
    options = {"initial_design_size": 1000000} if design else {}
    opt = gpbandit.Optimizer(gpbandit.Domain.box(np.zeros(D), np.ones(D)), seed=1, **options)
    X, y = data()
    opt.tell_many(X, y)
    opt.release(opt.ask())
    times, points = [], []
    for _ in range(asks):
        start = time.perf_counter()
        x = opt.ask()
        times.append(time.perf_counter() - start)
        opt.release(x)
        points.append(x)
    return times, np.array(points)


def cpp_block(program, asks, design):
    command = [program, str(asks)] + (["design"] if design else [])
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    rows = [line.split() for line in out.splitlines()]
    return [float(r[0]) for r in rows], np.array([[float.fromhex(v) for v in r[1:]] for r in rows])


def measure(program, blocks, asks, design):
    cpp_times, py_times, ratios = [], [], []
    for block in range(blocks):
        ct, cp = cpp_block(program, asks, design)
        pt, pp = python_block(asks, design)
        if not np.array_equal(cp, pp):
            sys.exit(f"block {block}: Python and C++ made different asks")
        cpp_times += ct
        py_times += pt
        ratios += [p / c for p, c in zip(pt, ct)]
    return statistics.median(cpp_times), statistics.median(py_times), statistics.median(ratios)


def main(program, blocks=9, asks=40):
    print(f"{blocks} blocks x {asks} asks, t = {N}, d = {D}; the same asks on both sides")
    for design, what in [(False, "model-driven asks"), (True, "asks of design points")]:
        c, p, r = measure(program, blocks, asks, design)
        print(f"{what}: C++ median {c * 1e3:.4f} ms, Python median {p * 1e3:.4f} ms "
              f"({(p - c) * 1e6:+.1f} us, {100 * (p / c - 1):+.2f}%); "
              f"median paired ratio {r:.4f} ({100 * (r - 1):+.2f}%)")


if __name__ == "__main__":
    main(sys.argv[1], *(int(a) for a in sys.argv[2:4]))
