"""Earlier studies as sources from Python: Optimizer(sources=) and minimize(sources=) read a
finished study's log, refuse a missing, malformed or mismatched one naming the file (nothing
written), copy its observations into the new log (resume needs no old file), and leave them out
of best(), cost_spent and n_calls."""

import os

import numpy as np
import pytest

import gpbandit

OPTIONS = dict(sync_log=False, num_threads=1)


def square():
    return gpbandit.Domain.box([0.0, 0.0], [1.0, 1.0])


def plant(x):
    return -float((x[0] - 0.3) ** 2 + (x[1] - 0.6) ** 2)


def old_study(path, n=12, f=plant):
    """A finished study of f: n random points told, then one failed tell (left out)."""
    opt = gpbandit.Optimizer(square(), "gp-ucb", seed=1, log=path, non_finite_rewards="skip",
                             **OPTIONS)
    rng = np.random.default_rng(3)
    for _ in range(n):
        x = rng.uniform(0.0, 1.0, 2)
        opt.tell(x, f(x))
    opt.tell([0.5, 0.5], float("nan"))
    return path


def test_a_source_is_a_level_below_the_target_and_left_out_of_the_answers(tmp_path):
    old = old_study(str(tmp_path / "old.jsonl"), f=lambda x: 0.5 * plant(x) + 1.0)
    log = str(tmp_path / "new.jsonl")
    opt = gpbandit.Optimizer(square(), "gp-ucb", seed=2, log=log, sources=[old], **OPTIONS)
    assert opt.fidelities == [("old", 0.0), ("target", 1.0)]
    obs = opt.observations()
    assert len(obs.y) == 12 and list(obs.fidelity) == ["old"] * 12
    assert opt.cost_spent == 0.0
    x = opt.ask()
    assert x.fidelity == "target"
    with pytest.raises(ValueError, match="is a source"):
        opt.tell(x, 0.0, fidelity="old")
    opt.tell(x, plant(x))
    assert opt.cost_spent == 1.0
    np.testing.assert_array_equal(opt.best().x, x)  # the target's only point
    os.remove(old)
    resumed = gpbandit.Optimizer.resume(log)
    assert len(resumed.observations().y) == 13
    assert resumed.fingerprint() == opt.fingerprint()


def test_a_named_source_and_a_sense_that_differs(tmp_path):
    old = old_study(str(tmp_path / "old.jsonl"))
    opt = gpbandit.Optimizer(square(), seed=2, sources=[("yesterday", old)], **OPTIONS)
    assert opt.fidelity_names == ["yesterday", "target"]
    assert opt.options["fidelities"]["model"] == "icm"  # sources alone: the ICM by default
    chosen = gpbandit.Optimizer(square(), seed=2, sources=[old], fidelity_model="autoregressive",
                                **OPTIONS)
    assert chosen.options["fidelities"]["model"] == "autoregressive"
    with pytest.raises(ValueError, match="maximizes"):
        gpbandit.Optimizer(square(), seed=2, sources=[old], sense="minimize", **OPTIONS)


def test_refuses_a_missing_malformed_or_other_domain_log_writing_nothing(tmp_path):
    log = str(tmp_path / "new.jsonl")
    missing = str(tmp_path / "missing.jsonl")
    with pytest.raises(ValueError, match="missing.jsonl.*no such file"):
        gpbandit.Optimizer(square(), log=log, sources=[missing], **OPTIONS)
    malformed = tmp_path / "bad.jsonl"
    malformed.write_text("not json\n")
    with pytest.raises(ValueError, match="bad.jsonl"):
        gpbandit.Optimizer(square(), log=log, sources=[str(malformed)], **OPTIONS)
    old = old_study(str(tmp_path / "old.jsonl"))
    with pytest.raises(ValueError, match="domain"):
        gpbandit.Optimizer(gpbandit.Domain.box([0.0, 0.0], [1.0, 2.0]), log=log, sources=[old],
                           **OPTIONS)
    assert not os.path.exists(log)


def test_minimize_counts_only_its_own_evaluations(tmp_path):
    old = old_study(str(tmp_path / "old.jsonl"), n=15, f=lambda x: -0.8 * plant(x) + 0.2)
    calls = []

    def func(x):
        calls.append(x)
        return -plant(x)

    res = gpbandit.minimize(func, [(0.0, 1.0), (0.0, 1.0)], n_calls=6, seed=4,
                            sources=[old], **OPTIONS)
    assert len(calls) == 6 and res.nfev == 6
    assert len(res.func_vals) == 21
    assert res.cost_spent == 6.0
    assert res.fun == pytest.approx(min(-plant(x) for x in calls))
