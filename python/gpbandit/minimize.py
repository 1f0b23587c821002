"""gpbandit.minimize: Bayesian optimization of a function over a box or a mixed space, in the
manner of scikit-optimize's gp_minimize, returning SciPy's OptimizeResult."""

import math
import time
from typing import Any, Callable, List, Optional, Sequence, Union

import numpy as np
from scipy.optimize import OptimizeResult

from .kernels import Kernel
from .optimizer import Optimizer, PathLike
from .space import Space

Callback = Callable[[OptimizeResult], Any]

__all__ = ["OptimizeResult", "minimize"]


def _result(xs: List[Any], ys: List[float], nfev: int, opt: Optimizer, message: str,
            space: Space) -> OptimizeResult:
    """The OptimizeResult of the evaluations so far. The best is taken over the finite values
    only (numpy.nanargmin's rule, infinities left out too): a failed evaluation (NaN) is never
    `fun`. Points: rows of a float array on a box, lists of Python values on a mixed space."""
    func_vals = np.asarray(ys, dtype=float)
    if space.is_box:
        x_iters = np.asarray(xs, dtype=float).reshape(len(func_vals), opt.domain.action_dim)
    else:
        x_iters = [list(x) for x in xs]
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
    func: Callable[[Any], float],
    bounds: Sequence[Any],
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
    """Minimizes func over a box or a mixed space with a Gaussian-process bandit strategy.

    func(x) -> float. bounds: one dimension each, in scikit-optimize's conventions
    (gpbandit.space): (low, high) a real, or an integer when both are ints; (low, high,
    "log-uniform") on a log scale; a list of categories. x is a 1-D float64 array when every
    dimension is a linear real, else a list of Python values (float, int, the category). n_calls:
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

    Returns a scipy.optimize.OptimizeResult with x (the best point evaluated, 1-D; a list on a
    mixed space), fun (its value), x_iters (every point evaluated, one per row, x0 first),
    func_vals (their values), nfev (evaluations of func; y0's are not counted), success (some
    value was finite), message, and optimizer (the Optimizer, which can go on; note that it maximizes -func).
    """
    n_calls = _check_calls(n_calls)
    callbacks = _callbacks(callback)
    if n_initial_points is not None:
        options["initial_design_size"] = n_initial_points
    space = Space(bounds)
    opt = Optimizer(space.domain, strategy, kernel=kernel, seed=seed, log=log, **options)
    tolerant = opt.options["non_finite_rewards"] != "throw"
    xs: List[np.ndarray] = []
    ys: List[float] = []
    nfev = 0
    start = time.perf_counter()

    def evaluate(x: Any, trial: Optional[int]) -> bool:
        """Evaluates func at x (a vector, or a space's dict) and tells the optimizer; True when
        a callback says stop."""
        nonlocal nfev
        point = space.to_user(x)
        y = float(func(point))
        nfev += 1
        if not math.isfinite(y) and not tolerant:
            if trial is not None:
                opt.release(trial=trial)
            raise ValueError(
                f"func returned {y} at x = {np.asarray(point).tolist()}; pass "
                "non_finite_rewards='skip' or 'impute-worst' to minimize to record such "
                "evaluations as failed"
            )
        opt.tell(x, -y, trial=trial)
        xs.append(point)
        ys.append(y)
        result = _result(xs, ys, nfev, opt, f"{nfev} evaluations of func", space)
        if verbose:
            print(f"gpbandit.minimize: evaluation {nfev}/{n_calls}: f = {y:.6g}, best so far "
                  f"{result.fun:.6g}, {time.perf_counter() - start:.2f} s", flush=True)
        return any(c(result) is True for c in callbacks)

    if x0 is not None:
        if not space.is_box and len(x0) and not isinstance(x0[0], (list, tuple, np.ndarray)):
            x0 = [x0]  # one point
        x0 = np.atleast_2d([space.from_user(x) for x in x0] if not space.is_box
                           else np.asarray(x0, dtype=float))
        if y0 is not None:
            y0 = np.atleast_1d(np.asarray(y0, dtype=float))
            if len(y0) != len(x0):
                raise ValueError(f"y0 must hold one value per row of x0: x0 has {len(x0)} "
                                 f"rows, y0 {len(y0)} values")
            opt.tell_many(x0, -y0)
            xs.extend(space.to_user(x) for x in x0)
            ys.extend(float(v) for v in y0)
        else:
            for x in x0[:n_calls]:
                if evaluate(x, None):
                    return _result(xs, ys, nfev, opt, "stopped by a callback", space)
    while nfev < n_calls:
        x = opt.ask()
        if evaluate(x, x.trial):
            return _result(xs, ys, nfev, opt, "stopped by a callback", space)
    return _result(xs, ys, nfev, opt, f"{n_calls} evaluations of func done", space)
