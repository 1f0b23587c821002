"""Several fidelities from Python: Optimizer(fidelities=), asks that say where to evaluate, tells
at a fidelity by name or index, refused tells that leave the log byte-identical, resume from the
log, the useless simulator avoided, minimize within a budget of cost, and studies without
fidelities unchanged. Costs are checked against sums of the costs of the fidelities told, kept
by the tests themselves."""

import math
import os

import numpy as np
import pytest

import gpbandit

LEVELS = [("sim", 1.0), ("robot", 20.0)]
COST = dict(LEVELS)
OPTIONS = dict(sync_log=False, num_threads=1)


def square():
    return gpbandit.Domain.box([0.0, 0.0], [1.0, 1.0])


def robot(x):
    return -float((x[0] - 0.3) ** 2 + (x[1] - 0.6) ** 2)


def measure(x, fidelity):
    """The robot, and a simulator slightly biased in x[0]."""
    return robot(x) + (0.05 * float(x[0]) if fidelity == "sim" else 0.0)


class Bumps:
    """A smooth random function on the unit square: 6 Gaussian bumps with random centres,
    widths in [0.1, 0.3] and standard-normal heights drawn from `seed`."""

    def __init__(self, seed):
        rng = np.random.default_rng(seed)
        self.centres = rng.uniform(size=(6, 2))
        self.widths = 0.1 + 0.2 * rng.uniform(size=6)
        self.heights = rng.standard_normal(6)

    def __call__(self, x):
        d2 = np.sum((np.asarray(x) - self.centres) ** 2, axis=1)
        return float(np.sum(self.heights * np.exp(-d2 / (2.0 * self.widths**2))))


def run(opt, n):
    """n asks and tells at the asked fidelity; the cost of what was told."""
    cost = 0.0
    for _ in range(n):
        x = opt.ask()
        opt.tell(x, measure(x, x.fidelity), fidelity=x.fidelity)
        cost += COST[x.fidelity]
    return cost


def test_the_calls_of_the_issue():
    opt = gpbandit.Optimizer(square(), "gp-ucb", fidelities=[("sim", 1.0), ("robot", 20.0)],
                             seed=3, **OPTIONS)
    assert opt.fidelities == LEVELS and opt.fidelity_names == ["sim", "robot"]
    told, cost = [], 0.0
    for _ in range(16):
        x = opt.ask()
        assert x.fidelity in COST and isinstance(x.trial, int)
        opt.tell(x, measure(x, x.fidelity), fidelity=x.fidelity)
        told.append(x.fidelity)
        cost += COST[x.fidelity]
    assert told[:3] == ["robot"] * 3  # the initial design (max(2, d + 1) points) at the target
    assert "sim" in told  # each lower fidelity is tried after the design
    assert opt.cost_spent == pytest.approx(cost, rel=1e-12)
    observed = opt.observations()
    assert observed.fidelity.tolist() == told
    best = opt.best()  # at the target: one of the robot's observations
    at_robot = [x for x, f in zip(observed.x, observed.fidelity) if f == "robot"]
    assert any(np.array_equal(best.x, x) for x in at_robot)
    # predict answers at the target, and at another fidelity when asked.
    X = np.array([[0.3, 0.6], [0.9, 0.1]])
    target = opt.predict(X)
    for same in ("robot", 1):
        np.testing.assert_array_equal(opt.predict(X, fidelity=same).mean, target.mean)
    assert opt.predict(X, fidelity="sim").mean.shape == (2,)
    assert not np.array_equal(opt.predict(X, fidelity=0).std, target.std)


def test_a_tell_by_index_or_without_fidelity():
    opt = gpbandit.Optimizer(square(), fidelities=LEVELS, seed=5, **OPTIONS)
    run(opt, 8)
    opt.tell([0.5, 0.5], -0.1, fidelity=0)  # an index: the simulator
    assert opt.observations().fidelity[-1] == "sim"
    opt.tell([0.25, 0.5], -0.1)  # nothing pending there: the target
    assert opt.observations().fidelity[-1] == "robot"
    x = opt.ask()
    opt.tell(x, measure(x, x.fidelity), trial=x.trial)  # the pending point's fidelity
    assert opt.observations().fidelity[-1] == x.fidelity
    assert opt.cost_spent == pytest.approx(
        sum(COST[f] for f in opt.observations().fidelity), rel=1e-12)


def test_ask_batch_carries_each_points_fidelity():
    opt = gpbandit.Optimizer(square(), fidelities=LEVELS, seed=7, **OPTIONS)
    run(opt, 6)
    X = opt.ask_batch(3)
    assert len(X.fidelities) == 3 and set(X.fidelities) <= set(COST)
    assert [X[i].fidelity for i in range(3)] == X.fidelities
    pending = opt.pending()
    by_trial = dict(zip(pending.trial.tolist(), pending.fidelity.tolist()))
    assert [by_trial[t] for t in X.trials.tolist()] == X.fidelities
    for x in X:
        opt.tell(x, measure(x, x.fidelity), fidelity=x.fidelity, trial=x.trial)
    assert len(opt.pending().trial) == 0


