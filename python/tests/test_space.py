"""Mixed spaces from Python: scikit-optimize's dimension conventions (gpbandit.space), minimize
over them with the right Python types, and dict-valued ask/tell on Domain.space."""

import math

import numpy as np
import pytest

import gpbandit
from gpbandit.space import Categorical, Integer, Real, Space, check_dimension


def test_dimensions_follow_scikit_optimizes_conventions():
    assert isinstance(check_dimension((0.1, 100.0)), Real)
    assert isinstance(check_dimension((0, 1.5)), Real)
    integer = check_dimension((1, 12))
    assert isinstance(integer, Integer) and (integer.low, integer.high) == (1, 12)
    log_real = check_dimension((0.1, 100, "log-uniform"))
    assert isinstance(log_real, Real) and log_real.prior == "log-uniform"
    log_int = check_dimension((1, 4096, "log-uniform"))
    assert isinstance(log_int, Integer) and log_int.prior == "log-uniform"
    assert isinstance(check_dimension(["pid", "lead-lag"]), Categorical)
    assert isinstance(check_dimension((1, 2, 3)), Categorical)  # three numbers: categories
    assert isinstance(check_dimension(("a", "b")), Categorical)
    assert isinstance(check_dimension(np.array([0.0, 1.0])), Real)
    with pytest.raises(ValueError, match="prior 'normal'"):
        check_dimension((0.0, 1.0, "normal"))
    with pytest.raises(ValueError, match="expected"):
        check_dimension(3.0)
    with pytest.raises(ValueError, match="str\\(\\) is equal"):
        check_dimension([1, "1"])


def test_a_space_of_linear_reals_stays_a_box():
    space = Space([(0.0, 1.0), Real(-2, 2, name="gain")])
    assert space.is_box and space.domain.kind == "box"
    assert isinstance(space.to_user(np.array([0.5, 1.0])), np.ndarray)
    mixed = Space([(0.1, 100.0, "log-uniform"), (1, 12), ["pid", "lead-lag"]])
    assert mixed.domain.kind == "space"
    assert mixed.names == ["x0", "x1", "x2"]
    assert [p["type"] for p in mixed.domain.parameters] == ["real", "integer", "categorical"]
    assert mixed.domain.parameters[0]["scale"] == "log"
    point = mixed.to_user(np.array([3.5, 4.0, 1.0]))
    assert point == [3.5, 4, "lead-lag"]
    assert type(point[1]) is int and type(point[0]) is float
    assert list(mixed.from_user(point)) == [3.5, 4.0, 1.0]


def controller_cost(p):
    """A controller's cost: best at kp = 3 (log scale), taps = 5, mode "lead-lag"."""
    kp, taps, mode = p
    return (math.log10(kp) - math.log10(3.0)) ** 2 + 0.02 * (taps - 5) ** 2 + (mode == "pid") * 0.5


def test_minimize_over_a_mixed_space_returns_python_types_and_legal_points():
    seen = []

    def f(p):
        seen.append(p)
        return controller_cost(p)

    dims = [(0.1, 100.0, "log-uniform"), (1, 12), ["pid", "lead-lag"]]
    result = gpbandit.minimize(f, dims, n_calls=30, strategy="ei", seed=3)
    assert len(seen) == 30 and result.x_iters == seen
    for kp, taps, mode in seen:
        assert type(kp) is float and 0.1 <= kp <= 100.0
        assert type(taps) is int and 1 <= taps <= 12
        assert mode in ("pid", "lead-lag")
    assert result.fun == min(result.func_vals)
    assert result.x[2] == "lead-lag" and abs(result.x[1] - 5) <= 1
    assert result.fun < 0.1


def test_minimize_takes_mixed_starting_points():
    dims = [(0.1, 100.0, "log-uniform"), (1, 12), ["pid", "lead-lag"]]
    result = gpbandit.minimize(controller_cost, dims, n_calls=4, seed=1,
                               x0=[[3.0, 5, "lead-lag"]], y0=[0.0])
    assert result.x_iters[0] == [3.0, 5, "lead-lag"] and result.fun == 0.0
    assert len(result.x_iters) == 5


def test_categories_may_be_any_objects():
    dims = [[None, 2, 0.5]]
    result = gpbandit.minimize(lambda p: {None: 1.0, 2: 0.0, 0.5: 2.0}[p[0]], dims, n_calls=6,
                               seed=2)
    assert result.x == [2]
    assert all(p[0] in (None, 2, 0.5) for p in result.x_iters)


def test_ask_and_tell_by_name_on_a_space():
    domain = gpbandit.Domain.space([
        {"name": "kp", "type": "real", "scale": "log", "lower": 0.1, "upper": 100},
        {"name": "taps", "type": "integer", "lower": 1, "upper": 12},
        {"name": "mode", "type": "categorical", "labels": ["pid", "lead-lag"]},
    ]).with_context_space([{"name": "terrain", "type": "categorical", "labels": ["grass", "sand"]}])
    opt = gpbandit.Optimizer(domain, "cgp-ucb", seed=4)
    for terrain in ["grass", "sand"] * 4:
        p = opt.ask(context={"terrain": terrain})
        assert set(p) == {"kp", "taps", "mode"}
        assert type(p["kp"]) is float and type(p["taps"]) is int and p["mode"] in ("pid", "lead-lag")
        opt.tell(p, -controller_cost([p["kp"], p["taps"], p["mode"]]),
                 context={"terrain": terrain})
    best = opt.best()
    assert set(best.x) == {"kp", "taps", "mode"} and set(best.context) == {"terrain"}
    batch = opt.ask_batch(2, context={"terrain": "sand"})
    assert len(batch) == 2 and all(isinstance(p, dict) for p in batch)
    assert opt.release(batch[0], context={"terrain": "sand"})
    mean, var = opt.predict(batch[1], context={"terrain": "sand"})
    assert mean.shape == (1,) and var[0] >= 0
    with pytest.raises(ValueError, match="x\\['taps'\\] = 13 is outside"):
        opt.tell({"kp": 1.0, "taps": 13, "mode": "pid"}, 0.0, context={"terrain": "sand"})
    with pytest.raises(ValueError, match="x\\['kd'\\] is missing|names 'kd'"):
        opt.tell({"kp": 1.0, "taps": 3, "mode": "pid", "kd": 1.0}, 0.0,
                 context={"terrain": "sand"})
    assert opt.domain.to_dict(opt.observations().x[0]) == opt.domain.to_dict(
        opt.domain.to_vector(opt.domain.to_dict(opt.observations().x[0])))
