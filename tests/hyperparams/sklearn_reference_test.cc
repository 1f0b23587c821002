// The log marginal likelihood, its gradient and the fit against scikit-learn's
// GaussianProcessRegressor on the same data (fixtures/sklearn_lml.txt, written by
// make_sklearn_fixture.py, which documents the format and why the parameterizations agree).
#include <gtest/gtest.h>

#include <Eigen/Core>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "gpbandit/gp/gaussian_process.h"
#include "gpbandit/hyperparams/fit.h"
#include "gpbandit/hyperparams/log_marginal_likelihood.h"
#include "gpbandit/kernel/kernel_factory.h"

namespace gpbandit {
namespace {

struct Case {
  std::string kind;  // "lml_case" or "fit_case"
  std::string name;
  std::string kernel;
  int dim = 0;
  int n = 0;
  Eigen::VectorXd theta;  // kernel log-params..., log noise
  Eigen::MatrixXd X;      // dim x n
  Eigen::VectorXd y;
  double lml = 0.0;
  Eigen::VectorXd gradient;
  Eigen::VectorXd lower, upper;  // fit cases: log bounds, noise last
};

std::string FixturePath() {
  const std::string here = __FILE__;
  return here.substr(0, here.find_last_of('/')) + "/fixtures/sklearn_lml.txt";
}

Eigen::VectorXd ReadVector(std::istream& in, int size) {
  Eigen::VectorXd v(size);
  for (int i = 0; i < size; ++i) in >> v(i);
  return v;
}

Eigen::VectorXd ReadSizedVector(std::istream& in) {
  int size = 0;
  in >> size;
  return ReadVector(in, size);
}

std::vector<Case> ReadFixture() {
  std::ifstream file(FixturePath());
  EXPECT_TRUE(file.good()) << "cannot open " << FixturePath();
  std::vector<Case> cases;
  std::string line;
  Case current;
  std::string token;
  while (file >> token) {
    if (token[0] == '#') {
      std::getline(file, line);
    } else if (token == "lml_case" || token == "fit_case") {
      current = Case();
      current.kind = token;
      file >> current.name >> current.kernel >> current.dim >> current.n;
    } else if (token == "theta") {
      current.theta = ReadSizedVector(file);
    } else if (token == "X") {
      // Written point after point: exactly the column-major layout of a dim x n matrix.
      current.X.resize(current.dim, current.n);
      for (int j = 0; j < current.n; ++j)
        for (int i = 0; i < current.dim; ++i) file >> current.X(i, j);
    } else if (token == "y") {
      current.y = ReadVector(file, current.n);
    } else if (token == "lml" || token == "fitted_lml") {
      file >> current.lml;
    } else if (token == "gradient") {
      current.gradient = ReadSizedVector(file);
    } else if (token == "fitted_theta") {
      current.theta = ReadSizedVector(file);
    } else if (token == "bounds") {
      int size = 0;
      file >> size;
      current.lower = ReadVector(file, size);
      current.upper = ReadVector(file, size);
    } else if (token == "end") {
      cases.push_back(current);
    } else {
      ADD_FAILURE() << "unexpected token " << token << " in " << FixturePath();
      break;
    }
  }
  return cases;
}

std::unique_ptr<Kernel> MakeStationary(const std::string& family, int dim) {
  return MakeKernel(family, FirstDims(dim), /*ard=*/true);
}

// The gpbandit kernel equivalent to the scikit-learn kernel the script built.
std::unique_ptr<Kernel> KernelFor(const std::string& spec, int dim) {
  if (spec == "sum_se_matern52" || spec == "product_se_matern32") {
    std::vector<std::unique_ptr<Kernel>> parts;
    parts.push_back(MakeStationary("se", dim));
    parts.push_back(MakeStationary(spec == "sum_se_matern52" ? "matern52" : "matern32", dim));
    return spec[0] == 's' ? MakeSum(std::move(parts)) : MakeProduct(std::move(parts));
  }
  return MakeStationary(spec, dim);
}

double RelativeError(double a, double b) { return std::abs(a - b) / std::max(1.0, std::abs(b)); }

TEST(SklearnReferenceTest, FixtureHasTheExpectedCases) {
  const std::vector<Case> cases = ReadFixture();
  int lml_cases = 0, fit_cases = 0;
  for (const Case& c : cases) (c.kind == "lml_case" ? lml_cases : fit_cases)++;
  EXPECT_EQ(lml_cases, 6);
  EXPECT_EQ(fit_cases, 2);
}

TEST(SklearnReferenceTest, LogMarginalLikelihoodAndGradientMatchScikitLearn) {
  for (const Case& c : ReadFixture()) {
    if (c.kind != "lml_case") continue;
    SCOPED_TRACE(c.name);
    std::unique_ptr<Kernel> kernel = KernelFor(c.kernel, c.dim);
    const int p = kernel->NumParams();
    ASSERT_EQ(c.theta.size(), p + 1);
    kernel->SetLogParams(c.theta.head(p));
    Eigen::VectorXd gradient;
    const double lml = LogMarginalLikelihood(*kernel, c.X, c.y, std::exp(c.theta(p)), &gradient);
    EXPECT_LE(std::abs(lml - c.lml), 1e-8 * std::abs(c.lml)) << lml << " vs " << c.lml;
    ASSERT_EQ(gradient.size(), c.gradient.size());
    for (int j = 0; j <= p; ++j)
      EXPECT_LE(RelativeError(gradient(j), c.gradient(j)), 1e-7)
          << "entry " << j << ": " << gradient(j) << " vs " << c.gradient(j);
  }
}

// scikit-learn's fit (L-BFGS-B, 1 + 5 starts, same bounds) is a lower bound for ours.
TEST(SklearnReferenceTest, FitReachesScikitLearnsOptimum) {
  for (const Case& c : ReadFixture()) {
    if (c.kind != "fit_case") continue;
    SCOPED_TRACE(c.name);
    std::unique_ptr<Kernel> kernel = KernelFor(c.kernel, c.dim);
    const int p = kernel->NumParams();
    ASSERT_EQ(c.lower.size(), p + 1);
    // The fixture's value is the LML of the same problem: check it at sklearn's optimum first.
    kernel->SetLogParams(c.theta.head(p));
    const double at_sklearn_optimum =
        LogMarginalLikelihood(*kernel, c.X, c.y, std::exp(c.theta(p)), nullptr);
    EXPECT_LE(std::abs(at_sklearn_optimum - c.lml), 1e-8 * std::abs(c.lml));

    // The script standardized y itself; the GP must use it as given.
    GaussianProcessOptions gp_options;
    gp_options.standardize_outputs = false;
    gp_options.noise_variance = 1e-2;
    GaussianProcess gp(KernelFor(c.kernel, c.dim), c.dim, gp_options);
    gp.AddObservations(c.X, c.y);
    HyperparameterFitOptions options;
    options.num_restarts = 5;
    options.lower_log_bounds.assign(c.lower.data(), c.lower.data() + p);
    options.upper_log_bounds.assign(c.upper.data(), c.upper.data() + p);
    options.min_noise_variance = std::exp(c.lower(p));
    options.max_noise_variance = std::exp(c.upper(p));
    Rng rng(2026);
    const HyperparameterFitReport report = FitHyperparameters(options, rng, &gp);
    ASSERT_TRUE(report.success) << report.BriefReport();
    EXPECT_GE(report.log_marginal_likelihood, c.lml - 1e-6) << report.BriefReport();
    std::cout << "[ sklearn  ] " << c.name << ": gpbandit " << std::setprecision(12)
              << report.log_marginal_likelihood << ", scikit-learn " << c.lml << std::endl;
  }
}

}  // namespace
}  // namespace gpbandit
