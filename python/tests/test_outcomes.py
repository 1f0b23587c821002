"""Several outcomes from Python: Optimizer(objectives=, constraints=), tells by name and by
vector, refused tells that record nothing, failed evaluations, the Pareto front against the
non-dominated set of the told values, its hypervolume against an independent computation, the
constrained recommendation, and minimize given a function of several values."""

import math

import numpy as np
import pytest

import gpbandit

OBJECTIVES = [("near0", "min"), ("near2", "min")]


def schaffer(x):
    """Schaffer's problem N.1: both minimized; every x in [0, 2] is Pareto-optimal."""
    return {"near0": float(x[0] ** 2), "near2": float((x[0] - 2.0) ** 2)}


def line():
    return gpbandit.Domain.box([-1.0], [3.0])


def non_dominated(costs):
    """Indices of the rows of costs (all minimized) no other row dominates, by brute force."""
    costs = np.asarray(costs)
    keep = []
    for i, c in enumerate(costs):
        dominated = any(np.all(o <= c) and np.any(o < c) for j, o in enumerate(costs) if j != i)
        if not dominated:
            keep.append(i)
    return keep


def hypervolume_2d(costs, reference):
    """The area the points (both minimized) dominate inside the reference box, by sweeping f1
    upward over the non-dominated points."""
    front = sorted(np.asarray(costs)[non_dominated(costs)].tolist())
    area = 0.0
    for i, (f1, f2) in enumerate(front):
        right = front[i + 1][0] if i + 1 < len(front) else reference[0]
        area += (right - f1) * (reference[1] - f2)
    return area


def test_a_tell_by_name_and_one_by_vector_are_the_same_tell():
    by_name = gpbandit.Optimizer(line(), seed=4, objectives=OBJECTIVES,
                                 constraints=[("width", "<=", 1.0)])
    by_vector = gpbandit.Optimizer(line(), seed=4, objectives=OBJECTIVES,
                                   constraints=[("width", "<=", 1.0)])
    assert by_name.outcome_names == ["near0", "near2", "width"]
    assert by_name.objectives == OBJECTIVES
    assert by_name.constraints == [("width", "<=", 1.0)]
    for x in ([0.5], [1.5], [2.5], [-0.5]):
        values = dict(schaffer(x), width=abs(x[0] - 1.0))
        by_name.tell(np.array(x), {"width": values["width"], "near2": values["near2"],
                                   "near0": values["near0"]})  # any order of the keys
        by_vector.tell(np.array(x), [values["near0"], values["near2"], values["width"]])
    assert by_name.fingerprint() == by_vector.fingerprint()
    told = by_name.observed_outcomes()
    assert np.array_equal(told["near0"], [0.25, 2.25, 6.25, 0.25])
    assert np.array_equal(told["near2"], [2.25, 0.25, 0.25, 6.25])
    assert np.array_equal(told["width"], [0.5, 0.5, 1.5, 1.5])
    assert np.array_equal(by_name.observations().y, told["near0"])  # y is objective 0 as told
    assert np.array_equal(by_name.ask(), by_vector.ask())


def test_the_options_record_the_declaration_and_a_log_resumes_it(tmp_path):
    log = tmp_path / "two.jsonl"
    opt = gpbandit.Optimizer(line(), seed=2, log=log, objectives=OBJECTIVES,
                             constraints=[{"name": "width", "sense": ">=", "bound": -3.0}],
                             reference_point=[10.0, 10.0])
    outcomes = opt.options["outcomes"]
    assert outcomes["objectives"] == [{"name": "near0", "sense": "minimize"},
                                      {"name": "near2", "sense": "minimize"}]
    assert outcomes["constraints"] == [{"name": "width", "sense": ">=", "bound": -3.0}]
    assert outcomes["reference_point"] == [10.0, 10.0]
    assert opt.options["sense"] == "minimize"  # objective 0's
    for x in ([0.0], [1.0], [2.0]):
        opt.tell(np.array(x), dict(schaffer(x), width=x[0]))
    resumed = gpbandit.Optimizer.resume(log)
    assert resumed.outcome_names == ["near0", "near2", "width"]
    assert resumed.constraints == [("width", ">=", -3.0)]
    assert resumed.fingerprint() == opt.fingerprint()


def test_a_single_objective_study_is_unchanged_by_the_new_keywords():
    plain = gpbandit.Optimizer(line(), seed=7)
    assert plain.outcome_names == ["y"] and plain.objectives == [] and plain.constraints == []
    assert plain.options["outcomes"]["objectives"] == []
    other = gpbandit.Optimizer(line(), seed=7)
    for x in ([0.0], [1.0], [2.5]):
        plain.tell(np.array(x), -x[0] ** 2)
        other.tell(np.array(x), -x[0] ** 2)
    assert plain.fingerprint() == other.fingerprint()
    with pytest.raises(ValueError, match="2 outcomes|shape"):
        plain.tell(np.array([1.0]), [1.0, 2.0])


