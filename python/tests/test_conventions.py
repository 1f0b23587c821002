"""Python's conventions, each test the regression test of a defect a new user met: minimize's
SciPy result, NaN-safe best, seed=None, callbacks and verbose, n_calls=0, errors in the caller's
rows and columns, os.PathLike paths checked at construction, trial handles, re-registering a
strategy, and the non-finite-reward message."""

import pathlib
import re

import numpy as np
import pytest
import scipy.optimize

import gpbandit
from conftest import SOURCE_DIR


def bowl(x):
    return float(np.sum((np.asarray(x) - 0.3) ** 2))


BOX = [(0.0, 1.0), (0.0, 1.0)]


def test_minimize_returns_scipys_optimize_result():
    res = gpbandit.minimize(bowl, BOX, n_calls=6, seed=1)
    assert isinstance(res, scipy.optimize.OptimizeResult)
    assert res["x"] is res.x and res["fun"] == res.fun  # used to fail: a plain object
    assert res.nfev == 6 and res.success is True and "6 evaluations" in res.message
    assert res.x_iters.shape == (6, 2) and res.func_vals.shape == (6,)
    assert res.fun == res.func_vals.min()
    assert np.array_equal(res.x, res.x_iters[res.func_vals.argmin()])
    assert isinstance(res.optimizer, gpbandit.Optimizer) and res.optimizer.num_accepted == 6


def test_a_nan_evaluation_is_never_the_best():
    calls = []

    def sometimes_nan(x):
        calls.append(x)
        return float("nan") if len(calls) in (1, 3) else bowl(x)

    res = gpbandit.minimize(sometimes_nan, BOX, n_calls=6, seed=2, non_finite_rewards="skip")
    assert np.isnan(res.func_vals[0]) and np.isnan(res.func_vals[2])  # argmin picked these
    assert np.isfinite(res.fun) and res.fun == np.nanmin(res.func_vals)
    assert res.optimizer.num_failed == 2
    all_nan = gpbandit.minimize(lambda x: float("nan"), BOX, n_calls=3, seed=2,
                                non_finite_rewards="skip")
    assert all_nan.success is False and all_nan.x is None and np.isnan(all_nan.fun)
    assert "no evaluation returned a finite value" in all_nan.message


def test_a_nan_evaluation_without_a_policy_is_a_clear_error():
    with pytest.raises(ValueError, match="non_finite_rewards='skip'"):
        gpbandit.minimize(lambda x: float("nan"), BOX, n_calls=3, seed=2)


def test_n_calls_zero_is_a_clear_error():
    # It used to leak numpy's "cannot reshape array of size 0".
    with pytest.raises(ValueError, match=r"n_calls = 0: must be >= 1"):
        gpbandit.minimize(bowl, BOX, n_calls=0)
    with pytest.raises(TypeError, match="n_calls must be an int"):
        gpbandit.minimize(bowl, BOX, n_calls=2.5)


def test_seed_none_is_random_and_recorded():
    # seed=None used to mean seed 0: every run made the same suggestions.
    a = gpbandit.minimize(bowl, BOX, n_calls=3)
    b = gpbandit.minimize(bowl, BOX, n_calls=3)
    seed_a, seed_b = a.optimizer.options["seed"], b.optimizer.options["seed"]
    assert seed_a != seed_b and not np.array_equal(a.x_iters, b.x_iters)
    again = gpbandit.minimize(bowl, BOX, n_calls=3, seed=seed_a)
    assert np.array_equal(again.x_iters, a.x_iters)
    domain = gpbandit.Domain.box([0], [1])
    seeds = {gpbandit.Optimizer(domain).options["seed"] for _ in range(3)}
    assert len(seeds) == 3  # the Optimizer's seed=None too


def test_callbacks_as_a_list_and_verbose(capsys):
    seen, stops = [], []
    res = gpbandit.minimize(
        bowl, BOX, n_calls=8, seed=3, verbose=True,
        callback=[lambda r: seen.append(r.nfev), lambda r: stops.append(r.nfev) or r.nfev == 4],
    )
    assert seen == stops == [1, 2, 3, 4] and res.nfev == 4
    assert res.message == "stopped by a callback"
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 4 and lines[0].startswith("gpbandit.minimize: evaluation 1/8: f = ")
    with pytest.raises(TypeError, match="callback must be a callable"):
        gpbandit.minimize(bowl, BOX, n_calls=2, callback=[3])


def test_shape_errors_are_worded_in_the_callers_rows_and_columns(box2):
    opt = gpbandit.Optimizer(box2, seed=1)
    # C++ holds points as columns; its message said "X has 3 columns" for 3 rows.
    with pytest.raises(ValueError) as info:
        opt.tell_many(np.zeros((3, 2)), np.zeros(2))
    assert "X has 3 rows" in str(info.value) and "columns" not in str(info.value)
    with pytest.raises(ValueError, match=r"X has 3 columns \(one per coordinate\) but the action "
                                         r"dimension is 2"):
        opt.tell_many(np.zeros((2, 3)), np.zeros(2))
    with pytest.raises(ValueError, match="X has 3 columns"):
        opt.predict(np.zeros((2, 3)))
    gp = gpbandit.GaussianProcess(gpbandit.kernels.Matern52([0, 1]))
    with pytest.raises(ValueError, match="y must hold one value per row of X: X has 3 rows"):
        gp.add_observations(np.zeros((3, 2)), np.zeros(2))
    with pytest.raises(ValueError, match="X has 3 columns but the model's input_dim is 2"):
        gp.add_observations(np.zeros((2, 3)), np.zeros(2))
    with pytest.raises(ValueError, match=r"candidates\[0, 1\] \(row 0, column 1\)"):
        gpbandit.Domain.finite([[0.0, np.nan], [1.0, 1.0]])
    with pytest.raises(ValueError, match="at least one row .* got 0 x 2"):
        gpbandit.Domain.finite(np.zeros((0, 2)))
    with pytest.raises(ValueError, match="A has 1 columns .* needs at least 2"):
        gpbandit.kernels.Matern52([0, 1])(np.zeros((3, 1)))
    with pytest.raises(ValueError, match="y0 must hold one value per row of x0"):
        gpbandit.minimize(bowl, BOX, n_calls=2, x0=[[0.1, 0.1], [0.2, 0.2]], y0=[1.0])
    assert opt.num_accepted == 0


