"""Points by name on a parameter-space domain (Domain.space): what Optimizer's ask and tell
take and give there. A point is a dict {name: value}, a real as a float, an integer as an int, a
categorical as its label (str); contexts that are a space (Domain.with_context_space) are dicts
too. On other domains points stay 1-D arrays and these functions pass them through."""

from collections.abc import Mapping
from typing import Optional


class NamedSuggestion(dict):
    """A point ask() handed out on a parameter space: a dict {name: value} that also carries its
    trial number, `trial` (the handle tell(x, y, trial=...) and release(trial=...) take, as a
    Suggestion's), and `fidelity`, the name of the fidelity to evaluate it at (None in a study
    without fidelities)."""

    trial: Optional[int] = None
    fidelity: Optional[str] = None


def suggestion(domain, x, trial, fidelity=None):
    """The NamedSuggestion of action vector x, its trial number and fidelity name."""
    out = NamedSuggestion(domain.to_dict(x))
    out.trial = int(trial)
    out.fidelity = fidelity
    return out


def rows_in(domain, X):
    """X as rows of vectors: a dict, or a list of dicts, is converted on a space."""
    if isinstance(X, Mapping):
        return [domain.to_vector(X)]
    if isinstance(X, list) and X and isinstance(X[0], Mapping):
        return [domain.to_vector(x) for x in X]
    return X


def action_in(domain, x):
    """x as the vector the C++ optimizer takes: a dict is converted (and checked) on a space."""
    return domain.to_vector(x) if isinstance(x, Mapping) else x


def context_in(domain, context):
    """A context as a vector (None stays None)."""
    return domain.context_to_vector(context) if isinstance(context, Mapping) else context


def action_out(domain, x):
    """An action vector as the caller sees it: a dict on a space, the array otherwise."""
    return domain.to_dict(x) if domain.kind == "space" else x


def context_out(domain, z):
    """A context vector as the caller sees it: a dict when the contexts are a space."""
    if z is None or domain.context_parameters is None:
        return z
    return domain.context_to_dict(z)
