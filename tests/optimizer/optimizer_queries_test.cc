// What a controller engineer asks of the Optimizer besides Ask and Tell: the recommendation at a
// context, predictions in the caller's units, the objective sense, and the per-round reports.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "gpbandit/optimizer/optimizer.h"
#include "tests/optimizer/plugin_test_util.h"
#include "tests/test_domains.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

using testing::CheapOptions;
using testing::ExpectInvalid;
using testing::TempLogPath;

double QueryBump(const Eigen::VectorXd& x) {
  return -(x - Eigen::VectorXd::Constant(x.size(), 0.3)).squaredNorm();
}

using testing::UnitSquare;

// Minimizing cost c is maximizing reward -c: the same suggestions, bit for bit, and every value
// returned in the caller's units.
TEST(OptimizerQueriesTest, MinimizeIsTheNegatedMaximizeRunExactly) {
  GPBANDIT_SKIP_UNLESS_BIT_REPRODUCIBLE();
  OptimizerOptions max_options = CheapOptions(4);
  OptimizerOptions min_options = CheapOptions(4);
  min_options.sense = ObjectiveSense::kMinimize;
  min_options.log_path = TempLogPath("minimize");
  Optimizer maximize(UnitSquare(), nullptr, "gp-ucb", StrategyParams(), max_options);
  Optimizer minimize(UnitSquare(), nullptr, "gp-ucb", StrategyParams(), min_options);
  for (int i = 0; i < 15; ++i) {
    const Eigen::VectorXd a = maximize.Ask();
    const Eigen::VectorXd b = minimize.Ask();
    ASSERT_EQ(a, b) << "round " << i;
    maximize.Tell(a, QueryBump(a));
    minimize.Tell(b, -QueryBump(b));
  }
  EXPECT_EQ(minimize.Best().x, maximize.Best().x);
  EXPECT_EQ(minimize.Best().posterior_mean, -maximize.Best().posterior_mean);
  EXPECT_EQ(minimize.Best().observed_reward, -maximize.Best().observed_reward);
  EXPECT_EQ(minimize.observations().back().y, -maximize.observations().back().y);
  const Eigen::Vector2d probe(0.6, 0.1);
  EXPECT_EQ(minimize.Predict(probe).mean, -maximize.Predict(probe).mean);
  EXPECT_EQ(minimize.Predict(probe).stddev, maximize.Predict(probe).stddev);
  EXPECT_THAT(testing::ReadFile(min_options.log_path),
              ::testing::HasSubstr("\"sense\":\"minimize\""));
  const std::unique_ptr<Optimizer> resumed = Optimizer::Resume(min_options.log_path);
  EXPECT_EQ(resumed->options().sense, ObjectiveSense::kMinimize);
  EXPECT_EQ(resumed->Fingerprint(), minimize.Fingerprint());
}

// A failure imputed under kMinimize enters the model as the worst (highest) cost so far, and is
// reported in cost units.
TEST(OptimizerQueriesTest, MinimizeImputesTheHighestCost) {
  OptimizerOptions o = CheapOptions(2);
  o.sense = ObjectiveSense::kMinimize;
  o.non_finite_rewards = NonFiniteRewardPolicy::kImputeWorst;
  Optimizer opt(UnitSquare(), nullptr, "gp-ucb", StrategyParams(), o);
  opt.Tell(Eigen::Vector2d(0.1, 0.1), 3.0);
  opt.Tell(Eigen::Vector2d(0.2, 0.1), 7.0);
  opt.Tell(Eigen::Vector2d(0.3, 0.1), std::numeric_limits<double>::quiet_NaN());
  EXPECT_EQ(opt.observations().back().imputed, 7.0);
  EXPECT_EQ(opt.Best().x, Eigen::Vector2d(0.1, 0.1));
}

double FiniteBeta(int candidates, int t) {
  const double pi = std::acos(-1.0);
  return 2 * std::log(candidates * static_cast<double>(t) * t * pi * pi / (6 * 0.1));
}

