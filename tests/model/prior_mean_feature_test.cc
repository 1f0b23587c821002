// PriorMeanFeature, CentringConstants and WithPriorMean: the centring set against an independent
// Halton computation, the feature's gradient (the function's own and finite differences), the
// GP's posterior mean with the feature kernel against the closed form of a GP with an explicit
// basis function (Rasmussen & Williams 2006, eqs. 2.41-2.42), and every refusal.
#include "model/prior_mean_feature.h"

#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <cmath>
#include <limits>

#include "gpbandit/acquisition/gp_ucb.h"
#include "gpbandit/gp/gaussian_process.h"
#include "gpbandit/kernel/kernel_factory.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

using testing::ExpectGradientNear;
using testing::ExpectInvalid;

Domain Box2() { return Domain::Box(Eigen::Vector2d(-1.0, 0.0), Eigen::Vector2d(3.0, 0.5)); }

double Sim(const Eigen::VectorXd& x, const Eigen::VectorXd&) {
  return std::sin(x(0)) + 4.0 * x(1) * x(1);
}

PriorMeanFunction SimFunction() {
  PriorMeanFunction f;
  f.name = "sim";
  f.value = Sim;
  return f;
}

// The radical inverse, written out again: the digits of k in base b mirrored after the point.
double Halton(int k, int base) {
  double value = 0.0, scale = 1.0;
  while (k > 0) {
    scale /= base;
    value += scale * (k % base);
    k /= base;
  }
  return value;
}

TEST(PriorMeanFeatureTest, CentringConstantsAreThoseOfTheHaltonPoints) {
  double sum = 0.0, sum2 = 0.0;
  const int n = PriorMeanFunction::kCentringPoints;
  for (int k = 1; k <= n; ++k) {
    const Eigen::Vector2d x(-1.0 + 4.0 * Halton(k, 2), 0.5 * Halton(k, 3));
    const double m = Sim(x, Eigen::VectorXd());
    sum += m;
    sum2 += m * m;
  }
  const double mean = sum / n, stddev = std::sqrt(sum2 / n - mean * mean);
  double got_mean, got_stddev;
  CentringConstants(SimFunction(), Box2(), &got_mean, &got_stddev);
  EXPECT_NEAR(got_mean, mean, 1e-12);
  EXPECT_NEAR(got_stddev, stddev, 1e-10);
}

TEST(PriorMeanFeatureTest, ValueAndGradientInTheUnitCube) {
  const PriorMeanFeature feature(SimFunction(), Box2(), 0.2, 1.5);
  const Eigen::Vector2d u(0.3, 0.6);
  const Eigen::Vector2d x(-1.0 + 4.0 * 0.3, 0.5 * 0.6);
  EXPECT_NEAR(feature.Value(u), (Sim(x, Eigen::VectorXd()) - 0.2) / 1.5, 1e-14);
  Eigen::VectorXd grad = Eigen::VectorXd::Zero(2);
  feature.AccumulateGradient(u, 1.0, grad);
  ExpectGradientNear([&](const Eigen::VectorXd& v) { return feature.Value(v); }, u, grad, 1e-6);
  // With the function's own gradient in original units: chained through the widths 4 and 0.5.
  PriorMeanFunction with_gradient = SimFunction();
  with_gradient.gradient = [](const Eigen::VectorXd& p, const Eigen::VectorXd&) {
    return Eigen::Vector2d(std::cos(p(0)), 8.0 * p(1)).eval();
  };
  const PriorMeanFeature exact(with_gradient, Box2(), 0.2, 1.5);
  Eigen::VectorXd exact_grad = Eigen::VectorXd::Zero(2);
  exact.AccumulateGradient(u, 2.0, exact_grad);
  EXPECT_NEAR(exact_grad(0), 2.0 * std::cos(x(0)) * 4.0 / 1.5, 1e-12);
  EXPECT_NEAR(exact_grad(1), 2.0 * 8.0 * x(1) * 0.5 / 1.5, 1e-12);
}