def test_declarations_are_checked_naming_the_field():
    with pytest.raises(ValueError, match=r"objectives\[1\].sense = 'lowest'"):
        gpbandit.Optimizer(line(), objectives=[("a", "min"), ("b", "lowest")])
    with pytest.raises(ValueError, match=r"constraints\[0\]"):
        gpbandit.Optimizer(line(), objectives=[("a", "min")], constraints=[("g", "<", 1.0)])
    with pytest.raises(ValueError, match=r"constraints\[0\].bound"):
        gpbandit.Optimizer(line(), objectives=[("a", "min")], constraints=[("g", "<=", math.inf)])
    with pytest.raises(ValueError, match="contradicts objectives"):
        gpbandit.Optimizer(line(), objectives=[("a", "min")], sense="maximize")
    with pytest.raises(ValueError, match="a"):  # the C++ check: a repeated name
        gpbandit.Optimizer(line(), objectives=[("a", "min"), ("a", "max")])
    with pytest.raises(ValueError, match="reference_point"):
        gpbandit.Optimizer(line(), objectives=OBJECTIVES, reference_point=[1.0])
    with pytest.raises(ValueError, match="objectives="):
        gpbandit.Optimizer(line(), outcomes={"objectives": []})


@pytest.mark.parametrize("y, message", [
    ({"near0": 1.0}, "near2"),                                 # missing
    ({"near0": 1.0, "near2": 1.0, "width": 0.0, "extra": 2.0}, "extra"),  # unknown
    ({"near0": 1.0, "near2": 1.0, "wdith": 0.0}, "wdith|width"),  # misspelt
    ([1.0, 2.0], "3 outcomes|3 values|size"),                 # too few
    ([1.0, 2.0, 3.0, 4.0], "3 outcomes|3 values|size"),       # too many
    (1.0, "3 outcomes"),                                       # one number
])
def test_a_refused_tell_records_nothing(tmp_path, y, message):
    log = tmp_path / "refused.jsonl"
    opt = gpbandit.Optimizer(line(), seed=3, log=log, objectives=OBJECTIVES,
                             constraints=[("width", "<=", 1.0)])
    opt.tell(np.array([1.0]), {"near0": 1.0, "near2": 1.0, "width": 0.0})
    x = opt.ask()
    before, log_before = opt.fingerprint(), log.read_bytes()
    with pytest.raises(ValueError, match=message):
        opt.tell(x, y, trial=x.trial)
    assert opt.fingerprint() == before
    assert log.read_bytes() == log_before
    assert len(opt.observations().y) == 1 and opt.pending().trial.tolist() == [x.trial]


def test_nan_in_one_outcome_is_a_failed_evaluation_under_non_finite_rewards():
    values = {"near0": 1.0, "near2": math.nan, "width": 0.0}
    strict = gpbandit.Optimizer(line(), seed=5, objectives=OBJECTIVES,
                                constraints=[("width", "<=", 1.0)])
    strict.tell(np.array([1.0]), {"near0": 1.0, "near2": 1.0, "width": 0.0})
    before = strict.fingerprint()
    with pytest.raises(ValueError, match="non_finite_rewards|nan|finite"):
        strict.tell(np.array([0.0]), values)
    assert strict.fingerprint() == before and strict.num_failed == 0

    skipping = gpbandit.Optimizer(line(), seed=5, objectives=OBJECTIVES,
                                  constraints=[("width", "<=", 1.0)], non_finite_rewards="skip")
    skipping.tell(np.array([1.0]), {"near0": 1.0, "near2": 1.0, "width": 0.0})
    skipping.tell(np.array([0.0]), values)
    assert skipping.num_failed == 1 and skipping.num_accepted == 1
    assert skipping.observations().accepted.tolist() == [True, False]
    # A failed evaluation never enters the front.
    assert [p.x.tolist() for p in skipping.pareto_front()] == [[1.0]]


def told_schaffer_study(**options):
    opt = gpbandit.Optimizer(line(), seed=11, objectives=OBJECTIVES, **options)
    # -0.9, -0.4, ..., 2.6, no two with equal values: the front is 0.1, 0.6, ..., 2.1, and
    # each dominated point is worse by >= 0.15 in both objectives than a front point.
    X = (np.arange(8) * 0.5 - 0.9)[:, None]
    for x in X:
        opt.tell(x, schaffer(x))
    return opt, X, np.array([[schaffer(x)["near0"], schaffer(x)["near2"]] for x in X])


