"""The numpy pendulum of examples/python against the C++ plant it re-writes
(examples/problems/pendulum_plant.cc, through pendulum_reference.cc)."""

import os
import subprocess
import sys

import numpy as np

from conftest import SOURCE_DIR, env_path

sys.path.insert(0, os.path.join(SOURCE_DIR, "examples", "python"))
import _pendulum  # noqa: E402


def test_numpy_pendulum_matches_the_cpp_plant():
    rng = np.random.default_rng(0)
    kp = np.r_[rng.uniform(0, 60, 40), 0.0, 60.0, 2.0, 17.77]
    kd = np.r_[rng.uniform(0, 6, 40), 0.0, 6.0, 0.1, 3.35]
    cases = [(p, d, m) for m in (0.1, 0.5, 1.2) for p, d in zip(kp, kd)]
    text = "".join(f"{p!r} {d!r} {m!r}\n" for p, d, m in cases)
    out = subprocess.run([env_path("GPBANDIT_PENDULUM_REFERENCE")], input=text,
                         capture_output=True, text=True, check=True, timeout=120).stdout
    cpp = np.array([float.fromhex(v) for v in out.split()])
    py = np.concatenate([_pendulum.rewards(kp, kd, m) for m in (0.1, 0.5, 1.2)])
    assert cpp.shape == py.shape == (len(cases),)
    fallen = cpp < -1.0  # some gains drop the arm: those rewards are charged the fall angle
    assert fallen.any() and (~fallen).any()
    # numpy's sin may differ from libm's in the last bit; the rewards agree to 1e-9.
    assert np.allclose(py, cpp, rtol=1e-9, atol=0.0), np.max(np.abs(py - cpp) / np.abs(cpp))
