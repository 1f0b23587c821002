// HyperparameterFitOptions::max_seconds: a fit that runs out of time keeps what its starts found
// and skips the starts it had no time for.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <string>

#include "gpbandit/gp/gaussian_process.h"
#include "gpbandit/hyperparams/fit.h"
#include "gpbandit/kernel/kernel_factory.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

GaussianProcess MakeGp(int n, std::uint64_t seed) {
  Rng rng(seed);
  const Eigen::MatrixXd X = testing::UniformPoints(3, n, 0.0, 1.0, rng);
  Eigen::VectorXd y(n);
  for (int j = 0; j < n; ++j) y(j) = std::sin(6.0 * X(0, j)) + X(1, j) * X(2, j);
  GaussianProcess gp(MakeMatern52({0, 1, 2}), 3);
  gp.AddObservations(X, y);
  return gp;
}

TEST(FitBudgetTest, AFitOutOfTimeSkipsTheStartsItHadNoTimeFor) {
  GaussianProcess gp = MakeGp(200, testing::TestSeed(3));
  HyperparameterFitOptions options;
  options.num_restarts = 4;
  options.max_seconds = 1e-9;  // spent before the first iteration ends
  Rng rng(4);
  const HyperparameterFitReport report = FitHyperparameters(options, rng, &gp);
  ASSERT_EQ(report.start_outcomes.size(), 5u);
  for (int s = 1; s < 5; ++s)
    EXPECT_NE(report.start_outcomes[static_cast<std::size_t>(s)].find("NOT RUN"), std::string::npos)
        << report.start_outcomes[static_cast<std::size_t>(s)];
  // Start 0 ran (Ceres stops it between iterations) and its result is usable.
  EXPECT_TRUE(report.success) << report.message;
  EXPECT_EQ(report.best_start, 0);
  EXPECT_LE(report.iterations, 1);
}

TEST(FitBudgetTest, AGenerousBudgetChangesNothing) {
  GaussianProcess a = MakeGp(60, testing::TestSeed(5)), b = a;
  HyperparameterFitOptions unbounded, bounded;
  unbounded.num_restarts = bounded.num_restarts = 2;
  bounded.max_seconds = 1e6;
  Rng rng_a(6), rng_b(6);
  FitHyperparameters(unbounded, rng_a, &a);
  FitHyperparameters(bounded, rng_b, &b);
  EXPECT_EQ(a.kernel_log_params(), b.kernel_log_params());
  EXPECT_EQ(a.noise_variance(), b.noise_variance());
}

TEST(FitBudgetTest, ABudgetMustBePositive) {
  HyperparameterFitOptions options;
  options.max_seconds = -1.0;
  std::string error;
  EXPECT_FALSE(options.IsValid(&error));
  EXPECT_NE(error.find("max_seconds"), std::string::npos) << error;
}

}  // namespace
}  // namespace gpbandit
