"""gpbandit: Gaussian-process bandit optimization (GP-UCB, CGP-UCB, IGP-UCB, GP-TS, EI, LogEI,
PI) from Python, on the C++ library.

    import gpbandit
    opt = gpbandit.Optimizer(gpbandit.Domain.box([0, 0], [5, 10]), "gp-ucb", seed=1)
    for _ in range(30):
        x = opt.ask()              # a 1-D float64 array (x.trial: its trial number)
        opt.tell(x, experiment(x)) # larger rewards are better
    print(opt.best().x)

Arrays are float64 numpy arrays: a point is 1-D, a batch of points 2-D with one point per row.
docs/python.md is the reference."""

from ._core import FitReport, FitTermination, WorkerOptions, __version__
from .dashboard import dashboard, report
from .domain import Domain
from .kernels import Kernel, kernel_names
from .minimize import OptimizeResult, minimize
from .model import GaussianProcess, fit_hyperparameters
from .optimizer import (
    Observations,
    Optimizer,
    Pending,
    Prediction,
    Recommendation,
    Suggestion,
    Suggestions,
)
from .outcomes import ParetoPoint
from .options import default_fit_options, default_gp_options, default_options, strategy_defaults
from .space import Categorical, Integer, Real, Space
from .strategies import RoundState, register_strategy, strategies, strategy_description
from . import kernels, space

__all__ = [
    "Categorical",
    "Domain",
    "FitReport",
    "FitTermination",
    "GaussianProcess",
    "Integer",
    "Kernel",
    "Observations",
    "OptimizeResult",
    "Optimizer",
    "ParetoPoint",
    "Pending",
    "Prediction",
    "Real",
    "Recommendation",
    "RoundState",
    "Space",
    "Suggestion",
    "Suggestions",
    "WorkerOptions",
    "__version__",
    "dashboard",
    "default_fit_options",
    "default_gp_options",
    "default_options",
    "fit_hyperparameters",
    "kernel_names",
    "kernels",
    "minimize",
    "register_strategy",
    "report",
    "space",
    "strategies",
    "strategy_defaults",
    "strategy_description",
]