TEST(PriorMeanFeatureTest, TheGradientAtTheLastPointIsKept) {
  int calls = 0;
  PriorMeanFunction f = SimFunction();
  f.value = [&calls](const Eigen::VectorXd& x, const Eigen::VectorXd& z) {
    ++calls;
    return Sim(x, z);
  };
  const PriorMeanFeature feature(f, Box2(), 0.2, 1.5);
  const PriorMeanFeature other(SimFunction(), Box2(), 0.2, 3.0);
  const Eigen::Vector2d u(0.3, 0.6), v(0.7, 0.1);
  // Central differences in the cube, written out: m(x(u +- h e_i)) / (2 h stddev).
  auto expected = [&](const Eigen::Vector2d& at, double stddev) {
    const double h = PriorMeanFeature::kFiniteDifferenceStep;
    Eigen::Vector2d g;
    for (int i = 0; i < 2; ++i) {
      Eigen::Vector2d up = at, down = at;
      up(i) += h;
      down(i) -= h;
      const Eigen::Vector2d width(4.0, 0.5), lower(-1.0, 0.0);
      g(i) = (Sim(lower + up.cwiseProduct(width), Eigen::VectorXd()) -
              Sim(lower + down.cwiseProduct(width), Eigen::VectorXd())) /
             (2.0 * h * stddev);
    }
    return g;
  };
  auto expect_gradient = [&](const PriorMeanFeature& of, const Eigen::Vector2d& at, double stddev) {
    Eigen::VectorXd grad = Eigen::VectorXd::Zero(2);
    of.AccumulateGradient(at, 2.0, grad);
    EXPECT_TRUE(grad.isApprox(2.0 * expected(at, stddev), 1e-12)) << grad.transpose();
  };
  // A new point costs 2 d calls of m; the same point again, none.
  for (const Eigen::Vector2d& at : {u, u, u, v, v}) expect_gradient(feature, at, 1.5);
  EXPECT_EQ(calls, 2 * 4);
  // Another feature's gradient at the same point between two calls is its own, and the first
  // feature's is then computed again.
  for (int k = 0; k < 2; ++k) {
    expect_gradient(other, v, 3.0);
    expect_gradient(feature, v, 1.5);
  }
  EXPECT_EQ(calls, 4 * 4);
}

TEST(PriorMeanFeatureTest, ANonFiniteValueIsRefusedNamingItAndX) {
  PriorMeanFunction f = SimFunction();
  f.value = [](const Eigen::VectorXd& x, const Eigen::VectorXd&) {
    return x(0) > 1.0 ? std::numeric_limits<double>::quiet_NaN() : x(0);
  };
  const PriorMeanFeature feature(f, Box2(), 0.0, 1.0);
  ExpectInvalid([&] { feature.Value(Eigen::Vector2d(0.75, 0.0)); }, "'sim' returned nan at x = [2");
}