// One report per ask: the round, t, beta_t with its name (Srinivas et al.'s finite-set
// schedule, written out here), the acquisition value mu + sqrt(beta_t) sigma of the point handed
// out, whether a fit ran.
TEST(OptimizerQueriesTest, TheRoundCallbackReportsEveryRound) {
  Eigen::MatrixXd candidates(1, 12);
  for (int c = 0; c < 12; ++c) candidates(0, c) = c / 11.0;
  OptimizerOptions o = CheapOptions(6);
  o.initial_design_size = 3;
  Optimizer opt(Domain::FiniteSet(candidates), nullptr, "gp-ucb", StrategyParams(), o);
  std::vector<RoundReport> reports;
  std::vector<double> expected_values;
  opt.SetRoundCallback([&](const RoundReport& r) {
    reports.push_back(r);
    // The point is pending when the callback runs; the callback may query the optimizer.
    const Eigen::MatrixXd pending = opt.pending_actions();
    const Prediction p = opt.Predict(pending.col(pending.cols() - 1));
    expected_values.push_back(p.mean + std::sqrt(r.figure) * p.stddev);
  });
  for (int i = 0; i < 10; ++i) {
    const Eigen::VectorXd x = opt.Ask();
    opt.Tell(x, -std::pow(x(0) - 0.4, 2));
  }
  ASSERT_EQ(reports.size(), 10u);
  for (int i = 0; i < 10; ++i) {
    const RoundReport& r = reports[static_cast<std::size_t>(i)];
    EXPECT_EQ(r.round, i);
    ASSERT_EQ(r.acquisition_values.size(), 1u);
    EXPECT_GE(r.seconds, 0.0);
    if (i < 3) {
      EXPECT_EQ(r.num_design_points, 1);
      EXPECT_EQ(r.t, 0);
      EXPECT_TRUE(std::isnan(r.figure));
      EXPECT_TRUE(std::isnan(r.acquisition_values[0]));
      EXPECT_FALSE(r.fitted);
      continue;
    }
    EXPECT_EQ(r.num_design_points, 0);
    EXPECT_EQ(r.t, i + 1);
    EXPECT_EQ(r.figure_name, "beta_t");
    EXPECT_NEAR(r.figure, FiniteBeta(12, i + 1), 1e-12);
    EXPECT_NEAR(r.acquisition_values[0], expected_values[static_cast<std::size_t>(i)], 1e-9);
  }
  // The default schedule refits at every observation while few: the first model round fits.
  EXPECT_TRUE(reports[3].fitted);
  EXPECT_GE(reports[3].fit_report.num_starts, 1);
  EXPECT_EQ(opt.last_round_report().round, 9);
  opt.SetRoundCallback(nullptr);
  opt.Ask();
  EXPECT_EQ(reports.size(), 10u);
  EXPECT_EQ(opt.last_round_report().round, 10);
}

// f(x, z) = -(x - z)^2: the best action follows the context.
double Tracking(double x, double z) { return -(x - z) * (x - z); }

TEST(OptimizerQueriesTest, BestAtAContextOnAFiniteSetIsTheExhaustiveArgmaxOfTheMean) {
  Eigen::MatrixXd candidates(1, 5);
  candidates << 0, 0.25, 0.5, 0.75, 1;
  const Domain domain = Domain::FiniteSet(candidates)
                            .WithContext(1, Eigen::VectorXd::Zero(1), Eigen::VectorXd::Ones(1));
  Optimizer opt(domain, nullptr, "cgp-ucb", StrategyParams(), CheapOptions(8));
  for (double z : {0.1, 0.9}) {
    for (int c = 0; c < 5; ++c) {
      opt.Tell(candidates.col(c), Eigen::VectorXd::Constant(1, z), Tracking(candidates(0, c), z));
    }
  }
  opt.Ask(Eigen::VectorXd::Constant(1, 0.5));  // fits the hyperparameters
  for (double z : {0.1, 0.9}) {
    const Eigen::VectorXd zv = Eigen::VectorXd::Constant(1, z);
    const Recommendation r = opt.Best(zv);
    int argmax = 0;
    for (int c = 1; c < 5; ++c)
      if (opt.Predict(candidates.col(c), zv).mean > opt.Predict(candidates.col(argmax), zv).mean)
        argmax = c;
    EXPECT_EQ(r.x(0), candidates(0, argmax)) << "z = " << z;
    EXPECT_EQ(r.x(0), z < 0.5 ? 0.0 : 1.0) << "z = " << z;
    EXPECT_EQ(r.z, zv);
    EXPECT_EQ(r.observed_reward, Tracking(r.x(0), z));
  }
  ExpectInvalid([&] { opt.Best(Eigen::VectorXd::Constant(1, 1.5)); }, "context");
  ExpectInvalid([&] { opt.Best(Eigen::VectorXd()); }, "context");
}

