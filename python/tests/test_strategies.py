"""The strategy registry from Python, and strategies written in Python: registered by name,
used by the Optimizer, their errors raised by ask(), their calls from the maximizer's threads."""

import math
import threading
import time

import numpy as np
import pytest

import gpbandit
from gpbandit import _core
from conftest import quadratic


def ucb_score(m, v):
    """GP-UCB with beta = 4, the operations of acquisition/gp_ucb.cc's Score in order."""
    sigma = math.sqrt(max(v, 0.0))
    return m + 2.0 * sigma, 1.0, (2.0 / (2.0 * sigma) if sigma > 0.0 else 0.0)


def run(opt, rounds):
    points = []
    for _ in range(rounds):
        x = opt.ask()
        opt.tell(x, quadratic(x))
        points.append(x)
    return np.array(points)


def test_registry_names_and_descriptions():
    names = gpbandit.strategies()
    for built_in in ["gp-ucb", "cgp-ucb", "igp-ucb", "gp-ts", "ei", "log-ei", "pi", "mean",
                     "variance"]:
        assert built_in in names
    assert names == sorted(names)
    assert "Srinivas" in gpbandit.strategy_description("gp-ucb")
    with pytest.raises(ValueError, match="unknown; registered"):
        gpbandit.strategy_description("nope")


def test_a_python_strategy_suggests_what_the_same_cpp_strategy_does(box2):
    gpbandit.register_strategy("py-ucb-4", ucb_score, description="UCB, beta 4, in Python")
    assert "py-ucb-4" in gpbandit.strategies()
    assert gpbandit.strategy_description("py-ucb-4") == "UCB, beta 4, in Python"
    python = gpbandit.Optimizer(box2, "py-ucb-4", seed=6)
    cpp = gpbandit.Optimizer(box2, "gp-ucb", seed=6, beta_schedule="constant", constant_beta=4.0)
    assert np.array_equal(run(python, 14), run(cpp, 14))
    assert python.strategy == "py-ucb-4"
    assert math.isnan(python.figure)


def test_begin_round_sees_the_round_state(box2):
    seen = []
    gpbandit.register_strategy("py-ucb-rounds", ucb_score, begin_round=seen.append)
    opt = gpbandit.Optimizer(box2, "py-ucb-rounds", seed=1, initial_design_size=3)
    run(opt, 6)
    assert [s.t for s in seen] == [4, 5, 6]  # model-driven rounds after 3 design points
    assert all(isinstance(s, gpbandit.RoundState) for s in seen)
    assert seen[-1].best_observed == max(opt.observations().y[:5])
    assert seen[-1].action_dim == 2


def test_an_exception_in_score_is_raised_by_ask_and_changes_nothing(box2):
    broken = {"on": False}

    def sometimes_failing(m, v):
        if broken["on"]:
            raise ZeroDivisionError("the score broke")
        return ucb_score(m, v)

    gpbandit.register_strategy("py-failing", sometimes_failing)
    opt = gpbandit.Optimizer(box2, "py-failing", seed=2, initial_design_size=3)
    twin = gpbandit.Optimizer(box2, "py-failing", seed=2, initial_design_size=3)
    run(opt, 4)
    run(twin, 4)
    before = opt.fingerprint()
    broken["on"] = True
    with pytest.raises(ZeroDivisionError, match="the score broke"):
        opt.ask()
    assert opt.fingerprint() == before
    assert opt.pending().x.shape == (0, 2)
    # Afterwards the optimizer goes on exactly as one that never saw the error.
    broken["on"] = False
    assert np.array_equal(run(opt, 3), run(twin, 3))


def test_a_bad_result_from_score_is_a_type_error(box2):
    gpbandit.register_strategy("py-bad-result", lambda m, v: m)
    opt = gpbandit.Optimizer(box2, "py-bad-result", seed=2, initial_design_size=1)
    run(opt, 1)
    with pytest.raises(TypeError, match="py-bad-result.*must return three numbers.*got"):
        opt.ask()


def test_an_exception_in_begin_round_is_raised_by_ask(box2):
    def boom(state):
        raise KeyError("no round for you")

    gpbandit.register_strategy("py-boom", ucb_score, begin_round=boom)
    opt = gpbandit.Optimizer(box2, "py-boom", seed=2, initial_design_size=1)
    run(opt, 1)
    with pytest.raises(KeyError, match="no round for you"):
        opt.ask()


