"""Search spaces in scikit-optimize's conventions: what gpbandit.minimize takes as dimensions.

Each dimension is one of
    (low, high)                  a real in [low, high] when either bound is a float,
                                 an integer when both are ints (numbers.Integral)
    (low, high, "log-uniform")   the same on a log scale ("uniform": linear)
    [c1, c2, ...]                a categorical: any hashable objects whose str() differ; also any
                                 sequence holding a str, or whose length is not 2 or 3
    Real(low, high, prior="uniform", name=None), Integer(...), Categorical(categories, name=None)
as scikit-optimize's check_dimension reads them. Points in the caller's form are lists of
Python values, a float per real, an int per integer and the category object itself per
categorical; a space of linear reals only is a box whose points are 1-D float arrays (as
gpbandit.minimize always gave).

    space = Space([(0.1, 100.0, "log-uniform"), (1, 12), ["pid", "lead-lag"]])
    opt = gpbandit.Optimizer(space.domain, "ei")
    point = space.to_user(opt.domain.to_vector(opt.ask()))   # [3.2, 4, "pid"]
"""

import numbers
from collections.abc import Sequence
from typing import Any, Dict, List, Optional, Union

import numpy as np

from ._core import Domain

__all__ = ["Categorical", "Integer", "Real", "Space", "check_dimension"]

_PRIORS = {"uniform": "linear", "log-uniform": "log"}


def _scale(prior: str, what: str) -> str:
    if prior not in _PRIORS:
        raise ValueError(f"{what}: prior {prior!r} is neither 'uniform' nor 'log-uniform'")
    return _PRIORS[prior]


class _Bounded:
    """A real or an integer in [low, high]; prior "log-uniform" puts it on a log scale."""

    type = None  # the parameter's type in Domain.space

    def __init__(self, low: Any, high: Any, prior: str = "uniform",
                 name: Optional[str] = None) -> None:
        self.low, self.high, self.prior, self.name = low, high, prior, name
        self._scale = _scale(prior, f"{type(self).__name__}({low}, {high})")

    def parameter(self, name: str) -> Dict[str, Any]:
        """The parameter's description for Domain.space, named `name`."""
        return {"name": name, "type": self.type, "scale": self._scale, "lower": self.low,
                "upper": self.high}

    def from_user(self, v: Any) -> float:
        """The vector entry of the caller's value v."""
        return float(v)

    def __repr__(self) -> str:
        return (f"{type(self).__name__}({self.low!r}, {self.high!r}, prior={self.prior!r}, "
                f"name={self.name!r})")


class Real(_Bounded):
    """A real in [low, high]; prior "log-uniform" puts it on a log scale (low > 0)."""

    type = "real"

    def __init__(self, low: float, high: float, prior: str = "uniform",
                 name: Optional[str] = None) -> None:
        super().__init__(float(low), float(high), prior, name)

    def to_user(self, v: float) -> float:
        """The caller's value of vector entry v."""
        return float(v)


class Integer(_Bounded):
    """An integer in [low, high]; prior "log-uniform" puts it on a log scale (low >= 1)."""

    type = "integer"

    def __init__(self, low: int, high: int, prior: str = "uniform",
                 name: Optional[str] = None) -> None:
        for bound in (low, high):
            if not isinstance(bound, numbers.Integral):
                raise ValueError(f"Integer({low!r}, {high!r}): bounds must be ints")
        super().__init__(int(low), int(high), prior, name)

    def to_user(self, v: float) -> int:
        """The caller's value of vector entry v."""
        return int(v)


