"""The ask/tell Optimizer (plugin/optimizer.h) in Python's conventions."""

import json
from collections import namedtuple

import numpy as np

from . import _core, options as _options
from .domain import Domain

Recommendation = namedtuple("Recommendation", "x context posterior_mean observed_reward")
Recommendation.__doc__ = """What best() recommends: the observed point with the highest
posterior mean (x, 1-D; context, 1-D or None), that mean and the reward told for it."""

Observations = namedtuple("Observations", "x context y accepted imputed")
Observations.__doc__ = """Every tell in order: x (n x d, one point per row), context (n x m, or
None without contexts), y (n), accepted (n booleans: False for a failed evaluation, a non-finite
y kept out of the model) and imputed (n: the reward a failure entered the model with, NaN if
none)."""

Pending = namedtuple("Pending", "x context round worker lease_until")
Pending.__doc__ = """Points handed out and not yet told or released, in the order handed out:
x (p x d), context (p x m or None), round (p ints: the ask round), worker (p names), lease_until
(p: seconds since the epoch on the study's clock; inf for leases that never end)."""


def _worker_options(worker):
    """WorkerOptions from None, a dict of its fields, or a WorkerOptions."""
    if isinstance(worker, _core.WorkerOptions):
        return worker
    out = _core.WorkerOptions()
    for key, value in (worker or {}).items():
        if not hasattr(out, key) or key.startswith("_"):
            raise ValueError(
                f"worker.{key}: unknown option; known: id, pending_lease_seconds, "
                "reconnect_timeout_seconds, lock_lease_seconds, asks_outside_lock, "
                "ask_tolerance"
            )
        setattr(out, key, value)
    return out


def _context_or_none(array, domain):
    return array if domain.context_dim > 0 else None