def test_paths_may_be_path_objects(tmp_path):
    log = tmp_path / "runs.jsonl"
    opt = gpbandit.Optimizer(gpbandit.Domain.box([0], [1]), seed=1, log=log)
    x = opt.ask()
    opt.tell(x, 1.0)
    assert opt.log == str(log)
    assert gpbandit.Optimizer.resume(log).num_accepted == 1  # used to raise a binding TypeError
    res = gpbandit.minimize(bowl, BOX, n_calls=2, seed=1, log=tmp_path / "min.jsonl")
    assert res.optimizer.log == str(tmp_path / "min.jsonl")
    storage = gpbandit.Optimizer(gpbandit.Domain.box([0], [1]), seed=1, storage=tmp_path,
                                 study="s")
    storage.tell([0.5], 1.0)
    assert gpbandit.Optimizer.open(tmp_path, "s").num_accepted == 1
    with pytest.raises(TypeError, match="log must be a str or an os.PathLike"):
        gpbandit.Optimizer(gpbandit.Domain.box([0], [1]), log=3)


def test_an_unwritable_log_fails_at_construction(tmp_path):
    # It used to fail only at the first ask.
    with pytest.raises(RuntimeError, match="no-such-dir"):
        gpbandit.Optimizer(gpbandit.Domain.box([0], [1]),
                           log=tmp_path / "no-such-dir" / "x.jsonl")
    with pytest.raises(ValueError, match="is a directory"):
        gpbandit.Optimizer(gpbandit.Domain.box([0], [1]), log=tmp_path)


def test_ask_returns_a_trial_handle_that_tell_takes(box2):
    opt = gpbandit.Optimizer(box2, seed=1)
    x = opt.ask()
    assert isinstance(x, np.ndarray) and x.shape == (2,) and x.trial == 0
    opt.tell(np.round(x, 2), 1.0, trial=x.trial)  # a rounded point releases its suggestion
    assert len(opt.pending().x) == 0
    assert np.array_equal(opt.observations().x[-1], np.round(x, 2))
    y = opt.ask()
    opt.tell(np.round(y, 2), 1.0)  # without the handle: matched by value, still pending
    assert list(opt.pending().trial) == [1]
    batch = opt.ask_batch(3)
    assert list(batch.trials) == [2, 3, 4] and [row.trial for row in batch] == [2, 3, 4]
    assert batch[1].trial == 3 and getattr(np.asarray(batch), "trials", None) is None
    assert opt.release(trial=3) is True and opt.release(trial=3) is False
    assert list(opt.pending().trial) == [1, 2, 4]
    with pytest.raises(ValueError, match="trial 3 is not pending"):
        opt.tell(batch[1], 0.0, trial=3)
    with pytest.raises(TypeError, match="trial must be an int"):
        opt.tell(batch[0], 0.0, trial="2")
    assert (x + 1).trial is None  # arithmetic makes a plain point


def test_re_registering_a_python_strategy_needs_replace():
    def ucb(m, v):
        return m + 2 * v**0.5, 1.0, 1.0 / max(v, 1e-300) ** 0.5

    gpbandit.register_strategy("py-notebook-cell", ucb, description="first")
    with pytest.raises(ValueError, match="pass replace=True"):
        gpbandit.register_strategy("py-notebook-cell", ucb)  # the cell run again
    gpbandit.register_strategy("py-notebook-cell", ucb, description="second", replace=True)
    assert gpbandit.strategy_description("py-notebook-cell") == "second"
    with pytest.raises(ValueError, match="cannot be replaced from Python"):
        gpbandit.register_strategy("gp-ucb", ucb, replace=True)
    opt = gpbandit.Optimizer(gpbandit.Domain.box([0], [1]), "py-notebook-cell", seed=1,
                             initial_design_size=1)
    opt.tell(opt.ask(), 0.5)
    assert opt.ask().shape == (1,)


def test_the_non_finite_reward_message_names_the_python_option(box2):
    opt = gpbandit.Optimizer(box2, seed=1)
    with pytest.raises(ValueError) as info:
        opt.tell([1.0, 1.0], float("nan"))
    message = str(info.value)
    assert 'non_finite_rewards is "throw"' in message and '"skip"' in message
    assert not re.search(r"\bk[A-Z]|OptimizerOptions|::", message), message
    gpbandit.Optimizer(box2, seed=1, non_finite_rewards="skip").tell([1.0, 1.0], float("nan"))


def test_version_comes_from_version_h():
    text = pathlib.Path(SOURCE_DIR, "include", "gpbandit", "version.h").read_text()
    expected = re.search(r'#define GPBANDIT_VERSION_STRING "([^"]+)"', text).group(1)
    assert gpbandit.__version__ == expected
