"""gpbandit as an Optuna sampler: GPBanditSampler(strategy="ei", seed=...).

    import optuna, gpbandit.optuna
    study = optuna.create_study(sampler=gpbandit.optuna.GPBanditSampler("ei", seed=1))
    study.optimize(objective, n_trials=60)

Relative sampling (Optuna's BaseSampler): the parameters every finished trial shares (Optuna's
intersection search space) are chosen together by a gpbandit Optimizer over a parameter space
(gpbandit.space, space/parameter_space.h):
    FloatDistribution(low, high)            a real, on a log scale when log=True
    FloatDistribution(low, high, step=s)    an integer k, the value low + k s
    IntDistribution(low, high[, log])       an integer (step s > 1: k with low + k s)
    CategoricalDistribution(choices)        a categorical (any choices; the value is the choice)
Parameters outside that space, and every parameter of the first trial, come from the
independent sampler (default: Optuna's RandomSampler with the same seed); single-valued
distributions too. The study's direction sets the optimizer's sense. Completed trials are told
(with their values); a trial that fails or is pruned gives its point back; trials that ended
with +-inf are told as failures imputed with the worst value so far (non_finite_rewards).

Storages and parallelism: the sampler reads the trials from the study, so it works with every
Optuna storage (in memory, RDB such as PostgreSQL), including a study resumed by another
process, whose finished trials it tells before its first suggestion. One sampler shared by the
threads of optimize(n_jobs=...) keeps one optimizer under a lock: the trials running in those
threads are its pending points (GP-BUCB), so parallel suggestions spread out. Trials running in
other processes are not seen until they finish (as with Optuna's own samplers).

Determinism: with a seed, a sequential study gives the same trials every run.

Several objectives and constraints (docs/python.md, "Several outcomes"): a multi-objective
study (optuna.create_study(directions=[...])) is one gpbandit study whose objectives are named
value0, value1, ... with the study's directions; the default strategy is then "ehvi" (expected
hypervolume improvement), "ei" with one objective. constraints_func(frozen_trial) -> a sequence
of floats, in Optuna's convention (a value <= 0 is satisfied), as NSGAIISampler and
TPESampler take it: called after each complete or pruned trial, its values are stored on the
trial under the system attribute "constraints" (NaN is refused, as Optuna refuses it), and the
optimizer models them as outcome constraints constraint0, constraint1, ... (<= 0), each with its
own GP. Until a trial has stored its constraints, relative sampling waits (the independent
sampler chooses). Optuna 3.1's study.best_trial and best_trials do not look at constraints:
best_feasible_trials(study) gives the best trials among the feasible ones."""

import math
import random
import threading

import numpy as np
from optuna.distributions import (
    CategoricalDistribution,
    FloatDistribution,
    IntDistribution,
)
from optuna.samplers import BaseSampler, IntersectionSearchSpace, RandomSampler
from optuna.study import StudyDirection
from optuna.trial import TrialState

from .domain import Domain
from .optimizer import Optimizer

__all__ = ["GPBanditSampler", "best_feasible_trials"]

# The system attribute Optuna's samplers store a trial's constraints under
# (optuna.samplers._base._CONSTRAINTS_KEY).
_CONSTRAINTS_KEY = "constraints"


class _Codec:
    """One Optuna distribution as one parameter of a gpbandit space, and values both ways."""

    def __init__(self, name, distribution):
        self.name, self.distribution = name, distribution
        d = distribution
        self.offset, self.step = 0.0, None
        if isinstance(d, CategoricalDistribution):
            labels = [str(c) for c in d.choices]
            if len(set(labels)) != len(labels):
                labels = [f"{i}:{c!r}" for i, c in enumerate(d.choices)]
            self.parameter = {"name": name, "type": "categorical", "labels": labels}
        elif isinstance(d, FloatDistribution) and d.step is None:
            self.parameter = {"name": name, "type": "real", "lower": d.low, "upper": d.high,
                              "scale": "log" if d.log else "linear"}
        elif isinstance(d, IntDistribution) and d.step == 1:
            self.parameter = {"name": name, "type": "integer", "lower": d.low, "upper": d.high,
                              "scale": "log" if d.log else "linear"}
            self.step = 1
        else:  # a grid low + k step (a float with a step, an integer with a step > 1)
            self.offset, self.step = d.low, d.step
            levels = int(round((d.high - d.low) / d.step))
            self.parameter = {"name": name, "type": "integer", "lower": 0, "upper": levels}

    def to_vector_entry(self, external):
        """The vector entry of a trial's value (external representation)."""
        d = self.distribution
        if isinstance(d, CategoricalDistribution):
            return float(d.to_internal_repr(external))
        if self.step is None:
            return float(external)
        return float(round((float(external) - self.offset) / self.step))

    def from_vector_entry(self, v):
        """The value Optuna gets (external representation) for vector entry v."""
        d = self.distribution
        if isinstance(d, CategoricalDistribution):
            return d.choices[int(v)]
        if self.step is None:
            return float(v)
        value = self.offset + int(v) * self.step
        if isinstance(d, IntDistribution):
            return int(value)
        return min(float(value), d.high)


