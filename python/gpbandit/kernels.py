"""The kernels gpbandit ships (gp/kernel_factory.h), each over a subset of the input
coordinates (`dims`, a list of ints), composable with * (product) and + (sum):

    k = kernels.Matern52(dims=[0, 1]) * kernels.SquaredExponential(dims=[2], ard=False)

In an Optimizer the inputs are [action; context] in unit-cube coordinates. A kernel called on
two 2-D arrays (one point per row) returns their covariance matrix."""

from ._core import (
    Categorical,
    Constant,
    Index,
    Kernel,
    Linear,
    Matern12,
    Matern32,
    Matern52,
    OneHot,
    Periodic,
    SquaredExponential,
    kernel_names,
    make_kernel,
)

__all__ = [
    "Categorical",
    "Constant",
    "Index",
    "Kernel",
    "Linear",
    "Matern12",
    "Matern32",
    "Matern52",
    "OneHot",
    "Periodic",
    "SquaredExponential",
    "kernel_names",
    "make_kernel",
]
