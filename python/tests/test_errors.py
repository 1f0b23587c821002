"""Bad input: C++'s std::invalid_argument arrives as ValueError and std::runtime_error as
RuntimeError with the same message, the Python layer's own checks name the field, and a
refused call changes nothing."""

import math

import numpy as np
import pytest

import gpbandit


def unchanged(opt, call, error, match):
    before = opt.fingerprint()
    with pytest.raises(error, match=match):
        call()
    assert opt.fingerprint() == before


def test_domain_errors_name_the_field_and_value():
    with pytest.raises(ValueError, match=r"lower\(1\) = 3 > upper\(1\) = 1|lower.*3.*upper.*1"):
        gpbandit.Domain.box([0, 3], [1, 1])
    with pytest.raises(ValueError, match="size"):
        gpbandit.Domain.box([0, 0], [1, 1, 1])
    with pytest.raises(ValueError, match="finite|nan"):
        gpbandit.Domain.box([0, math.nan], [1, 1])
    with pytest.raises(ValueError, match=r"candidates must be a 2-D array.*shape \(3,\)"):
        gpbandit.Domain.finite([1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="lower must be an array of numbers, got str"):
        gpbandit.Domain.box("ab", [1, 1])
    with pytest.raises(ValueError, match=r"lower must be a 1-D array \(one point\), got shape \(2, 1\)"):
        gpbandit.Domain.box([[0], [1]], [1, 1])


def test_tell_errors_leave_the_optimizer_unchanged(trained):
    unchanged(trained, lambda: trained.tell([1.0, 2.0, 3.0], 0.0), ValueError, "x")
    unchanged(trained, lambda: trained.tell([9.0, 2.0], 0.0), ValueError, "x")
    unchanged(trained, lambda: trained.tell([1.0, 2.0], math.nan), ValueError, "y is not finite")
    unchanged(trained, lambda: trained.tell([1.0, 2.0], math.inf), ValueError, "y is not finite")
    unchanged(trained, lambda: trained.tell([1.0, 2.0], 0.0, context=[1.0]), ValueError, "context")
    unchanged(trained, lambda: trained.tell([[1.0, 2.0]], 0.0), ValueError, "x must be a 1-D")
    with pytest.raises((TypeError, ValueError)):
        trained.tell([1.0, 2.0], "high")


def test_tell_many_is_all_or_nothing(trained):
    X = np.array([[1.0, 2.0], [7.0, 2.0]])  # the second row is outside the box
    unchanged(trained, lambda: trained.tell_many(X, [0.0, 0.0]), ValueError, "X")
    unchanged(
        trained, lambda: trained.tell_many([[1.0, 2.0]], [0.0, 1.0]), ValueError,
        "y must hold one value per row of X: X has 1 row, y has shape",
    )
    unchanged(trained, lambda: trained.tell_many([1.0, 2.0], [0.0]), ValueError, "2-D array")


def test_ask_errors(trained):
    unchanged(trained, lambda: trained.ask_batch(0), ValueError, "q must be >= 1, got 0")
    unchanged(trained, lambda: trained.ask(context=[0.5]), ValueError, "context")
    finite = gpbandit.Optimizer(gpbandit.Domain.finite([[0.0], [1.0]]))
    unchanged(finite, lambda: finite.ask_batch(3), ValueError, "q = 3 exceeds the 2 candidates")


def test_context_outside_its_bounds():
    domain = gpbandit.Domain.box([0.0], [1.0]).with_context(1, [0.0], [1.0])
    opt = gpbandit.Optimizer(domain, "cgp-ucb")
    unchanged(opt, lambda: opt.ask(context=[2.0]), ValueError, "context")
    unchanged(opt, lambda: opt.ask(), ValueError, "context")


def test_option_errors_name_the_option(box2):
    with pytest.raises(ValueError, match="maximizer_start: unknown option; the optimizer's"):
        gpbandit.Optimizer(box2, maximizer_start=3)
    with pytest.raises(ValueError, match=r"fit\.num_restart: unknown option; known: .*num_restarts"):
        gpbandit.Optimizer(box2, fit={"num_restart": 3})
    with pytest.raises(TypeError, match="maximizer_starts must be an integer, got 2.5"):
        gpbandit.Optimizer(box2, maximizer_starts=2.5)
    with pytest.raises(TypeError, match="sync_log must be True or False"):
        gpbandit.Optimizer(box2, sync_log=1)
    with pytest.raises(ValueError, match="seed = -1 must be in"):
        gpbandit.Optimizer(box2, seed=-1)
    # Ranges are checked in C++ (OptimizerOptions::IsValid), naming the field and value.
    with pytest.raises(ValueError, match="maximizer_starts"):
        gpbandit.Optimizer(box2, maximizer_starts=0)
    with pytest.raises(ValueError, match="non_finite_rewards \"sometimes\" is not throw, skip"):
        gpbandit.Optimizer(box2, non_finite_rewards="sometimes")
    with pytest.raises(ValueError, match="fit.max_noise_variance = inf: must be a finite number"):
        gpbandit.Optimizer(box2, fit={"max_noise_variance": math.inf})
    with pytest.raises(ValueError, match="maximizer_function_tolerance = nan: must be a finite"):
        gpbandit.Optimizer(box2, maximizer_function_tolerance=math.nan)
    with pytest.raises(ValueError, match="min_noise_variance must be finite and > 0, got -1"):
        gpbandit.Optimizer(box2, fit={"min_noise_variance": -1.0})


def test_strategy_errors(box2):
    with pytest.raises(ValueError, match="strategy = 'gp-ucp': unknown; registered: .*gp-ucb"):
        gpbandit.Optimizer(box2, "gp-ucp")
    # The strategy's own check (GpUcbOptions::IsValid), verbatim.
    with pytest.raises(ValueError, match="gp-ucb options: beta_scale = -1: must be finite and > 0"):
        gpbandit.Optimizer(box2, beta_scale=-1.0)
    with pytest.raises(ValueError, match="beta_schedule"):
        gpbandit.Optimizer(box2, beta_schedule="sometimes")


def test_kernel_errors():
    with pytest.raises(ValueError, match="dims"):
        gpbandit.kernels.Matern52([])
    k = gpbandit.kernels.Matern52([0, 1])
    with pytest.raises(ValueError, match="log_params|size"):
        k.log_params = [0.0]
    assert k.log_params.shape == (3,)  # unchanged
    with pytest.raises(ValueError, match="unknown|known"):
        gpbandit.kernels.make_kernel("matern72", [0])
    with pytest.raises(ValueError, match="kernel"):
        # A kernel over 3 inputs on a 2-D domain.
        gpbandit.Optimizer(gpbandit.Domain.box([0, 0], [1, 1]),
                           kernel=gpbandit.kernels.Matern52([0, 1, 2]))


def test_storage_errors_are_runtime_errors(box2, tmp_path):
    with pytest.raises(RuntimeError, match="no-such-dir"):
        gpbandit.Optimizer(box2, log=str(tmp_path / "no-such-dir" / "runs.jsonl")).tell([1, 1], 0)
    with pytest.raises(RuntimeError):
        gpbandit.Optimizer.open(str(tmp_path), "absent")


def test_messages_are_the_cpp_messages(trained, box2):
    # The C++ message arrives verbatim, nothing added (optimizer/optimizer.cc's texts).
    with pytest.raises(ValueError) as info:
        trained.ask_batch(0)
    assert str(info.value) == "q must be >= 1, got 0"
    with pytest.raises(RuntimeError) as info:
        gpbandit.Optimizer(box2).best()
    assert str(info.value) == "Best: no accepted observation yet"