class Optimizer:
    """A Gaussian-process bandit optimizer driven by ask and tell (maximizes the reward).

    Optimizer(domain, strategy="gp-ucb", kernel=None, seed=None, log=None, *, storage=None,
              study=None, worker=None, strategy_options=None, **options)

    domain: a Domain. strategy: a registered name (gpbandit.strategies()), built-in or
    registered with gpbandit.register_strategy. kernel: a gpbandit Kernel over the model input
    [action; context] in unit-cube coordinates, or None for the default (Matern-5/2 ARD; with
    contexts, its product with a Matern-5/2 over the contexts), fitted by marginal likelihood.
    seed: seeds every random choice (None: the C++ default, 0). log: a JSON-Lines file that
    records the study (each tell is on disk before tell() returns); storage and study: a shared
    study in a file, a directory of studies or PostgreSQL (docs/shared_studies.md); worker: this
    process's part in a shared study, a dict with id, pending_lease_seconds,
    reconnect_timeout_seconds, lock_lease_seconds, asks_outside_lock, ask_tolerance
    (WorkerOptions in plugin/optimizer_options.h).

    options: keyword arguments, either the optimizer's (nested ones as dicts, merged over
    their defaults: fit={"num_restarts": 3}) or the strategy's (beta_scale=0.2, or all of them
    as strategy_options={...}). Defaults come from the C++ structs; the optimizer's are listed
    below and by gpbandit.default_options(), a strategy's by gpbandit.strategy_defaults(name).

    Arrays: float64 numpy arrays in and out; a point is 1-D, a batch of points 2-D with one
    point per row (q x d). Every point is in original units.

    Errors: ValueError for bad input (the message names the field and value; the optimizer is
    then unchanged), RuntimeError when the study's storage fails. Threads: ask, tell and fits
    release the GIL, and one Optimizer may be shared by threads (calls are serialized).
    """

    def __init__(
        self,
        domain,
        strategy="gp-ucb",
        kernel=None,
        seed=None,
        log=None,
        *,
        storage=None,
        study=None,
        worker=None,
        strategy_options=None,
        **options,
    ):
        if not isinstance(domain, Domain):
            raise TypeError(f"domain must be a gpbandit.Domain, got {domain!r}")
        if seed is not None:
            options["seed"] = seed
        if "seed" in options and _options._is_int(options["seed"]):
            if not 0 <= int(options["seed"]) < 2**64:
                raise ValueError(f"seed = {options['seed']} must be in [0, 2**64)")
        optimizer_options, strategy_options = _options.split_options(
            strategy, options, strategy_options
        )
        self._core = _core.Optimizer(
            domain,
            kernel,
            strategy,
            _options.to_json(strategy_options),
            _options.settings_json(optimizer_options),
            _worker_options(worker),
            log or "",
            storage or "",
            study or "",
        )

    @classmethod
    def _wrap(cls, core):
        self = cls.__new__(cls)
        self._core = core
        return self

    @classmethod
    def resume(cls, path, kernel=None):
        """The optimizer of a log, rebuilt from the log alone and replayed (an interrupted run
        continues exactly). kernel: the one the log was written with, if not the default.
        RuntimeError for a missing, empty or corrupt log, or an unregistered strategy."""
        return cls._wrap(_core.Optimizer.resume(str(path), kernel))

    @classmethod
    def open(cls, storage, study, kernel=None, worker=None):
        """Joins the existing study `study` in `storage` (a file, a directory of studies or a
        postgresql:// URL); everything but the worker options comes from the study."""
        return cls._wrap(_core.Optimizer.open(storage, study, kernel, _worker_options(worker)))

    # ---- ask / tell ---------------------------------------------------------------------------
    def ask(self, context=None):
        """The next action to evaluate: a 1-D array (action_dim). context: 1-D (context_dim),
        required when the domain has contexts. The point is pending until told or released.
        Ctrl-C during ask: the call finishes, its point is released, KeyboardInterrupt is
        raised."""
        return self._core.ask(context)

    def ask_batch(self, q, context=None):
        """q distinct actions for parallel evaluation, one per row (q x action_dim), all for
        the same context (GP-BUCB: each is chosen as if the previous ones were observed)."""
        return self._core.ask_batch(q, context)

    def tell(self, x, y, context=None, constraints=None):
        """Reports reward y (a number; larger is better) at action x (1-D) and context.
        Releases the matching pending point. With a log or storage, durable before it
        returns. constraints: the measured constraint signals g_1..g_m (1-D) a safe strategy
        with constraint_thresholds needs (docs/robot_tuning.md)."""
        self._core.tell(x, float(y), context, constraints)

    def tell_many(self, X, y, context=None):
        """Tells every row of X (n x action_dim) with rewards y (n) and contexts (n x
        context_dim); all or nothing."""
        self._core.tell_many(X, y, context)

    def release(self, x, context=None):
        """Gives back a pending point that will not be evaluated; False if none matches."""
        return self._core.release(x, context)

    def clear_pending(self):
        """Forgets every pending point (in a shared study, every worker's)."""
        self._core.clear_pending()

    def sync(self):
        """Replays what other workers of a shared study appended since this one's last call."""
        self._core.sync()

    def create_study(self):
        """Creates the study in its storage now (header only); False if it exists."""
        return self._core.create_study()

    # ---- state -------------------------------------------------------------------------------
    def best(self, context=None):
        """A Recommendation. Without a context: the observed point with the highest posterior
        mean. With a context (1-D): the action maximizing the posterior mean over the whole
        domain at that context, observed or not (observed_reward is NaN for an unobserved one).
        RuntimeError before any accepted observation."""
        b = self._core.best(context)
        return Recommendation(
            b["x"],
            _context_or_none(b["context"], self.domain),
            b["posterior_mean"],
            b["observed_reward"],
        )

    def predict(self, X, context=None):
        """The posterior of f at each row of X (n x d, or one 1-D point) at one context (1-D):
        a tuple (mean, variance) of 1-D arrays in the caller's units (the reward's, or the
        cost's under sense="minimize"); the variance is of f, not of a noisy observation."""
        X = np.atleast_2d(np.asarray(X, dtype=np.float64))
        return self._core.predict(X, context)

    def last_round_report(self):
        """What the last ask or ask_batch did, a dict: round, t, figure_name and figure (beta_t,
        v_t or xi), acquisition_values (per point; NaN for design points), num_design_points,
        fitted and fit_report (a FitReport or None), seconds, and in a shared study
        choices_outside_lock and chosen_under_lock (how the points were chosen; WorkerOptions'
        asks_outside_lock). round is -1 before any ask."""
        return self._core.last_round_report()

    def set_round_callback(self, callback):
        """Calls callback(report) after every ask and ask_batch, with last_round_report()'s dict;
        None removes it. It runs on the asking thread once the points are recorded; what it
        raises propagates out of that ask (its points stay pending)."""
        self._core.set_round_callback(callback)

    def observations(self):
        """Every tell in order (an Observations tuple of arrays)."""
        o = self._core.observations()
        return Observations(
            o["x"], _context_or_none(o["context"], self.domain), o["y"], o["accepted"],
            o["imputed"],
        )

    def pending(self):
        """The pending points (a Pending tuple of arrays)."""
        p = self._core.pending()
        return Pending(
            p["x"], _context_or_none(p["context"], self.domain), p["round"], p["worker"],
            p["lease_until"],
        )

    def fingerprint(self):
        """A digest of everything that determines future suggestions (equal fingerprints, same
        suggestions)."""
        return self._core.fingerprint()

    @property
    def domain(self):
        return self._core.domain

    @property
    def strategy(self):
        """The strategy's registry name."""
        return self._core.strategy

    @property
    def strategy_options(self):
        """The strategy's options as logged (its defaults with the given ones over them)."""
        return json.loads(self._core.strategy_options_json)

    @property
    def options(self):
        """The optimizer's options in force, as a nested dict (the keyword arguments' form)."""
        options = json.loads(self._core.settings_json)["options"]
        options.pop("log_path", None)
        return options

    log = property(lambda self: self._core.log or None, doc="The log file, or None.")
    storage = property(lambda self: self._core.storage or None, doc="The storage, or None.")
    study = property(lambda self: self._core.study or None, doc="The study's name, or None.")
    worker_id = property(lambda self: self._core.worker_id, doc="This worker's name in a study.")
    t = property(lambda self: self._core.t, doc="1 + observations in the model (beta_t's t).")
    rounds = property(lambda self: self._core.rounds, doc="Ask rounds so far.")
    num_accepted = property(lambda self: self._core.num_accepted)
    num_failed = property(lambda self: self._core.num_failed)
    figure = property(
        lambda self: self._core.figure,
        doc="The strategy's figure of the last model-driven round (beta_t, v_t, xi); NaN before.",
    )
    figure_name = property(lambda self: self._core.figure_name)
    information_gain = property(lambda self: self._core.information_gain)
    reward_unit = property(
        lambda self: self._core.reward_unit,
        doc="The power of two the model's outputs are in (1 unless rewards are huge or tiny).",
    )
    last_fit_report = property(
        lambda self: self._core.last_fit_report,
        doc="The last hyperparameter fit's FitReport, or None before the first.",
    )

    def __repr__(self):
        return (
            f"Optimizer({self.domain!r}, strategy={self.strategy!r}, "
            f"observations={len(self.observations().y)}, rounds={self.rounds})"
        )


Optimizer.__doc__ += "\n    The optimizer's options and their defaults:\n\n" + _options.options_doc()
