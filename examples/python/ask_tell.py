"""An ask/tell tour: tune two gains of a noisy system with GP-UCB by hand in a loop,
with every tell logged, then pick the run up again from its log as after a crash.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/ask_tell.py
"""

import os
import sys
import tempfile

import numpy as np

import gpbandit

noise = np.random.default_rng(7)


def experiment(gains):
    """The expensive, noisy experiment (here a formula): best at gains (2, 7)."""
    return -((gains[0] - 2.0) ** 2) - 0.1 * (gains[1] - 7.0) ** 2 + noise.normal(0.0, 0.05)


def main():
    log = os.path.join(tempfile.mkdtemp(), "ask_tell.jsonl")
    domain = gpbandit.Domain.box([0.0, 0.0], [5.0, 10.0])
    opt = gpbandit.Optimizer(domain, "gp-ucb", seed=1, log=log)  # each tell is on disk first
    for _ in range(25):
        gains = opt.ask()  # a 1-D float64 array
        opt.tell(gains, experiment(gains))

    # After a crash: the log alone rebuilds the optimizer, which continues exactly.
    opt = gpbandit.Optimizer.resume(log)
    for _ in range(5):
        gains = opt.ask()
        opt.tell(gains, experiment(gains))

    best = opt.best()  # the observed gains with the highest posterior mean
    print(f"best gains {best.x.round(3)} (posterior mean {best.posterior_mean:.4f}), "
          f"{opt.num_accepted} experiments")
    os.remove(log)
    return 0 if abs(best.x[0] - 2.0) < 0.5 else 1


if __name__ == "__main__":
    sys.exit(main())
