"""A script run once per evaluation (one ask and one tell per process, the log continued with
load_if_exists=True) runs the study exactly as one process doing every evaluation: the same
refits (fit records) and the same suggestions; and a clean stop continued so matches a run that
never stopped."""

import json
import os
import re
import subprocess
import sys

# Asks and tells `n` times on the log in argv[1], continuing it if it exists.
RUN_SCRIPT = r"""
import sys
import gpbandit
log, n = sys.argv[1], int(sys.argv[2])
opt = gpbandit.Optimizer(gpbandit.Domain.box([0, 0], [1, 1]), seed=5, log=log, load_if_exists=True)
for _ in range(n):
    x = opt.ask()
    opt.tell(x, -((x[0] - 0.3) ** 2 + (x[1] - 0.7) ** 2))
"""

# What differs between runs that made the same choices: the claims' and leases' times, the
# workers' names, the fits' reports (they time the fit).
VARIES = re.compile(r',?"(lease_until|refit_claim)":[-+.0-9eE]+|,?"(worker|report)":"[^"]*"')


def run(log, n):
    result = subprocess.run(
        [sys.executable, "-c", RUN_SCRIPT, str(log), str(n)],
        capture_output=True, text=True, timeout=300, env=dict(os.environ),
    )
    assert result.returncode == 0, result.stderr


def records(log, kind):
    with open(log) as f:
        return [VARIES.sub("", line) for line in f if json.loads(line)["type"] == kind]


def test_one_process_per_evaluation_refits_and_suggests_as_one_process(tmp_path):
    loop, one = tmp_path / "loop.jsonl", tmp_path / "one.jsonl"
    for _ in range(10):
        run(loop, 1)
    run(one, 10)
    fits = records(one, "fit")
    # Refits after every tell below 20 observations once the model picks (after the design).
    assert len(fits) >= 5
    assert records(loop, "fit") == fits
    tells = records(one, "tell")
    assert len(tells) == 10
    assert records(loop, "tell") == tells


def test_clean_stop_continued_matches_a_run_that_never_stopped(tmp_path):
    stopped, whole = tmp_path / "stopped.jsonl", tmp_path / "whole.jsonl"
    run(stopped, 7)
    run(stopped, 7)
    run(whole, 14)
    assert records(stopped, "fit") == records(whole, "fit")
    assert records(stopped, "tell") == records(whole, "tell")
