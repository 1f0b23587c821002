"""gpbandit.optuna.GPBanditSampler: an Optuna sampler on the C++ optimizer. Every kind of
distribution, legal values of the right types, determinism with a seed, parallel
optimize(n_jobs=...), the independent fallback, and Optuna's in-memory and RDB (PostgreSQL)
storages."""

import math

import optuna
import pytest

from gpbandit.optuna import GPBanditSampler

optuna.logging.set_verbosity(optuna.logging.WARNING)

DISTRIBUTIONS = {
    "kp": optuna.distributions.FloatDistribution(0.1, 100.0, log=True),
    "ki": optuna.distributions.FloatDistribution(-1.0, 1.0),
    "kd": optuna.distributions.FloatDistribution(0.0, 1.0, step=0.125),
    "taps": optuna.distributions.IntDistribution(1, 12),
    "size": optuna.distributions.IntDistribution(1, 4096, log=True),
    "even": optuna.distributions.IntDistribution(0, 20, step=2),
    "mode": optuna.distributions.CategoricalDistribution(["pid", "lead-lag", None, 3]),
}


def objective(trial):
    p = {
        "kp": trial.suggest_float("kp", 0.1, 100.0, log=True),
        "ki": trial.suggest_float("ki", -1.0, 1.0),
        "kd": trial.suggest_float("kd", 0.0, 1.0, step=0.125),
        "taps": trial.suggest_int("taps", 1, 12),
        "size": trial.suggest_int("size", 1, 4096, log=True),
        "even": trial.suggest_int("even", 0, 20, step=2),
        "mode": trial.suggest_categorical("mode", ["pid", "lead-lag", None, 3]),
    }
    return ((math.log10(p["kp"]) - 0.5) ** 2 + p["ki"] ** 2 + (p["kd"] - 0.375) ** 2
            + 0.01 * (p["taps"] - 4) ** 2 + 0.1 * (math.log2(p["size"]) - 6) ** 2
            + 0.01 * (p["even"] - 8) ** 2 + (0.0 if p["mode"] == "lead-lag" else 0.5))


def check_legal(trials):
    for t in trials:
        for name, value in t.params.items():
            d = DISTRIBUTIONS[name]
            assert d._contains(d.to_internal_repr(value)), (name, value)
        assert type(t.params["taps"]) is int and type(t.params["size"]) is int
        assert type(t.params["even"]) is int and type(t.params["kp"]) is float
        assert t.params["mode"] in ("pid", "lead-lag", None, 3)


def test_every_distribution_gets_legal_values_and_the_study_improves():
    study = optuna.create_study(sampler=GPBanditSampler("ei", seed=5))
    study.optimize(objective, n_trials=30)
    check_legal(study.trials)
    assert all(t.state == optuna.trial.TrialState.COMPLETE for t in study.trials)
    first = min(t.value for t in study.trials[:8])
    assert study.best_value < first
    assert study.best_params["mode"] == "lead-lag"


def test_a_seed_gives_the_same_trials():
    runs = []
    for _ in range(2):
        study = optuna.create_study(direction="maximize", sampler=GPBanditSampler("gp-ucb", seed=9))
        study.optimize(lambda t: -objective(t), n_trials=12)
        runs.append([t.params for t in study.trials])
    assert runs[0] == runs[1]


def test_parameters_outside_the_shared_space_come_from_the_independent_sampler():
    def conditional(trial):
        mode = trial.suggest_categorical("mode", ["a", "b"])
        x = trial.suggest_float("x", 0.0, 1.0)
        if mode == "a":
            return (x - 0.2) ** 2 + trial.suggest_float("extra", 0.0, 1.0)
        return (x - 0.7) ** 2 + trial.suggest_int("n", 1, 3)

    study = optuna.create_study(sampler=GPBanditSampler("ei", seed=3))
    study.optimize(conditional, n_trials=15)
    assert len(study.trials) == 15
    for t in study.trials:
        assert ("extra" in t.params) == (t.params["mode"] == "a")


def test_parallel_trials_spread_out():
    sampler = GPBanditSampler("ei", seed=2)
    study = optuna.create_study(sampler=sampler)
    study.optimize(objective, n_trials=24, n_jobs=3)
    assert len(study.trials) == 24
    check_legal(study.trials)
    points = [tuple(sorted(t.params.items(), key=lambda kv: kv[0])) for t in study.trials]
    assert len(set(map(repr, points))) == len(points)  # no trial repeats another


def test_failed_trials_give_their_point_back():
    def sometimes_fails(trial):
        x = trial.suggest_float("x", 0.0, 1.0)
        n = trial.suggest_int("n", 0, 5)
        if trial.number % 3 == 2:
            raise optuna.TrialPruned()
        return (x - 0.3) ** 2 + n

    study = optuna.create_study(sampler=GPBanditSampler("ei", seed=4))
    study.optimize(sometimes_fails, n_trials=12)
    model = study.sampler._model
    model.sync(study)  # what the next trial's suggestion would do first
    assert model.optimizer.pending().x.shape[0] == 0
    assert model.optimizer.num_accepted == 8


def test_bad_strategies_are_refused_at_once():
    with pytest.raises(ValueError):
        GPBanditSampler("no-such-strategy")


def test_an_rdb_study_on_postgresql_resumed_by_a_new_sampler(postgres_url):
    storage = optuna.storages.RDBStorage(postgres_url.replace("postgresql://", "postgresql+psycopg2://"))
    study = optuna.create_study(study_name="mixed", storage=storage,
                                sampler=GPBanditSampler("ei", seed=6))
    study.optimize(objective, n_trials=10, n_jobs=2)
    # Another process's view: the study loaded with a fresh sampler, which tells the 10
    # finished trials before its first suggestion.
    resumed = optuna.load_study(study_name="mixed", storage=storage,
                                sampler=GPBanditSampler("ei", seed=7))
    resumed.optimize(objective, n_trials=8)
    trials = resumed.get_trials()
    assert len(trials) == 18
    check_legal(trials)
    assert resumed.sampler._model.optimizer.num_accepted == 17
    assert resumed.best_value <= min(t.value for t in trials[:10])
