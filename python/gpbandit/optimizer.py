"""The ask/tell Optimizer (optimizer/optimizer.h) in Python's conventions."""

import json
import os
from typing import Any, Callable, Dict, List, Mapping, NamedTuple, Optional, Sequence, Union

import numpy as np

from . import _core, fidelities as _fidelities, named as _named, options as _options
from . import outcomes as _outcomes
from .domain import Domain
from .kernels import Kernel

PathLike = Union[str, "os.PathLike[str]"]
ArrayLike = Any  # anything numpy.asarray turns into float64 numbers

class Recommendation(NamedTuple):
    """What best() recommends: without a context, the observed point with the highest posterior
    mean; at a context, the maximizer of the posterior mean there (x, 1-D; context, 1-D or
    None), that mean and the reward told for it (NaN if none was)."""

    x: np.ndarray
    context: Optional[np.ndarray]
    posterior_mean: float
    observed_reward: float


class Observations(NamedTuple):
    """Every tell in order: x (n x d, one point per row), context (n x m, or None without
    contexts), y (n), accepted (n booleans: False for a failed evaluation, a non-finite y kept
    out of the model), imputed (n: the reward a failure entered the model with, NaN if
    none) and fidelity (n names: the fidelity each was evaluated at; None in a study without
    fidelities)."""

    x: np.ndarray
    context: Optional[np.ndarray]
    y: np.ndarray
    accepted: np.ndarray
    imputed: np.ndarray
    fidelity: Optional[np.ndarray] = None


class Pending(NamedTuple):
    """Points handed out and not yet told or released, in the order handed out: x (p x d),
    context (p x m or None), round (p ints: the ask round), worker (p names), lease_until (p:
    seconds since the epoch on the study's clock; inf for leases that never end), trial (p ints:
    each point's trial number, the handle tell(..., trial=) and release(trial=) take),
    fidelity (p names: the fidelity to evaluate each at; None in a study without fidelities)."""

    x: np.ndarray
    context: Optional[np.ndarray]
    round: np.ndarray
    worker: List[str]
    lease_until: np.ndarray
    trial: np.ndarray
    fidelity: Optional[np.ndarray] = None


class Prediction(NamedTuple):
    """What predict() returns: the posterior mean and STANDARD DEVIATION of f (not of a noisy
    observation) at each point, two 1-D arrays in the caller's units."""

    mean: np.ndarray
    std: np.ndarray


class Suggestion(np.ndarray):
    """A point ask() handed out: a 1-D float64 array that also carries its trial number,
    `trial`, the handle tell(x, y, trial=...) and release(trial=...) take instead of the exact
    point (so that telling a rounded or clipped point still releases the suggestion), and
    `fidelity`, the name of the fidelity to evaluate it at (None in a study without
    fidelities). A copy or the result of arithmetic is a plain array without them; pass them on
    yourself."""

    trial: Optional[int]
    fidelity: Optional[str]

    def __array_finalize__(self, obj: Any) -> None:
        self.trial = None
        self.fidelity = None


class Suggestions(np.ndarray):
    """The q x d points ask_batch() handed out, one per row, with their trial numbers (`trials`,
    q ints) and fidelities (`fidelities`, q names, or None in a study without fidelities). A
    row taken by an integer index (or by iterating) is a Suggestion carrying its own trial
    number and fidelity."""

    trials: Optional[np.ndarray]
    fidelities: Optional[List[str]]

    def __array_finalize__(self, obj: Any) -> None:
        self.trials = None
        self.fidelities = None

    def __getitem__(self, index: Any) -> Any:
        item = super().__getitem__(index)
        if self.trials is not None and isinstance(index, (int, np.integer)):
            fidelity = None if self.fidelities is None else self.fidelities[index]
            return _suggestion(np.asarray(item), int(self.trials[index]), fidelity)
        if isinstance(item, Suggestions):  # a slice or a mask: a plain array, no handles
            return np.asarray(item)
        return item


def _suggestion(x: np.ndarray, trial: int, fidelity: Optional[str] = None) -> Suggestion:
    out = np.asarray(x, dtype=np.float64).view(Suggestion)
    out.trial = trial
    out.fidelity = fidelity
    return out


def _path(value: Optional[PathLike], field: str) -> str:
    """A path (or URL) given as a str or an os.PathLike, as the C++ library's string; "" for
    None."""
    if value is None:
        return ""
    if isinstance(value, (str, os.PathLike)):
        path = os.fsdecode(os.fspath(value))
        if path == "":
            raise ValueError(f"{field} is empty: give a path, or None")
        return path
    raise TypeError(f"{field} must be a str or an os.PathLike (a pathlib.Path), got "
                    f"{type(value).__name__} {value!r}")


def _random_seed() -> int:
    """A seed from the operating system's entropy (seed=None)."""
    return int.from_bytes(os.urandom(8), "little")


