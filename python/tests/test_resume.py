"""gpbandit.minimize continuing a study (log=..., load_if_exists=True): n_calls counts the
study's evaluations, the result covers the whole study, and the point a crashed run was
evaluating is evaluated first by the run that continues it."""

import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

import gpbandit
from conftest import BRANIN_BOUNDS, branin

# minimize on the log in argv[1] with n_calls argv[2] and the worker options argv[3] (JSON);
# each point is written to argv[4] before it is evaluated, and the evaluation at the position
# argv[5] (1-based; 0: none) hangs until the process is killed.
RUN_SCRIPT = r"""
import json, sys, time
import gpbandit
sys.path.insert(0, sys.argv[6])
from conftest import BRANIN_BOUNDS, branin
log, n_calls, worker, seen_path, hang_at = (sys.argv[1], int(sys.argv[2]),
                                            json.loads(sys.argv[3]), sys.argv[4], int(sys.argv[5]))
calls = 0
def f(x):
    global calls
    calls += 1
    with open(seen_path, "a") as seen:
        seen.write(json.dumps([float(v) for v in x]) + "\n")
    while calls == hang_at:
        time.sleep(1)
    return branin(x)
gpbandit.minimize(f, BRANIN_BOUNDS, n_calls=n_calls, seed=11, log=log, load_if_exists=True,
                  **({"worker": worker} if worker else {}))
"""

TESTS_DIR = os.path.dirname(os.path.abspath(__file__))


def seen_points(path):
    with open(path) as f:
        return [json.loads(line) for line in f]


def run_until_hung(log, seen, n_calls, hang_at, worker):
    """Runs minimize in a child process and kills it (SIGKILL) while it evaluates its
    hang_at-th point."""
    child = subprocess.Popen(
        [sys.executable, "-c", RUN_SCRIPT, str(log), str(n_calls), json.dumps(worker), str(seen),
         str(hang_at), TESTS_DIR],
        stderr=subprocess.PIPE, text=True, env=dict(os.environ),
    )
    deadline = time.monotonic() + 300
    while not (seen.exists() and len(seen_points(seen)) >= hang_at):
        assert child.poll() is None, child.stderr.read()
        assert time.monotonic() < deadline, "the child did not reach its evaluation in 300 s"
        time.sleep(0.05)
    child.send_signal(signal.SIGKILL)
    child.wait()
    child.stderr.close()
    return seen_points(seen)


def tells_in(log):
    with open(log) as f:
        return [r for r in map(json.loads, f) if r["type"] == "tell"]


@pytest.mark.parametrize("worker", [None, {"id": "tuner"}], ids=["default-name", "own-name"])
def test_a_run_killed_mid_evaluation_is_continued_to_n_calls(tmp_path, worker):
    log = tmp_path / "study.jsonl"
    seen = run_until_hung(log, tmp_path / "seen.jsonl", 30, 16, worker)
    crashed_at = seen[15]  # told 15, evaluating the 16th
    assert len(tells_in(log)) == 15
    opt = gpbandit.Optimizer.resume(str(log))
    assert len(opt.pending().trial) == 1, "the killed run's point is not pending"
    del opt

    evaluated = []

    def f(x):
        evaluated.append(list(map(float, x)))
        return branin(x)

    result = gpbandit.minimize(f, BRANIN_BOUNDS, n_calls=30, seed=11, log=log,
                               load_if_exists=True, **({"worker": worker} if worker else {}))
    # The study holds 30 evaluations: the 15 told before the crash, then the one it was
    # evaluating, evaluated again first, then 14 new ones.
    assert len(evaluated) == 15
    assert evaluated[0] == crashed_at
    assert len(tells_in(log)) == 30
    assert result.nfev == 30 and len(result.func_vals) == 30 and result.x_iters.shape == (30, 2)
    assert np.array_equal(result.x_iters[:16], np.asarray(seen[:16]))
    assert np.array_equal(result.func_vals, [branin(x) for x in result.x_iters])
    assert result.fun == result.func_vals.min()
    assert np.array_equal(result.x, result.x_iters[np.argmin(result.func_vals)])
    assert len(result.optimizer.pending().trial) == 0, "the crashed run's point is still pending"
    # Nothing beside the log but what the test wrote (no lock file).
    assert sorted(os.listdir(tmp_path)) == ["seen.jsonl", "study.jsonl"]


def test_n_calls_counts_the_study_and_a_done_study_evaluates_nothing(tmp_path):
    log = tmp_path / "study.jsonl"
    calls = []

    def f(x):
        calls.append(1)
        return branin(x)

    first = gpbandit.minimize(f, BRANIN_BOUNDS, n_calls=8, seed=2, log=log)
    assert first.nfev == 8 and len(calls) == 8
    more = gpbandit.minimize(f, BRANIN_BOUNDS, n_calls=12, seed=2, log=log, load_if_exists=True)
    assert len(calls) == 12, "the continued call evaluated beyond the study's n_calls"
    assert more.nfev == 12 and len(more.func_vals) == 12
    assert np.array_equal(more.x_iters[:8], first.x_iters)
    done = gpbandit.minimize(f, BRANIN_BOUNDS, n_calls=5, seed=2, log=log, load_if_exists=True)
    assert len(calls) == 12
    assert done.nfev == 12 and np.array_equal(done.x_iters, more.x_iters)
    assert done.fun == more.fun
    assert os.listdir(tmp_path) == ["study.jsonl"]


def test_a_continued_warm_start_is_not_told_again(tmp_path):
    log = tmp_path / "study.jsonl"
    x0 = [[0.0, 5.0], [9.0, 2.0]]
    y0 = [branin(x) for x in x0]
    first = gpbandit.minimize(branin, BRANIN_BOUNDS, n_calls=3, seed=4, x0=x0, y0=y0, log=log)
    assert len(first.func_vals) == 5 and first.nfev == 3
    again = gpbandit.minimize(branin, BRANIN_BOUNDS, n_calls=6, seed=4, x0=x0, y0=y0, log=log,
                              load_if_exists=True)
    assert len(again.func_vals) == 8 and again.nfev == 6  # 2 told + 6 evaluated
    assert np.array_equal(again.x_iters[:5], first.x_iters)
    assert sum(1 for t in tells_in(log) if t["x"] == [0.0, 5.0]) == 1