def test_options_of_the_joint_model_and_the_rule():
    opt = gpbandit.Optimizer(square(), fidelities=LEVELS, fidelity_model="icm",
                             fidelity_rule="threshold", min_correlation=0.5, seed=1)
    f = opt.options["fidelities"]
    assert (f["model"], f["rule"], f["min_correlation"]) == ("icm", "threshold", 0.5)
    assert f["levels"] == [{"name": "sim", "cost": 1.0}, {"name": "robot", "cost": 20.0}]
    as_dict = gpbandit.Optimizer(
        square(), seed=1,
        fidelities={"levels": [{"name": "sim", "cost": 1}, ("robot", 20)], "model": "icm"})
    assert as_dict.options["fidelities"]["model"] == "icm"
    assert as_dict.options["fidelities"]["rule"] == "information"  # the C++ default
    assert as_dict.options["fidelities"]["fit_function_tolerance"] == 1e-6
    tighter = gpbandit.Optimizer(
        square(), seed=1, fidelities={"levels": LEVELS, "fit_function_tolerance": 1e-8})
    assert tighter.options["fidelities"]["fit_function_tolerance"] == 1e-8
    with pytest.raises(ValueError, match="-2"):
        gpbandit.Optimizer(square(), fidelities=[("sim", -2.0), ("robot", 20.0)], seed=1)
    with pytest.raises(ValueError, match="fidelities.speed"):
        gpbandit.Optimizer(square(), fidelities={"levels": LEVELS, "speed": 2}, seed=1)
    with pytest.raises(ValueError, match="fidelities\\[1\\]"):
        gpbandit.Optimizer(square(), fidelities=[("sim", 1.0), ("robot",)], seed=1)
    with pytest.raises(ValueError, match="nonsense"):
        gpbandit.Optimizer(square(), fidelities=LEVELS, fidelity_rule="nonsense", seed=1)


def test_a_bad_tell_is_refused_and_the_log_stays_byte_identical(tmp_path):
    log = tmp_path / "study.jsonl"
    opt = gpbandit.Optimizer(square(), fidelities=LEVELS, seed=11, log=log, **OPTIONS)
    run(opt, 6)
    x = opt.ask()
    before, fingerprint, cost = log.read_bytes(), opt.fingerprint(), opt.cost_spent
    for bad, error, named in (("hardware", ValueError, "fidelity = 'hardware'"),
                              (2, ValueError, "fidelity = 2:"), (-1, ValueError, "fidelity = -1:"),
                              (1.5, TypeError, "got 1.5"), (True, TypeError, "got True")):
        with pytest.raises(error, match=named):
            opt.tell(x, -1.0, fidelity=bad, trial=x.trial)
        with pytest.raises(error, match=named):
            opt.tell(x, -1.0, fidelity=bad)
    assert log.read_bytes() == before
    assert opt.fingerprint() == fingerprint and opt.cost_spent == cost
    assert opt.pending().trial.tolist() == [x.trial]
    with pytest.raises(ValueError, match="hardware"):
        opt.predict(x, fidelity="hardware")


def test_resume_keeps_fidelities_the_pending_fidelity_and_the_cost(tmp_path):
    log = tmp_path / "study.jsonl"
    opt = gpbandit.Optimizer(square(), fidelities=LEVELS, seed=13, log=log, **OPTIONS)
    cost = run(opt, 10)
    x = opt.ask()
    fingerprint = opt.fingerprint()
    del opt
    for again in (gpbandit.Optimizer.resume(log),
                  gpbandit.Optimizer(square(), fidelities=LEVELS, seed=13, log=log,
                                     load_if_exists=True, **OPTIONS)):
        assert again.fidelities == LEVELS
        assert again.cost_spent == pytest.approx(cost, rel=1e-12)
        pending = again.pending()
        assert pending.trial.tolist() == [x.trial]
        assert pending.fidelity.tolist() == [x.fidelity]
        assert again.fingerprint() == fingerprint
    again.tell(x, measure(x, x.fidelity), trial=x.trial)  # the pending point's fidelity
    assert again.observations().fidelity[-1] == x.fidelity
    assert again.cost_spent == pytest.approx(cost + COST[x.fidelity], rel=1e-12)


