"""The Gaussian-process model on its own and its hyperparameter fit (gp/gaussian_process.h,
hyperparams/fit.h): what `gpbandit fit` does on the command line. Inputs are in the caller's
units (the Optimizer maps its own to the unit cube first)."""

from typing import Any, Mapping, Optional, Tuple

from . import _core, options as _options
from .kernels import Kernel, Matern52
from .optimizer import ArrayLike, Prediction


def _settings(gp: Optional[Mapping[str, Any]] = None,
              fit: Optional[Mapping[str, Any]] = None) -> str:
    options = _options.default_options()
    options["fit"] = _options.default_fit_options()
    return _options.settings_json(
        {
            **options,
            "gp": _options.merge(options["gp"], gp or {}, "gp."),
            "fit": _options.merge(options["fit"], fit or {}, "fit."),
        }
    )


class GaussianProcess:
    """An exact GP regression model: GaussianProcess(kernel, input_dim=None, **gp_options).

    gp_options: noise_variance, standardize_outputs, max_relative_jitter (defaults from C++:
    gpbandit.default_gp_options()). input_dim defaults to the kernel's min_input_dim.
    Arrays: X is 2-D with one point per row (n x input_dim), y 1-D."""

    def __init__(self, kernel: Kernel, input_dim: Optional[int] = None, **gp_options: Any) -> None:
        dim = kernel.min_input_dim if input_dim is None else input_dim
        self._core = _core.GaussianProcess(kernel, dim, _settings(gp=gp_options))

    def add_observations(self, X: ArrayLike, y: ArrayLike) -> None:
        """Adds the rows of X with outputs y (incremental Cholesky, O(t^2) per row)."""
        self._core.add_observations(X, y)

    def predict(self, X: ArrayLike) -> Prediction:
        """The posterior at the rows of X, a Prediction (mean, std) of two 1-D arrays in the
        outputs' units: std is the STANDARD DEVIATION of the latent function, without the
        noise ("predict" means this everywhere in gpbandit)."""
        return Prediction(*self._core.predict(X))

    def fit(self, seed: int = 0, **fit_options: Any) -> _core.FitReport:
        """Fits the kernel hyperparameters and noise by maximizing the marginal likelihood
        (L-BFGS in Ceres with restarts; fit_options over gpbandit.default_fit_options()).
        Releases the GIL. Returns a FitReport; if every start fails the model keeps its
        hyperparameters and the report says why."""
        return self._core.fit(_settings(fit=fit_options), seed)

    def log_marginal_likelihood(self) -> float:
        """log p(y | X, hyperparameters) of the standardized outputs."""
        return self._core.log_marginal_likelihood()

    input_dim = property(lambda self: self._core.input_dim)
    num_observations = property(lambda self: self._core.num_observations)
    kernel = property(
        lambda self: self._core.kernel, doc="A copy of the kernel with its current log-params."
    )
    noise_variance = property(lambda self: self._core.noise_variance)
    inputs = property(lambda self: self._core.inputs, doc="The observed inputs, one per row.")
    outputs = property(lambda self: self._core.outputs)


def fit_hyperparameters(
    X: ArrayLike,
    y: ArrayLike,
    kernel: Optional[Kernel] = None,
    seed: int = 0,
    gp: Optional[Mapping[str, Any]] = None,
    **fit_options: Any,
) -> Tuple["GaussianProcess", _core.FitReport]:
    """Fits a GP to (X, y) by marginal likelihood: returns (GaussianProcess, FitReport).

    X: n x d (one point per row), y: n. kernel: default Matern-5/2 ARD over all d inputs.
    gp: the model's options (a dict); fit_options over gpbandit.default_fit_options()."""
    import numpy as np

    X = np.asarray(X, dtype=float)
    if X.ndim != 2:
        raise ValueError(f"X must be a 2-D array with one point per row, got shape {X.shape}")
    if kernel is None:
        kernel = Matern52(dims=list(range(X.shape[1])))
    model = GaussianProcess(kernel, X.shape[1], **(gp or {}))
    model.add_observations(X, y)
    return model, model.fit(seed, **fit_options)
