"""The demo's pendulum (examples/problems/pendulum_plant.h) re-written in numpy, vectorized
over gains: an arm carrying a payload balanced upright by a PD controller u = -kp theta -
kd theta_dot, with torque limit, measurement delay and semi-implicit Euler substeps. The same
operations in the same order as the C++ plant (test_examples.py compares them).

Reward (to maximize): -sqrt(mean over control steps of theta^2 + 0.01 theta'^2 + 0.002 u^2);
an arm that falls past 1.2 rad is charged the fall angle for the rest of the episode."""

import collections
import math

import numpy as np

ARM_LENGTH, ARM_MASS, FRICTION, MAX_TORQUE = 0.5, 0.2, 0.02, 5.0
CONTROL_PERIOD, SUBSTEPS, DELAY_STEPS, DURATION = 0.01, 5, 3, 2.0
INITIAL_ANGLE, FALL_ANGLE, RATE_WEIGHT, TORQUE_WEIGHT = 0.3, 1.2, 0.01, 0.002
REWARD_NOISE = 0.01
GRAVITY = 9.81
GAIN_LOWER, GAIN_UPPER = np.array([0.0, 0.0]), np.array([60.0, 6.0])


def rewards(kp, kd, payload):
    """The noise-free rewards of episodes with gains kp, kd (arrays of one shape, or numbers)
    and one payload mass in kg."""
    kp, kd = np.broadcast_arrays(np.asarray(kp, dtype=float), np.asarray(kd, dtype=float))
    l = ARM_LENGTH
    inertia = payload * l * l + ARM_MASS * l * l / 3.0
    gravity_gain = (payload * l + ARM_MASS * l / 2.0) * GRAVITY
    steps = max(1, math.floor(DURATION / CONTROL_PERIOD + 0.5))
    h = CONTROL_PERIOD / SUBSTEPS
    theta = np.full(kp.shape, INITIAL_ANGLE)
    omega = np.zeros(kp.shape)
    measured = collections.deque([(theta, omega)] * (DELAY_STEPS + 1))
    cost = np.zeros(kp.shape)
    up = np.ones(kp.shape, dtype=bool)
    for k in range(steps):
        measured.append((theta, omega))
        seen_theta, seen_omega = measured.popleft()
        u = np.clip(-kp * seen_theta - kd * seen_omega, -MAX_TORQUE, MAX_TORQUE)
        fell = up & (np.abs(theta) > FALL_ANGLE)
        cost = np.where(fell, cost + (steps - k) * FALL_ANGLE * FALL_ANGLE, cost)
        up = up & ~fell
        step_cost = theta * theta + RATE_WEIGHT * omega * omega + TORQUE_WEIGHT * u * u
        cost = np.where(up, cost + step_cost, cost)
        for _ in range(SUBSTEPS):  # fallen arms stay where they fell
            accel = (gravity_gain * np.sin(theta) - FRICTION * omega + u) / inertia
            omega = np.where(up, omega + h * accel, omega)
            theta = np.where(up, theta + h * omega, theta)
    return -np.sqrt(cost / steps)


def brute_force(payload, points_per_axis=41):
    """The best gains by two grid passes (coarse, then around the best cell), like the C++
    BruteForceBestGains: (gains, reward)."""
    lower, upper = GAIN_LOWER.copy(), GAIN_UPPER.copy()
    best, best_reward = None, -np.inf
    for _ in range(2):
        step = (upper - lower) / (points_per_axis - 1)
        kp, kd = np.meshgrid(lower[0] + np.arange(points_per_axis) * step[0],
                             lower[1] + np.arange(points_per_axis) * step[1], indexing="ij")
        r = rewards(kp, kd, payload)
        i = np.unravel_index(np.argmax(r), r.shape)
        if r[i] > best_reward:
            best, best_reward = np.array([kp[i], kd[i]]), float(r[i])
        lower = np.maximum(best - step, GAIN_LOWER)
        upper = np.minimum(best + step, GAIN_UPPER)
    return best, best_reward
