"""gpbandit.minimize: Bayesian optimization of a function over a box or a mixed space, in the
manner of scikit-optimize's gp_minimize, returning SciPy's OptimizeResult."""

import math
import time
from typing import Any, Callable, Dict, List, Optional, Sequence, Union

import numpy as np
from scipy.optimize import OptimizeResult

from . import _core
from .kernels import Kernel
from .optimizer import Optimizer, PathLike
from .space import Space

Callback = Callable[[OptimizeResult], Any]

__all__ = ["OptimizeResult", "minimize"]


def _result(opt: Optimizer, unevaluated: int, message: str, space: Space) -> OptimizeResult:
    """The OptimizeResult of the study so far: every tell it holds, in order (an earlier run's
    and other workers' included). The best is taken over the finite values only
    (numpy.nanargmin's rule, infinities left out too): a failed evaluation (NaN) is never `fun`.
    Points: rows of a float array on a box, lists of Python values on a mixed space.
    unevaluated: the tells that were not evaluations of func (y0's). With fidelities the best
    is taken at the target only, and fidelities (each tell's) and cost_spent are added."""
    observed = opt.observations()
    func_vals = -np.asarray(observed.y, dtype=float)  # the optimizer was told -func(x)
    if space.is_box:
        x_iters = np.asarray(observed.x, dtype=float).reshape(len(func_vals), opt.domain.action_dim)
    else:
        x_iters = [space.to_user(x) for x in observed.x]
    finite = np.isfinite(func_vals)
    if observed.fidelity is not None:
        finite &= observed.fidelity == opt.fidelity_names[-1]
    result = OptimizeResult(
        x_iters=x_iters, func_vals=func_vals, nfev=max(0, len(func_vals) - unevaluated),
        optimizer=opt, message=message, success=bool(finite.any()), x=None, fun=math.nan,
        cost_spent=opt.cost_spent,
    )
    if observed.fidelity is not None:
        result.fidelities = observed.fidelity
    if result.success:
        best = int(np.nanargmin(np.where(finite, func_vals, np.nan)))
        result.x = x_iters[best]
        result.fun = float(func_vals[best])
    elif observed.fidelity is not None:
        result.message = message + "; no evaluation at the target returned a finite value"
    else:
        result.message = message + "; no evaluation returned a finite value"
    return result


def _orphans(opt: Optimizer, own_name: Optional[str]) -> List[Any]:
    """The pending points of the study that nobody will tell: those of a crashed process of this
    host (a default worker name "host:pid" whose process no longer runs) and, when this worker
    has a name of its own (worker={"id": ...}), those an earlier process left under that name.
    Each as (vector, trial, fidelity name or None)."""
    pending = opt.pending()
    fidelity = pending.fidelity if pending.fidelity is not None else [None] * len(pending.worker)
    return [
        (np.asarray(pending.x[i]), int(pending.trial[i]), fidelity[i])
        for i, worker in enumerate(pending.worker)
        if (own_name and worker == own_name) or _core._worker_process_gone(worker)
    ]


def _worker_name(options: Dict[str, Any]) -> Optional[str]:
    worker = options.get("worker")
    if isinstance(worker, _core.WorkerOptions):
        return worker.id or None
    if isinstance(worker, dict):
        return worker.get("id") or None
    return None


def _callbacks(callback: Union[None, Callback, Sequence[Callback]]) -> List[Callback]:
    if callback is None:
        return []
    callbacks = list(callback) if isinstance(callback, (list, tuple)) else [callback]
    for c in callbacks:
        if not callable(c):
            raise TypeError(f"callback must be a callable or a list of callables, got {c!r}")
    return callbacks


def _check_calls(n_calls: Any, budget: Any) -> Optional[int]:
    if n_calls is None:
        return None if budget is not None else 100
    if isinstance(n_calls, bool) or not isinstance(n_calls, (int, np.integer)):
        raise TypeError(f"n_calls must be an int, got {n_calls!r}")
    if n_calls < 1:
        raise ValueError(
            f"n_calls = {n_calls}: must be >= 1 (the number of evaluations of func, x0's "
            "included)"
        )
    return int(n_calls)


