"""The strategy registry (optimizer/strategy_registry.h) and strategies written in Python."""

from typing import Callable, List, Optional, Set, Tuple

from . import _core
from .options import strategy_defaults

RoundState = _core.RoundState
Score = Callable[[float, float], Tuple[float, float, float]]

# The names registered from Python in this process: the ones replace=True may replace.
_python_names: Set[str] = set()


def strategies() -> List[str]:
    """The registered strategy names, sorted (built-in and registered ones)."""
    return _core.strategy_names()


def strategy_description(name: str) -> str:
    """The one-line description of a registered strategy."""
    return _core.strategy_description(name)


def register_strategy(
    name: str,
    score: Score,
    begin_round: Optional[Callable[[RoundState], None]] = None,
    description: str = "",
    *,
    replace: bool = False,
) -> None:
    """Registers a strategy written in Python under `name`, for Optimizer(strategy=name).

    score(mean, variance) -> (value, d_mean, d_variance): the acquisition at a point whose
    posterior has this mean and variance (floats, in the model's output units), and its partial
    derivatives, which the acquisition maximizer's L-BFGS needs. Larger is better. An index
    strategy, as UCB, EI or PI: mu + 2 sqrt(var) is
        lambda m, v: (m + 2 * v**0.5, 1.0, 1.0 / max(v, 1e-300)**0.5)
    begin_round(state), optional: called once per model-driven round before scoring, with a
    RoundState (t, incumbent, best_observed, noise_variance, ...).

    Costs and threads: score is called for every point the maximizer evaluates (hundreds per
    ask) from the maximizer's threads, each call taking the GIL, so the threads take turns:
    expect asks several times slower than a built-in strategy's, and pass num_threads=1 to the
    Optimizer to spare the hand-offs. Errors: an exception raised by score or begin_round is
    raised by ask(), and the optimizer is left as it was. Registration lasts for the process;
    Optimizer.resume of a study that used the strategy needs it registered again in the new
    process.

    Registering a name again (a notebook cell run twice) is a ValueError unless replace=True:
    then a strategy registered from Python is replaced (optimizers built before keep the old
    one; later ones, and resume, use the new one). Built-in strategies and those registered in
    C++ are never replaced.
    """
    if not callable(score):
        raise TypeError(f"score must be callable, got {score!r}")
    if begin_round is not None and not callable(begin_round):
        raise TypeError(f"begin_round must be callable or None, got {begin_round!r}")
    if name in strategies():
        if name not in _python_names:
            raise ValueError(
                f"strategy {name!r} is already registered (built in, or registered in C++) and "
                "cannot be replaced from Python; choose another name"
            )
        if not replace:
            raise ValueError(
                f"strategy {name!r} is already registered (from Python): pass replace=True to "
                "replace it, or choose another name"
            )
    _core.register_python_strategy(name, score, begin_round, description, replace)
    _python_names.add(name)


__all__ = [
    "RoundState",
    "register_strategy",
    "strategies",
    "strategy_defaults",
    "strategy_description",
]
