"""Shared fixtures of the Python module's tests. ctest sets the environment (python/tests/
CMakeLists.txt): PYTHONPATH to the build tree's package, and the paths of the helper programs."""

import os
import subprocess
import sys

import numpy as np
import pytest

import gpbandit

SOURCE_DIR = os.environ.get("GPBANDIT_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))


def env_path(name):
    """A path the test environment must provide (fails, never skips, when it is missing)."""
    value = os.environ.get(name)
    if not value:
        pytest.fail(f"{name} is not set: run the Python tests through ctest")
    return value


def branin(x):
    """Branin-Hoo, written operation by operation as examples/problems/synthetic_functions.h."""
    import math

    pi = math.pi
    a, b, c, r, s, t = 1.0, 5.1 / (4 * pi * pi), 5.0 / pi, 6.0, 10.0, 1.0 / (8 * pi)
    u = x[1] - b * x[0] * x[0] + c * x[0] - r
    return a * u * u + s * (1 - t) * math.cos(x[0]) + s


BRANIN_BOUNDS = [(-5.0, 10.0), (0.0, 15.0)]
BRANIN_MIN = 0.397887357729738


def run_python(code, timeout=120, **kwargs):
    """Runs code in a fresh interpreter (the one running the tests) with this environment."""
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=dict(os.environ),
        **kwargs,
    )


def quadratic(x):
    """A smooth reward on [0, 5] x [0, 10], maximal (0) at (2, 7)."""
    return -((x[0] - 2.0) ** 2) - 0.1 * (x[1] - 7.0) ** 2


@pytest.fixture
def box2():
    return gpbandit.Domain.box([0.0, 0.0], [5.0, 10.0])


@pytest.fixture
def trained(box2):
    """An optimizer with 8 observations of quadratic, seed 3."""
    opt = gpbandit.Optimizer(box2, seed=3)
    for _ in range(8):
        x = opt.ask()
        opt.tell(x, quadratic(x))
    return opt


def rows_equal(a, b):
    return np.array_equal(np.asarray(a), np.asarray(b))