TEST(OptimizerQueriesTest, BestAtAContextOnABoxMaximizesTheMean) {
  const Domain domain = Domain::Box(Eigen::VectorXd::Zero(1), Eigen::VectorXd::Ones(1))
                            .WithContext(1, Eigen::VectorXd::Zero(1), Eigen::VectorXd::Ones(1));
  Optimizer opt(domain, nullptr, "cgp-ucb", StrategyParams(), CheapOptions(9));
  Rng rng(testing::TestSeed(9));
  const Eigen::MatrixXd X = testing::UniformPoints(1, 40, 0, 1, rng);
  const Eigen::MatrixXd Z = testing::UniformPoints(1, 40, 0, 1, rng);
  Eigen::VectorXd y(40);
  for (int j = 0; j < 40; ++j) y(j) = Tracking(X(0, j), Z(0, j));
  opt.TellMany(X, Z, y);
  opt.Ask(Eigen::VectorXd::Constant(1, 0.5));  // fits the hyperparameters
  for (double z : {0.25, 0.8}) {
    const Eigen::VectorXd zv = Eigen::VectorXd::Constant(1, z);
    const Recommendation r = opt.Best(zv);
    EXPECT_NEAR(r.x(0), z, 0.05) << "z = " << z;
    for (int i = 0; i <= 100; ++i) {
      const double mean = opt.Predict(Eigen::VectorXd::Constant(1, i / 100.0), zv).mean;
      EXPECT_LE(mean, r.posterior_mean + 1e-6) << "x = " << i / 100.0 << ", z = " << z;
    }
    EXPECT_TRUE(std::isnan(r.observed_reward));
  }
}

// Predict undoes the reward unit: rewards scaled by 2^400 (beyond the model's range, so the model
// holds them in a unit 2^k != 1) give predictions scaled by 2^400.
TEST(OptimizerQueriesTest, PredictIsInTheCallersUnits) {
  Optimizer plain(UnitSquare(), nullptr, "gp-ucb", StrategyParams(), CheapOptions(12));
  Optimizer scaled(UnitSquare(), nullptr, "gp-ucb", StrategyParams(), CheapOptions(12));
  Rng rng(testing::TestSeed(12));
  const Eigen::MatrixXd X = testing::UniformPoints(2, 8, 0, 1, rng);
  Eigen::VectorXd y(8);
  for (int j = 0; j < 8; ++j) y(j) = 1 + QueryBump(X.col(j));
  plain.TellMany(X, Eigen::MatrixXd(), y);
  scaled.TellMany(X, Eigen::MatrixXd(), y * std::ldexp(1.0, 400));
  ASSERT_NE(scaled.reward_unit(), 1.0);
  const Eigen::Vector2d probe(0.35, 0.2);
  // Equal up to the roundoff of the standardization, which sees other magnitudes.
  EXPECT_NEAR(std::ldexp(scaled.Predict(probe).mean, -400), plain.Predict(probe).mean, 1e-13);
  EXPECT_NEAR(std::ldexp(scaled.Predict(probe).stddev, -400), plain.Predict(probe).stddev, 1e-13);
  // Near an observation the mean is the observed reward within the noise.
  const Observation last = plain.observations().back();
  EXPECT_NEAR(plain.Predict(last.x).mean, last.y, 0.05);
  ExpectInvalid([&] { plain.Predict(Eigen::Vector3d(0, 0, 0)); }, "x");
}

}  // namespace
}  // namespace gpbandit