def _sense(direction):
    return "max" if direction == StudyDirection.MAXIMIZE else "min"


class _SpaceModel:
    """The optimizer of one study's relative search space, and what it was told."""

    def __init__(self, search_space, directions, num_constraints, strategy, seed, options):
        self.search_space = dict(search_space)
        self.directions = list(directions)
        self.num_constraints = num_constraints
        self.codecs = [_Codec(name, d) for name, d in search_space.items()]
        self.domain = Domain.space([c.parameter for c in self.codecs])
        # One objective without constraints: the study as before outcomes existed.
        self.outcomes = len(self.directions) > 1 or num_constraints > 0
        if self.outcomes:
            objectives = [(f"value{i}", _sense(d)) for i, d in enumerate(self.directions)]
            constraints = [(f"constraint{j}", "<=", 0.0) for j in range(num_constraints)]
            self.optimizer = Optimizer(self.domain, strategy, seed=seed, objectives=objectives,
                                       constraints=constraints, **options)
        else:
            sense = "maximize" if self.directions[0] == StudyDirection.MAXIMIZE else "minimize"
            self.optimizer = Optimizer(self.domain, strategy, seed=seed, sense=sense, **options)
        self.seen = set()  # trial numbers told, given back or ignored
        self.asked = {}  # trial number -> the vector handed out for it

    def told_values(self, trial):
        """A complete trial's values and constraints in the optimizer's tell order. A trial
        whose constraints_func raised stored none: NaN, a failed evaluation
        (non_finite_rewards)."""
        if not self.outcomes:
            return float(trial.value)
        values = [float(v) for v in trial.values]
        if self.num_constraints:
            constraints = trial.system_attrs.get(_CONSTRAINTS_KEY)
            if constraints is None:
                constraints = [math.nan] * self.num_constraints
            elif len(constraints) != self.num_constraints:
                raise ValueError(
                    f"trial {trial.number} has {len(constraints)} constraints, earlier trials "
                    f"{self.num_constraints}: constraints_func must return the same number "
                    "for every trial"
                )
            values += [float(c) for c in constraints]
        return values

    def covers(self, trial):
        return all(
            name in trial.params and trial.distributions[name] == d
            for name, d in self.search_space.items()
        )

    def vector(self, trial):
        return np.array([c.to_vector_entry(trial.params[c.name]) for c in self.codecs])

    def sync(self, study):
        """Tells the finished trials not told yet; gives back the points of failed ones."""
        finished = (TrialState.COMPLETE, TrialState.FAIL, TrialState.PRUNED)
        xs, ys = [], []
        for trial in study.get_trials(deepcopy=False, states=finished):
            if trial.number in self.seen:
                continue
            self.seen.add(trial.number)
            asked = self.asked.pop(trial.number, None)
            if trial.state == TrialState.COMPLETE and self.covers(trial):
                xs.append(self.vector(trial))
                ys.append(self.told_values(trial))
            elif asked is not None:
                self.optimizer.release(asked)
        if xs:
            self.optimizer.tell_many(np.array(xs), np.array(ys))

    def ask(self, trial_number):
        point = self.optimizer.ask()
        vector = self.domain.to_vector(point)
        self.asked[trial_number] = vector
        return {c.name: c.from_vector_entry(v) for c, v in zip(self.codecs, vector)}


def _relative_distribution(distribution):
    if distribution.single():
        return False
    return isinstance(distribution, (FloatDistribution, IntDistribution, CategoricalDistribution))


