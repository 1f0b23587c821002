"""gpbandit.minimize on Branin, its result object, callbacks and warm starts."""

import numpy as np
import pytest

import gpbandit
from conftest import BRANIN_BOUNDS, BRANIN_MIN, branin


def test_minimize_finds_branins_minimum():
    result = gpbandit.minimize(branin, BRANIN_BOUNDS, n_calls=60, seed=3)
    assert result.x_iters.shape == (60, 2) and result.func_vals.shape == (60,)
    assert result.fun == result.func_vals.min()
    assert np.array_equal(result.x, result.x_iters[np.argmin(result.func_vals)])
    assert result.fun == branin(result.x)
    # Branin's minimum 0.397887 (three minimizers); 60 evaluations get within 1e-3 of it.
    assert result.fun - BRANIN_MIN < 1e-3, result
    # The optimizer maximized -branin and holds every evaluation.
    obs = result.optimizer.observations()
    assert np.array_equal(obs.x, result.x_iters) and np.array_equal(obs.y, -result.func_vals)


def test_minimize_is_the_ask_tell_loop():
    result = gpbandit.minimize(branin, BRANIN_BOUNDS, n_calls=15, seed=4, strategy="ei")
    opt = gpbandit.Optimizer(gpbandit.Domain.box([-5.0, 0.0], [10.0, 15.0]), "ei", seed=4)
    for x_expected in result.x_iters:
        x = opt.ask()
        assert np.array_equal(x, x_expected)
        opt.tell(x, -branin(x))


def test_callback_sees_every_round_and_can_stop():
    seen = []

    def callback(res):
        seen.append((len(res.func_vals), res.fun))
        return len(res.func_vals) == 7  # stop after 7 evaluations

    result = gpbandit.minimize(branin, BRANIN_BOUNDS, n_calls=20, seed=1, callback=callback)
    assert [n for n, _ in seen] == list(range(1, 8))
    assert len(result.func_vals) == 7
    assert all(b <= a for (_, a), (_, b) in zip(seen, seen[1:]))  # best so far never worsens


def test_warm_start_with_known_values_and_options():
    x0 = [[0.0, 5.0], [9.0, 2.0]]
    y0 = [branin(x) for x in x0]
    result = gpbandit.minimize(
        branin, BRANIN_BOUNDS, n_calls=5, seed=2, x0=x0, y0=y0, n_initial_points=4,
        maximizer_starts=3,
    )
    assert len(result.func_vals) == 7  # 2 told + 5 evaluated
    assert np.array_equal(result.x_iters[:2], x0)
    assert result.optimizer.options["initial_design_size"] == 4
    assert result.optimizer.options["maximizer_starts"] == 3


def test_warm_start_points_evaluated_when_values_are_not_given():
    calls = []

    def f(x):
        calls.append(np.array(x))
        return branin(x)

    result = gpbandit.minimize(f, BRANIN_BOUNDS, n_calls=4, seed=2, x0=[[1.0, 1.0]])
    assert len(calls) == 4 and np.array_equal(calls[0], [1.0, 1.0])
    assert len(result.func_vals) == 4


def test_bad_bounds():
    with pytest.raises(ValueError, match=r"bounds must be a list of \(low, high\) pairs"):
        gpbandit.minimize(branin, [-5.0, 10.0], n_calls=3)
    with pytest.raises(ValueError, match="lower"):
        gpbandit.minimize(branin, [(10.0, -5.0), (0.0, 15.0)], n_calls=3)


def _controller_cost(kp, taps, mode):  # README's mixed example
    return (np.log10(kp) - 0.5) ** 2 + 0.02 * (taps - 5) ** 2 + (0.5 if mode == "pid" else 0.0)


README_MIXED_BOUNDS = [(0.1, 100.0, "log-uniform"), (1, 12), ["pid", "lead-lag"]]


def test_readmes_mixed_example_finds_the_better_label():
    # lead-lag costs 0.5 less everywhere; the label probes try it at the best point so far
    # right after the initial design, and the run ends on it.
    result = gpbandit.minimize(lambda p: _controller_cost(*p), README_MIXED_BOUNDS, n_calls=30,
                               seed=1)
    assert result.x[2] == "lead-lag", result.x
    assert result.fun < 0.01, result.fun
    tries = sum(1 for x in result.x_iters if x[2] == "lead-lag")
    assert tries > 15, tries


def test_without_label_probes_the_mixed_example_stays_on_pid():
    # The behaviour logs written before label_probes resume with: the acquisition alone.
    result = gpbandit.minimize(lambda p: _controller_cost(*p), README_MIXED_BOUNDS, n_calls=30,
                               seed=1, label_probes=False)
    assert result.x[2] == "pid", result.x
