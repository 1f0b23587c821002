"""Every method of gpbandit.Optimizer: results, shapes, dtypes, and agreement with the state
the C++ optimizer reports."""

import math
import time

import numpy as np
import pytest

import gpbandit
from conftest import quadratic, run_python


def test_ask_returns_a_float64_point_inside_the_box(box2):
    opt = gpbandit.Optimizer(box2, seed=1)
    for _ in range(6):
        x = opt.ask()
        assert x.dtype == np.float64 and x.shape == (2,)
        assert np.all(x >= box2.lower) and np.all(x <= box2.upper)
        opt.tell(x, quadratic(x))
    assert opt.rounds == 6 and opt.num_accepted == 6 and opt.t == 7


def test_ask_batch_returns_distinct_rows_and_marks_them_pending(trained):
    batch = trained.ask_batch(3)
    assert batch.shape == (3, 2) and batch.dtype == np.float64
    assert batch.flags["C_CONTIGUOUS"]
    assert len({tuple(row) for row in batch}) == 3
    pending = trained.pending()
    assert np.array_equal(pending.x, batch)
    assert pending.context is None
    assert list(pending.round) == [trained.rounds - 1] * 3
    assert pending.worker == ["", "", ""]  # no storage: no worker name
    # Leases end an hour (WorkerOptions' default) after the ask, on the wall clock.
    assert np.all(np.abs(pending.lease_until - time.time() - 3600.0) < 600.0)
    for x in batch:
        trained.tell(x, quadratic(x))
    assert trained.pending().x.shape == (0, 2)


def test_tell_many_matches_tells_one_by_one(box2):
    rng = np.random.default_rng(4)
    X = rng.uniform([0, 0], [5, 10], size=(7, 2))
    y = np.array([quadratic(x) for x in X])
    a = gpbandit.Optimizer(box2, seed=2)
    a.tell_many(X, y)
    b = gpbandit.Optimizer(box2, seed=2)
    for x, v in zip(X, y):
        b.tell(x, v)
    assert a.fingerprint() == b.fingerprint()
    assert np.array_equal(a.ask(), b.ask())


def test_observations_hold_every_tell_in_order(trained):
    obs = trained.observations()
    assert obs.x.shape == (8, 2) and obs.y.shape == (8,)
    assert obs.context is None
    assert obs.accepted.dtype == bool and obs.accepted.all()
    assert np.all(np.isnan(obs.imputed))
    assert np.array_equal(obs.y, [quadratic(x) for x in obs.x])


def test_best_is_the_observed_point_with_the_highest_posterior_mean(trained):
    best = trained.best()
    obs = trained.observations()
    matches = [i for i, x in enumerate(obs.x) if np.array_equal(x, best.x)]
    assert matches, "best().x is one of the observed points"
    assert best.observed_reward == obs.y[matches[-1]]
    assert best.context is None
    # Outputs are nearly noise-free: the posterior mean sits close to the observation.
    assert abs(best.posterior_mean - best.observed_reward) < 0.05


def test_best_before_any_observation_raises(box2):
    with pytest.raises(RuntimeError):
        gpbandit.Optimizer(box2).best()


def test_release_and_clear_pending(trained):
    x = trained.ask()
    assert trained.release(x) is True
    assert trained.release(x) is False  # already released
    trained.ask_batch(2)
    trained.clear_pending()
    assert trained.pending().x.shape == (0, 2)


def test_contexts_in_and_out():
    domain = gpbandit.Domain.box([0.0], [1.0]).with_context(1, [0.0], [2.0])
    opt = gpbandit.Optimizer(domain, "cgp-ucb", seed=5)
    for z in [0.5, 1.5, 0.5, 1.5]:
        x = opt.ask(context=[z])
        opt.tell(x, -((x[0] - z / 2) ** 2), context=[z])
    obs = opt.observations()
    assert obs.context.shape == (4, 1)
    assert list(obs.context[:, 0]) == [0.5, 1.5, 0.5, 1.5]
    best = opt.best()
    assert best.context.shape == (1,)
    opt.ask_batch(2, context=[1.0])
    assert np.array_equal(opt.pending().context, [[1.0], [1.0]])
    opt.tell_many([[0.25], [0.75]], [-0.1, -0.2], context=[[0.5], [1.5]])
    assert opt.observations().x.shape == (6, 1)


