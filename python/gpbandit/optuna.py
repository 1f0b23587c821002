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
Multi-objective studies are refused (ValueError)."""

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

__all__ = ["GPBanditSampler"]


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


class _SpaceModel:
    """The optimizer of one study's relative search space, and what it was told."""

    def __init__(self, search_space, direction, strategy, seed, options):
        self.search_space = dict(search_space)
        self.codecs = [_Codec(name, d) for name, d in search_space.items()]
        self.domain = Domain.space([c.parameter for c in self.codecs])
        sense = "maximize" if direction == StudyDirection.MAXIMIZE else "minimize"
        self.optimizer = Optimizer(self.domain, strategy, seed=seed, sense=sense, **options)
        self.seen = set()  # trial numbers told, given back or ignored
        self.asked = {}  # trial number -> the vector handed out for it

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
                ys.append(float(trial.value))
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

    strategy: a gpbandit strategy name ("ei", "log-ei", "gp-ucb", "gp-ts", ...). seed: seeds the
    optimizer and the default independent sampler (None: a random seed). n_startup_trials: the
    optimizer's space-filling design size (None: its default, max(2, d + 1); the study's first
    trial is always the independent sampler's). independent_sampler: for the parameters outside
    the relative search space (default RandomSampler(seed)). strategy_options and options: as
    gpbandit.Optimizer's keyword arguments (e.g. fit={"num_restarts": 3}, beta_scale=0.2); by
    default non_finite_rewards="impute-worst"."""

    def __init__(
        self,
        strategy="ei",
        seed=None,
        *,
        n_startup_trials=None,
        independent_sampler=None,
        strategy_options=None,
        **options,
    ):
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
        Optimizer(Domain.box([0.0], [1.0]), strategy, seed=self._seed, **checked)

    def reseed_rng(self):
        self._independent.reseed_rng()

    def infer_relative_search_space(self, study, trial):
        space = self._intersection.calculate(study, ordered_dict=True)
        return {n: d for n, d in space.items() if _relative_distribution(d)}

    def sample_relative(self, study, trial, search_space):
        if not search_space:
            return {}
        self._raise_error_if_multi_objective(study)
        with self._lock:
            model = self._model_for(study, search_space)
            model.sync(study)
            return model.ask(trial.number)

    def sample_independent(self, study, trial, param_name, param_distribution):
        return self._independent.sample_independent(study, trial, param_name, param_distribution)

    def after_trial(self, study, trial, state, values):
        self._independent.after_trial(study, trial, state, values)

    def _model_for(self, study, search_space):
        """The optimizer of this study and search space: kept while both stay, rebuilt (and
        told every finished trial again) when the space changes."""
        if (
            self._model is None
            or self._study_id != study._study_id
            or self._model.search_space != dict(search_space)
        ):
            self._study_id = study._study_id
            self._model = _SpaceModel(
                search_space, study.direction, self._strategy, self._seed, self._options
            )
        return self._model
