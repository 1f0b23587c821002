"""The mixed-space problems of bench/python/mixed_space_study.py (docs/benchmarks.md, "Mixed
spaces"), chosen before anything was measured on them. Each is a cost to minimize over named
parameters of every kind, with its minimum f_star known (analytic, or by exhaustive search):

pendulum  the demo's pendulum (examples/python/_pendulum.py, payload 1 kg) balanced by a
          controller whose angle sensor is an encoder (2048 counts per turn) read with a delay:
          kp in [0.5, 200] and kd in [0.02, 20] on log scales, taps in 1..12 (the velocity
          estimate is the encoder's difference over taps steps: more taps, less quantization
          noise, more lag) and mode in {pd, pid, gravity} (pid adds an integral term kp / 0.4 s,
          gravity a feed-forward of the nominal gravity torque, 20 % low). The cost is the
          demo's, -reward: sqrt(mean(theta^2 + 0.01 theta'^2 + 0.002 u^2)), falls charged.
          f_star by a two-pass grid over the gains for every taps and mode.
func3c    after CoCaBO's Func3C (Ru et al., ICML 2020): two reals in [-1, 1] and three
          categoricals; h1 (5 labels) picks one of five test functions of x, h2 (5 labels) a
          shift of x, h3 (4 labels) a scale of the result. f_star = min over labels of the
          functions' known minima.
ackley    Ackley's function over two reals in [-2, 2], three integers in -5..5 and a log-scaled
          real c in [0.01, 100] that must reach 1 (a term (log10 c)^2): f_star = 0.

Each problem: `dimensions` (Optuna distributions by name), `cost(params)` for a dict of
values, `suggest(trial)` for an Optuna objective, `skopt_dimensions` for gpbandit.minimize
(names in the same order), and `f_star`."""

import collections
import functools
import math

import numpy as np
import optuna

# ---- pendulum ---------------------------------------------------------------------------------

ARM_LENGTH, ARM_MASS, FRICTION, MAX_TORQUE, PAYLOAD = 0.5, 0.2, 0.02, 5.0, 1.0
CONTROL_PERIOD, SUBSTEPS, DELAY_STEPS, DURATION = 0.01, 5, 2, 2.0
INITIAL_ANGLE, FALL_ANGLE, RATE_WEIGHT, TORQUE_WEIGHT = 0.3, 1.2, 0.01, 0.002
ENCODER_STEP = 2.0 * math.pi / 2048
INTEGRAL_TIME, GRAVITY_FEEDFORWARD = 0.4, 0.8
MODES = ["pd", "pid", "gravity"]


def pendulum_costs(kp, kd, taps, mode):
    """Costs of episodes with gains kp, kd (arrays of one shape), `taps` and `mode`."""
    kp, kd = np.broadcast_arrays(np.asarray(kp, dtype=float), np.asarray(kd, dtype=float))
    l = ARM_LENGTH
    inertia = PAYLOAD * l * l + ARM_MASS * l * l / 3.0
    gravity_gain = (PAYLOAD * l + ARM_MASS * l / 2.0) * 9.81
    steps = int(DURATION / CONTROL_PERIOD + 0.5)
    h = CONTROL_PERIOD / SUBSTEPS
    theta, omega = np.full(kp.shape, INITIAL_ANGLE), np.zeros(kp.shape)
    delayed = collections.deque([theta] * (DELAY_STEPS + 1))
    readings = collections.deque([np.round(theta / ENCODER_STEP) * ENCODER_STEP] * (taps + 1))
    integral, cost = np.zeros(kp.shape), np.zeros(kp.shape)
    up = np.ones(kp.shape, dtype=bool)
    for k in range(steps):
        delayed.append(theta)
        seen = np.round(delayed.popleft() / ENCODER_STEP) * ENCODER_STEP
        readings.append(seen)
        readings.popleft()
        velocity = (readings[-1] - readings[0]) / (taps * CONTROL_PERIOD)
        u = -kp * seen - kd * velocity
        if mode == "pid":
            integral = integral + seen * CONTROL_PERIOD
            u = u - kp * integral / INTEGRAL_TIME
        elif mode == "gravity":
            u = u - GRAVITY_FEEDFORWARD * gravity_gain * np.sin(seen)
        u = np.clip(u, -MAX_TORQUE, MAX_TORQUE)
        fell = up & (np.abs(theta) > FALL_ANGLE)
        cost = np.where(fell, cost + (steps - k) * FALL_ANGLE * FALL_ANGLE, cost)
        up = up & ~fell
        step_cost = theta * theta + RATE_WEIGHT * omega * omega + TORQUE_WEIGHT * u * u
        cost = np.where(up, cost + step_cost, cost)
        for _ in range(SUBSTEPS):
            accel = (gravity_gain * np.sin(theta) - FRICTION * omega + u) / inertia
            omega = np.where(up, omega + h * accel, omega)
            theta = np.where(up, theta + h * omega, theta)
    return np.sqrt(cost / steps)


