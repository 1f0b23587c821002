"""gpbandit.minimize: Bayesian optimization of a function over a box or a mixed space, in the
manner of scikit-optimize's gp_minimize."""

import numpy as np

from .optimizer import Optimizer
from .space import Space


class OptimizeResult:
    """What minimize returns (scikit-optimize's names).

    x: the best point evaluated (1-D); fun: its value; x_iters: every point evaluated, one per
    row, in order (x0 first); func_vals: their values; optimizer: the Optimizer, which can go
    on (note that it maximizes -func)."""

    def __init__(self, x_iters, func_vals, optimizer, space=None):
        if space is None or space.is_box:
            self.x_iters = np.asarray(x_iters, dtype=float).reshape(len(func_vals), -1)
        else:  # lists of Python values, one per dimension (scikit-optimize's form)
            self.x_iters = [list(x) for x in x_iters]
        self.func_vals = np.asarray(func_vals, dtype=float)
        best = int(np.argmin(self.func_vals))
        self.x = self.x_iters[best]
        self.fun = float(self.func_vals[best])
        self.optimizer = optimizer

    def __repr__(self):
        return f"OptimizeResult(fun={self.fun!r}, x={self.x!r}, n={len(self.func_vals)})"


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

    func(x) -> float. bounds: one dimension each, in scikit-optimize's conventions
    (gpbandit.space): (low, high) a real, or an integer when both are ints; (low, high,
    "log-uniform") on a log scale; a list of categories. x is a 1-D float64 array when every
    dimension is a linear real, else a list of Python values (float, int, the category).
    n_calls:
    evaluations of func (x0's included when y0 is not given). strategy, seed, kernel, log and
    options: as Optimizer's (gpbandit maximizes, so it is told -func(x)). n_initial_points:
    space-filling points before the model decides (default: the optimizer's, max(2, d + 1)).
    x0: points to evaluate first (one per row); y0: their values, if known (then not
    evaluated). callback(result): called after every evaluation with the OptimizeResult so far;
    returning True stops the run. Returns an OptimizeResult.
    """
    if n_initial_points is not None:
        options["initial_design_size"] = n_initial_points
    space = Space(bounds)
    opt = Optimizer(space.domain, strategy, kernel=kernel, seed=seed, log=log, **options)
    xs, ys = [], []

    def evaluate(x):
        """Evaluates func at x and tells the optimizer; True when the callback says stop."""
        point = space.to_user(x)
        y = float(func(point))
        opt.tell(x, -y)
        xs.append(point)
        ys.append(y)
        return callback is not None and callback(OptimizeResult(xs, ys, opt, space)) is True

    evaluations = 0
    if x0 is not None:
        if space.is_box:
            x0 = np.atleast_2d(np.asarray(x0, dtype=float))
        elif x0 and not isinstance(x0[0], (list, tuple, np.ndarray)):
            x0 = [x0]  # one point
        x0 = [space.from_user(x) for x in x0]
        if y0 is not None:
            y0 = np.atleast_1d(np.asarray(y0, dtype=float))
            opt.tell_many(np.array(x0), -y0)
            xs.extend(space.to_user(x) for x in x0)
            ys.extend(float(v) for v in y0)
        else:
            for x in x0[:n_calls]:
                evaluations += 1
                if evaluate(x):
                    return OptimizeResult(xs, ys, opt, space)
    while evaluations < n_calls:
        evaluations += 1
        if evaluate(opt.ask()):
            break
    return OptimizeResult(xs, ys, opt, space)
