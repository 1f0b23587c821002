"""Domain and kernels from Python: shapes and conventions (one point per row), composition on
dimension subsets against the closed forms, log-parameters."""

import math

import numpy as np
import pytest

import gpbandit
from gpbandit import kernels


def test_box_domain():
    d = gpbandit.Domain.box([0, -1], [1, 1])
    assert d.kind == "box" and d.action_dim == 2 and d.context_dim == 0 and d.input_dim == 2
    assert d.lower.dtype == np.float64 and list(d.lower) == [0, -1] and list(d.upper) == [1, 1]
    assert d.candidates is None and d.context_lower is None
    assert repr(d) == "Domain(box(d=2))"
    assert d == gpbandit.Domain.box([0, -1], [1, 1]) and d != gpbandit.Domain.box([0, 0], [1, 1])


def test_finite_domain_takes_one_candidate_per_row():
    c = np.array([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])  # two candidates in 3-D
    d = gpbandit.Domain.finite(c)
    assert d.kind == "finite" and d.action_dim == 3 and d.num_candidates == 2
    assert np.array_equal(d.candidates, c)
    assert list(d.lower) == [0, 1, 2] and list(d.upper) == [3, 4, 5]  # the bounding box


def test_context_variants():
    bounded = gpbandit.Domain.box([0], [1]).with_context(lower=[0, 0], upper=[1, 2])
    assert bounded.context_dim == 2 and list(bounded.context_upper) == [1, 2]
    free = gpbandit.Domain.finite([[0.0], [1.0]]).with_context(3)
    assert free.context_dim == 3 and free.context_lower is None and free.input_dim == 4
    with pytest.raises(ValueError, match="needs dim"):
        gpbandit.Domain.box([0], [1]).with_context()


def se(a, b, s2, l):
    return s2 * math.exp(-np.sum(((a - b) / l) ** 2) / 2)


def matern52(a, b, s2, l):
    r = math.sqrt(np.sum(((a - b) / l) ** 2))
    return s2 * (1 + math.sqrt(5) * r + 5 * r * r / 3) * math.exp(-math.sqrt(5) * r)


def test_kernels_on_dimension_subsets_compose_with_product_and_sum():
    a = np.array([[0.1, 0.7, 0.3], [0.9, 0.2, 0.5]])
    b = np.array([[0.4, 0.4, 0.8]])
    k1 = kernels.Matern52(dims=[0, 1], variance=2.0, lengthscale=0.5)
    k2 = kernels.SquaredExponential(dims=[2], lengthscale=0.3)
    product, total = k1 * k2, k1 + k2
    assert product.describe().startswith("product(") and total.describe().startswith("sum(")
    for i in range(2):
        m = matern52(a[i, :2], b[0, :2], 2.0, 0.5)
        s = se(a[i, 2:], b[0, 2:], 1.0, 0.3)
        assert k1(a, b)[i, 0] == pytest.approx(m, rel=1e-12)
        assert product(a, b)[i, 0] == pytest.approx(m * s, rel=1e-12)
        assert total(a, b)[i, 0] == pytest.approx(m + s, rel=1e-12)
    gram = product(a)
    assert gram.shape == (2, 2) and gram[0, 1] == pytest.approx(gram[1, 0])
    # Log-params: the parts' in order.
    assert product.num_params == k1.num_params + k2.num_params == 5
    assert np.allclose(product.log_params, np.r_[k1.log_params, k2.log_params])
    assert product.param_kinds == ["signal_variance", "lengthscale", "lengthscale",
                                   "signal_variance", "lengthscale"]
    assert product.min_input_dim == 3


def test_matern12_and_32_closed_forms():
    a, b = np.array([[0.2, 0.9]]), np.array([[0.7, 0.1]])
    r = math.sqrt(np.sum(((a - b) / 0.6) ** 2))
    k12 = kernels.Matern12([0, 1], ard=False, variance=1.5, lengthscale=0.6)
    k32 = kernels.Matern32([0, 1], ard=False, variance=1.5, lengthscale=0.6)
    assert k12(a, b)[0, 0] == pytest.approx(1.5 * math.exp(-r), rel=1e-12)
    s3 = math.sqrt(3) * r
    assert k32(a, b)[0, 0] == pytest.approx(1.5 * (1 + s3) * math.exp(-s3), rel=1e-12)


def test_composition_copies_its_operands():
    k1 = kernels.Matern52([0])
    product = k1 * kernels.Constant(2.0)
    k1.log_params = [math.log(5.0), 0.0]
    assert product.log_params[0] == 0.0


def test_log_params_round_trip():
    k = kernels.Periodic([0, 1], ard=False)
    assert k.param_names == ["periodic.log_variance", "periodic.log_lengthscale",
                             "periodic.log_period"]
    k.log_params = [0.5, -1.0, 0.25]
    assert list(k.log_params) == [0.5, -1.0, 0.25]
    assert k.copy().log_params[2] == 0.25


def test_index_linear_and_by_name():
    cov = np.array([[1.0, 0.5], [0.5, 1.0]])
    idx = kernels.Index(1, cov, scale=2.0)
    pts = np.array([[0.3, 0.0], [0.7, 1.0]])
    assert np.allclose(idx(pts), 2.0 * cov)
    lin = kernels.Linear([0], ard=False)
    assert lin(np.array([[2.0]]), np.array([[3.0]]))[0, 0] == pytest.approx(6.0)
    assert "matern52" in gpbandit.kernel_names()
    assert kernels.make_kernel("se", [0]).describe().startswith("se(")
    with pytest.raises(ValueError, match="PSD|symmetric"):
        kernels.Index(0, [[1.0, 2.0], [0.0, 1.0]])


def test_kernel_registry_and_parameter_kinds():
    names = kernels.kernel_names()
    assert names[:7] == ["se", "matern12", "matern32", "matern52", "periodic", "linear", "constant"]
    kinds = kernels.param_kinds()
    for name in names:
        assert kernels.kernel_description(name)
        k = kernels.make_kernel(name, [0, 1], variance=2.0, initial_values={"period": 0.25})
        assert k.describe().startswith(name + "(")
        assert all(kind in kinds for kind in k.param_kinds)
    periodic = kernels.make_kernel("periodic", [0], initial_values={"period": 0.25})
    assert periodic.param_kinds == ["signal_variance", "lengthscale", "period"]
    assert math.exp(periodic.log_params[2]) == pytest.approx(0.25, rel=1e-15)
    assert kinds["lengthscale"] == {
        "description": "a length along an input (input units)",
        "min": 1e-3,
        "max": 1e2,
        "start_min": 0.03,
        "start_max": 3.0,
        "original_units": "input_width",
        "cautious_direction": "only_shrink",
    }
    assert kinds["signal_variance"]["cautious_direction"] == "only_grow"
    with pytest.raises(ValueError, match=r'initial_values\["perod"\] names no registered'):
        kernels.make_kernel("periodic", [0], initial_values={"perod": 1.0})
    with pytest.raises(ValueError, match="kernel = 'rbf': unknown; registered: se, "):
        kernels.make_kernel("rbf", [0])
