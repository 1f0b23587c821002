"""The kernels gpbandit ships (gp/kernel_factory.h), each over a subset of the input
coordinates (`dims`, a list of ints), composable with * (product) and + (sum):

    k = kernels.Matern52(dims=[0, 1]) * kernels.SquaredExponential(dims=[2], ard=False)

In an Optimizer the inputs are [action; context] in unit-cube coordinates. A kernel called on
two 2-D arrays (one point per row) returns their covariance matrix. make_kernel builds a
registered kernel by name (kernel_names(), kernel_description(name)); param_kinds() lists what
each kind of log-param means to the fit (its default range) and to reports."""

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
    kernel_description,
    kernel_names,
    make_kernel,
    param_kinds,
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
    "kernel_description",
    "kernel_names",
    "make_kernel",
    "param_kinds",
]