def _worker_options(
    worker: Union[None, Mapping[str, Any], _core.WorkerOptions]
) -> _core.WorkerOptions:
    """WorkerOptions from None, a dict of its fields, or a WorkerOptions."""
    if isinstance(worker, _core.WorkerOptions):
        return worker
    out = _core.WorkerOptions()
    for key, value in (worker or {}).items():
        if not hasattr(out, key) or key.startswith("_"):
            raise ValueError(
                f"worker.{key}: unknown option; known: id, pending_lease_seconds, "
                "reconnect_timeout_seconds, lock_lease_seconds, asks_outside_lock, "
                "ask_tolerance, fidelity"
            )
        setattr(out, key, value)
    return out


def _context_or_none(array: np.ndarray, domain: Domain) -> Optional[np.ndarray]:
    return array if domain.context_dim > 0 else None


def _trial(trial: Optional[int]) -> Optional[int]:
    if trial is None:
        return None
    if not _options._is_int(trial):
        raise TypeError(f"trial must be an int (ask()'s .trial), got {trial!r}")
    return int(trial)


def _fidelity(fidelity: Any) -> Union[str, int]:
    """A fidelity as tell and predict take it: a name or an index (checked by the C++ call)."""
    if isinstance(fidelity, str):
        return fidelity
    if _options._is_int(fidelity):
        return int(fidelity)
    raise TypeError(f"fidelity must be a name (str) or an index (int), got {fidelity!r}")


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _rows(array: ArrayLike, field: str, width: int, what: str) -> np.ndarray:
    """A 2-D float64 array of points, one per row, `width` columns; the errors say rows and
    columns as the caller passed them."""
    a = np.asarray(array, dtype=np.float64)
    if a.ndim != 2:
        raise ValueError(f"{field} must be a 2-D array with one point per row, got shape {a.shape}")
    if len(a) > 0 and a.shape[1] != width:
        raise ValueError(
            f"{field} has {_count(a.shape[1], 'column')} (one per coordinate) but {what} is "
            f"{width}; give one point per row"
        )
    return a


