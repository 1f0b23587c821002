"""gpbandit.minimize: Bayesian optimization of a function over a box, in the manner of
scikit-optimize's gp_minimize, returning SciPy's OptimizeResult."""

import math
import time
from typing import Any, Callable, List, Optional, Sequence, Tuple, Union

import numpy as np
from scipy.optimize import OptimizeResult

from .domain import Domain
from .kernels import Kernel
from .optimizer import Optimizer, PathLike

Callback = Callable[[OptimizeResult], Any]

__all__ = ["OptimizeResult", "minimize"]


def _result(xs: List[np.ndarray], ys: List[float], nfev: int, opt: Optimizer,
            message: str) -> OptimizeResult:
    """The OptimizeResult of the evaluations so far. The best is taken over the finite values
    only (numpy.nanargmin's rule, infinities left out too): a failed evaluation (NaN) is never
    `fun`."""
    func_vals = np.asarray(ys, dtype=float)
    x_iters = np.asarray(xs, dtype=float).reshape(len(func_vals), opt.domain.action_dim)
    finite = np.isfinite(func_vals)
    result = OptimizeResult(
        x_iters=x_iters, func_vals=func_vals, nfev=nfev, optimizer=opt, message=message,
        success=bool(finite.any()), x=None, fun=math.nan,
    )
    if result.success:
        best = int(np.nanargmin(np.where(finite, func_vals, np.nan)))
        result.x = x_iters[best]
        result.fun = float(func_vals[best])
    else:
        result.message = message + "; no evaluation returned a finite value"
    return result


def _box(bounds: Sequence[Tuple[float, float]]) -> Domain:
    bounds = np.asarray(bounds, dtype=float)
    if bounds.ndim != 2 or bounds.shape[1] != 2:
        raise ValueError(
            f"bounds must be a list of (low, high) pairs, one per dimension, got shape "
            f"{bounds.shape}"
        )
    return Domain.box(bounds[:, 0], bounds[:, 1])


def _callbacks(callback: Union[None, Callback, Sequence[Callback]]) -> List[Callback]:
    if callback is None:
        return []
    callbacks = list(callback) if isinstance(callback, (list, tuple)) else [callback]
    for c in callbacks:
        if not callable(c):
            raise TypeError(f"callback must be a callable or a list of callables, got {c!r}")
    return callbacks


def _check_calls(n_calls: Any) -> int:
    if isinstance(n_calls, bool) or not isinstance(n_calls, (int, np.integer)):
        raise TypeError(f"n_calls must be an int, got {n_calls!r}")
    if n_calls < 1:
        raise ValueError(
            f"n_calls = {n_calls}: must be >= 1 (the number of evaluations of func, x0's "
            "included)"
        )
    return int(n_calls)


def minimize(
    func: Callable[[np.ndarray], float],
    bounds: Sequence[Tuple[float, float]],
    n_calls: int = 100,
    strategy: str = "gp-ucb",
    seed: Optional[int] = None,
    callback: Union[None, Callback, Sequence[Callback]] = None,
    n_initial_points: Optional[int] = None,
    x0: Optional[Any] = None,
    y0: Optional[Any] = None,
    kernel: Optional[Kernel] = None,
    log: Optional[PathLike] = None,
    verbose: bool = False,
    **options: Any,
) -> OptimizeResult:
    """Minimizes func over a box with a Gaussian-process bandit strategy.

    func(x) -> float, x a 1-D float64 array. bounds: (low, high) per dimension. n_calls:
    evaluations of func, >= 1 (x0's included when y0 is not given). strategy, kernel, log
    and options: as Optimizer's (gpbandit maximizes, so it is told -func(x); load_if_exists
    and the other keywords pass through). seed: seeds the run; None (the default) draws a seed
    from the operating system, recorded in result.optimizer.options["seed"]. n_initial_points:
    space-filling points before the model decides (default: the optimizer's,
    max(2, d + 1)). x0: points to evaluate first (one per row); y0: their values, if known
    (then not evaluated). callback: a callable or a list of callables, each called after every
    evaluation with the OptimizeResult so far; any returning True stops the run. verbose: print
    one line per evaluation.

    A NaN or infinite value of func is an error unless non_finite_rewards="skip" (or
    "impute-worst") is given: then it is recorded as a failed evaluation and never becomes the
    result's best.

    Returns a scipy.optimize.OptimizeResult with x (the best point evaluated, 1-D), fun (its
    value), x_iters (every point evaluated, one per row, x0 first), func_vals (their values),
    nfev (evaluations of func; y0's are not counted), success (some value was finite),
    message, and optimizer (the Optimizer, which can go on; note that it maximizes -func).
    """
    n_calls = _check_calls(n_calls)
    callbacks = _callbacks(callback)
    if n_initial_points is not None:
        options["initial_design_size"] = n_initial_points
    opt = Optimizer(_box(bounds), strategy, kernel=kernel, seed=seed, log=log, **options)
    tolerant = opt.options["non_finite_rewards"] != "throw"
    xs: List[np.ndarray] = []
    ys: List[float] = []
    nfev = 0
    start = time.perf_counter()

    def evaluate(x: np.ndarray, trial: Optional[int]) -> bool:
        """Evaluates func at x and tells the optimizer; True when a callback says stop."""
        nonlocal nfev
        y = float(func(x))
        nfev += 1
        if not math.isfinite(y) and not tolerant:
            if trial is not None:
                opt.release(trial=trial)
            raise ValueError(
                f"func returned {y} at x = {np.asarray(x).tolist()}; pass "
                "non_finite_rewards='skip' or 'impute-worst' to minimize to record such "
                "evaluations as failed"
            )
        opt.tell(x, -y, trial=trial)
        xs.append(np.array(x, dtype=float))
        ys.append(y)
        result = _result(xs, ys, nfev, opt, f"{nfev} evaluations of func")
        if verbose:
            print(f"gpbandit.minimize: evaluation {nfev}/{n_calls}: f = {y:.6g}, best so far "
                  f"{result.fun:.6g}, {time.perf_counter() - start:.2f} s", flush=True)
        return any(c(result) is True for c in callbacks)

    if x0 is not None:
        x0 = np.atleast_2d(np.asarray(x0, dtype=float))
        if y0 is not None:
            y0 = np.atleast_1d(np.asarray(y0, dtype=float))
            if len(y0) != len(x0):
                raise ValueError(f"y0 must hold one value per row of x0: x0 has {len(x0)} "
                                 f"rows, y0 {len(y0)} values")
            opt.tell_many(x0, -y0)
            xs.extend(x0)
            ys.extend(float(v) for v in y0)
        else:
            for x in x0[:n_calls]:
                if evaluate(x, None):
                    return _result(xs, ys, nfev, opt, "stopped by a callback")
    while nfev < n_calls:
        x = opt.ask()
        if evaluate(x, x.trial):
            return _result(xs, ys, nfev, opt, "stopped by a callback")
    return _result(xs, ys, nfev, opt, f"{n_calls} evaluations of func done")