def _check_budget(budget: Any) -> Optional[float]:
    if budget is None:
        return None
    if isinstance(budget, (bool, np.bool_)) or not isinstance(budget, (int, float, np.number)):
        raise TypeError(f"budget must be a number (in the fidelities' cost unit), got {budget!r}")
    if not budget > 0 or not math.isfinite(budget):
        raise ValueError(f"budget = {budget}: must be finite and > 0")
    return float(budget)


def minimize(
    func: Callable[..., float],
    bounds: Sequence[Any],
    n_calls: Optional[int] = None,
    strategy: str = "gp-ucb",
    seed: Optional[int] = None,
    callback: Union[None, Callback, Sequence[Callback]] = None,
    n_initial_points: Optional[int] = None,
    x0: Optional[Any] = None,
    y0: Optional[Any] = None,
    kernel: Optional[Kernel] = None,
    log: Optional[PathLike] = None,
    verbose: bool = False,
    budget: Optional[float] = None,
    **options: Any,
) -> OptimizeResult:
    """Minimizes func over a box or a mixed space with a Gaussian-process bandit strategy.

    func(x) -> float. bounds: one dimension each, in scikit-optimize's conventions
    (gpbandit.space): (low, high) a real, or an integer when both are ints; (low, high,
    "log-uniform") on a log scale; a list of categories. x is a 1-D float64 array when every
    dimension is a linear real, else a list of Python values (float, int, the category).
    n_calls: the evaluations of func the study is to hold, >= 1, counted as scikit-optimize
    counts x0: x0's evaluations included, y0's values not (they come on top). A study continued
    (log=... with load_if_exists=True, or a shared storage) counts what it holds already, an
    earlier run's evaluations and other workers' included: the call evaluates until the study
    holds n_calls, none if it does already. strategy, kernel, log and options: as Optimizer's
    (gpbandit maximizes, so it is told -func(x); load_if_exists, worker and the other keywords
    pass through). seed: seeds the run; None (the default) draws a seed from the operating
    system, recorded in result.optimizer.options["seed"]. n_initial_points: space-filling
    points before the model decides (default: the optimizer's, max(2, d + 1)). x0: points to
    evaluate first (one per row); y0: their values, if known (then not evaluated); a point of
    x0 the continued study holds already is neither evaluated nor told again. callback: a
    callable or a list of callables, each called after every evaluation with the
    OptimizeResult so far; any returning True stops the run. verbose: print one line per
    evaluation.

    A continued study may hold points handed out and never told, by a run that crashed while
    it evaluated them: those of a process of this host that no longer runs (a worker under the
    default name "host:pid"), and those left under this worker's own name (worker={"id":
    ...}) by an earlier process. They are evaluated first, before anything new is asked, and
    told by their trial numbers (which releases them). Points of a crashed process on another
    host stay pending until their lease ends (worker={"pending_lease_seconds": ...}); give
    each run the same worker id to have them evaluated again too.

    A NaN or infinite value of func is an error unless non_finite_rewards="skip" (or
    "impute-worst") is given: then it is recorded as a failed evaluation and never becomes the
    result's best. minimize optimizes one number: a func that returns several (a tuple, a list
    or an array of more than one value) is a TypeError naming what takes them, an Optimizer
    with objectives= and constraints= (docs/python.md, "Several outcomes"); its point is given
    back. A one-element list or array counts as its value.

    Returns a scipy.optimize.OptimizeResult of the whole study: x (the best point evaluated,
    1-D; a list on a mixed space), fun (its value), x_iters (every point the study holds, one
    per row, in the order told: y0's and x0's first in a new study), func_vals (their values),
    nfev (the study's evaluations of func: len(func_vals) less the y0 values given to this
    call; an earlier run's and other workers' included), success (some value was finite),
    message, and optimizer (the Optimizer, which can go on; note that it maximizes -func).

    Several fidelities (fidelities=[("sim", 1.0), ("robot", 20.0)], as Optimizer takes them,
    with fidelity_model=, fidelity_rule=, min_correlation=): func is called as
    func(x, fidelity) with the name of the fidelity to evaluate x at (x0's points and the
    initial design at the target, the last). budget: the total cost the study may spend, in the
    costs' unit (without fidelities every evaluation costs 1); the run stops before an
    evaluation whose cost would take cost_spent above it (that point is given back). A
    continued study counts what it spent before. n_calls: default 100 without a budget, no
    limit with one; given both, the first reached stops. With fidelities, x and fun are the best
    at the target, result.fidelities holds each tell's fidelity name; every result has
    cost_spent.

    Earlier studies (sources=["old.jsonl"], as Optimizer takes them): their observations are
    in func_vals (at their level's name in result.fidelities) but are not evaluations: nfev
    and n_calls leave them out, func takes x alone unless fidelities= declares several, and x,
    fun are the best at the target.
    """
    budget = _check_budget(budget)
    n_calls = _check_calls(n_calls, budget)
    callbacks = _callbacks(callback)
    if n_initial_points is not None:
        options["initial_design_size"] = n_initial_points
    space = Space(bounds)
    opt = Optimizer(space.domain, strategy, kernel=kernel, seed=seed, log=log, **options)
    tolerant = opt.options["non_finite_rewards"] != "throw"
    x0, y0 = _warm_start(x0, y0, space)
    # The study's tells count (an earlier run's, other workers'): it is done when it holds
    # n_calls evaluations of func besides y0's values.
    told = 0 if y0 is None else len(y0)
    # An earlier study's observations (sources=, cost 0) are the study's but not evaluations.
    source_names = [name for name, cost in opt.fidelities if cost == 0]
    if source_names:
        told += int(np.isin(opt.observations().fidelity, source_names).sum())
    target = math.inf if n_calls is None else n_calls + told
    start = time.perf_counter()
    # The evaluable fidelities: func takes one only when there are several.
    costs = {name: cost for name, cost in opt.fidelities if cost > 0}
    if len(costs) < 2:
        costs = {}
    final = opt.fidelity_names[-1] if costs else None

    def tells() -> int:
        return len(opt.observations().y)

    def affordable(fidelity: Optional[str]) -> bool:
        """Whether an evaluation at `fidelity` (None: the target) stays within the budget."""
        if budget is None:
            return True
        cost = costs[fidelity or final] if costs else 1.0
        return opt.cost_spent + cost <= budget * (1 + 1e-12)

    def evaluate(x: Any, trial: Optional[int], orphan: bool = False,
                 fidelity: Optional[str] = None) -> bool:
        """Evaluates func at x (a vector, or a space's dict) and tells the optimizer (releasing
        the pending point of `trial`); True when a callback says stop."""
        point = space.to_user(x)
        value = func(point, fidelity or final) if costs else func(point)
        try:
            y = _single_value(value, point)
        except TypeError:
            if trial is not None:
                opt.release(trial=trial)
            raise
        if not math.isfinite(y) and not tolerant:
            if trial is not None:
                opt.release(trial=trial)
            raise ValueError(
                f"func returned {y} at x = {np.asarray(point).tolist()}; pass "
                "non_finite_rewards='skip' or 'impute-worst' to minimize to record such "
                "evaluations as failed"
            )
        if orphan:
            opt.sync()
            if trial not in opt.pending().trial:
                trial = None  # another worker took it over meanwhile: a tell of its own
        opt.tell(x, -y, trial=trial, fidelity=fidelity)
        result = _result(opt, told, f"{tells() - told} evaluations of func", space)
        if verbose:
            at = f" at {fidelity or final}" if costs else ""
            spent = f", cost {result.cost_spent:.6g}/{budget:.6g}" if budget is not None else ""
            of = f"/{n_calls}" if n_calls is not None else ""
            print(f"gpbandit.minimize: evaluation {result.nfev}{of}{at}: f = {y:.6g}, best "
                  f"so far {result.fun:.6g}{spent}, {time.perf_counter() - start:.2f} s",
                  flush=True)
        return any(c(result) is True for c in callbacks)

    def stopped() -> OptimizeResult:
        return _result(opt, told, "stopped by a callback", space)

    # A crashed run's points first (pending, and nobody else will tell them): as if it had not
    # crashed, its suggestions are evaluated before anything new is asked.
    for x, trial, fidelity in _orphans(opt, _worker_name(options)):
        if tells() >= target or not affordable(fidelity):
            break
        if evaluate(x, trial, orphan=True, fidelity=fidelity):
            return stopped()
    if x0 is not None:
        # A resumed study holds its warm start already: a point it holds is not told again.
        held = opt.observations().x
        fresh = [i for i, x in enumerate(x0) if not any(np.array_equal(x, h) for h in held)]
        if y0 is not None:
            if fresh:
                opt.tell_many(x0[fresh], -y0[fresh])
        else:
            for i in fresh:
                if tells() >= target or not affordable(None):
                    break
                if evaluate(x0[i], None):
                    return stopped()
    while tells() < target:
        x = opt.ask()
        if not affordable(x.fidelity):
            opt.release(trial=x.trial)
            return _result(opt, told, f"the budget: cost spent {opt.cost_spent:.6g}, the next "
                           f"evaluation{' at ' + x.fidelity if x.fidelity else ''} would take "
                           f"it above {budget:.6g}", space)
        if evaluate(x, x.trial, fidelity=x.fidelity):
            return stopped()
    return _result(opt, told, f"the study holds {tells() - told} evaluations of func "
                   f"(n_calls = {n_calls})", space)