def test_a_useless_simulator_is_mostly_avoided_late():
    """The simulator is an independent random function: after the tries it is owed, the
    fitted relation says it is useless and the study evaluates the robot. A later refit may
    fit a spurious relation and reopen the gate until the next refit closes it again, so the
    bound is on the sum: over 8 seeds, at most 10 of the 160 last asks (the last 20 of 50 of
    each study) are at the simulator, at most 6 in any one study (a robot episode costs 10)."""
    late = []
    for seed in range(1, 9):
        target, sim = Bumps(100 + seed), Bumps(200 + seed)
        opt = gpbandit.Optimizer(square(), fidelities=[("sim", 1.0), ("robot", 10.0)],
                                 seed=seed, **OPTIONS)
        fidelities = []
        for _ in range(50):
            x = opt.ask()
            opt.tell(x, sim(x) if x.fidelity == "sim" else target(x), fidelity=x.fidelity)
            fidelities.append(x.fidelity)
        late.append(fidelities[30:].count("sim"))
        print(f"[ measured ] seed {seed}: {fidelities.count('sim')} of 50 at the useless "
              f"simulator, {late[-1]} of the last 20")
    assert sum(late) <= 10 and max(late) <= 6, late


def test_minimize_stays_within_the_budget_and_resumes_counting_it(tmp_path):
    calls = []

    def bowl(x, fidelity):
        calls.append((np.array(x), fidelity))
        return -measure(x, fidelity)

    log = tmp_path / "minimize.jsonl"
    levels = [("sim", 1.0), ("robot", 10.0)]
    costs = dict(levels)
    res = gpbandit.minimize(bowl, [(0.0, 1.0), (0.0, 1.0)], fidelities=levels, budget=100.0,
                            seed=17, log=log, **OPTIONS)
    spent = sum(costs[f] for _, f in calls)
    assert spent <= 100.0 and 100.0 - spent < 10.0  # stopped when the next could not be paid
    assert res.cost_spent == pytest.approx(spent, rel=1e-12)
    assert "budget" in res.message
    assert len(res.optimizer.pending().trial) == 0  # the unaffordable point was given back
    assert res.fidelities.tolist() == [f for _, f in calls]
    at_robot = [(-measure(x, f), x) for x, f in calls if f == "robot"]
    fun, x = min(at_robot, key=lambda item: item[0])
    assert res.fun == fun and np.array_equal(res.x, x)  # the best at the target only
    first = len(calls)
    again = gpbandit.minimize(bowl, [(0.0, 1.0), (0.0, 1.0)], fidelities=levels, budget=160.0,
                              seed=17, log=log, load_if_exists=True, **OPTIONS)
    more = sum(costs[f] for _, f in calls[first:])
    assert len(calls) > first
    assert spent + more <= 160.0 and 160.0 - (spent + more) < 10.0
    assert again.cost_spent == pytest.approx(spent + more, rel=1e-12)


def test_minimize_without_fidelities_calls_func_with_x_alone_and_a_budget_counts_calls():
    res = gpbandit.minimize(lambda x: float(np.sum(np.asarray(x) ** 2)), [(-1.0, 1.0)],
                            budget=7, seed=2, **OPTIONS)
    assert res.nfev == 7 and res.cost_spent == 7.0
    assert not hasattr(res, "fidelities")


def test_a_study_without_fidelities_has_none():
    opt = gpbandit.Optimizer(square(), seed=19, **OPTIONS)
    x = opt.ask()
    assert x.fidelity is None and opt.fidelities == [] and opt.fidelity_names == []
    X = opt.ask_batch(2)
    assert X.fidelities is None and X[0].fidelity is None
    assert opt.pending().fidelity is None
    with pytest.raises(ValueError, match="fidelity = 'sim'"):
        opt.tell(x, -1.0, fidelity="sim")
    opt.tell(x, robot(x))
    assert opt.observations().fidelity is None
    assert opt.cost_spent == 1.0
    mixed = gpbandit.Optimizer(gpbandit.Space([(0.0, 1.0), ["a", "b"]]).domain, seed=19,
                               **OPTIONS)
    assert mixed.ask().fidelity is None


def test_the_docs_snippet_runs(capsys):
    """docs/python.md, "Fidelities": the snippet runs and finds the robot's optimum (0.3,
    0.6) within its cost."""
    source = os.environ.get("GPBANDIT_SOURCE_DIR",
                            os.path.join(os.path.dirname(__file__), "..", ".."))
    with open(os.path.join(source, "docs", "python.md"), encoding="utf-8") as f:
        text = f.read()
    section = text[text.index("## Fidelities"):]
    snippet = section[section.index("```python\n") + 10:section.index("```\n", 10)]
    scope = {}
    exec(compile(snippet, "docs/python.md", "exec"), scope)
    opt = scope["opt"]
    assert 400 <= opt.cost_spent < 420
    assert math.dist(opt.best().x, [0.3, 0.6]) < 0.1
