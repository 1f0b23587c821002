"""gpbandit.minimize: Bayesian optimization of a function over a box, in the manner of
scikit-optimize's gp_minimize."""

import numpy as np

from .domain import Domain
from .optimizer import Optimizer


class OptimizeResult:
    """What minimize returns (scikit-optimize's names).

    x: the best point evaluated (1-D); fun: its value; x_iters: every point evaluated, one per
    row, in order (x0 first); func_vals: their values; optimizer: the Optimizer, which can go
    on (note that it maximizes -func)."""

    def __init__(self, x_iters, func_vals, optimizer):
        self.x_iters = np.asarray(x_iters, dtype=float).reshape(len(func_vals), -1)
        self.func_vals = np.asarray(func_vals, dtype=float)
        best = int(np.argmin(self.func_vals))
        self.x = self.x_iters[best]
        self.fun = float(self.func_vals[best])
        self.optimizer = optimizer

    def __repr__(self):
        return f"OptimizeResult(fun={self.fun!r}, x={self.x!r}, n={len(self.func_vals)})"


def _box(bounds):
    bounds = np.asarray(bounds, dtype=float)
    if bounds.ndim != 2 or bounds.shape[1] != 2:
        raise ValueError(
            f"bounds must be a list of (low, high) pairs, one per dimension, got shape "
            f"{bounds.shape}"
        )
    return Domain.box(bounds[:, 0], bounds[:, 1])


def minimize(
    func,
    bounds,
    n_calls=100,
    strategy="gp-ucb",
    seed=None,
    callback=None,
    n_initial_points=None,
    x0=None,
    y0=None,
    kernel=None,
    log=None,
    **options,
):
    """Minimizes func over a box with a Gaussian-process bandit strategy.

    func(x) -> float, x a 1-D float64 array. bounds: (low, high) per dimension. n_calls:
    evaluations of func (x0's included when y0 is not given). strategy, seed, kernel, log and
    options: as Optimizer's (gpbandit maximizes, so it is told -func(x)). n_initial_points:
    space-filling points before the model decides (default: the optimizer's, max(2, d + 1)).
    x0: points to evaluate first (one per row); y0: their values, if known (then not
    evaluated). callback(result): called after every evaluation with the OptimizeResult so far;
    returning True stops the run. Returns an OptimizeResult.
    """
    if n_initial_points is not None:
        options["initial_design_size"] = n_initial_points
    opt = Optimizer(_box(bounds), strategy, kernel=kernel, seed=seed, log=log, **options)
    xs, ys = [], []

    def evaluate(x):
        """Evaluates func at x and tells the optimizer; True when the callback says stop."""
        y = float(func(x))
        opt.tell(x, -y)
        xs.append(np.array(x, dtype=float))
        ys.append(y)
        return callback is not None and callback(OptimizeResult(xs, ys, opt)) is True

    evaluations = 0
    if x0 is not None:
        x0 = np.atleast_2d(np.asarray(x0, dtype=float))
        if y0 is not None:
            y0 = np.atleast_1d(np.asarray(y0, dtype=float))
            opt.tell_many(x0, -y0)
            xs.extend(x0)
            ys.extend(float(v) for v in y0)
        else:
            for x in x0[:n_calls]:
                evaluations += 1
                if evaluate(x):
                    return OptimizeResult(xs, ys, opt)
    while evaluations < n_calls:
        evaluations += 1
        if evaluate(opt.ask()):
            break
    return OptimizeResult(xs, ys, opt)
