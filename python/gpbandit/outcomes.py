"""Several outcomes per evaluation (study/outcome_options.h): the objectives a study optimizes and
the outcome constraints its answer must satisfy, as Optimizer(objectives=, constraints=) takes
them, and the values a tell carries.

An objective is ("name", "min") or ("name", "max"), or a dict {"name": ..., "sense": ...}
("min", "minimize", "max", "maximize"). A constraint is ("name", "<=", bound) or ("name", ">=",
bound), or a dict {"name", "sense", "bound"}. The study's options hold them in the form its log
header records (OptimizerOptions::outcomes), which this module writes; every default
(feasibility_confidence, scalarization) comes from the C++ struct."""

import math
import numbers
from collections.abc import Mapping, Sequence
from typing import Any, Dict, List, NamedTuple, Optional

import numpy as np

_MIN = ("min", "minimize")
_MAX = ("max", "maximize")
_CONSTRAINT_SENSES = ("<=", ">=")


class ParetoPoint(NamedTuple):
    """A point of Optimizer.pareto_front(): x (1-D, or a dict on a parameter space), context
    (1-D, a dict, or None without contexts), outcomes ({name: value told}, every outcome),
    means ({objective name: posterior mean there}, the objectives' units) and
    probability_feasible (the posterior probability that every constraint holds there)."""

    x: Any
    context: Any
    outcomes: Dict[str, float]
    means: Dict[str, float]
    probability_feasible: float


def _name(value: Any, field: str) -> str:
    if not isinstance(value, str) or not value:
        raise ValueError(f"{field}: an outcome's name is a non-empty string, got {value!r}")
    return value


def _bound(value: Any, field: str) -> float:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Real, np.number)):
        raise TypeError(f"{field} must be a number, got {value!r}")
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"{field} = {value}: must be a finite number")
    return value


def _items(value: Any, field: str) -> List[Any]:
    if value is None:
        return []
    if isinstance(value, (str, Mapping)) or not isinstance(value, (Sequence, np.ndarray)):
        raise TypeError(f"{field} must be a list, got {value!r}")
    return list(value)


def _objective(item: Any, field: str) -> Dict[str, str]:
    if isinstance(item, Mapping):
        unknown = set(item) - {"name", "sense"}
        if unknown or "name" not in item or "sense" not in item:
            raise ValueError(f"{field} must have the keys name and sense, got {dict(item)!r}")
        name, sense = item["name"], item["sense"]
    elif isinstance(item, (tuple, list)) and len(item) == 2:
        name, sense = item
    else:
        raise ValueError(
            f"{field} = {item!r}: an objective is (name, 'min') or (name, 'max'), or a dict "
            "{'name': ..., 'sense': ...}"
        )
    name = _name(name, f"{field}.name")
    if sense in _MIN:
        return {"name": name, "sense": "minimize"}
    if sense in _MAX:
        return {"name": name, "sense": "maximize"}
    raise ValueError(f"{field}.sense = {sense!r}: must be 'min', 'minimize', 'max' or 'maximize'")


def _constraint(item: Any, field: str) -> Dict[str, Any]:
    if isinstance(item, Mapping):
        unknown = set(item) - {"name", "sense", "bound"}
        if unknown or not {"name", "sense", "bound"} <= set(item):
            raise ValueError(
                f"{field} must have the keys name, sense and bound, got {dict(item)!r}"
            )
        name, sense, bound = item["name"], item["sense"], item["bound"]
    elif isinstance(item, (tuple, list)) and len(item) == 3:
        name, sense, bound = item
    else:
        raise ValueError(
            f"{field} = {item!r}: a constraint is (name, '<=', bound) or (name, '>=', bound), or "
            "a dict {'name': ..., 'sense': ..., 'bound': ...}"
        )
    name = _name(name, f"{field}.name")
    if sense not in _CONSTRAINT_SENSES:
        raise ValueError(f"{field}.sense = {sense!r}: must be '<=' or '>='")
    return {"name": name, "sense": sense, "bound": _bound(bound, f"{field}.bound")}


def declaration(
    defaults: Mapping[str, Any],
    objectives: Any = None,
    constraints: Any = None,
    reference_point: Any = None,
    feasibility_confidence: Any = None,
    scalarization: Any = None,
) -> Optional[Dict[str, Any]]:
    """OptimizerOptions::outcomes in its JSON form, over `defaults` (the C++ struct's, as the
    default settings hold them); None when nothing is declared (a single-objective study,
    unchanged). Names, types and forms are checked here; the rest (a repeated or malformed
    name, the reference point's size, the confidence's range) by the C++ OutcomeOptions, whose
    message names the field."""
    given = (objectives, constraints, reference_point, feasibility_confidence, scalarization)
    if all(v is None for v in given):
        return None
    out = dict(defaults)
    out["objectives"] = [
        _objective(o, f"objectives[{i}]") for i, o in enumerate(_items(objectives, "objectives"))
    ]
    out["constraints"] = [
        _constraint(c, f"constraints[{j}]")
        for j, c in enumerate(_items(constraints, "constraints"))
    ]
    if reference_point is not None:
        out["reference_point"] = [
            _bound(r, f"reference_point[{i}]")
            for i, r in enumerate(_items(reference_point, "reference_point"))
        ]
    if feasibility_confidence is not None:
        out["feasibility_confidence"] = _bound(feasibility_confidence, "feasibility_confidence")
    if scalarization is not None:
        if not isinstance(scalarization, str):
            raise TypeError(f"scalarization must be a string, got {scalarization!r}")
        out["scalarization"] = scalarization
    return out


def is_number(y: Any) -> bool:
    """A single reward (a number, or a 0-d array), as tell took before outcomes."""
    if isinstance(y, (bool, np.bool_)):
        return False
    return isinstance(y, (numbers.Real, np.number)) or (isinstance(y, np.ndarray) and y.ndim == 0)


def named_values(y: Mapping[Any, Any]) -> Dict[str, float]:
    """{name: float} of a tell's dict; TypeError naming a key or value of the wrong type. NaN
    and infinities pass: they mark a failed evaluation (non_finite_rewards)."""
    out = {}
    for name, value in y.items():
        if not isinstance(name, str):
            raise TypeError(f"y: an outcome's name is a string, got the key {name!r}")
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Real, np.number)):
            raise TypeError(f"y[{name!r}] must be a number, got {value!r}")
        out[name] = float(value)
    return out