def test_finite_domain_suggests_candidates():
    candidates = np.array([[0.0, 1.0], [0.5, 0.5], [1.0, 0.0], [0.25, 0.75]])
    opt = gpbandit.Optimizer(gpbandit.Domain.finite(candidates), seed=2)
    for _ in range(5):
        x = opt.ask()
        assert any(np.array_equal(x, c) for c in candidates)
        opt.tell(x, float(x[0] - x[1]))


def test_state_properties(trained):
    assert trained.strategy == "gp-ucb"
    assert trained.domain == gpbandit.Domain.box([0.0, 0.0], [5.0, 10.0])
    assert trained.reward_unit == 1.0
    assert trained.num_failed == 0
    assert trained.log is None and trained.storage is None and trained.study is None
    assert trained.figure_name == "beta_t" and trained.figure > 0
    assert trained.information_gain > 0
    report = trained.last_fit_report
    assert isinstance(report, gpbandit.FitReport) and report.num_starts >= 1
    assert isinstance(trained.fingerprint(), str)
    assert "gp-ucb" in repr(trained)


def test_non_finite_rewards_recorded_as_failed_with_the_skip_policy(box2):
    opt = gpbandit.Optimizer(box2, seed=1, non_finite_rewards="skip")
    x = opt.ask()
    opt.tell(x, math.nan)
    obs = opt.observations()
    assert opt.num_failed == 1 and not obs.accepted[0]


def test_log_and_resume_continue_exactly(box2, tmp_path):
    path = tmp_path / "runs.jsonl"
    opt = gpbandit.Optimizer(box2, seed=9, log=str(path))
    for _ in range(6):
        x = opt.ask()
        opt.tell(x, quadratic(x))
    assert opt.log == str(path) and path.exists()
    # A copy of the log: two optimizers on one log share its study (test_storage.py).
    copy = tmp_path / "copy.jsonl"
    copy.write_bytes(path.read_bytes())
    resumed = gpbandit.Optimizer.resume(copy)
    assert resumed.fingerprint() == opt.fingerprint()
    assert np.array_equal(resumed.ask(), opt.ask())
    assert resumed.options == opt.options


def test_resume_of_a_missing_log_raises(tmp_path):
    with pytest.raises(RuntimeError):
        gpbandit.Optimizer.resume(tmp_path / "absent.jsonl")


def test_custom_kernel(box2):
    kernel = gpbandit.kernels.Matern32([0]) * gpbandit.kernels.SquaredExponential([1])
    opt = gpbandit.Optimizer(box2, kernel=kernel, seed=4)
    for _ in range(5):
        x = opt.ask()
        opt.tell(x, quadratic(x))
    assert opt.last_fit_report.kernel_log_params.shape == (kernel.num_params,)


def test_threads_share_one_optimizer(box2):
    import threading

    opt = gpbandit.Optimizer(box2, seed=1)
    errors = []

    def work():
        try:
            for _ in range(4):
                x = opt.ask()
                opt.tell(x, quadratic(x))
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert opt.num_accepted == 12 and opt.pending().x.shape == (0, 2)


FORK_SCRIPT = """
import os, sys, time
import gpbandit
from gpbandit import _core

# Parallel regions however small the work, on OpenMP's default thread count (all cores):
# the parent really uses OpenMP.
_core._force_parallel_regions_for_testing(True)
opt = gpbandit.Optimizer(gpbandit.Domain.box([0, 0], [1, 1]), seed=1)
for _ in range(6):
    x = opt.ask()
    opt.tell(x, -((x[0] - 0.3) ** 2) - (x[1] - 0.6) ** 2)
pid = os.fork()
if pid == 0:  # the child: exit status 0 only if it completes model-driven asks
    for _ in range(2):
        x = opt.ask()
        opt.tell(x, 0.0)
    os._exit(0)
deadline = time.time() + 60
while time.time() < deadline:
    done, status = os.waitpid(pid, os.WNOHANG)
    if done:
        print("child exit", os.waitstatus_to_exitcode(status))
        sys.exit(0)
    time.sleep(0.05)
os.kill(pid, 9)
print("child hung")
"""


def test_fork_child_can_ask_after_the_parent_used_openmp():
    # libgomp hangs a child forked after a parallel region unless the child runs one thread
    # (the module's fork handler sees to it).
    result = run_python(FORK_SCRIPT)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "child exit 0"