// y = f + noise on 6 points; GP: k = SE + s2 phi phi^T, without output standardization. The
// closed form (R&W eq. 2.42 with b = 0, B = s2): with K_y = K + noise I,
//   beta = (1/s2 + H K_y^-1 H^T)^-1 H K_y^-1 y,  R = h(x*) - H K_y^-1 k*,
//   mean = k*^T K_y^-1 y + R beta.
TEST(PriorMeanFeatureTest, PosteriorMeanIsThatOfAnExplicitBasisFunction) {
  const double s2 = 2.5, noise = 0.01;
  auto feature = std::make_shared<PriorMeanFeature>(SimFunction(), Box2(), 0.3, 1.2);
  std::vector<std::unique_ptr<Kernel>> parts;
  parts.push_back(MakeSquaredExponential({0, 1}, true, 1.0, 0.4));
  parts.push_back(std::make_unique<FeatureKernel>(feature, 2, s2));
  GaussianProcessOptions gp_options;
  gp_options.noise_variance = noise;
  gp_options.standardize_outputs = false;
  GaussianProcess gp(MakeSum(std::move(parts)), 2, gp_options);
  Rng rng(11);
  const Eigen::MatrixXd X = testing::UniformPoints(2, 6, 0.0, 1.0, rng);
  Eigen::VectorXd y(6);
  for (int j = 0; j < 6; ++j) y(j) = 2.0 * feature->Value(X.col(j)) + std::cos(3.0 * X(0, j));
  gp.AddObservations(X, y);

  const auto se = MakeSquaredExponential({0, 1}, true, 1.0, 0.4);
  Eigen::MatrixXd K(6, 6);
  Eigen::RowVectorXd H(6);
  for (int i = 0; i < 6; ++i) {
    H(i) = feature->Value(X.col(i));
    for (int j = 0; j < 6; ++j) K(i, j) = se->Value(X.col(i), X.col(j));
  }
  const Eigen::MatrixXd Ky = K + noise * Eigen::MatrixXd::Identity(6, 6);
  const Eigen::LDLT<Eigen::MatrixXd> solve(Ky);
  const double beta = (H * solve.solve(y))(0) / (1.0 / s2 + (H * solve.solve(H.transpose()))(0));
  for (const Eigen::Vector2d& star : {Eigen::Vector2d(0.2, 0.7), Eigen::Vector2d(0.9, 0.1)}) {
    Eigen::VectorXd k_star(6);
    for (int j = 0; j < 6; ++j) k_star(j) = se->Value(star, X.col(j));
    const double R = feature->Value(star) - (H * solve.solve(k_star))(0);
    const double expected = k_star.dot(solve.solve(y)) + R * beta;
    EXPECT_NEAR(gp.Mean(star), expected, 1e-8);
  }
}

TEST(PriorMeanFeatureTest, WithPriorMeanAddsTheFeatureKernelAndLogsTheConstants) {
  const auto strategy = std::make_unique<GpUcb>();
  OptimizerOptions options;
  options.prior_mean_function = SimFunction();
  const auto kernel =
      WithPriorMean(MakeMatern52({0, 1}, true, 1.0, 1.0), Box2(), *strategy, &options);
  EXPECT_EQ(kernel->NumParams(), 4);
  EXPECT_NE(kernel->Describe().find("prior_mean('sim')"), std::string::npos);
  double mean, stddev;
  CentringConstants(SimFunction(), Box2(), &mean, &stddev);
  EXPECT_EQ(options.prior_mean_function.mean, mean);
  EXPECT_EQ(options.prior_mean_function.stddev, stddev);
  OptimizerOptions none;
  EXPECT_EQ(WithPriorMean(MakeMatern52({0, 1}), Box2(), *strategy, &none)->NumParams(), 3);
}

TEST(PriorMeanFeatureTest, UnsupportedCombinationsAreRefusedNamingTheField) {
  const auto strategy = std::make_unique<GpUcb>();
  auto refuse = [&](const Domain& domain, OptimizerOptions options, const std::string& why) {
    ExpectInvalid([&] { WithPriorMean(MakeMatern52({0}), domain, *strategy, &options); },
                  "OptimizerOptions.prior_mean_function");
    ExpectInvalid([&] { WithPriorMean(MakeMatern52({0}), domain, *strategy, &options); }, why);
  };
  OptimizerOptions options;
  options.prior_mean_function = SimFunction();
  refuse(Domain::FiniteSet(Eigen::MatrixXd::Random(2, 5)), options, "needs a box domain");
  refuse(Box2().WithContext(1), options, "needs bounded box contexts");
  OptimizerOptions unnamed = options;
  unnamed.prior_mean_function.name.clear();
  refuse(Box2(), unnamed, ".name is empty");
  OptimizerOptions name_only;
  name_only.prior_mean_function.name = "sim";
  refuse(Box2(), name_only, "has no function");
  OptimizerOptions constant = options;
  constant.prior_mean_function.value = [](const Eigen::VectorXd&, const Eigen::VectorXd&) {
    return 3.0;
  };
  refuse(Box2(), constant, "is constant over the box");
  OptimizerOptions fidelities = options;
  fidelities.fidelities.levels = {{"sim", 1.0}, {"robot", 10.0}};
  refuse(Box2(), fidelities, "OptimizerOptions.fidelities");
}

}  // namespace
}  // namespace gpbandit
