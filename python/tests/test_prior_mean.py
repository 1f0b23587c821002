"""prior_mean=: a Python function as the prior mean of the reward model (docs/fidelities.md,
"The simulator as a prior mean"): an exact prior finds the optimum in a few evaluations, the
maximizer's threads call it without deadlock, a study continued needs the same function, and a
function that fails or returns NaN is refused."""
import os
import subprocess
import sys

import numpy as np
import pytest

import gpbandit


def target(x):
    return float(np.exp(-8.0 * ((x[0] - 0.7) ** 2 + (x[1] - 0.2) ** 2)))


def square():
    return gpbandit.Domain.box([0.0, 0.0], [1.0, 1.0])


def run(opt, n):
    best = -1.0
    for _ in range(n):
        x = opt.ask()
        y = target(x)
        best = max(best, y)
        opt.tell(x, y)
    return 1.0 - best


def test_an_exact_prior_finds_the_optimum_in_a_few_evaluations():
    for seed in (1, 2, 3):
        opt = gpbandit.Optimizer(square(), "gp-ucb", seed=seed, prior_mean=target,
                                 num_threads=1)
        assert run(opt, 8) < 1e-3


def test_the_maximizer_threads_call_it_without_deadlock():
    # In a child process, so that a deadlock fails the test instead of hanging it.
    code = (
        "import numpy as np, gpbandit\n"
        "calls = []\n"
        "def m(x):\n"
        "    calls.append(1)\n"
        "    return float(np.sin(3 * x[0]) + x[1])\n"
        "opt = gpbandit.Optimizer(gpbandit.Domain.box([0, 0], [1, 1]), 'gp-ucb', seed=4,\n"
        "                         prior_mean=m, num_threads=2)\n"
        "for _ in range(8):\n"
        "    x = opt.ask()\n"
        "    opt.tell(x, float(np.sin(3 * x[0])))\n"
        "print(len(calls) > 256)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=300, env=dict(os.environ))
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "True"


def test_contexts_are_passed_as_the_second_argument():
    seen = []

    def m(x, z):
        seen.append(z.copy())
        return float(x[0] * z[0])

    domain = square().with_context(1, [0.0], [2.0])
    opt = gpbandit.Optimizer(domain, "gp-ucb", seed=1, prior_mean=m, num_threads=1)
    x = opt.ask([1.5])
    opt.tell(x, 1.0, context=[1.5])
    assert all(z.shape == (1,) for z in seen)


def test_a_continued_study_needs_the_same_function(tmp_path):
    log = str(tmp_path / "study.jsonl")
    opt = gpbandit.Optimizer(square(), "gp-ucb", seed=5, log=log, prior_mean=target,
                             num_threads=1)
    run(opt, 4)
    del opt
    before = open(log, "rb").read()
    again = gpbandit.Optimizer(square(), "gp-ucb", seed=5, log=log, load_if_exists=True,
                               prior_mean=target, num_threads=1)
    run(again, 1)
    del again
    before = open(log, "rb").read()

    def other(x):
        return 2.0 * target(x)

    with pytest.raises(RuntimeError, match="differs from the one the study was created with"):
        gpbandit.Optimizer(square(), "gp-ucb", seed=5, log=log, load_if_exists=True,
                           prior_mean=other, prior_mean_name="target", num_threads=1)
    with pytest.raises(RuntimeError, match="prior_mean_function 'target'"):
        gpbandit.Optimizer(square(), "gp-ucb", seed=5, log=log, load_if_exists=True,
                           num_threads=1)
    assert open(log, "rb").read() == before


def test_a_failing_or_nan_function_is_refused():
    def nan(x):
        return float("nan")

    def fails(x):
        raise KeyError("simulator crashed")

    with pytest.raises(ValueError, match="returned nan at x"):
        gpbandit.Optimizer(square(), "gp-ucb", seed=1, prior_mean=nan)
    with pytest.raises(ValueError, match="simulator crashed"):
        gpbandit.Optimizer(square(), "gp-ucb", seed=1, prior_mean=fails)
    with pytest.raises(ValueError, match="needs a box domain"):
        gpbandit.Optimizer(gpbandit.Domain.finite([[0.0, 1.0], [1.0, 0.0]]), "gp-ucb",
                           seed=1, prior_mean=target)


def test_the_snippet_of_docs_python_md_runs():
    """docs/python.md, "The simulator as a prior mean": the snippet runs and finds the robot's
    optimum (0.3, 0.6) in its ten evaluations."""
    source = os.environ.get("GPBANDIT_SOURCE_DIR",
                            os.path.join(os.path.dirname(__file__), "..", ".."))
    with open(os.path.join(source, "docs", "python.md"), encoding="utf-8") as f:
        text = f.read()
    section = text[text.index("## The simulator as a prior mean"):]
    start = section.index("```python\n") + 10
    snippet = section[start:section.index("```\n", start)]
    scope = {}
    exec(compile(snippet, "docs/python.md", "exec"), scope)
    assert np.linalg.norm(scope["opt"].best().x - np.array([0.3, 0.6])) < 0.05


def test_minimize_takes_a_prior_mean_of_the_cost():
    # minimize tells -func(x); the fitted coefficient's sign is free, so the cost's simulator
    # serves as it is.
    def cost(x):
        return (x[0] - 0.3) ** 2 + (x[1] - 0.6) ** 2

    def sim(x):
        return 2.0 * ((x[0] - 0.32) ** 2 + (x[1] - 0.58) ** 2)

    result = gpbandit.minimize(cost, [(0.0, 1.0), (0.0, 1.0)], n_calls=10, seed=1,
                               prior_mean=sim, num_threads=1)
    assert result.fun < 1e-4
    assert result.optimizer.options["prior_mean_function"]["name"] == "sim"
