"""The GIL is released while gpbandit computes (another Python thread makes progress during an
ask and a fit), and Ctrl-C during a long ask leaves the interpreter and the optimizer usable."""

import threading
import time

import numpy as np

import gpbandit
from conftest import run_python

# An ask of about half a second on the reference machine: t = 150 in 6-D, a large raw-sample
# design, one thread (so that many cores do not make it short).
SLOW = dict(seed=1, maximizer_raw_samples=50000, maximizer_starts=8, num_threads=1)


def slow_optimizer():
    rng = np.random.default_rng(0)
    X = rng.uniform(size=(150, 6))
    opt = gpbandit.Optimizer(gpbandit.Domain.box(np.zeros(6), np.ones(6)), **SLOW)
    opt.tell_many(X, -np.sum((X - 0.3) ** 2, axis=1))
    return opt


def progress_during(call):
    """Runs call() while a Python thread counts; returns the fraction of the call's middle 80%
    that the thread's progress covers (the largest gap between its marks subtracted)."""
    marks, stop = [], threading.Event()

    def count():
        i = 0
        while not stop.is_set():
            i += 1
            if i % 200 == 0:
                marks.append(time.perf_counter())

    counter = threading.Thread(target=count)
    counter.start()
    time.sleep(0.05)
    start = time.perf_counter()
    call()
    end = time.perf_counter()
    stop.set()
    counter.join()
    lo, hi = start + 0.1 * (end - start), end - 0.1 * (end - start)
    inside = [lo] + [m for m in marks if lo <= m <= hi] + [hi]
    largest_gap = max(b - a for a, b in zip(inside, inside[1:]))
    return 1.0 - largest_gap / (hi - lo), end - start


def test_another_thread_runs_during_ask():
    opt = slow_optimizer()
    covered, seconds = progress_during(opt.ask)
    assert seconds > 0.02
    # Holding the GIL, the counter would stop for the whole call (coverage 0).
    assert covered > 0.5, f"the counter covered {covered:.2f} of a {seconds:.3f} s ask"


def test_another_thread_runs_during_a_fit():
    rng = np.random.default_rng(1)
    X = rng.uniform(size=(150, 6))
    gp = gpbandit.GaussianProcess(gpbandit.kernels.Matern52(list(range(6))), 6)
    gp.add_observations(X, np.sin(X.sum(axis=1)))
    covered, seconds = progress_during(lambda: gp.fit(seed=2))
    assert covered > 0.5, f"the counter covered {covered:.2f} of a {seconds:.3f} s fit"


CTRL_C_SCRIPT = """
import os, signal, threading, time
import numpy as np
import gpbandit

rng = np.random.default_rng(0)
X = rng.uniform(size=(150, 6))
# An ask of about 1-2 s on the reference machine (one thread); Ctrl-C comes after 0.1 s.
opt = gpbandit.Optimizer(gpbandit.Domain.box(np.zeros(6), np.ones(6)), seed=1,
                         maximizer_raw_samples=200000, maximizer_starts=8, num_threads=1)
opt.tell_many(X, -np.sum((X - 0.3) ** 2, axis=1))
rounds = opt.rounds
threading.Timer(0.1, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
start = time.perf_counter()
try:
    opt.ask()
    print("not interrupted")
except KeyboardInterrupt:
    print("interrupted after", round(time.perf_counter() - start, 2), "s")
print("pending", len(opt.pending().x), "rounds", opt.rounds - rounds)
# The interpreter and the optimizer carry on.
x = opt.ask()
opt.tell(x, 1.0)
print("then", opt.num_accepted, "observations", len(opt.pending().x), "pending")
"""


def test_ctrl_c_during_a_long_ask():
    result = run_python(CTRL_C_SCRIPT, timeout=300)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("interrupted after"), result.stdout
    # The interrupted ask's point was given back; the round it used is spent.
    assert lines[1] == "pending 0 rounds 1"
    assert lines[2] == "then 151 observations 0 pending"


CTRL_C_PYTHON_STRATEGY_SCRIPT = """
import math, os, signal, threading, time
import gpbandit

calls = []
def slow_score(m, v):
    calls.append(1)
    if len(calls) == 50:  # well inside an ask
        os.kill(os.getpid(), signal.SIGINT)
    s = math.sqrt(max(v, 0.0))
    return m + s, 1.0, (0.5 / s if s > 0 else 0.0)

gpbandit.register_strategy("slow", slow_score)
opt = gpbandit.Optimizer(gpbandit.Domain.box([0, 0], [1, 1]), "slow", seed=1,
                         initial_design_size=2, num_threads=1)
for _ in range(2):
    x = opt.ask()
    opt.tell(x, x[0] - x[1])
before = opt.fingerprint()
try:
    opt.ask()
    print("not interrupted")
except KeyboardInterrupt:
    print("interrupted")
print("unchanged", opt.fingerprint() == before)
x = opt.ask()
print("then", x.shape)
"""


def test_ctrl_c_inside_a_python_strategy_aborts_the_ask():
    result = run_python(CTRL_C_PYTHON_STRATEGY_SCRIPT)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["interrupted", "unchanged True", "then (2,)"]


READ_WHILE_ASKING_SCRIPT = """
import threading
import gpbandit

def score(m, v):  # a strategy in Python: the ask needs the GIL on its threads
    s = max(v, 0.0) ** 0.5
    return m + s, 1.0, (0.5 / s if s > 0 else 0.0)

gpbandit.register_strategy("py-ucb", score)
opt = gpbandit.Optimizer(gpbandit.Domain.box([0, 0], [1, 1]), "py-ucb", seed=1)
stop = threading.Event()
reads = [0]

def read():  # another thread reads the state while the asks run
    while not stop.is_set():
        opt.t, opt.rounds, opt.observations(), opt.pending(), opt.fingerprint(), opt.figure
        opt.options, opt.last_fit_report, opt.information_gain, opt.num_accepted
        reads[0] += 1

reader = threading.Thread(target=read)
reader.start()
for _ in range(25):
    x = opt.ask()
    opt.tell(x, -((x[0] - 0.3) ** 2) - (x[1] - 0.6) ** 2)
try:
    opt.best()
finally:
    stop.set()
    reader.join()
print("done", reads[0] > 0)
"""


def test_reading_the_state_during_an_ask_with_a_python_strategy():
    # The reader holds the GIL while it waits for the optimizer's lock, which the ask holds
    # while its strategy waits for the GIL: every method must release the GIL first.
    result = run_python(READ_WHILE_ASKING_SCRIPT, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "done True"
