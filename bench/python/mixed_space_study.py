"""Mixed-space study (docs/benchmarks.md, "Mixed spaces"): the problems of mixed_problems.py,
minimized through Optuna by gpbandit's sampler (gpbandit.optuna.GPBanditSampler) and by
Optuna's random search, TPESampler and CmaEsSampler; and gpbandit's sampler with the other
treatments of integers and categories, to choose its defaults.

    PYTHONPATH=build/python nice -n 15 /usr/bin/python3 bench/python/mixed_space_study.py \
        [--part samplers|treatments|priors|timing] [--seeds 10] [--first-seed N] [--trials 60]
        [--problems a,b]

samplers: per problem and sampler, the median over the seeds of the gap after `trials` trials
(best cost found - f_star), with its quartiles and the seeds' wins against TPE. treatments:
the same for gpbandit's variants (integers searched over their levels, relaxed and rounded, or
both; categories through the exchangeable kernel or a Matern-5/2 over a one-hot embedding).
priors: the exchangeable kernel with the category lengthscales' prior median 0.3, 1 or 3.
timing: gpbandit's and TPE's milliseconds per suggestion at trials 50-60 (wall clock on a
shared machine; noisy).
f_star: the problem's (mixed_problems.py), or the best cost any run of the part found if lower.
Every run is printed as it ends (a CSV line on stdout: part, problem, method, seed, gap,
seconds), then the tables."""

import argparse
import math
import statistics
import sys
import time
import warnings

import optuna

import gpbandit
from gpbandit.optuna import GPBanditSampler

import mixed_problems

optuna.logging.set_verbosity(optuna.logging.ERROR)
warnings.filterwarnings("ignore", category=optuna.exceptions.ExperimentalWarning)
warnings.filterwarnings("ignore", category=UserWarning)  # CmaEs: categoricals fall back


def one_hot_options(dimensions):
    """A Matern-5/2 with ARD over [reals and integers; one-hot categoricals] for the sampler's
    space (its parameters sorted by name), fitted with the default kernel's priors: signal
    variance log N(0, 1.5^2), the reals' and integers' lengthscales log N(log 0.3, 1), and the
    one-hot coordinates' log N(log 1, 1), as the exchangeable kernel's category lengthscales
    (with equal lengthscales l, two labels differ by sqrt(2) / l there)."""
    names = sorted(dimensions)
    cats = [i for i, n in enumerate(names)
            if isinstance(dimensions[n], mixed_problems.Cat)]
    other = [i for i in range(len(names)) if i not in cats]
    sizes = [len(dimensions[names[i]].choices) for i in cats]
    inner = gpbandit.kernels.Matern52(list(range(len(other) + sum(sizes))))
    kernel = gpbandit.kernels.OneHot(inner, other, cats, sizes)
    variance, length, label = ({"mean_log": 0.0, "stddev_log": 1.5},
                               {"mean_log": math.log(0.3), "stddev_log": 1.0},
                               {"mean_log": 0.0, "stddev_log": 1.0})
    priors = [variance] + [length] * len(other) + [label] * sum(sizes)
    assert len(priors) == len(kernel.param_kinds)
    return {"kernel": kernel, "fit": {"kernel_priors": priors}}


def category_prior_options(dimensions, median):
    """The default kernel's structure (a Matern-5/2 over the reals and integers times the
    exchangeable kernel over the categoricals) with the default priors, but log(l) ~
    N(log median, 1) on the category lengthscales; the integers searched over their levels."""
    names = sorted(dimensions)
    cats = [i for i, n in enumerate(names) if isinstance(dimensions[n], mixed_problems.Cat)]
    other = [i for i in range(len(names)) if i not in cats]
    sizes = [len(dimensions[names[i]].choices) for i in cats]
    kernel = gpbandit.kernels.Matern52(other) * gpbandit.kernels.Categorical(cats, sizes)
    variance = {"mean_log": 0.0, "stddev_log": 1.5}
    priors = ([variance] + [{"mean_log": math.log(0.3), "stddev_log": 1.0}] * len(other) +
              [variance] + [{"mean_log": math.log(median), "stddev_log": 1.0}] * len(cats))
    assert len(priors) == len(kernel.param_kinds)
    return {"kernel": kernel, "fit": {"kernel_priors": priors},
            "maximizer_integer_search": "local-search"}


