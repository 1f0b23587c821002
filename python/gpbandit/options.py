"""Options as keyword arguments, with every default taken from the C++ structs.

The C++ library writes its options structs (OptimizerOptions with its nested GaussianProcess,
fit and refit options; each strategy's options) as the JSON a study's header stores. This module
reads the defaults from there once, merges the caller's keyword arguments over them (checking
names and types here, ranges in C++) and sends the merged JSON back. So a default lives in its
C++ struct only, and a field added there is accepted here with no change.
"""

import copy
import json
import math
import numbers
from collections.abc import Mapping, Sequence
from typing import Any, Dict, Optional, Tuple

import numpy as np

from . import _core

_SETTINGS = json.loads(_core.default_settings_json())
# The optimizer's options; log_path has its own argument (log=).
_OPTIMIZER_DEFAULTS = {k: v for k, v in _SETTINGS["options"].items() if k != "log_path"}
# HyperparameterFitOptions' own defaults (hyperparams/fit.h), for a model fitted on its own;
# the Optimizer's fit defaults differ (a noise floor, fewer iterations: optimizer_options.h).
_PLAIN_FIT_DEFAULTS = json.loads(_core.default_settings_json(True))["options"]["fit"]
_PRIOR_KEYS = ("mean_log", "stddev_log")
_RANGE_KEYS = ("min", "max", "start_min", "start_max")


def default_options() -> Dict[str, Any]:
    """The Optimizer's options and their defaults, as a nested dict (a fresh copy)."""
    return copy.deepcopy(_OPTIMIZER_DEFAULTS)


def default_fit_options() -> Dict[str, Any]:
    """A hyperparameter fit's options and defaults when fitting a GaussianProcess on its own."""
    return copy.deepcopy(_PLAIN_FIT_DEFAULTS)


def default_gp_options() -> Dict[str, Any]:
    """The Gaussian process model's options and defaults."""
    return copy.deepcopy(_OPTIMIZER_DEFAULTS["gp"])


def strategy_defaults(name: str) -> Dict[str, Any]:
    """The options of the registered strategy `name` and their defaults, as a dict."""
    return json.loads(_core.strategy_defaults_json(name))


def _is_int(value):
    return isinstance(value, (numbers.Integral, np.integer)) and not isinstance(
        value, (bool, np.bool_)
    )


