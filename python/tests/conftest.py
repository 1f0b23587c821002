"""Shared fixtures of the Python module's tests. ctest sets the environment (python/tests/
CMakeLists.txt): PYTHONPATH to the build tree's package, and the paths of the helper programs."""

import os
import shutil
import socket
import subprocess
import sys
import tempfile

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


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def postgres_url():
    """A throw-away PostgreSQL server (examples/shared_study/start_postgres.sh) for the module's
    tests: its URL, with PGPASSFILE set. Fails (never skips) when it cannot start."""
    script_dir = os.path.join(SOURCE_DIR, "examples", "shared_study")
    directory = tempfile.mkdtemp(prefix="gpbandit_py_pg_")  # under /tmp: the server's user
    env = dict(os.environ, INITDB_OPTIONS="--no-sync")      # must reach it
    result = subprocess.run(
        ["bash", os.path.join(script_dir, "start_postgres.sh"), directory, str(free_port())],
        capture_output=True, text=True, timeout=300, env=env,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    url = result.stdout.strip().splitlines()[-1].strip()
    assert url.startswith("postgresql://"), result.stdout
    os.environ["PGPASSFILE"] = os.path.join(directory, "pgpass")
    yield url
    subprocess.run(["bash", os.path.join(script_dir, "stop_postgres.sh"), directory],
                   capture_output=True, timeout=120)
    shutil.rmtree(directory, ignore_errors=True)