def test_registration_errors():
    gpbandit.register_strategy("py-once", ucb_score)
    with pytest.raises(ValueError, match="already registered"):
        gpbandit.register_strategy("py-once", ucb_score)
    with pytest.raises(ValueError, match="already registered"):
        gpbandit.register_strategy("gp-ucb", ucb_score)
    with pytest.raises(TypeError, match="score must be callable"):
        gpbandit.register_strategy("py-not-callable", 3)
    with pytest.raises(ValueError, match="empty strategy name"):
        gpbandit.register_strategy("", ucb_score)
    with pytest.raises(ValueError, match="takes no options"):
        gpbandit.Optimizer(gpbandit.Domain.box([0], [1]), "py-once", kappa=2.0)


def test_python_strategy_on_the_maximizers_worker_threads(box2):
    """Forced parallel regions: the maximizer's starts run on OpenMP worker threads, which
    take the GIL for every score; suggestions equal the one-thread run's."""
    threads = set()
    main = threading.get_ident()
    waited = [0.0]

    def score(m, v):
        threads.add(threading.get_ident())
        # Until a worker thread has scored, the calling thread pauses (releasing the GIL), so
        # that the worker takes some of the starts however busy the machine is.
        if threading.get_ident() == main and len(threads) < 2 and waited[0] < 5.0:
            time.sleep(0.001)
            waited[0] += 0.001
        return ucb_score(m, v)

    gpbandit.register_strategy("py-ucb-threads", score)
    options = dict(seed=8, maximizer_starts=6)
    _core._force_parallel_regions_for_testing(True)
    try:
        parallel = run(gpbandit.Optimizer(box2, "py-ucb-threads", num_threads=2, **options), 8)
    finally:
        _core._force_parallel_regions_for_testing(False)
    serial = run(gpbandit.Optimizer(box2, "py-ucb-threads", num_threads=1, **options), 8)
    assert np.array_equal(parallel, serial)
    assert len(threads) >= 2, "the score ran on the maximizer's worker threads"


def test_resume_rebuilds_a_python_strategy(box2, tmp_path):
    gpbandit.register_strategy("py-ucb-resume", ucb_score)
    path = tmp_path / "py.jsonl"
    opt = gpbandit.Optimizer(box2, "py-ucb-resume", seed=4, log=str(path))
    run(opt, 6)
    copy = tmp_path / "copy.jsonl"
    copy.write_bytes(path.read_bytes())
    resumed = gpbandit.Optimizer.resume(copy)
    assert resumed.strategy == "py-ucb-resume"
    assert np.array_equal(resumed.ask(), opt.ask())


def test_safe_opt_takes_seeds_and_constraint_signals():
    box = gpbandit.Domain.box([-1.0, -1.0], [1.0, 1.0])
    with pytest.raises(ValueError, match="threshold"):
        gpbandit.Optimizer(box, "safe-opt")
    opt = gpbandit.Optimizer(
        box, "safe-opt", seed=1,
        strategy_options={"threshold": 0.0, "seeds": [[0.25, -0.5]],
                          "constraint_thresholds": [-2.0]})
    x = opt.ask()
    assert list(x) == [0.25, -0.5]
    with pytest.raises(ValueError, match="constraints has 0 values"):
        opt.tell(x, 0.4)
    opt.tell(x, 0.4, constraints=[-1.0])
    assert opt.num_accepted == 1


def test_safe_opt_recommends_inside_the_safe_set_and_warns_about_unsafe_seeds():
    line = gpbandit.Domain.box([0.0], [1.0])
    opt = gpbandit.Optimizer(
        line, "safe-opt", seed=2,
        strategy_options={"seeds": [[0.5], [0.9]], "constraint_thresholds": [0.0]})

    def g(x):
        return 0.3 - abs(x - 0.4)  # safe on [0.1, 0.7]; the seed 0.9 is not

    warnings = []
    for _ in range(12):
        x = opt.ask()
        warnings += opt.last_round_report()["warnings"]
        opt.tell(x, float(x[0]), constraints=[g(float(x[0]))])
    assert len(warnings) == 1 and "seed 1 (0.9)" in warnings[0] and "dropped" in warnings[0]
    best = opt.best()
    assert g(float(best.x[0])) >= 0.0
    assert best.x[0] == 0.5 or opt.safety_margin(best.x)[0] >= 0.0
    assert np.array_equal(opt.best(None).x, best.x)
    assert np.isnan(gpbandit.Optimizer(line, "gp-ucb").safety_margin([0.5])[0])