class Categorical:
    """One of `categories` (any objects whose str() differ); points hold the objects."""

    def __init__(self, categories: Sequence, name: Optional[str] = None) -> None:
        self.categories, self.name = list(categories), name
        self.labels = [str(c) for c in self.categories]
        if not self.categories:
            raise ValueError("Categorical([]): no categories")
        if len(set(self.labels)) != len(self.labels):
            raise ValueError(f"Categorical({self.categories!r}): categories whose str() is equal")

    def parameter(self, name: str) -> Dict[str, Any]:
        """The parameter's description for Domain.space, named `name`."""
        return {"name": name, "type": "categorical", "labels": self.labels}

    def to_user(self, v: float) -> Any:
        """The category of vector entry v (a label's index)."""
        return self.categories[int(v)]

    def from_user(self, v: Any) -> float:
        """The label index of category v (the object itself, or its str())."""
        for i, c in enumerate(self.categories):
            if v is c or (type(v) is type(c) and v == c):
                return float(i)
        if isinstance(v, str) and v in self.labels:
            return float(self.labels.index(v))
        raise ValueError(f"{v!r} is not one of the categories {self.categories!r}")

    def __repr__(self) -> str:
        return f"Categorical({self.categories!r}, name={self.name!r})"


def _is_number(v: Any) -> bool:
    return isinstance(v, numbers.Real) and not isinstance(v, bool)


def check_dimension(dimension: Any) -> Union["Real", "Integer", "Categorical"]:
    """A Real, Integer or Categorical from scikit-optimize's forms (module docstring)."""
    if isinstance(dimension, (Real, Integer, Categorical)):
        return dimension
    if isinstance(dimension, np.ndarray):
        dimension = dimension.tolist()
    if isinstance(dimension, str) or not isinstance(dimension, Sequence):
        raise ValueError(
            f"dimension {dimension!r}: expected (low, high), (low, high, prior) or a list of "
            "categories"
        )
    items = list(dimension)
    numeric_bounds = len(items) in (2, 3) and all(_is_number(v) for v in items[:2])
    if numeric_bounds and (len(items) == 2 or isinstance(items[2], str)):
        prior = items[2] if len(items) == 3 else "uniform"
        if all(isinstance(v, numbers.Integral) for v in items[:2]):
            return Integer(items[0], items[1], prior)
        return Real(items[0], items[1], prior)
    return Categorical(items)


class Space:
    """Dimensions (scikit-optimize's conventions), their domain and the caller's form of points.

    Names: each dimension's name, else "x0", "x1", ... (by position)."""

    def __init__(self, dimensions: Sequence) -> None:
        if isinstance(dimensions, np.ndarray):
            dimensions = list(dimensions)
        if not isinstance(dimensions, Sequence) or isinstance(dimensions, str) or not dimensions:
            raise ValueError(f"dimensions must be a non-empty list, got {dimensions!r}")
        self.dimensions = []
        for i, d in enumerate(dimensions):
            try:
                self.dimensions.append(check_dimension(d))
            except ValueError as e:
                raise ValueError(
                    "bounds must be a list of (low, high) pairs, (low, high, prior) triples or "
                    f"lists of categories, one per dimension: dimension {i}: {e}"
                ) from None
        self.names = [d.name or f"x{i}" for i, d in enumerate(self.dimensions)]
        self.is_box = all(isinstance(d, Real) and d.prior == "uniform" for d in self.dimensions)
        if self.is_box:
            self.domain = Domain.box([d.low for d in self.dimensions],
                                     [d.high for d in self.dimensions])
        else:
            self.domain = Domain.space(
                [d.parameter(n) for d, n in zip(self.dimensions, self.names)]
            )

    def to_user(self, x: Any) -> Union[np.ndarray, List[Any]]:
        """An action vector (or a dict from Optimizer.ask) as the caller's point: a 1-D float
        array on a box, else a list of Python values."""
        if isinstance(x, dict):
            x = self.domain.to_vector(x)
        if self.is_box:
            return np.array(x, dtype=float)
        return [d.to_user(v) for d, v in zip(self.dimensions, x)]

    def from_user(self, point: Sequence) -> np.ndarray:
        """The action vector of a caller's point (a sequence in the dimensions' order)."""
        values = list(point)
        if len(values) != len(self.dimensions):
            raise ValueError(
                f"a point has {len(values)} values but there are {len(self.dimensions)} dimensions"
            )
        return np.array([d.from_user(v) for d, v in zip(self.dimensions, values)], dtype=float)

    def __repr__(self) -> str:
        return f"Space({self.dimensions!r})"
