"""GPBanditSampler with Optuna's constraints_func and multi-objective studies: constraints stored
on the trials as Optuna's samplers store them, a feasible best trial, non-dominated best_trials
for two objectives, both with a constraint, on in-memory and PostgreSQL storage."""

import math

import optuna
import pytest

from gpbandit.optuna import GPBanditSampler, best_feasible_trials

optuna.logging.set_verbosity(optuna.logging.WARNING)


def constrained(trial):
    """min (x - 0.8)^2 + (y - 0.8)^2 subject to x + y <= 1: the unconstrained minimum is
    infeasible, the constrained one is (0.5, 0.5) with value 0.18."""
    x = trial.suggest_float("x", 0.0, 1.0)
    y = trial.suggest_float("y", 0.0, 1.0)
    return (x - 0.8) ** 2 + (y - 0.8) ** 2


def sum_limit(trial):
    return [trial.params["x"] + trial.params["y"] - 1.0]


def two_objectives(trial):
    """Both minimized; the Pareto set is the diagonal x = y."""
    x = trial.suggest_float("x", 0.0, 1.0)
    y = trial.suggest_float("y", 0.0, 1.0)
    return x ** 2 + y ** 2, (x - 1.0) ** 2 + (y - 1.0) ** 2


def x_at_least(trial):
    return [0.3 - trial.params["x"]]  # x >= 0.3, in Optuna's convention c <= 0


def dominates(a, b):
    return all(u <= v for u, v in zip(a, b)) and any(u < v for u, v in zip(a, b))


def assert_non_dominated(trials, among):
    for t in trials:
        assert not any(dominates(o.values, t.values) for o in among), t.number


def stored_constraints(trial):
    return list(trial.system_attrs["constraints"])


def test_constraints_are_stored_on_the_trials_and_the_best_feasible_trial_is_found():
    study = optuna.create_study(sampler=GPBanditSampler(seed=3, constraints_func=sum_limit))
    study.optimize(constrained, n_trials=30)
    complete = [t for t in study.trials if t.state == optuna.trial.TrialState.COMPLETE]
    assert len(complete) == 30
    for t in complete:
        assert stored_constraints(t) == [t.params["x"] + t.params["y"] - 1.0]
    model = study.sampler._model
    assert model.optimizer.outcome_names == ["value0", "constraint0"]
    assert model.optimizer.constraints == [("constraint0", "<=", 0.0)]
    best = best_feasible_trials(study)
    assert len(best) == 1
    best = best[0]
    assert best.params["x"] + best.params["y"] <= 1.0
    feasible = [t for t in complete if stored_constraints(t)[0] <= 0]
    assert best.value == min(t.value for t in feasible)
    # The constrained minimum is 0.18; random search's best of 30 is typically about 0.22.
    assert best.value < 0.2
    # Optuna's own samplers read the same attribute: NSGA-II's constrained domination sees it.
    assert all(isinstance(t.system_attrs["constraints"], (list, tuple)) for t in complete)


def test_a_nan_constraint_is_refused_and_stored_as_none():
    def nan_constraint(trial):
        return [math.nan]

    study = optuna.create_study(sampler=GPBanditSampler(seed=1, constraints_func=nan_constraint))
    with pytest.raises(ValueError, match="NaN"):
        study.optimize(constrained, n_trials=1)
    assert study.trials[0].system_attrs["constraints"] is None


def test_a_two_objective_study_gives_non_dominated_best_trials():
    study = optuna.create_study(directions=["minimize", "minimize"],
                                sampler=GPBanditSampler(seed=5))
    study.optimize(two_objectives, n_trials=25)
    model = study.sampler._model
    assert model.optimizer.strategy == "ehvi"
    assert model.optimizer.outcome_names == ["value0", "value1"]
    assert model.optimizer.num_accepted == 24  # every trial but the one that started the model
    best = study.best_trials
    assert len(best) >= 5
    assert_non_dominated(best, study.trials)
    assert [t.number for t in best_feasible_trials(study)] == [t.number for t in best]
    # The sampler's trials approach the Pareto set x = y.
    assert sum(abs(t.params["x"] - t.params["y"]) < 0.2 for t in best) >= 0.8 * len(best)


