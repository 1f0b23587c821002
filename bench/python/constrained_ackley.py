#!/usr/bin/python3
"""Best feasible value on the constrained 10-D Ackley of SCBO's tutorial (Eriksson & Poloczek
2021; BoTorch's "scalable constrained BO" tutorial): maximize -Ackley(x) on [-5, 10]^10 subject
to sum(x) <= 0 and ||x||_2 <= 5 (the optimum 0 at the origin is feasible), 190 evaluations, 10
seeds: gpbandit's strategies against Optuna's TPESampler with constraints_func and
RandomSampler. Prints per method the median [min, max] best feasible value and the median
evaluation of the first feasible point.
  PYTHONPATH=build/python /usr/bin/python3 bench/python/constrained_ackley.py [evaluations]"""
import math
import statistics
import sys
import warnings

import numpy as np
import optuna

import gpbandit

DIM, LOWER, UPPER = 10, -5.0, 10.0
SEEDS = range(10)


def ackley(x):
    x = np.asarray(x, dtype=float)
    return float(-20 * math.exp(-0.2 * math.sqrt(np.mean(x * x)))
                 - math.exp(np.mean(np.cos(2 * math.pi * x))) + 20 + math.e)


def constraints(x):
    """Optuna's sign: feasible when every value is <= 0."""
    x = np.asarray(x, dtype=float)
    return [float(np.sum(x)), float(np.linalg.norm(x) - 5.0)]


def summarize(name, bests, firsts):
    finite = [b for b in bests if math.isfinite(b)]
    median_first = statistics.median(firsts)
    print(f"{name}: best feasible -Ackley median {statistics.median(bests):.3f} "
          f"[{min(bests):.3f}, {max(bests):.3f}], {len(finite)}/{len(bests)} runs feasible, "
          f"first feasible at evaluation {median_first:g} (median)", flush=True)


def run_gpbandit(strategy, n):
    bests, firsts = [], []
    for seed in SEEDS:
        opt = gpbandit.Optimizer(
            gpbandit.Domain.box([LOWER] * DIM, [UPPER] * DIM), strategy, seed=seed,
            objectives=[("neg_ackley", "max")],
            constraints=[("sum", "<=", 0.0), ("norm_excess", "<=", 0.0)])
        best, first = -math.inf, math.inf
        for i in range(n):
            x = np.asarray(opt.ask())
            c = constraints(x)
            value = -ackley(x)
            opt.tell(x, {"neg_ackley": value, "sum": c[0], "norm_excess": c[1]})
            if max(c) <= 0:
                best = max(best, value)
                first = min(first, i + 1)
        bests.append(best)
        firsts.append(first)
    summarize(f"gpbandit {strategy}", bests, firsts)


def run_optuna(name, make, n):
    bests, firsts = [], []
    for seed in SEEDS:
        def objective(trial):
            x = [trial.suggest_float(f"x{i}", LOWER, UPPER) for i in range(DIM)]
            trial.set_user_attr("c", constraints(x))
            return ackley(x)

        study = optuna.create_study(sampler=make(seed))
        study.optimize(objective, n_trials=n)
        feasible = [t for t in study.trials if max(t.user_attrs["c"]) <= 0]
        bests.append(max((-t.value for t in feasible), default=-math.inf))
        firsts.append(min((t.number + 1 for t in feasible), default=math.inf))
    summarize(name, bests, firsts)


if __name__ == "__main__":
    warnings.simplefilter("ignore")
    optuna.logging.set_verbosity(optuna.logging.ERROR)
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 190
    for strategy in ("log-ei", "gp-ts", "gp-ucb"):
        run_gpbandit(strategy, n)
    run_optuna("Optuna TPESampler(constraints_func)",
               lambda s: optuna.samplers.TPESampler(
                   seed=s, constraints_func=lambda t: t.user_attrs["c"]), n)
    run_optuna("Optuna RandomSampler", lambda s: optuna.samplers.RandomSampler(seed=s), n)