class Optimizer:
    """A Gaussian-process bandit optimizer driven by ask and tell (maximizes the reward).

    Optimizer(domain, strategy="gp-ucb", kernel=None, seed=None, log=None, *, storage=None,
              study=None, load_if_exists=False, worker=None, strategy_options=None, **options)

    domain: a Domain. strategy: a registered name (gpbandit.strategies()), built-in or
    registered with gpbandit.register_strategy. kernel: a gpbandit Kernel over the model input
    [action; context] in unit-cube coordinates, or None for the default (Matern-5/2 ARD; with
    contexts, its product with a Matern-5/2 over the contexts), fitted by marginal likelihood.
    seed: seeds every random choice; None draws one from the operating system (it is recorded
    in the study and in opt.options["seed"], so the run can be repeated), or, when an existing
    study is continued, takes the study's. log: a JSON-Lines file (a str or os.PathLike) that
    records the study (each tell is on disk before tell() returns); storage and study: a shared
    study in a file, a directory of studies or PostgreSQL (docs/shared_studies.md); worker: this
    process's part in a shared study, a dict with id, pending_lease_seconds,
    reconnect_timeout_seconds, lock_lease_seconds, asks_outside_lock, ask_tolerance and
    fidelity (in a study with fidelities, the one every point this process asks for is evaluated
    at: a simulator farm beside one robot) (WorkerOptions in study/optimizer_options.h).

    An existing study (a log that holds one, a study already in the storage) is an error
    (FileExistsError) unless load_if_exists=True, as in Optuna's create_study: then it is
    continued, if every setting its header records (sense, strategy and its options, design
    size, seed, kernel, domain, ...) is this optimizer's; a difference is a RuntimeError naming
    the field. Optimizer.resume and Optimizer.open continue a study with its own settings. A
    file that is not a study is refused and left untouched; a log that cannot be written fails
    here, not at the first ask.

    options: keyword arguments, either the optimizer's (nested ones as dicts, merged over
    their defaults: fit={"num_restarts": 3}) or the strategy's (beta_scale=0.2, or all of them
    as strategy_options={...}). Defaults come from the C++ structs; the optimizer's are listed
    below and by gpbandit.default_options(), a strategy's by gpbandit.strategy_defaults(name).

    Arrays: float64 numpy arrays in and out; a point is 1-D, a batch of points 2-D with one
    point per row (q x d). Every point is in original units. On a parameter space
    (Domain.space, gpbandit.Space) a point is a dict {name: value} instead (float, int or label;
    a list of dicts for a batch), and so is a context given as a space; tell, release and
    predict take either form. observations() and pending() keep the vector form (the real, the
    integer, the label's index), which Domain.to_dict converts.

    Several outcomes (study/outcome_options.h, docs/python.md "Several outcomes"):
    objectives=[("itae", "min"), ("effort", "min")] (or dicts {"name", "sense"}) declares the
    objectives, each with its sense ("min"/"minimize", "max"/"maximize"; sense= is objective
    0's); constraints=[("overshoot", "<=", 0.1)] (or dicts {"name", "sense", "bound"}) the
    outcome constraints the answer must satisfy (evaluations may violate them while exploring,
    unlike safe-opt's safety signals). reference_point: the hypervolume's, one value per
    objective (None: inferred each round, reference_point()). feasibility_confidence: the
    posterior probability of feasibility pareto_front() and best() require (default from
    C++, 0.95). scalarization: "chebyshev" (default) or "linear", for several objectives under
    an index strategy or gp-ts. Each outcome has its own GP over the same inputs. tell(x, y)
    then takes y as a dict {name: value} or a sequence in outcome_names order;
    pareto_front(), hypervolume(), reference_point(), probability_of_feasibility() and
    predict_outcome() report; best() with several objectives is a RuntimeError (use
    pareto_front()). None of them given: one objective, exactly as before.

    Several fidelities (study/fidelity_options.h, docs/python.md "Fidelities"):
    fidelities=[("sim", 1.0), ("robot", 20.0)] (or dicts {"name", "cost"}) declares named
    sources of the objective from the cheapest to the target (the last), each with its cost
    per evaluation; fidelity_model ("autoregressive" or "icm"), fidelity_rule ("information" or
    "threshold") and min_correlation choose the joint model and the rule (defaults from C++;
    fidelities= may also be that whole option as a dict {levels, model, rule,
    min_correlation, fit_function_tolerance}). ask() then says where to evaluate its point (`x.fidelity`, a name), tell
    takes fidelity= (a name or an index), best() and predict() answer at the target, and
    cost_spent counts the cost of every tell.

    Earlier studies as sources (docs/fidelities.md, "Earlier studies as sources"):
    sources=["old.jsonl"] (or ("name", path); the name defaults to the file's stem) takes each
    finished study's accepted observations at its target (same domain and sense) as a level
    below the fidelities, cost 0, never evaluated; a study without fidelities= gets the levels
    [name, "target"]. They are copied into the new study's log, so resuming needs no old file;
    best() and cost_spent leave them out. A missing, malformed or mismatched log is a ValueError
    naming the file.

    A simulator as prior mean (docs/fidelities.md, "The simulator as a prior mean"):
    prior_mean=f, f(x) (with contexts f(x, z)) of numpy arrays in original units returning a
    float, makes the reward model's prior mean a * f + b with a fitted (box domains; not with
    outcomes, fidelities, sources, safe strategies or time models). prior_mean_name= (default
    f.__name__) is recorded in the log; continuing the study (load_if_exists=True) needs a
    function of that name with the same values, and Optimizer.resume cannot take one. f is
    called from the maximizer's threads, each call holding the GIL; it must be deterministic
    and return finite values (NaN, inf or an exception: ValueError).

    Errors: ValueError for bad input (the message names the field and value; the optimizer is
    then unchanged), RuntimeError when the study's storage fails. Threads: ask, tell and fits
    release the GIL, and one Optimizer may be shared by threads (calls are serialized).
    """

    def __init__(
        self,
        domain: Domain,
        strategy: str = "gp-ucb",
        kernel: Optional[Kernel] = None,
        seed: Optional[int] = None,
        log: Optional[PathLike] = None,
        *,
        storage: Optional[PathLike] = None,
        study: Optional[str] = None,
        load_if_exists: bool = False,
        worker: Union[None, Mapping[str, Any], _core.WorkerOptions] = None,
        strategy_options: Optional[Mapping[str, Any]] = None,
        objectives: Optional[Sequence[Any]] = None,
        constraints: Optional[Sequence[Any]] = None,
        reference_point: Optional[ArrayLike] = None,
        feasibility_confidence: Optional[float] = None,
        scalarization: Optional[str] = None,
        fidelities: Optional[Any] = None,
        fidelity_model: Optional[str] = None,
        fidelity_rule: Optional[str] = None,
        min_correlation: Optional[float] = None,
        sources: Optional[Sequence[Any]] = None,
        prior_mean: Optional[Callable[..., float]] = None,
        prior_mean_name: Optional[str] = None,
        **options: Any,
    ) -> None:
        if not isinstance(domain, Domain):
            raise TypeError(f"domain must be a gpbandit.Domain, got {domain!r}")
        log_path, storage_url = _path(log, "log"), _path(storage, "storage")
        existing = self._existing_study(log_path, storage_url, study or "", load_if_exists)
        if seed is None and "seed" not in options:
            seed = json.loads(existing)["options"]["seed"] if existing else _random_seed()
        if seed is not None:
            options["seed"] = seed
        if "seed" in options and _options._is_int(options["seed"]):
            if not 0 <= int(options["seed"]) < 2**64:
                raise ValueError(f"seed = {options['seed']} must be in [0, 2**64)")
        outcomes = self._outcomes(options, objectives, constraints, reference_point,
                                  feasibility_confidence, scalarization)
        optimizer_options, strategy_options = _options.split_options(
            strategy, options, strategy_options
        )
        if outcomes is not None:
            optimizer_options["outcomes"] = outcomes
        declared = _fidelities.declaration(_options._OPTIMIZER_DEFAULTS["fidelities"], fidelities,
                                           fidelity_model, fidelity_rule, min_correlation)
        if declared is not None:
            optimizer_options["fidelities"] = declared
        args = (
            domain,
            kernel,
            strategy,
            _options.to_json(strategy_options),
            _options.settings_json(optimizer_options),
            _worker_options(worker),
            log_path,
            storage_url,
            study or "",
        )
        if prior_mean is not None:
            # The simulator as a prior mean (docs/fidelities.md): prior_mean(x) or, with
            # contexts, prior_mean(x, z) of numpy arrays in original units, returning a float.
            if sources:
                raise ValueError("prior_mean= does not go with sources= yet")
            if not callable(prior_mean):
                raise TypeError(f"prior_mean must be callable, got {prior_mean!r}")
            name = prior_mean_name or getattr(prior_mean, "__name__", "prior_mean")
            self._core = _core.Optimizer.create_with_prior_mean(*args, prior_mean, name)
        elif sources:
            # Earlier studies as sources (docs/fidelities.md): read before anything is written.
            minimize = str(optimizer_options.get("sense", "maximize")).startswith("min")
            read = _fidelities.sources(sources, domain, minimize)
            self._core = _core.Optimizer.create_with_sources(*args, read, fidelity_model or "")
        else:
            self._core = _core.Optimizer(*args)

    @staticmethod
    def _outcomes(options: Dict[str, Any], *declared: Any) -> Optional[Dict[str, Any]]:
        """OptimizerOptions::outcomes of the constructor's keywords (None: one objective, as
        before outcomes existed); sets options["sense"] to objective 0's, refusing a sense=
        that says otherwise."""
        if "outcomes" in options:
            raise ValueError(
                "outcomes: declare them with objectives=[(name, 'min' | 'max'), ...], "
                "constraints=[(name, '<=' | '>=', bound), ...], reference_point=, "
                "feasibility_confidence= and scalarization="
            )
        if all(value is None for value in declared):
            return None
        outcomes = _outcomes.declaration(_options._OPTIMIZER_DEFAULTS["outcomes"], *declared)
        if outcomes["objectives"]:
            first = outcomes["objectives"][0]
            if options.get("sense", first["sense"]) != first["sense"]:
                raise ValueError(
                    f"sense = {options['sense']!r} contradicts objectives[0] = "
                    f"({first['name']!r}, {first['sense']!r}): with objectives= each one's "
                    "sense is its own; leave sense= out"
                )
            options["sense"] = first["sense"]
        return outcomes

    @staticmethod
    def _existing_study(log: str, storage: str, study: str, load_if_exists: bool) -> str:
        """The header of the study the arguments name ("" when none exists yet); FileExistsError
        for an existing one unless load_if_exists."""
        if not log and not storage:
            return ""
        header = _core.Optimizer.study_header(log, storage, study)
        if header and not load_if_exists:
            where = f"the log {log!r}" if log else f"the study {study!r} in the storage"
            raise FileExistsError(
                f"{where} holds a study already: pass load_if_exists=True to continue it with "
                "the same settings, continue it with its own settings with "
                "gpbandit.Optimizer.resume (a log) or gpbandit.Optimizer.open (a storage), or "
                "give another path or study name"
            )
        return header

    @classmethod
    def _wrap(cls, core: Any) -> "Optimizer":
        self = cls.__new__(cls)
        self._core = core
        return self

    @classmethod
    def resume(cls, path: PathLike, kernel: Optional[Kernel] = None) -> "Optimizer":
        """The optimizer of a log, rebuilt from the log alone and replayed (an interrupted run
        continues exactly). path: a str or os.PathLike. kernel: the one the log was written
        with, if not the default. RuntimeError for a missing, empty or corrupt log, a file that
        is not a study, or an unregistered strategy."""
        return cls._wrap(_core.Optimizer.resume(_path(path, "path"), kernel))

    @classmethod
    def open(
        cls,
        storage: PathLike,
        study: str,
        kernel: Optional[Kernel] = None,
        worker: Union[None, Mapping[str, Any], _core.WorkerOptions] = None,
    ) -> "Optimizer":
        """Joins the existing study `study` in `storage` (a file, a directory of studies or a
        postgresql:// URL); everything but the worker options comes from the study."""
        return cls._wrap(
            _core.Optimizer.open(_path(storage, "storage"), study, kernel, _worker_options(worker))
        )

    # ---- ask / tell ---------------------------------------------------------------------------
    def ask(self, context: Optional[ArrayLike] = None) -> Union[Suggestion, "_named.NamedSuggestion"]:
        """The next action to evaluate: a 1-D array (action_dim), a Suggestion whose `trial`
        is its trial number; on a parameter space (Domain.space) a dict {name: value}, a
        NamedSuggestion with `trial` too. context: 1-D (context_dim), or a dict when the
        contexts are a space; required when the domain has contexts. The point is pending until
        told or released. Ctrl-C during ask: the call finishes, its point is released,
        KeyboardInterrupt is raised. In a study with fidelities, `fidelity` is the name of the
        fidelity to evaluate it at (None otherwise)."""
        domain = self.domain
        points, trials = self._core.ask_batch(1, _named.context_in(domain, context))
        fidelity = self._fidelities_of(trials)[0]
        if domain.kind == "space":
            return _named.suggestion(domain, points[0], trials[0], fidelity)
        return _suggestion(points[0], trials[0], fidelity)

    def ask_batch(self, q: int, context: Optional[ArrayLike] = None) -> Suggestions:
        """q distinct actions for parallel evaluation, one per row (q x action_dim), all for
        the same context (GP-BUCB: each is chosen as if the previous ones were observed). Their
        trial numbers are `trials`; each row (X[i], or iterating) is a Suggestion. On a
        parameter space, a list of q NamedSuggestion dicts. With fidelities, each point's
        fidelity name is in `fidelities` (and each row's `fidelity`)."""
        domain = self.domain
        points, trials = self._core.ask_batch(q, _named.context_in(domain, context))
        fidelities = self._fidelities_of(trials)
        if domain.kind == "space":
            return [_named.suggestion(domain, x, t, f)
                    for x, t, f in zip(points, trials, fidelities)]
        out = np.asarray(points).view(Suggestions)
        out.trials = np.asarray(trials, dtype=np.int64)
        out.fidelities = None if not self._levels() else fidelities
        return out

    def _fidelities_of(self, trials: Sequence[int]) -> List[Optional[str]]:
        """The fidelity names of the pending points of `trials` (None each without fidelities,
        or for a point no longer pending)."""
        names = self.fidelity_names
        if not names:
            return [None] * len(trials)
        p = self._core.pending()
        index = dict(zip(p["trial"].tolist(), p["fidelity"].tolist()))
        return [names[index[t]] if index.get(t, -1) >= 0 else None for t in trials]

    def tell(
        self,
        x: ArrayLike,
        y: Union[float, Mapping[str, float], ArrayLike],
        context: Optional[ArrayLike] = None,
        constraints: Optional[ArrayLike] = None,
        *,
        trial: Optional[int] = None,
        fidelity: Union[None, str, int] = None,
    ) -> None:
        """Reports reward y (a number; larger is better) at action x (1-D) and context.
        Releases the pending point of `trial` (a trial number, e.g. ask()'s .trial), whatever x
        is (the point evaluated may be the suggestion rounded or clipped), or without a trial the
        first pending point exactly equal to x. ValueError for a trial that is not pending.
        With a log or storage, durable before it returns. constraints: the measured constraint
        signals g_1..g_m (1-D) a safe strategy with constraint_thresholds needs
        (docs/robot_tuning.md). On a parameter space x (and a context given as a space) may be
        a dict {name: value}.

        Several outcomes (a study built with objectives= or constraints=): y is a dict
        {outcome name: value} holding every declared outcome, or a sequence of their values in
        the order outcome_names gives (the objectives, then the constraints), each in its own
        units; a number only when the study has one outcome. A missing or unknown name, or the
        wrong number of values, is a ValueError naming it, and nothing is recorded. A NaN or
        infinite value in any outcome makes the evaluation a failure, which follows
        non_finite_rewards (an error, "skip" or "impute-worst").

        Several fidelities: fidelity is the name (or index, 0 the cheapest) of the fidelity y
        was measured at, e.g. x.fidelity; None takes the fidelity of the pending point the tell
        releases, else the target. An unknown name or an index outside the study's (or any
        fidelity in a study without fidelities) is a ValueError naming it, and nothing is
        recorded."""
        domain = self.domain
        x = _named.action_in(domain, x)
        context = _named.context_in(domain, context)
        vector = self._outcome_vector(y)
        if vector is None or len(vector) == 1:  # one outcome: the tell of one reward
            value = float(y) if vector is None else float(vector[0])
            if fidelity is not None:
                self._tell_at_fidelity(x, value, context, constraints, trial, fidelity)
                return
            self._core.tell(x, value, context, constraints, _trial(trial))
            return
        if constraints is not None:
            raise ValueError(
                "constraints= are the safety signals safe-opt measures; a study's outcome "
                f"constraints ({', '.join(self.outcome_names)}) are told in y"
            )
        self._core.tell_outcomes(x, vector, context, _trial(trial))

    def _tell_at_fidelity(self, x: Any, value: float, context: Any, constraints: Any,
                          trial: Optional[int], fidelity: Any) -> None:
        if constraints is not None:
            raise ValueError("constraints= are safe-opt's safety signals, which a study with "
                             "fidelities does not take")
        self._core.tell_fidelity(x, value, context, _fidelity(fidelity), _trial(trial))

    def _outcome_vector(self, y: Any) -> Optional[np.ndarray]:
        """The tell-order vector of y (a dict, a sequence), or None for a single reward told as
        before (a number, in a study of one outcome). ValueError naming a missing or unknown
        outcome, or the wrong count."""
        names = self._names()
        if isinstance(y, Mapping):
            return self._core.outcome_vector(_outcomes.named_values(y))
        if _outcomes.is_number(y):
            if len(names) > 1:
                raise ValueError(
                    f"y = {y!r} is one number but the study has {len(names)} outcomes "
                    f"({', '.join(names)}): tell a dict {{name: value}} or a sequence of "
                    f"{len(names)} values in that order"
                )
            return None
        if isinstance(y, str):
            raise TypeError(f"y must be a number, a dict or a sequence of numbers, got {y!r}")
        vector = np.asarray(y, dtype=np.float64)
        if vector.ndim != 1 or len(vector) != len(names):
            raise ValueError(
                f"y has shape {vector.shape} but the study has {_count(len(names), 'outcome')} "
                f"({', '.join(names)}): give {len(names)} values in that order, or a dict"
            )
        return vector

    def tell_many(self, X: ArrayLike, y: ArrayLike, context: Optional[ArrayLike] = None) -> None:
        """Tells every row of X (n x action_dim) with rewards y (n) and contexts (n x
        context_dim); all or nothing. With several outcomes, y is n x num_outcomes (tell
        order) or a list of n dicts: every row is checked first (names, counts), then each is
        told in turn, so a refused row records nothing; only a non-finite value under
        non_finite_rewards="throw" stops part-way (the rows before it are recorded)."""
        X = _rows(X, "X", self.domain.action_dim, "the action dimension")
        if len(self._names()) > 1:
            self._tell_many_outcomes(X, y, context)
            return
        y = np.asarray(y, dtype=np.float64)
        if y.ndim != 1 or len(y) != len(X):
            raise ValueError(
                f"y must hold one value per row of X: X has {_count(len(X), 'row')}, y has "
                f"shape {y.shape}"
            )
        if context is not None:
            context = self._context_rows(context, len(X))
        self._core.tell_many(X, y, context)

    def _context_rows(self, context: Any, n: int) -> np.ndarray:
        """tell_many's contexts: one row per row of X."""
        rows = _rows(context, "context", self.domain.context_dim, "the context dimension")
        if len(rows) != n:
            raise ValueError(
                f"context must hold one row per row of X: X has {_count(n, 'row')}, "
                f"context {_count(len(rows), 'row')}"
            )
        return rows

    def _tell_many_outcomes(self, X: np.ndarray, y: Any, context: Any) -> None:
        names = self._names()
        if isinstance(y, (Mapping, str)) or not hasattr(y, "__len__") or len(y) != len(X):
            raise ValueError(
                f"y must hold one row of {len(names)} outcomes ({', '.join(names)}) or one dict "
                f"per row of X ({_count(len(X), 'row')}), got {y!r}"
            )
        rows = []
        for i, row in enumerate(y):
            try:
                vector = self._outcome_vector(row)
            except (TypeError, ValueError) as e:
                raise type(e)(f"y[{i}]: {e}") from None
            rows.append(vector)  # never None: a number is refused with several outcomes
        contexts = [None] * len(X) if context is None else self._context_rows(context, len(X))
        for x, vector, z in zip(X, rows, contexts):
            self._core.tell_outcomes(x, vector, z, None)

    def release(
        self,
        x: Optional[ArrayLike] = None,
        context: Optional[ArrayLike] = None,
        *,
        trial: Optional[int] = None,
    ) -> bool:
        """Gives back a pending point that will not be evaluated: the one of `trial`, or the
        first exactly equal to x (and context). False if none matches."""
        if (trial is None) == (x is None):
            raise ValueError("release takes either x (and context) or trial=, not both")
        if trial is not None:
            return self._core.release_trial(_trial(trial))
        domain = self.domain
        return self._core.release(_named.action_in(domain, x), _named.context_in(domain, context))

    def clear_pending(self) -> None:
        """Forgets every pending point (in a shared study, every worker's)."""
        self._core.clear_pending()

    def sync(self) -> None:
        """Replays what other workers of a shared study appended since this one's last call."""
        self._core.sync()

    def create_study(self) -> bool:
        """Creates the study in its storage now (header only); False if it exists."""
        return self._core.create_study()

    # ---- state -------------------------------------------------------------------------------
    def best(self, context: Optional[ArrayLike] = None) -> Recommendation:
        """The recommendation ("best" means the same in C++ and on the command line), a
        Recommendation. Without a context: the observed point with the highest posterior mean
        (a denoised incumbent). With a context (1-D): the action maximizing the posterior mean
        over the whole domain at that context, observed or not (observed_reward is NaN for an
        unobserved one). Under safe-opt, a point inside the safe set: among the evaluated points
        measured safe whose lower bounds clear every threshold, the highest posterior mean (or,
        with recommendation="safe-set", the safe set's maximizer). RuntimeError before any
        accepted observation (under safe-opt: before any point qualifies). On a parameter space
        x (and a context given as a space) is a dict {name: value}. With outcome constraints:
        the best posterior mean among observed points feasible with probability at least
        feasibility_confidence, never an infeasible one (RuntimeError saying so while there is
        none); with several objectives a RuntimeError: use pareto_front()."""
        domain = self.domain
        objectives = self._core.declared_outcomes[0]
        if len(objectives) > 1:  # said in Python's names (C++'s says ParetoFront())
            raise RuntimeError(
                f"best: the study has {len(objectives)} objectives "
                f"({', '.join(name for name, _ in objectives)}) and no single best point; use "
                "pareto_front()"
            )
        b = self._core.best(_named.context_in(domain, context))
        return Recommendation(
            _named.action_out(domain, b["x"]),
            _named.context_out(domain, _context_or_none(b["context"], domain)),
            b["posterior_mean"],
            b["observed_reward"],
        )

    def predict(self, X: ArrayLike, context: Optional[ArrayLike] = None, *,
                fidelity: Union[None, str, int] = None) -> Prediction:
        """The posterior of f at each row of X (n x d, or one 1-D point) at one context (1-D):
        a Prediction (mean, std) of 1-D arrays in the caller's units (the reward's, or the
        cost's under sense="minimize"). std is the STANDARD DEVIATION of f, not of a noisy
        observation ("predict" means the same in C++ and on the command line). On a parameter
        space X may be a dict or a list of dicts. With fidelities: at the target, or at
        `fidelity` (a name or an index)."""
        domain = self.domain
        X = _named.rows_in(domain, X)
        X = _rows(np.atleast_2d(np.asarray(X, dtype=np.float64)), "X", domain.action_dim,
                  "the action dimension")
        if fidelity is not None:
            return Prediction(*self._core.predict_fidelity(
                X, _named.context_in(domain, context), _fidelity(fidelity)))
        return Prediction(*self._core.predict(X, _named.context_in(domain, context)))

    # ---- several fidelities -------------------------------------------------------------------
    @property
    def fidelities(self) -> List[Any]:
        """The declared fidelities, [(name, cost)] from the cheapest to the target ([] in a
        study without fidelities)."""
        return list(self._levels())

    @property
    def fidelity_names(self) -> List[str]:
        """The fidelities' names, the target last ([] without fidelities)."""
        return [name for name, _ in self._levels()]

    @property
    def cost_spent(self) -> float:
        """The cost of every tell so far (accepted or failed), each at its fidelity's cost, in
        the costs' unit; a continued study counts what it spent before. Without fidelities
        every tell costs 1."""
        return float(self._core.cost_spent)

    def _levels(self) -> Any:
        """The fidelities, read once (fixed at construction)."""
        levels = self.__dict__.get("_fidelity_levels")
        if levels is None:
            levels = self._fidelity_levels = tuple(map(tuple, self._core.fidelity_levels))
        return levels

    def _fidelity_column(self, indices: np.ndarray) -> Optional[np.ndarray]:
        names = self.fidelity_names
        if not names:
            return None
        return np.array([names[i] for i in indices.tolist()], dtype=object)

    def safety_margin(self, X: ArrayLike, context: Optional[ArrayLike] = None) -> np.ndarray:
        """Under safe-opt: at each row of X (n x d, or one 1-D point), the smallest
        (lower bound - threshold) over the safety signals in prior standard deviations of each
        signal's model, >= 0 exactly inside the safe set; NaN for other strategies."""
        X = np.atleast_2d(np.asarray(X, dtype=np.float64))
        return self._core.safety_margin(X, context)

    # ---- several outcomes ---------------------------------------------------------------------
    @property
    def outcome_names(self) -> List[str]:
        """The outcomes a tell carries, in tell order: the objectives, then the constraints
        (["y"] for a study of one objective declared without objectives=)."""
        return list(self._names())

    def _names(self) -> Any:
        """The outcome names, read once (fixed at construction): tell needs them every call."""
        names = self.__dict__.get("_outcome_names")
        if names is None:
            names = self._outcome_names = tuple(self._core.outcome_names)
        return names

    @property
    def objectives(self) -> List[Any]:
        """The declared objectives, [(name, "min" | "max")] ([] when none were declared)."""
        return [(name, "min" if minimize else "max")
                for name, minimize in self._core.declared_outcomes[0]]

    @property
    def constraints(self) -> List[Any]:
        """The declared outcome constraints, [(name, "<=" | ">=", bound)]."""
        return [tuple(c) for c in self._core.declared_outcomes[1]]

    def pareto_front(self) -> List["_outcomes.ParetoPoint"]:
        """The Pareto front, a list of ParetoPoint(x, context, outcomes, means,
        probability_feasible) in the order told: the observed points whose posterior
        probability of feasibility is at least feasibility_confidence and whose objectives'
        posterior means no other such point dominates (a point told several times appears once,
        with its last tell). [] before any such point. One objective: the best() point.
        outcomes holds every value told there by name, means each objective's posterior mean."""
        domain = self.domain
        names = self.outcome_names
        objectives = [name for name, _ in self.objectives] or names[:1]
        front = []
        for p in self._core.pareto_front():
            front.append(_outcomes.ParetoPoint(
                _named.action_out(domain, p["x"]),
                _named.context_out(domain, _context_or_none(p["context"], domain)),
                dict(zip(names, (float(v) for v in p["outcomes"]))),
                dict(zip(objectives, (float(v) for v in p["means"]))),
                float(p["probability_feasible"]),
            ))
        return front

    def hypervolume(self) -> float:
        """The hypervolume of the front's told objective values with respect to
        reference_point(), in the product of the objectives' units (0 for an empty front)."""
        return float(self._core.hypervolume())

    def reference_point(self) -> np.ndarray:
        """The hypervolume's reference point, one entry per objective in its own units (for a
        minimized objective an upper limit, for a maximized one a lower limit): the one given
        (reference_point=), else the worst told values of the feasible points moved out by 10% of
        their range (1 where it is 0). Empty before any feasible observation when inferred."""
        return self._core.reference_point()

    def probability_of_feasibility(self, X: ArrayLike, context: Optional[ArrayLike] = None) -> Any:
        """The posterior probability that every declared constraint holds (1 without
        constraints), from the constraints' GPs: a float for one point (1-D, or a dict on a
        parameter space), an array for the rows of X (n x d, or a list of dicts)."""
        one = isinstance(X, Mapping) or np.ndim(X) == 1
        rows = self._rows_for_query(X)
        p = self._core.probability_of_feasibility(rows, _named.context_in(self.domain, context))
        return float(p[0]) if one else p

    def predict_outcome(
        self, outcome: Union[str, int], X: ArrayLike, context: Optional[ArrayLike] = None
    ) -> Prediction:
        """The posterior of one outcome (its name, or its index in outcome_names) at each row
        of X, as predict() gives objective 0's: Prediction(mean, std) in the outcome's units."""
        names = self.outcome_names
        if isinstance(outcome, str):
            if outcome not in names:
                raise ValueError(f"outcome {outcome!r} is not one of the study's outcomes "
                                 f"({', '.join(names)})")
            outcome = names.index(outcome)
        elif not _options._is_int(outcome) or not 0 <= int(outcome) < len(names):
            raise ValueError(f"outcome = {outcome!r}: give a name ({', '.join(names)}) or an "
                             f"index in [0, {len(names)})")
        rows = self._rows_for_query(X)
        return Prediction(*self._core.predict_outcome(int(outcome), rows,
                                                      _named.context_in(self.domain, context)))

    def observed_outcomes(self) -> Dict[str, np.ndarray]:
        """Every tell's outcomes as told, {name: n values} in tell order (the rows of
        observations()); NaN throughout for a failed evaluation, whose outcomes no model
        learns."""
        values = self._core.observed_outcomes()
        return {name: values[:, i] for i, name in enumerate(self.outcome_names)}

    def _rows_for_query(self, X: ArrayLike) -> np.ndarray:
        domain = self.domain
        X = _named.rows_in(domain, X)
        return _rows(np.atleast_2d(np.asarray(X, dtype=np.float64)), "X", domain.action_dim,
                     "the action dimension")

    def last_round_report(self) -> Dict[str, Any]:
        """What the last ask or ask_batch did, a dict: round, t, figure_name and figure (beta_t,
        v_t or xi), acquisition_values (per point; NaN for design points), num_design_points,
        fitted and fit_report (a FitReport or None), seconds, warnings (under safe-opt: the
        seeds dropped since they were measured unsafe), and in a shared study
        choices_outside_lock and chosen_under_lock (how the points were chosen; WorkerOptions'
        asks_outside_lock). round is -1 before any ask."""
        return self._core.last_round_report()

    def set_round_callback(self, callback: Optional[Callable[[Dict[str, Any]], Any]]) -> None:
        """Calls callback(report) after every ask and ask_batch, with last_round_report()'s dict;
        None removes it. It runs on the asking thread once the points are recorded; what it
        raises propagates out of that ask (its points stay pending)."""
        self._core.set_round_callback(callback)

    def observations(self) -> Observations:
        """Every tell in order (an Observations tuple of arrays)."""
        o = self._core.observations()
        return Observations(
            o["x"], _context_or_none(o["context"], self.domain), o["y"], o["accepted"],
            o["imputed"], self._fidelity_column(o["fidelity"]),
        )

    def pending(self) -> Pending:
        """The pending points (a Pending tuple of arrays)."""
        p = self._core.pending()
        return Pending(
            p["x"], _context_or_none(p["context"], self.domain), p["round"], p["worker"],
            p["lease_until"], p["trial"], self._fidelity_column(p["fidelity"]),
        )

    def fingerprint(self) -> str:
        """A digest of everything that determines future suggestions (equal fingerprints, same
        suggestions)."""
        return self._core.fingerprint()

    @property
    def domain(self) -> Domain:
        return self._core.domain

    @property
    def strategy(self) -> str:
        """The strategy's registry name."""
        return self._core.strategy

    @property
    def strategy_options(self) -> Dict[str, Any]:
        """The strategy's options as logged (its defaults with the given ones over them)."""
        return json.loads(self._core.strategy_options_json)

    @property
    def options(self) -> Dict[str, Any]:
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

    def __repr__(self) -> str:
        return (
            f"Optimizer({self.domain!r}, strategy={self.strategy!r}, "
            f"observations={len(self.observations().y)}, rounds={self.rounds})"
        )


Optimizer.__doc__ += "\n    The optimizer's options and their defaults:\n\n" + _options.options_doc()