class GPBanditSampler(BaseSampler):
    """An Optuna sampler backed by a gpbandit Optimizer (module docstring).

    strategy: a gpbandit strategy name ("ei", "log-ei", "gp-ucb", "gp-ts", "ehvi", ...); None
    (the default): "ei" for one objective, "ehvi" for several. seed: seeds the
    optimizer and the default independent sampler (None: a random seed). n_startup_trials: the
    optimizer's space-filling design size (None: its default, max(2, d + 1); the study's first
    trial is always the independent sampler's). independent_sampler: for the parameters outside
    the relative search space (default RandomSampler(seed)). strategy_options and options: as
    gpbandit.Optimizer's keyword arguments (e.g. fit={"num_restarts": 3}, beta_scale=0.2); by
    default non_finite_rewards="impute-worst". constraints_func: Optuna's (module docstring),
    values <= 0 satisfied, stored on each trial as NSGAIISampler stores them."""

    def __init__(
        self,
        strategy=None,
        seed=None,
        *,
        n_startup_trials=None,
        independent_sampler=None,
        strategy_options=None,
        constraints_func=None,
        **options,
    ):
        if constraints_func is not None and not callable(constraints_func):
            raise TypeError(f"constraints_func must be callable, got {constraints_func!r}")
        self._constraints_func = constraints_func
        self._strategy = strategy
        self._seed = seed if seed is not None else random.SystemRandom().randrange(2**63)
        self._options = {"non_finite_rewards": "impute-worst", **options}
        if strategy_options is not None:
            self._options["strategy_options"] = strategy_options
        if n_startup_trials is not None:
            self._options["initial_design_size"] = n_startup_trials
        self._independent = independent_sampler or RandomSampler(seed=seed)
        self._intersection = IntersectionSearchSpace()
        self._lock = threading.Lock()
        self._model = None
        self._study_id = None
        # Checks the strategy and its options now rather than at the first relative trial (a
        # kernel, and fit options made for it, fit only the study's space).
        checked = {k: v for k, v in self._options.items() if k not in ("kernel", "fit")}
        Optimizer(Domain.box([0.0], [1.0]), strategy or "ei", seed=self._seed, **checked)

    def reseed_rng(self):
        self._independent.reseed_rng()

    def infer_relative_search_space(self, study, trial):
        space = self._intersection.calculate(study, ordered_dict=True)
        return {n: d for n, d in space.items() if _relative_distribution(d)}

    def sample_relative(self, study, trial, search_space):
        if not search_space:
            return {}
        with self._lock:
            num_constraints = self._num_constraints(study)
            if num_constraints is None:
                return {}  # no trial has stored its constraints yet
            model = self._model_for(study, search_space, num_constraints)
            model.sync(study)
            return model.ask(trial.number)

    def sample_independent(self, study, trial, param_name, param_distribution):
        return self._independent.sample_independent(study, trial, param_name, param_distribution)

    def after_trial(self, study, trial, state, values):
        if self._constraints_func is not None:
            _store_constraints(self._constraints_func, study, trial, state)
        self._independent.after_trial(study, trial, state, values)

    def _num_constraints(self, study):
        """How many constraints the study's trials store: 0 without constraints_func, None
        while no finished trial has stored any."""
        if self._constraints_func is None:
            return 0
        if self._model is not None and self._study_id == study._study_id:
            return self._model.num_constraints
        for trial in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,)):
            constraints = trial.system_attrs.get(_CONSTRAINTS_KEY)
            if constraints is not None:
                return len(constraints)
        return None

    def _model_for(self, study, search_space, num_constraints):
        """The optimizer of this study and search space: kept while both stay, rebuilt (and
        told every finished trial again) when the space changes."""
        if (
            self._model is None
            or self._study_id != study._study_id
            or self._model.search_space != dict(search_space)
            or self._model.directions != list(study.directions)
            or self._model.num_constraints != num_constraints
        ):
            self._study_id = study._study_id
            strategy = self._strategy or ("ehvi" if len(study.directions) > 1 else "ei")
            self._model = _SpaceModel(search_space, study.directions, num_constraints, strategy,
                                      self._seed, self._options)
        return self._model


def _store_constraints(constraints_func, study, trial, state):
    """constraints_func(trial) stored on the trial as Optuna's samplers store it
    (optuna.samplers._base._process_constraints_after_trial): for complete and pruned trials, a
    tuple of floats under the system attribute "constraints", None when the function raised
    (the error then propagates); NaN is refused."""
    if state not in (TrialState.COMPLETE, TrialState.PRUNED):
        return
    constraints = None
    try:
        values = constraints_func(trial)
        if isinstance(values, (str, bytes)) or not hasattr(values, "__len__"):
            raise TypeError(
                f"constraints_func must return a sequence of floats, got {values!r} for trial "
                f"{trial.number}"
            )
        values = tuple(float(v) for v in values)
        if any(math.isnan(v) for v in values):
            raise ValueError(
                f"constraints_func returned NaN for trial {trial.number}: {values!r}; "
                "constraint values cannot be NaN"
            )
        constraints = values
    finally:
        study._storage.set_trial_system_attr(trial._trial_id, _CONSTRAINTS_KEY, constraints)


def _feasible(trial):
    constraints = trial.system_attrs.get(_CONSTRAINTS_KEY)
    return constraints is not None and all(c <= 0 for c in constraints)


def best_feasible_trials(study):
    """The best complete trials among the feasible ones: those whose stored constraints (the
    system attribute "constraints", GPBanditSampler's or Optuna's own samplers'
    constraints_func) are all <= 0, or every complete trial when no trial stored constraints.
    One objective: [the best such trial] ([] if none); several: the Pareto front of such trials
    (none is dominated by another: <= in every minimized value, >= in every maximized one,
    strictly in one), in trial order."""
    complete = [t for t in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))]
    if any(_CONSTRAINTS_KEY in t.system_attrs for t in complete):
        complete = [t for t in complete if _feasible(t)]
    signs = [1.0 if d == StudyDirection.MINIMIZE else -1.0 for d in study.directions]
    costs = [[s * v for s, v in zip(signs, t.values)] for t in complete]
    if len(signs) == 1:
        if not complete:
            return []
        return [complete[min(range(len(complete)), key=lambda i: costs[i][0])]]

    def dominates(a, b):
        return all(x <= y for x, y in zip(a, b)) and any(x < y for x, y in zip(a, b))

    return [t for t, c in zip(complete, costs) if not any(dominates(o, c) for o in costs)]
