"""Keyword options: defaults read from the C++ structs, values merged over them and carried to
C++ exactly (the optimizer reports what it was built with)."""

import math
import time

import pytest

import gpbandit


def test_a_default_optimizer_reports_the_default_options(box2):
    options = gpbandit.Optimizer(box2).options
    seed = options.pop("seed")  # seed=None draws one (test_conventions.py)
    assert isinstance(seed, int) and 0 <= seed < 2**64
    defaults = gpbandit.default_options()
    defaults.pop("seed")
    assert options == defaults


def test_defaults_are_the_cpp_structs(box2):
    options = gpbandit.default_options()
    # Documented defaults of OptimizerOptions (study/optimizer_options.h) and of the
    # optimizer's fit (DefaultOptimizerFitOptions) against fit.h's own.
    assert options["maximizer_raw_samples"] == 32 and options["maximizer_starts"] == 2
    assert options["initial_design_size"] == -1 and options["seed"] == 0
    assert options["non_finite_rewards"] == "throw"
    assert options["fit"]["num_restarts"] == 1 and options["fit"]["min_noise_variance"] == 1e-10
    plain = gpbandit.default_fit_options()
    assert plain["num_restarts"] == 5 and plain["min_noise_variance"] == 1e-6
    assert gpbandit.default_gp_options() == options["gp"]
    assert gpbandit.strategy_defaults("gp-ucb")["beta_scale"] == 1.0
    assert set(gpbandit.strategy_defaults("ei")) >= {"xi"}


def test_given_options_reach_cpp(box2):
    opt = gpbandit.Optimizer(
        box2,
        seed=2**64 - 1,
        initial_design_size=4,
        maximizer_raw_samples=17,
        maximizer_starts=3,
        maximizer_function_tolerance=1e-7,
        maximizer_raw_sample_design="sobol",
        non_finite_rewards="impute-worst",
        num_threads=1,
        sync_log=False,
        refit={"every": 7},
        gp={"noise_variance": 0.01},
        fit={"num_restarts": 2, "kernel_priors": [(0.0, math.inf), {"mean_log": -1.0,
                                                                     "stddev_log": 0.5},
                                                  (0.0, 1.0)],
             "lower_log_bounds": [-math.inf, -5.0, -5.0], "upper_log_bounds": [math.inf, 5.0, 5.0]},
    )
    o = opt.options
    assert o["seed"] == 2**64 - 1 and o["initial_design_size"] == 4
    assert o["maximizer_raw_samples"] == 17 and o["maximizer_starts"] == 3
    assert o["maximizer_function_tolerance"] == 1e-7
    assert o["maximizer_raw_sample_design"] == "sobol"
    assert o["non_finite_rewards"] == "impute-worst"
    assert o["num_threads"] == 1 and o["sync_log"] is False
    assert o["refit"]["every"] == 7
    assert o["refit"]["small_until"] == gpbandit.default_options()["refit"]["small_until"]
    assert o["gp"]["noise_variance"] == 0.01
    assert o["fit"]["num_restarts"] == 2
    assert o["fit"]["kernel_priors"] == [
        {"mean_log": 0.0, "stddev_log": "inf"},
        {"mean_log": -1.0, "stddev_log": 0.5},
        {"mean_log": 0.0, "stddev_log": 1.0},
    ]
    assert o["fit"]["lower_log_bounds"] == ["-inf", -5.0, -5.0]


def test_doubles_reach_cpp_exactly(box2):
    value = 0.1 + 0.2  # not a short decimal
    opt = gpbandit.Optimizer(box2, gp={"noise_variance": value})
    assert opt.options["gp"]["noise_variance"] == value


def test_strategy_options_by_keyword_or_dict(box2):
    a = gpbandit.Optimizer(box2, beta_scale=0.2, beta_schedule="constant", constant_beta=2.0)
    b = gpbandit.Optimizer(
        box2, strategy_options={"beta_scale": 0.2, "beta_schedule": "constant", "constant_beta": 2}
    )
    assert a.strategy_options == b.strategy_options
    assert a.strategy_options["beta_scale"] == 0.2
    assert a.strategy_options["beta_schedule"] == "constant"
    ei = gpbandit.Optimizer(box2, "ei", xi=0.05)
    assert ei.strategy_options["xi"] == 0.05


def test_an_option_of_another_strategy_is_refused(box2):
    with pytest.raises(ValueError, match="xi: unknown option.*strategy 'gp-ucb''s options"):
        gpbandit.Optimizer(box2, xi=0.05)


def test_options_are_listed_in_the_docstring():
    doc = gpbandit.Optimizer.__doc__
    assert "maximizer_raw_samples = 32" in doc
    assert "fit.num_restarts = 1" in doc


def test_worker_options(box2, tmp_path):
    defaults = gpbandit.WorkerOptions()
    assert defaults.pending_lease_seconds == 3600.0 and defaults.id == ""
    opt = gpbandit.Optimizer(
        box2, storage=str(tmp_path / "study.jsonl"),
        worker={"id": "robot-1", "pending_lease_seconds": 60.0},
    )
    opt.ask()
    pending = opt.pending()
    assert pending.worker == ["robot-1"]
    assert abs(pending.lease_until[0] - time.time() - 60.0) < 30.0
    with pytest.raises(ValueError, match="worker.lease: unknown option"):
        gpbandit.Optimizer(box2, worker={"lease": 1.0})
