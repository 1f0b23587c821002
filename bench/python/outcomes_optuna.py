#!/usr/bin/python3
"""GPBanditSampler with several objectives and with constraints against Optuna's samplers:
BraninCurrin (BoTorch's problem and reference point [18, 6], max hypervolume 59.36) at 60
trials, and Gardner et al. (2014)'s constrained toy min cos(2x)cos(y) + sin(x) s.t.
cos(x + y) <= 0.5 on [0, 6]^2 at 40 trials; 10 seeds each, median and spread.
  PYTHONPATH=build/python /usr/bin/python3 bench/python/outcomes_optuna.py [mo] [c]"""
import math, statistics, sys, time, warnings
import numpy as np
import optuna
from gpbandit.optuna import GPBanditSampler, best_feasible_trials
warnings.simplefilter("ignore")
optuna.logging.set_verbosity(optuna.logging.ERROR)
SEEDS = range(10)

def branin_currin(trial):
    x0, x1 = trial.suggest_float("x0", 0, 1), trial.suggest_float("x1", 0, 1)
    u, v = 15 * x0 - 5, 15 * x1
    b = (v - 5.1 / (4 * math.pi ** 2) * u ** 2 + 5 / math.pi * u - 6) ** 2 \
        + 10 * (1 - 1 / (8 * math.pi)) * math.cos(u) + 10
    x1 = max(x1, 1e-12)
    c = (1 - math.exp(-1 / (2 * x1))) * (2300 * x0 ** 3 + 1900 * x0 ** 2 + 2092 * x0 + 60) \
        / (100 * x0 ** 3 + 500 * x0 ** 2 + 4 * x0 + 20)
    return b, c

def hv2(points, ref):
    pts = sorted(p for p in points if p[0] < ref[0] and p[1] < ref[1])
    front, best = [], math.inf
    for p in pts:
        if p[1] < best:
            front.append(p); best = p[1]
    return sum(((front[i + 1][0] if i + 1 < len(front) else ref[0]) - a) * (ref[1] - b)
               for i, (a, b) in enumerate(front))

def gardner(trial):
    x, y = trial.suggest_float("x", 0, 6), trial.suggest_float("y", 0, 6)
    return math.cos(2 * x) * math.cos(y) + math.sin(x)

def gardner_c(trial):
    return [math.cos(trial.params["x"] + trial.params["y"]) - 0.5]

def summary(values):
    return (f"median {statistics.median(values):.4g} [min {min(values):.4g}, "
            f"max {max(values):.4g}]")

def run_mo(n):
    samplers = {
        "gpbandit ehvi (default)": lambda s: GPBanditSampler(seed=s),
        "gpbandit gp-ucb": lambda s: GPBanditSampler("gp-ucb", seed=s),
        "gpbandit gp-ts": lambda s: GPBanditSampler("gp-ts", seed=s),
        "NSGAIISampler": lambda s: optuna.samplers.NSGAIISampler(seed=s),
        "TPESampler": lambda s: optuna.samplers.TPESampler(seed=s),
        "RandomSampler": lambda s: optuna.samplers.RandomSampler(seed=s),
    }
    for name, make in samplers.items():
        hvs, t0 = [], time.perf_counter()
        for s in SEEDS:
            st = optuna.create_study(directions=["minimize", "minimize"], sampler=make(s))
            st.optimize(branin_currin, n_trials=n)
            hvs.append(hv2([t.values for t in st.trials], (18.0, 6.0)))
        sec = (time.perf_counter() - t0) / len(SEEDS) / n
        print(f"BraninCurrin {n} trials | {name} | HV {summary(hvs)} | gap median "
              f"{59.36 - statistics.median(hvs):.3g} | {sec * 1e3:.0f} ms/trial", flush=True)

def run_c(n):
    grid = np.linspace(0, 6, 3001)
    X, Y = np.meshgrid(grid, grid)
    F = np.cos(2 * X) * np.cos(Y) + np.sin(X)
    best = F[np.cos(X + Y) <= 0.5].min()
    print(f"Gardner: constrained minimum on a 3001^2 grid {best:.4f}")
    samplers = {
        "gpbandit ei (default)": lambda s: GPBanditSampler(seed=s, constraints_func=gardner_c),
        "gpbandit log-ei": lambda s: GPBanditSampler("log-ei", seed=s, constraints_func=gardner_c),
        "gpbandit gp-ucb": lambda s: GPBanditSampler("gp-ucb", seed=s, constraints_func=gardner_c),
        "gpbandit gp-ts": lambda s: GPBanditSampler("gp-ts", seed=s, constraints_func=gardner_c),
        "TPESampler": lambda s: optuna.samplers.TPESampler(seed=s, constraints_func=gardner_c),
        "NSGAIISampler": lambda s: optuna.samplers.NSGAIISampler(seed=s, constraints_func=gardner_c),
        "RandomSampler": lambda s: optuna.samplers.RandomSampler(seed=s),
    }
    for name, make in samplers.items():
        vals, firsts, t0 = [], [], time.perf_counter()
        for s in SEEDS:
            st = optuna.create_study(sampler=make(s))
            st.optimize(gardner, n_trials=n)
            feasible = [t for t in st.trials if gardner_c(t)[0] <= 0]
            vals.append(min(t.value for t in feasible) if feasible else math.inf)
            firsts.append(min(t.number for t in feasible) + 1 if feasible else math.inf)
        sec = (time.perf_counter() - t0) / len(SEEDS) / n
        print(f"Gardner {n} trials | {name} | best feasible {summary(vals)} | first feasible at "
              f"{statistics.median(firsts):g} | {sec * 1e3:.0f} ms/trial", flush=True)

if __name__ == "__main__":
    which = sys.argv[1:] or ["mo", "c"]
    if "mo" in which: run_mo(60)
    if "c" in which: run_c(40)