def test_the_pareto_front_is_the_non_dominated_set_of_the_told_values():
    opt, X, costs = told_schaffer_study()
    front = opt.pareto_front()
    expected = non_dominated(costs)
    assert [p.x.tolist() for p in front] == X[expected].tolist()  # in the order told
    assert X[expected].ravel() == pytest.approx([0.1, 0.6, 1.1, 1.6, 2.1], abs=1e-12)
    for p, i in zip(front, expected):
        assert p.outcomes == {"near0": costs[i, 0], "near2": costs[i, 1]}
        assert p.probability_feasible == 1.0 and p.context is None
        # Noise-free values: the posterior means at the points are the told values.
        assert p.means["near0"] == pytest.approx(costs[i, 0], abs=0.05)
        assert p.means["near2"] == pytest.approx(costs[i, 1], abs=0.05)
    means = np.array([[p.means["near0"], p.means["near2"]] for p in front])
    assert non_dominated(means) == list(range(len(front)))  # none dominates another in mean
    with pytest.raises(RuntimeError, match="pareto"):
        opt.best()


def test_the_hypervolume_against_an_independent_computation():
    opt, _, costs = told_schaffer_study(reference_point=[5.0, 5.0])
    assert opt.reference_point().tolist() == [5.0, 5.0]
    # The sweep itself on a hand-computed staircase: 1 + 2 + 3.
    assert hypervolume_2d([[1, 3], [2, 2], [3, 1], [3, 3]], [4, 4]) == 6.0
    assert opt.hypervolume() == pytest.approx(hypervolume_2d(costs, [5.0, 5.0]), rel=1e-12)


def test_an_inferred_reference_point_is_the_worst_told_values_moved_out_by_a_tenth_of_their_range():
    opt, _, costs = told_schaffer_study()  # no constraints: every told point is feasible
    worst, span = costs.max(axis=0), costs.max(axis=0) - costs.min(axis=0)
    assert opt.reference_point() == pytest.approx(worst + 0.1 * span, rel=1e-12)
    assert opt.hypervolume() == pytest.approx(hypervolume_2d(costs, worst + 0.1 * span),
                                              rel=1e-12)


def test_tell_many_takes_rows_of_outcomes_and_dicts():
    rows = gpbandit.Optimizer(line(), seed=8, objectives=OBJECTIVES)
    dicts = gpbandit.Optimizer(line(), seed=8, objectives=OBJECTIVES)
    X = np.array([[0.0], [1.0], [2.0]])
    rows.tell_many(X, [[0.0, 4.0], [1.0, 1.0], [4.0, 0.0]])
    dicts.tell_many(X, [schaffer(x) for x in X])
    assert rows.fingerprint() == dicts.fingerprint()
    before = rows.fingerprint()
    with pytest.raises(ValueError, match=r"y\[1\]"):  # checked before anything is told
        rows.tell_many(X[:2], [[0.0, 4.0], {"near0": 1.0}])
    assert rows.fingerprint() == before


@pytest.mark.parametrize("strategy", ["ehvi", "gp-ucb", "gp-ts", "ei"])
def test_every_strategy_asks_inside_the_box_with_two_objectives(strategy):
    opt = gpbandit.Optimizer(line(), strategy, seed=6, objectives=OBJECTIVES)
    for _ in range(8):
        x = opt.ask()
        assert -1.0 <= x[0] <= 3.0
        opt.tell(x, schaffer(x), trial=x.trial)
    front = opt.pareto_front()
    assert front
    told = opt.observed_outcomes()
    costs = np.column_stack([told["near0"], told["near2"]])
    assert opt.hypervolume() > 0
    # Every front point is a told point, and no told point dominates one by much.
    for p in front:
        c = np.array([p.outcomes["near0"], p.outcomes["near2"]])
        assert any(np.array_equal(c, row) for row in costs)
        assert not any(np.all(row < c - 0.05) for row in costs)


def test_the_constrained_recommendation_is_feasible():
    # Maximize x on [0, 1] subject to g(x) = x <= 0.6: the answer is an observed x <= 0.6.
    opt = gpbandit.Optimizer(gpbandit.Domain.box([0.0], [1.0]), "ei", seed=9,
                             objectives=[("x", "max")], constraints=[("g", "<=", 0.6)])
    for x in np.linspace(0.0, 1.0, 11):
        opt.tell(np.array([x]), {"x": x, "g": x})
    best = opt.best()
    assert 0.4 <= best.x[0] <= 0.6
    assert opt.probability_of_feasibility(np.array([0.2])) > 0.95
    assert opt.probability_of_feasibility(np.array([0.95])) < 0.05
    p = opt.probability_of_feasibility(np.array([[0.2], [0.95]]))
    assert p.shape == (2,) and p[0] > 0.95 > 0.05 > p[1]
    g = opt.predict_outcome("g", np.array([[0.3], [0.8]]))
    assert g.mean == pytest.approx([0.3, 0.8], abs=0.02)
    assert np.all(g.std >= 0)
    front = opt.pareto_front()
    assert len(front) == 1 and front[0].x[0] == best.x[0]
    assert front[0].probability_feasible >= 0.95


