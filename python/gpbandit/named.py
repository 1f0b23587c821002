"""Points by name on a parameter-space domain (Domain.space): what Optimizer's ask and tell
take and give there. A point is a dict {name: value}, a real as a float, an integer as an int, a
categorical as its label (str); contexts that are a space (Domain.with_context_space) are dicts
too. On other domains points stay 1-D arrays and these functions pass them through."""

from collections.abc import Mapping


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