def test_an_index_strategy_with_two_objectives_and_a_maximized_one():
    study = optuna.create_study(directions=["maximize", "minimize"],
                                sampler=GPBanditSampler("gp-ucb", seed=2))
    study.optimize(lambda t: tuple(-v if i == 0 else v for i, v in enumerate(two_objectives(t))),
                   n_trials=12)
    assert study.sampler._model.optimizer.objectives == [("value0", "max"), ("value1", "min")]
    best = study.best_trials
    assert best
    signs = (-1.0, 1.0)
    costs = [[s * v for s, v in zip(signs, t.values)] for t in study.trials]
    for t in best:
        c = [s * v for s, v in zip(signs, t.values)]
        assert not any(dominates(o, c) for o in costs)


def two_objectives_with_a_constraint(storage, seed, n_trials, n_jobs=1, name="outcomes"):
    study = optuna.create_study(
        study_name=name, storage=storage, directions=["minimize", "minimize"],
        sampler=GPBanditSampler(seed=seed, constraints_func=x_at_least))
    study.optimize(two_objectives, n_trials=n_trials, n_jobs=n_jobs)
    return study


def check_constrained_front(study):
    complete = [t for t in study.trials if t.state == optuna.trial.TrialState.COMPLETE]
    for t in complete:
        assert stored_constraints(t) == [0.3 - t.params["x"]]
    best = best_feasible_trials(study)
    feasible = [t for t in complete if stored_constraints(t)[0] <= 0]
    assert best and all(t.params["x"] >= 0.3 for t in best)
    assert_non_dominated(best, feasible)
    # Every feasible trial that no feasible trial dominates is there (the front is complete).
    expected = [t.number for t in feasible
                if not any(dominates(o.values, t.values) for o in feasible)]
    assert [t.number for t in best] == expected
    return best


def test_two_objectives_with_a_constraint_in_memory():
    study = two_objectives_with_a_constraint(None, seed=7, n_trials=20)
    model = study.sampler._model
    assert model.optimizer.outcome_names == ["value0", "value1", "constraint0"]
    best = check_constrained_front(study)
    assert len(best) >= 4
    # After the first trials the sampler keeps to the feasible region.
    later = [t for t in study.trials[8:]]
    assert sum(stored_constraints(t)[0] <= 0 for t in later) >= 0.75 * len(later)


def test_two_objectives_with_a_constraint_on_postgresql_resumed_by_a_new_sampler(postgres_url):
    storage = optuna.storages.RDBStorage(
        postgres_url.replace("postgresql://", "postgresql+psycopg2://"))
    first = two_objectives_with_a_constraint(storage, seed=8, n_trials=10, n_jobs=2)
    check_constrained_front(first)
    # Another process's view: a fresh sampler tells the 10 finished trials, with their stored
    # constraints, before its first suggestion.
    resumed = optuna.load_study(study_name="outcomes", storage=storage,
                                sampler=GPBanditSampler(seed=9, constraints_func=x_at_least))
    resumed.optimize(two_objectives, n_trials=6)
    assert len(resumed.trials) == 16
    assert resumed.sampler._model.optimizer.num_accepted == 15
    check_constrained_front(resumed)


def test_without_constraints_the_best_feasible_trials_are_optunas_best():
    study = optuna.create_study(direction="maximize", sampler=GPBanditSampler(seed=4))
    study.optimize(lambda t: -constrained(t), n_trials=8)
    assert [t.number for t in best_feasible_trials(study)] == [study.best_trial.number]
    # One objective without constraints: the sampler's optimizer is the single-objective one.
    assert study.sampler._model.optimizer.outcome_names == ["y"]


def test_optunas_nsga2_continues_a_study_from_the_stored_constraints():
    study = optuna.create_study(directions=["minimize", "minimize"],
                                sampler=GPBanditSampler(seed=6, constraints_func=x_at_least))
    study.optimize(two_objectives, n_trials=8)
    study.sampler = optuna.samplers.NSGAIISampler(seed=1, population_size=4,
                                                  constraints_func=x_at_least)
    study.optimize(two_objectives, n_trials=8)
    assert len(study.trials) == 16
    for t in study.trials:
        assert stored_constraints(t) == [0.3 - t.params["x"]]
    check_constrained_front(study)