def _number(value, field, allow_inf=False):
    """A float. Infinity only where C++ reads it (written "inf" in JSON, which has no literal
    for it: a flat prior's stddev_log, an unbounded log-bound); everywhere else the C++ checks
    require finite values anyway, so it is refused here, naming the field."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Real, np.number)):
        raise TypeError(f"{field} must be a number, got {value!r}")
    value = float(value)
    if math.isnan(value) or (math.isinf(value) and not allow_inf):
        raise ValueError(f"{field} = {value}: must be a finite number")
    return value


def _prior(value, field):
    if isinstance(value, Mapping):
        unknown = set(value) - set(_PRIOR_KEYS)
        if unknown or len(value) != 2:
            raise ValueError(f"{field} must have the keys mean_log and stddev_log, got {value!r}")
        value = (value["mean_log"], value["stddev_log"])
    if not isinstance(value, Sequence) or len(value) != 2:
        raise ValueError(f"{field} must be (mean_log, stddev_log), got {value!r}")
    return {
        "mean_log": _number(value[0], f"{field}.mean_log"),
        "stddev_log": _number(value[1], f"{field}.stddev_log", allow_inf=True),
    }


def _kind_ranges(value, field):
    """fit.kind_ranges: {kind name: {"min", "max", "start_min", "start_max"}} (the kinds and the
    ranges are checked in C++)."""
    if not isinstance(value, Mapping):
        raise TypeError(f"{field} must be a dict of kind name -> range, got {value!r}")
    ranges = {}
    for kind, bounds in value.items():
        entry = f"{field}[{kind!r}]"
        if not isinstance(kind, str):
            raise TypeError(f"{entry}: a kind name is a string")
        if not isinstance(bounds, Mapping) or set(bounds) != set(_RANGE_KEYS):
            raise ValueError(f"{entry} must have the keys {', '.join(_RANGE_KEYS)}, got {bounds!r}")
        ranges[kind] = {key: _number(bounds[key], f"{entry}.{key}") for key in _RANGE_KEYS}
    return ranges


def _list_item(value, field):
    """A number, or a list of numbers (a point: safe-opt's seeds are a list of points)."""
    if isinstance(value, (Sequence, np.ndarray)) and not isinstance(value, str):
        return [_number(v, f"{field}[{j}]") for j, v in enumerate(value)]
    return _number(value, field, allow_inf=True)


def _convert(value, default, field):
    """value in the JSON type of its default; TypeError or ValueError naming the field."""
    if isinstance(default, bool):
        if not isinstance(value, (bool, np.bool_)):
            raise TypeError(f"{field} must be True or False, got {value!r}")
        return bool(value)
    if isinstance(default, int):
        if not _is_int(value):
            raise TypeError(f"{field} must be an integer, got {value!r}")
        return int(value)
    if isinstance(default, str) and default in ("inf", "-inf"):
        return _number(value, field, allow_inf=True)
    if isinstance(default, float):
        return _number(value, field)
    if isinstance(default, str):
        if not isinstance(value, str):
            raise TypeError(f"{field} must be a string, got {value!r}")
        return value
    if isinstance(default, list):
        if isinstance(value, (str, Mapping)) or not isinstance(value, (Sequence, np.ndarray)):
            raise TypeError(f"{field} must be a list, got {value!r}")
        if field.endswith("kernel_priors"):
            return [_prior(v, f"{field}[{i}]") for i, v in enumerate(value)]
        return [_list_item(v, f"{field}[{i}]") for i, v in enumerate(value)]
    if field.endswith("kind_ranges"):
        return _kind_ranges(value, field)
    if isinstance(default, Mapping):
        if not isinstance(value, Mapping):
            raise TypeError(f"{field} must be a dict of options, got {value!r}")
        if set(default) == set(_PRIOR_KEYS):
            return _prior(value, field)
        return merge(default, value, field + ".")
    return value


def merge(
    defaults: Mapping[str, Any], given: Mapping[str, Any], prefix: str = ""
) -> Dict[str, Any]:
    """defaults (a nested dict) with the given values over them; nested dicts merge key by key.

    ValueError for an unknown key (listing the known ones), TypeError for a value of the wrong
    type; both name the field."""
    out = copy.deepcopy(defaults)
    for key, value in given.items():
        if key not in defaults:
            raise ValueError(
                f"{prefix}{key}: unknown option; known: {', '.join(sorted(defaults))}"
            )
        out[key] = _convert(value, defaults[key], prefix + key)
    return out


def split_options(
    strategy: str, options: Dict[str, Any], strategy_options: Optional[Mapping[str, Any]] = None
) -> Tuple[Dict[str, Any], Dict[str, Any]]:
    """Sorts keyword options into the optimizer's and the strategy's.

    A key of the optimizer's options is the optimizer's; any other is the strategy's, which must
    then be one of the strategy's options when the strategy declares any (a strategy registered
    without default options receives every other key and checks them itself). Returns
    (optimizer options, strategy options), both merged over their defaults."""
    strategy_given = dict(strategy_options or {})
    optimizer_given = {}
    strategy_keys = strategy_defaults(strategy)
    for key, value in options.items():
        if key in _OPTIMIZER_DEFAULTS:
            optimizer_given[key] = value
        elif key in strategy_keys or not strategy_keys:
            strategy_given[key] = value
        else:
            raise ValueError(
                f"{key}: unknown option; the optimizer's options: "
                f"{', '.join(sorted(_OPTIMIZER_DEFAULTS))}; strategy '{strategy}''s options: "
                f"{', '.join(sorted(strategy_keys))}"
            )
    merged_strategy = (
        merge(strategy_keys, strategy_given, f"{strategy}.") if strategy_keys else strategy_given
    )
    return merge(_OPTIMIZER_DEFAULTS, optimizer_given), merged_strategy


def to_json(value: Any) -> str:
    """JSON text for C++: doubles exact (repr), +-infinity as the strings "inf" and "-inf" (as
    the C++ side writes them)."""
    if isinstance(value, Mapping):
        return "{" + ",".join(f"{json.dumps(str(k))}:{to_json(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(to_json(v) for v in value) + "]"
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float):
        if math.isnan(value):
            raise ValueError("an option is nan: options must be numbers")
        if math.isinf(value):
            return '"inf"' if value > 0 else '"-inf"'
        return repr(value)
    return json.dumps(value)


def settings_json(
    options: Mapping[str, Any],
    strategy: str = "gp-ucb",
    strategy_options: Optional[Mapping[str, Any]] = None,
) -> str:
    """The settings object the C++ side parses (study/log_header.h, ParseSettings)."""
    full = dict(options)
    full["log_path"] = ""
    return to_json(
        {"strategy": strategy, "strategy_options": strategy_options or {}, "options": full}
    )


def _describe(defaults, prefix=""):
    lines = []
    for key, value in defaults.items():
        if isinstance(value, Mapping) and value and set(value) != set(_PRIOR_KEYS):
            lines.extend(_describe(value, f"{prefix}{key}."))
        else:
            lines.append(f"    {prefix}{key} = {value!r}")
    return lines


def options_doc() -> str:
    """The optimizer's options with their C++ defaults, one per line (for docstrings)."""
    return "\n".join(_describe(_OPTIMIZER_DEFAULTS))