def _single_value(value: Any, point: Any) -> float:
    """func's value as a float. Several values (a tuple, a list, an array of more than one) are
    a TypeError that says what takes them: minimize optimizes one number."""
    if isinstance(value, (tuple, list, np.ndarray)) and np.size(value) != 1:
        count = np.size(value) if not isinstance(value, (tuple, list)) else len(value)
        raise TypeError(
            f"func returned {count} values ({type(value).__name__} {value!r}) at x = "
            f"{np.asarray(point).tolist() if isinstance(point, np.ndarray) else point}; "
            "minimize optimizes one number. For several objectives or outcome constraints use "
            "gpbandit.Optimizer(gpbandit.Space(bounds).domain, objectives=[('f1', 'min'), "
            "('f2', 'min')], constraints=[('g', '<=', 0.0)]) with ask() and tell(x, {'f1': ..., "
            "'f2': ..., 'g': ...}), then pareto_front() (docs/python.md, \"Several "
            "outcomes\"); or return one number, e.g. a weighted sum"
        )
    if isinstance(value, (tuple, list)):
        value = value[0]
    try:
        return float(np.asarray(value, dtype=np.float64).reshape(()))
    except (TypeError, ValueError):
        raise TypeError(
            f"func must return a number, got {type(value).__name__} {value!r} at x = {point!r}"
        ) from None


def _warm_start(x0: Any, y0: Any, space: Space) -> Any:
    """x0 as an array of action vectors (one per row) and y0 as a float array, or None."""
    if x0 is None:
        return None, None
    if not space.is_box and len(x0) and not isinstance(x0[0], (list, tuple, np.ndarray)):
        x0 = [x0]  # one point
    x0 = np.atleast_2d([space.from_user(x) for x in x0] if not space.is_box
                       else np.asarray(x0, dtype=float))
    if y0 is not None:
        y0 = np.atleast_1d(np.asarray(y0, dtype=float))
        if len(y0) != len(x0):
            raise ValueError(f"y0 must hold one value per row of x0: x0 has {len(x0)} "
                             f"rows, y0 {len(y0)} values")
    return x0, y0
