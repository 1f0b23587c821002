"""GaussianProcess and fit_hyperparameters: the posterior against its closed form, the fit
against the likelihood it maximizes."""

import numpy as np
import pytest

import gpbandit
from gpbandit import kernels


def data(n=12, seed=3):
    rng = np.random.default_rng(seed)
    X = rng.uniform(size=(n, 2))
    return X, np.sin(3 * X[:, 0]) + X[:, 1] ** 2


def test_posterior_matches_the_closed_form():
    X, y = data()
    k = kernels.SquaredExponential([0, 1], lengthscale=0.4)
    noise = 0.01
    gp = gpbandit.GaussianProcess(k, noise_variance=noise, standardize_outputs=False)
    gp.add_observations(X, y)
    Xs = np.array([[0.2, 0.3], [0.8, 0.9], [0.5, 0.5]])
    mean, std = gp.predict(Xs)  # "predict" gives a standard deviation
    K = k(X) + noise * np.eye(len(y))
    Ks = k(Xs, X)
    expected_mean = Ks @ np.linalg.solve(K, y)
    expected_var = np.diag(k(Xs)) - np.einsum("ij,ji->i", Ks, np.linalg.solve(K, Ks.T))
    assert np.allclose(mean, expected_mean, rtol=1e-9, atol=1e-12)
    assert np.allclose(std**2, expected_var, rtol=1e-7, atol=1e-12)
    assert gp.num_observations == 12 and gp.input_dim == 2
    assert np.array_equal(gp.inputs, X) and np.array_equal(gp.outputs, y)
    # The log marginal likelihood of the closed form.
    sign, logdet = np.linalg.slogdet(K)
    lml = -0.5 * y @ np.linalg.solve(K, y) - 0.5 * logdet - 0.5 * len(y) * np.log(2 * np.pi)
    assert gp.log_marginal_likelihood() == pytest.approx(lml, rel=1e-9)


def test_fit_raises_the_likelihood():
    X, y = data(20)
    gp = gpbandit.GaussianProcess(kernels.Matern52([0, 1], lengthscale=5.0))
    gp.add_observations(X, y)
    before = gp.log_marginal_likelihood()
    report = gp.fit(seed=1, num_restarts=2)
    assert report.success and not report.kept_previous
    assert report.num_starts == 3
    assert report.log_marginal_likelihood == pytest.approx(gp.log_marginal_likelihood())
    assert report.log_marginal_likelihood > before
    assert np.array_equal(report.kernel_log_params, gp.kernel.log_params)
    assert report.noise_variance == gp.noise_variance
    assert report.termination in (
        gpbandit.FitTermination.CONVERGENCE,
        gpbandit.FitTermination.NO_CONVERGENCE,
    )
    assert report.brief().startswith("fit succeeded")
    assert "termination = " + report.termination.name in report.brief()


def test_fit_hyperparameters_function():
    X, y = data(25)
    gp, report = gpbandit.fit_hyperparameters(X, y, seed=2)
    assert report.success and gp.kernel.describe().startswith("matern52(dims=0,1")
    mean, _ = gp.predict(X)
    assert np.max(np.abs(mean - y)) < 0.05  # a smooth function, fitted closely
    same, again = gpbandit.fit_hyperparameters(X, y, seed=2)
    assert np.array_equal(again.kernel_log_params, report.kernel_log_params)  # deterministic


def test_fit_kind_ranges_bound_a_kind_by_name():
    X, y = data(20)
    gp = gpbandit.GaussianProcess(kernels.Matern52([0, 1], lengthscale=0.25))
    gp.add_observations(X, y)
    narrow = {"min": 0.2, "max": 0.3, "start_min": 0.21, "start_max": 0.29}
    report = gp.fit(seed=1, num_restarts=1, kind_ranges={"lengthscale": narrow})
    assert report.success, report.brief()
    lengthscales = np.exp(gp.kernel.log_params[1:])
    assert np.all(lengthscales >= 0.2 * (1 - 1e-12)) and np.all(lengthscales <= 0.3 * (1 + 1e-12))
    with pytest.raises(ValueError, match=r"kind_ranges\['lengthscale'\] must have the keys"):
        gp.fit(kind_ranges={"lengthscale": {"min": 0.2}})
    with pytest.raises(ValueError, match=r'kind_ranges\["alpha"\] names no registered'):
        gp.fit(kind_ranges={"alpha": narrow})


def test_fit_option_errors():
    X, y = data()
    with pytest.raises(ValueError, match="fit.num_restart: unknown option"):
        gpbandit.fit_hyperparameters(X, y, num_restart=2)
    with pytest.raises(ValueError, match="num_restarts"):
        gpbandit.fit_hyperparameters(X, y, num_restarts=-1)
    with pytest.raises(ValueError, match="X must be a 2-D array"):
        gpbandit.fit_hyperparameters(X[:, 0], y)
    gp = gpbandit.GaussianProcess(kernels.Matern52([0, 1]))
    with pytest.raises(ValueError, match="X has 3 columns but the model's input_dim is 2"):
        gp.predict(np.zeros((1, 3)))