def pendulum_cost(p):
    return float(pendulum_costs(p["kp"], p["kd"], p["taps"], p["mode"]))


@functools.lru_cache(maxsize=None)
def pendulum_f_star(points=81):
    """Two log-grid passes over (kp, kd) for every taps and mode; the best cost."""
    best = math.inf
    for mode in MODES:
        for taps in range(1, 13):
            lo, hi = np.log([0.5, 0.02]), np.log([200.0, 20.0])
            for _ in range(2):
                a, b = np.meshgrid(np.linspace(lo[0], hi[0], points),
                                   np.linspace(lo[1], hi[1], points), indexing="ij")
                costs = pendulum_costs(np.exp(a), np.exp(b), taps, mode)
                i, j = np.unravel_index(np.argmin(costs), costs.shape)
                best = min(best, float(costs[i, j]))
                step = (hi - lo) / (points - 1)
                centre = np.array([a[i, j], b[i, j]])
                lo = np.maximum(centre - 2 * step, np.log([0.5, 0.02]))
                hi = np.minimum(centre + 2 * step, np.log([200.0, 20.0]))
    return best


# ---- func3c -----------------------------------------------------------------------------------

def _branin(x, y):  # on [-1, 1]^2 mapped to Branin's box; minimum 0.397887
    u, v = 7.5 * x + 2.5, 7.5 * y + 7.5
    b, c, t = 5.1 / (4 * math.pi ** 2), 5 / math.pi, 1 / (8 * math.pi)
    return (v - b * u * u + c * u - 6) ** 2 + 10 * (1 - t) * math.cos(u) + 10


def _camel(x, y):  # six-hump camel on [-2, 2] x [-1, 1]; minimum -1.0316285
    u, v = 2 * x, y
    return (4 - 2.1 * u * u + u ** 4 / 3) * u * u + u * v + (-4 + 4 * v * v) * v * v


def _rosenbrock(x, y):  # on [-1, 1] x [-0.5, 1.5]; minimum 0 at (1, 1)
    v = y + 0.5
    return 100 * (v - x * x) ** 2 + (1 - x) ** 2


def _sphere(x, y):
    return 5 * ((x - 0.3) ** 2 + (y + 0.2) ** 2)


def _rastrigin(x, y):  # minimum 0 at (0, 0)
    u, v = 2 * x, 2 * y
    return 20 + u * u + v * v - 10 * (math.cos(2 * math.pi * u) + math.cos(2 * math.pi * v))


FUNCTIONS = {"branin": (_branin, 0.397887357729738), "camel": (_camel, -1.031628453489877),
             "rosenbrock": (_rosenbrock, 0.0), "sphere": (_sphere, 0.0),
             "rastrigin": (_rastrigin, 0.0)}