def samplers(part, problem, seed):
    dims = problem["dimensions"]
    if part == "samplers":
        return {
            "gpbandit-ei": lambda: GPBanditSampler("ei", seed=seed),
            "random": lambda: optuna.samplers.RandomSampler(seed=seed),
            "tpe": lambda: optuna.samplers.TPESampler(seed=seed),
            "cmaes": lambda: optuna.samplers.CmaEsSampler(seed=seed),
        }
    if part == "treatments":
        variants = {
            f"{search}+exchangeable": (
                lambda search=search: GPBanditSampler("ei", seed=seed,
                                                      maximizer_integer_search=search))
            for search in ("local-search", "relax-and-round", "relax-then-search")
        }
        if any(isinstance(d, mixed_problems.Cat) for d in dims.values()):
            variants["local-search+one-hot"] = lambda: GPBanditSampler(
                "ei", seed=seed, maximizer_integer_search="local-search", **one_hot_options(dims))
        return variants
    if part == "priors":
        if not any(isinstance(d, mixed_problems.Cat) for d in dims.values()):
            return {}
        return {f"category lengthscale prior median {m}": (
                    lambda m=m: GPBanditSampler("ei", seed=seed, **category_prior_options(dims, m)))
                for m in (0.3, 1.0, 3.0)}
    return {
        "gpbandit-ei": lambda: GPBanditSampler("ei", seed=seed),
        "tpe": lambda: optuna.samplers.TPESampler(seed=seed),
    }


def run(problem, make_sampler, trials):
    """(best cost, seconds of the whole study, seconds per suggestion over trials 50-60: from
    the end of one trial's objective to the start of the next one's, Optuna's own work and
    the sampler's)."""
    study = optuna.create_study(sampler=make_sampler())
    dims, cost = problem["dimensions"], problem["cost"]
    spans = []  # (the objective's start, its end) per trial

    def objective(trial):
        start = time.perf_counter()
        value = cost(mixed_problems.suggest(trial, dims))
        spans.append((start, time.perf_counter()))
        return value

    begin = time.perf_counter()
    study.optimize(objective, n_trials=trials)
    seconds = time.perf_counter() - begin
    late = spans[50:] if len(spans) > 50 else spans
    gaps = [b[0] - a[1] for a, b in zip(late, late[1:])]
    per_suggestion = statistics.median(gaps) if gaps else float("nan")
    return study.best_value, seconds, per_suggestion


def quartiles(values):
    q = statistics.quantiles(values, n=4) if len(values) > 1 else [values[0]] * 3
    return q[0], statistics.median(values), q[2]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--part", default="samplers",
                        choices=["samplers", "treatments", "priors", "timing"])
    parser.add_argument("--seeds", type=int, default=10)
    # The treatments were chosen on seeds 100-109 (the tuning half), the samplers compared on
    # seeds 0-9 (docs/benchmarks.md, "Mixed spaces").
    parser.add_argument("--first-seed", type=int, default=None)
    parser.add_argument("--trials", type=int, default=60)
    parser.add_argument("--problems", default=",".join(mixed_problems.PROBLEMS))
    args = parser.parse_args()
    first = args.first_seed
    if first is None:
        first = 100 if args.part in ("treatments", "priors") else 0
    results = {}  # (problem, method) -> [(best, seconds, per_trial)] by seed
    for name in args.problems.split(","):
        problem = mixed_problems.PROBLEMS[name]
        for seed in range(first, first + args.seeds):
            for method, make in samplers(args.part, problem, seed).items():
                best, seconds, per_trial = run(problem, make, args.trials)
                results.setdefault((name, method), []).append((best, seconds, per_trial))
                print(f"{args.part},{name},{method},{seed},{best!r},{seconds:.2f},{per_trial:.6f}",
                      flush=True)
    print()
    for name in args.problems.split(","):
        f_star = min([mixed_problems.PROBLEMS[name]["f_star"]()] +
                     [r[0] for (p, _), rs in results.items() if p == name for r in rs])
        methods = [m for (p, m) in results if p == name]
        if not methods:
            continue
        print(f"## {name}: f_star = {f_star:.6g}, {args.trials} trials, seeds {first}-"
              f"{first + args.seeds - 1}")
        print("| method | gap q1 | median gap | gap q3 | ms per suggestion (trials 50-60) |")
        print("|---|---|---|---|---|")
        for method in methods:
            rs = results[(name, method)]
            q1, med, q3 = quartiles([r[0] - f_star for r in rs])
            per = statistics.median(r[2] for r in rs)
            print(f"| {method} | {q1:.3g} | {med:.3g} | {q3:.3g} | {1000 * per:.2f} |")
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
