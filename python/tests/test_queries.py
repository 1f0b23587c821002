"""The controller engineer's queries: best at a context, predict, the objective sense and the
per-round report with its callback, against closed forms and the C++ semantics."""

import math

import numpy as np
import pytest

import gpbandit


def _quadratic(x, z=0.0):
    return -float(((np.asarray(x) - 0.3 - 0.2 * z) ** 2).sum())


def _run(sense, rounds=10, seed=3):
    opt = gpbandit.Optimizer(gpbandit.Domain.box([0, 0], [1, 1]), seed=seed, sense=sense)
    sign = 1.0 if sense == "maximize" else -1.0
    xs = []
    for _ in range(rounds):
        x = opt.ask()
        xs.append(x)
        opt.tell(x, sign * _quadratic(x))
    return opt, np.array(xs)


def test_minimize_is_the_negated_maximize_run():
    up, xs_up = _run("maximize")
    down, xs_down = _run("minimize")
    np.testing.assert_array_equal(xs_up, xs_down)
    mean_up, std_up = up.predict([[0.3, 0.3], [0.9, 0.1]])
    mean_down, std_down = down.predict([[0.3, 0.3], [0.9, 0.1]])
    np.testing.assert_array_equal(mean_up, -mean_down)
    np.testing.assert_array_equal(std_up, std_down)


def test_predict_at_an_observed_noiseless_point_returns_its_reward():
    opt, xs = _run("maximize", rounds=8)
    mean, std = opt.predict(xs[-1])
    assert mean.shape == (1,) and std.shape == (1,)
    assert mean[0] == pytest.approx(_quadratic(xs[-1]), abs=1e-3)
    assert 0.0 <= std[0] < 1e-2


def test_predict_refuses_points_outside_the_box():
    opt, _ = _run("maximize", rounds=4)
    with pytest.raises(ValueError, match="x"):
        opt.predict([[2.0, 0.5]])


def test_best_at_a_context_follows_the_context():
    domain = gpbandit.Domain.box([0.0], [1.0]).with_context(lower=[0.0], upper=[1.0])
    opt = gpbandit.Optimizer(domain, seed=5)
    for i in range(24):
        z = np.array([float(i % 2)])
        x = opt.ask(z)
        opt.tell(x, _quadratic(x, z[0]), context=z)
    low = opt.best(context=[0.0])
    high = opt.best(context=[1.0])
    assert low.x[0] == pytest.approx(0.3, abs=0.08)
    assert high.x[0] == pytest.approx(0.5, abs=0.08)
    np.testing.assert_array_equal(high.context, [1.0])


def test_round_report_and_callback():
    opt = gpbandit.Optimizer(gpbandit.Domain.box([0, 0], [1, 1]), seed=2)
    assert opt.last_round_report()["round"] == -1
    seen = []
    opt.set_round_callback(seen.append)
    for _ in range(8):
        x = opt.ask()
        opt.tell(x, _quadratic(x))
    assert [r["round"] for r in seen] == list(range(8))
    last = opt.last_round_report()
    assert last == seen[-1] or last["round"] == seen[-1]["round"]
    model_rounds = [r for r in seen if r["num_design_points"] == 0]
    assert model_rounds, "every round was a design point"
    r = model_rounds[-1]
    assert r["figure_name"] == opt.figure_name
    assert math.isfinite(r["figure"]) and r["figure"] > 0
    assert len(r["acquisition_values"]) == 1 and math.isfinite(r["acquisition_values"][0])
    assert r["seconds"] >= 0
    opt.set_round_callback(None)
    opt.tell(opt.ask(), 0.0)
    assert len(seen) == 8
    with pytest.raises(TypeError):
        opt.set_round_callback(3)


def test_a_raising_callback_propagates_and_leaves_the_point_pending():
    opt = gpbandit.Optimizer(gpbandit.Domain.box([0, 0], [1, 1]), seed=2)

    def boom(report):
        raise KeyError("from the callback")

    opt.set_round_callback(boom)
    with pytest.raises(KeyError):
        opt.ask()
    assert len(opt.pending().x) == 1