SHIFTS = {"s0": 0.0, "s1": 0.1, "s2": -0.15, "s3": 0.25, "s4": -0.3}
SCALES = {"a": 1.0, "b": 0.5, "c": 2.0, "d": 1.5}
# A shift moves x, so a function's minimum may leave the box: f_star below comes from the
# shifted functions' minima over the box (a dense grid refined locally).


def func3c_cost(p):
    f, _ = FUNCTIONS[p["h1"]]
    shift = SHIFTS[p["h2"]]
    x, y = min(1.0, max(-1.0, p["x1"] + shift)), min(1.0, max(-1.0, p["x2"] - shift))
    return SCALES[p["h3"]] * (f(x, y) + 1.5) + 0.2 * abs(shift)


@functools.lru_cache(maxsize=None)
def func3c_f_star():
    from scipy.optimize import minimize as scipy_minimize

    best = math.inf
    grid = np.linspace(-1, 1, 201)
    for h1 in FUNCTIONS:
        for h2 in SHIFTS:
            h3 = "b"  # the smallest scale multiplies a positive value (every f + 1.5 > 0)
            values = [(func3c_cost({"h1": h1, "h2": h2, "h3": h3, "x1": a, "x2": b}), a, b)
                      for a in grid for b in grid]
            value, a, b = min(values)
            res = scipy_minimize(
                lambda v: func3c_cost({"h1": h1, "h2": h2, "h3": h3, "x1": v[0], "x2": v[1]}),
                [a, b], bounds=[(-1, 1), (-1, 1)], method="L-BFGS-B")
            best = min(best, value, float(res.fun))
    return best


# ---- ackley -----------------------------------------------------------------------------------

def ackley_cost(p):
    v = np.array([p["r1"], p["r2"], p["n1"], p["n2"], p["n3"]], dtype=float)
    d = len(v)
    value = (-20 * math.exp(-0.2 * math.sqrt(float(np.sum(v * v)) / d))
             - math.exp(float(np.sum(np.cos(2 * math.pi * v))) / d) + 20 + math.e)
    return value + math.log10(p["c"]) ** 2


# ---- the problems -----------------------------------------------------------------------------

Float, Int, Cat = (optuna.distributions.FloatDistribution, optuna.distributions.IntDistribution,
                   optuna.distributions.CategoricalDistribution)

PROBLEMS = {
    "pendulum": dict(
        dimensions={"kp": Float(0.5, 200.0, log=True), "kd": Float(0.02, 20.0, log=True),
                    "taps": Int(1, 12), "mode": Cat(MODES)},
        cost=pendulum_cost, f_star=pendulum_f_star),
    "func3c": dict(
        dimensions={"x1": Float(-1.0, 1.0), "x2": Float(-1.0, 1.0), "h1": Cat(list(FUNCTIONS)),
                    "h2": Cat(list(SHIFTS)), "h3": Cat(list(SCALES))},
        cost=func3c_cost, f_star=func3c_f_star),
    "ackley": dict(
        dimensions={"r1": Float(-2.0, 2.0), "r2": Float(-2.0, 2.0), "n1": Int(-5, 5),
                    "n2": Int(-5, 5), "n3": Int(-5, 5), "c": Float(0.01, 100.0, log=True)},
        cost=ackley_cost, f_star=lambda: 0.0),
}


def suggest(trial, dimensions):
    """The trial's values for every dimension, by name."""
    p = {}
    for name, d in dimensions.items():
        if isinstance(d, Cat):
            p[name] = trial.suggest_categorical(name, d.choices)
        elif isinstance(d, Int):
            p[name] = trial.suggest_int(name, d.low, d.high, log=d.log)
        else:
            p[name] = trial.suggest_float(name, d.low, d.high, log=d.log)
    return p


def skopt_dimensions(dimensions):
    """The same dimensions in scikit-optimize's conventions (gpbandit.minimize), in order."""
    out = []
    for d in dimensions.values():
        if isinstance(d, Cat):
            out.append(list(d.choices))
        else:
            out.append((d.low, d.high, "log-uniform" if d.log else "uniform"))
    return out