def test_no_feasible_point_yet_is_said_so():
    opt = gpbandit.Optimizer(gpbandit.Domain.box([0.0], [1.0]), "ei", seed=9,
                             objectives=[("x", "max")], constraints=[("g", "<=", -1.0)])
    for x in (0.0, 0.5, 1.0):
        opt.tell(np.array([x]), {"x": x, "g": x})
    with pytest.raises(RuntimeError, match="feasible"):
        opt.best()
    assert opt.pareto_front() == []
    assert opt.hypervolume() == 0.0
    x = opt.ask()  # searches for feasibility
    assert 0.0 <= x[0] <= 1.0


def test_named_points_and_named_outcomes_on_a_parameter_space():
    domain = gpbandit.Domain.space([
        {"name": "gain", "type": "real", "lower": -1.0, "upper": 3.0},
        {"name": "mode", "type": "categorical", "labels": ["a", "b"]},
    ])
    opt = gpbandit.Optimizer(domain, seed=1, objectives=OBJECTIVES)
    for gain in (0.0, 1.0, 2.0, -1.0):
        opt.tell({"gain": gain, "mode": "a"}, schaffer([gain]))
    x = opt.ask()
    opt.tell(x, schaffer([x["gain"]]), trial=x.trial)
    front = opt.pareto_front()
    assert all(isinstance(p.x, dict) and set(p.x) == {"gain", "mode"} for p in front)
    assert {"gain": -1.0, "mode": "a"} not in [p.x for p in front]


def test_minimize_says_what_takes_several_values():
    def two_values(x):
        return x[0] ** 2, (x[0] - 2.0) ** 2

    with pytest.raises(TypeError, match=r"2 values.*objectives="):
        gpbandit.minimize(two_values, [(-1.0, 3.0)], n_calls=3, seed=1)

    def one_in_a_list(x):
        return [float(x[0] ** 2)]

    result = gpbandit.minimize(one_in_a_list, [(-1.0, 3.0)], n_calls=4, seed=1)
    assert result.fun == pytest.approx(min(v for v in result.func_vals))


def test_one_declared_objective_takes_a_number_a_dict_or_one_value_alike():
    by_number = gpbandit.Optimizer(line(), seed=12, objectives=[("cost", "min")])
    by_dict = gpbandit.Optimizer(line(), seed=12, objectives=[("cost", "min")])
    by_list = gpbandit.Optimizer(line(), seed=12, objectives=[("cost", "min")])
    plain = gpbandit.Optimizer(line(), seed=12, sense="minimize")
    for x in ([0.0], [1.0], [2.5]):
        cost = (x[0] - 1.2) ** 2
        by_number.tell(np.array(x), cost)
        by_dict.tell(np.array(x), {"cost": cost})
        by_list.tell(np.array(x), [cost])
        plain.tell(np.array(x), cost)
    assert by_number.fingerprint() == by_dict.fingerprint() == by_list.fingerprint()
    assert by_number.outcome_names == ["cost"]
    assert by_number.best().x.tolist() == plain.best().x.tolist() == [1.0]
    assert np.array_equal(by_number.ask(), plain.ask())


def test_constraints_without_objectives_keep_the_one_objective_named_y():
    opt = gpbandit.Optimizer(line(), seed=13, constraints=[("g", ">=", 0.5)])
    assert opt.outcome_names == ["y", "g"] and opt.objectives == []
    opt.tell(np.array([1.0]), {"y": 3.0, "g": 1.0})
    with pytest.raises(ValueError, match="safe-opt"):  # safety signals are another thing
        opt.tell(np.array([2.0]), {"y": 3.0, "g": 1.0}, constraints=[0.0])
    assert len(opt.observations().y) == 1


def test_load_if_exists_continues_the_same_declaration_and_names_a_different_one(tmp_path):
    log = tmp_path / "declared.jsonl"
    declared = dict(objectives=OBJECTIVES, constraints=[("width", "<=", 1.0)])
    first = gpbandit.Optimizer(line(), seed=14, log=log, **declared)
    first.tell(np.array([1.0]), {"near0": 1.0, "near2": 1.0, "width": 0.0})
    again = gpbandit.Optimizer(line(), seed=14, log=log, load_if_exists=True, **declared)
    assert again.fingerprint() == first.fingerprint()
    with pytest.raises(RuntimeError, match="outcomes"):
        gpbandit.Optimizer(line(), seed=14, log=log, load_if_exists=True, objectives=OBJECTIVES,
                           constraints=[("width", "<=", 2.0)])
