"""Several fidelities of one objective (study/fidelity_options.h): named sources ordered by
cost, a simulator before the robot, as Optimizer(fidelities=) takes them.

A fidelity is ("name", cost) or a dict {"name": ..., "cost": ...}; the list runs from the
cheapest to the target (the last, the system whose optimum is sought). The study's options hold
them in the form its log header records (OptimizerOptions::fidelities), which this module
writes; every default (the joint model, the rule, min_correlation, the fits' tolerance) comes
from the C++ struct, and the C++ FidelityOptions checks names and costs (its message names the
field and value)."""

import numbers
import os
from collections.abc import Mapping, Sequence
from typing import Any, Dict, List, Optional

import numpy as np

from . import _core

_KEYS = ("levels", "model", "rule", "min_correlation", "fit_function_tolerance")


def _level(item: Any, field: str) -> Dict[str, Any]:
    if isinstance(item, Mapping):
        if set(item) != {"name", "cost"}:
            raise ValueError(f"{field} must have the keys name and cost, got {dict(item)!r}")
        name, cost = item["name"], item["cost"]
    elif isinstance(item, (tuple, list)) and len(item) == 2:
        name, cost = item
    else:
        raise ValueError(
            f"{field} = {item!r}: a fidelity is (name, cost) or a dict "
            "{'name': ..., 'cost': ...}"
        )
    if not isinstance(name, str):
        raise TypeError(f"{field}.name must be a string, got {name!r}")
    if isinstance(cost, (bool, np.bool_)) or not isinstance(cost, (numbers.Real, np.number)):
        raise TypeError(f"{field}.cost must be a number, got {cost!r}")
    return {"name": name, "cost": float(cost)}


def _levels(value: Any, field: str) -> List[Dict[str, Any]]:
    if isinstance(value, (str, Mapping)) or not isinstance(value, (Sequence, np.ndarray)):
        raise TypeError(f"{field} must be a list of (name, cost), got {value!r}")
    return [_level(item, f"{field}[{i}]") for i, item in enumerate(value)]


def declaration(
    defaults: Mapping[str, Any],
    fidelities: Any = None,
    model: Optional[str] = None,
    rule: Optional[str] = None,
    min_correlation: Any = None,
) -> Optional[Dict[str, Any]]:
    """OptimizerOptions::fidelities in its JSON form over `defaults`; None when nothing is
    declared (a study of one source, unchanged). fidelities: the list of levels, or the whole
    option as a dict {levels, model, rule, min_correlation, fit_function_tolerance} merged
    over the defaults; model, rule and min_correlation: the keywords fidelity_model=,
    fidelity_rule= and min_correlation=."""
    if all(v is None for v in (fidelities, model, rule, min_correlation)):
        return None
    out = dict(defaults)
    if isinstance(fidelities, Mapping):
        unknown = set(fidelities) - set(_KEYS)
        if unknown:
            raise ValueError(
                f"fidelities.{sorted(unknown)[0]}: unknown option; known: {', '.join(_KEYS)}"
            )
        out.update(fidelities)
        out["levels"] = _levels(out["levels"], "fidelities.levels")
    elif fidelities is not None:
        out["levels"] = _levels(fidelities, "fidelities")
    for key, value in (("model", model), ("rule", rule)):
        if value is not None:
            if not isinstance(value, str):
                raise TypeError(f"fidelity_{key} must be a string, got {value!r}")
            out[key] = value
    if min_correlation is not None:
        if isinstance(min_correlation, (bool, np.bool_)) or not isinstance(
                min_correlation, (numbers.Real, np.number)):
            raise TypeError(f"min_correlation must be a number, got {min_correlation!r}")
        out["min_correlation"] = float(min_correlation)
    return out


def _source_name(path: str, index: int) -> str:
    """The level name of a source given by its path alone: the file's stem, else source<i>."""
    stem = os.path.basename(path).split(".")[0]
    if stem and not any(c.isspace() or c in "=,<>:" for c in stem):
        return stem
    return f"source{index}"


def sources(value: Any, domain: Any, minimize: bool) -> List[Any]:
    """The earlier studies of Optimizer(sources=), read (docs/fidelities.md, "Earlier studies as
    sources"): each a log's path or (name, path); the name defaults to the file's stem. A
    missing, malformed or mismatched log is a ValueError naming the file (nothing written)."""
    if isinstance(value, (str, os.PathLike)) or not isinstance(value, Sequence):
        raise TypeError(f"sources must be a list of paths or (name, path), got {value!r}")
    read = []
    for i, item in enumerate(value):
        if isinstance(item, (tuple, list)) and len(item) == 2:
            name, path = item
        elif isinstance(item, (str, os.PathLike)):
            path = item
            name = _source_name(os.fspath(path), i)
        else:
            raise TypeError(f"sources[{i}] = {item!r}: a source is a path or (name, path)")
        if not isinstance(name, str):
            raise TypeError(f"sources[{i}] name must be a string, got {name!r}")
        read.append(_core.Optimizer.read_source(os.fspath(path), domain, minimize, name))
    return read
