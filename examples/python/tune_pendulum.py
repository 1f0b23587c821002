"""Tune the PD gains of a simulated pendulum whose payload changes from episode to episode and
is revealed before each episode: CGP-UCB with the payload as the context (one GP over gains x
payload, Krause & Ong 2011), as `gpbandit demo` does in C++, here with the simulator in numpy
(_pendulum.py).

    PYTHONPATH=build/python /usr/bin/python3 examples/python/tune_pendulum.py [episodes]

Prints, per payload, the gains CGP-UCB recommends (the gains with the best observed reward
among its episodes at that payload) next to brute force's, and the gap between their
noise-free rewards; exits with status 1 if the mean gap exceeds 0.05."""

import sys
import time

import numpy as np

import _pendulum as plant
import gpbandit

PAYLOADS = [0.1, 0.5, 1.2]  # kg


def main(episodes=150, seed=1):
    rng = np.random.default_rng(seed)
    domain = gpbandit.Domain.box(plant.GAIN_LOWER, plant.GAIN_UPPER).with_context(
        1, lower=[0.0], upper=[1.5]
    )
    opt = gpbandit.Optimizer(domain, "cgp-ucb", seed=seed, beta_scale=0.2)
    start = time.perf_counter()
    for episode in range(episodes):
        payload = PAYLOADS[rng.integers(len(PAYLOADS))]  # revealed before the episode
        gains = opt.ask(context=[payload])
        observed = plant.rewards(gains[0], gains[1], payload) + rng.normal(0.0, plant.REWARD_NOISE)
        opt.tell(gains, float(observed), context=[payload])
    seconds = time.perf_counter() - start

    obs = opt.observations()
    gaps = []
    print("payload  episodes |  CGP-UCB gains  reward  |  brute force    reward   | gap")
    for payload in PAYLOADS:
        mine = obs.context[:, 0] == payload
        gains = obs.x[mine][np.argmax(obs.y[mine])]
        reward = float(plant.rewards(gains[0], gains[1], payload))
        best_gains, best_reward = plant.brute_force(payload)
        gaps.append(best_reward - reward)
        print(f" {payload:.2f} kg  {mine.sum():5d}    | {gains[0]:6.2f} {gains[1]:5.2f} "
              f"{reward:8.4f} | {best_gains[0]:6.2f} {best_gains[1]:5.2f} {best_reward:8.4f} "
              f"| {gaps[-1]:.4f}")
    print(f"mean gap to brute force {np.mean(gaps):.4f}; {episodes} episodes in "
          f"{seconds:.1f} s")
    return 0 if np.mean(gaps) <= 0.05 else 1


if __name__ == "__main__":
    sys.exit(main(*(int(a) for a in sys.argv[1:2])))
