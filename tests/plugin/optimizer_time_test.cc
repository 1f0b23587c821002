// The Optimizer with a time model (acquisition/time_model.h): TV-GP-UCB's forgetting kernel and
// R-GP-UCB's epochs on the round coordinate it appends, checked against the GP formulas written
// out here; every observation's round, logged and replayed.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <cmath>
#include <fstream>
#include <vector>

#include "gpbandit/gp/kernel_factory.h"
#include "gpbandit/plugin/optimizer.h"
#include "tests/plugin/plugin_test_util.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

using testing::CheapOptions;
using testing::ExpectInvalid;
using testing::TempLogPath;

double Drifting(double x) { return std::sin(3 * x) - 0.5 * x; }

OptimizerOptions FixedModelOptions() {
  OptimizerOptions o = CheapOptions(5);
  o.refit.enabled = false;
  o.gp.standardize_outputs = false;
  o.gp.noise_variance = 0.01;
  o.initial_design_size = 2;
  return o;
}

// Predict = the GP posterior with k((u, t), (u', t')) = exp(-(u - u')^2 / (2 l^2))
// (1 - eps)^{|t - t'| / 2}, u = x / 2 the unit-cube image of [0, 2], t each observation's round,
// and the prediction at the next round.
TEST(OptimizerTimeTest, TvGpUcbPredictsWithTheForgettingKernel) {
  const double eps = 0.2, l = 0.3, noise = 0.01;
  Optimizer opt(Domain::Box(Eigen::VectorXd::Zero(1), Eigen::VectorXd::Constant(1, 2.0)),
                MakeSquaredExponential({0}, true, 1.0, l), "tv-gp-ucb",
                StrategyParams(R"({"epsilon":0.2})"), FixedModelOptions());
  for (int i = 0; i < 6; ++i) {
    const Eigen::VectorXd x = opt.Ask();
    opt.Tell(x, Drifting(x(0)));
  }
  const std::vector<Observation> obs = opt.observations();
  const int n = static_cast<int>(obs.size());
  for (int i = 0; i < n; ++i) EXPECT_EQ(obs[static_cast<std::size_t>(i)].round, i);
  const auto k = [&](double u, double t, double v, double s) {
    return std::exp(-(u - v) * (u - v) / (2 * l * l)) * std::pow(1 - eps, std::abs(t - s) / 2);
  };
  Eigen::MatrixXd K(n, n);
  Eigen::VectorXd y(n);
  for (int i = 0; i < n; ++i) {
    const Observation& a = obs[static_cast<std::size_t>(i)];
    y(i) = a.y;
    for (int j = 0; j < n; ++j) {
      const Observation& b = obs[static_cast<std::size_t>(j)];
      K(i, j) = k(a.x(0) / 2, a.round, b.x(0) / 2, b.round);
    }
  }
  K.diagonal().array() += noise;
  const Eigen::LLT<Eigen::MatrixXd> llt(K);
  for (double x : {0.1, 0.7, 1.9}) {
    Eigen::VectorXd ks(n);
    for (int i = 0; i < n; ++i) {
      const Observation& a = obs[static_cast<std::size_t>(i)];
      ks(i) = k(x / 2, 6, a.x(0) / 2, a.round);
    }
    const Prediction p = opt.Predict(Eigen::VectorXd::Constant(1, x));
    EXPECT_NEAR(p.mean, ks.dot(llt.solve(y)), 1e-9) << "x = " << x;
    EXPECT_NEAR(p.stddev, std::sqrt(1.0 - ks.dot(llt.solve(ks))), 1e-9) << "x = " << x;
  }
}

TEST(OptimizerTimeTest, AnObservationsRoundIsItsPendingPointsOrTheLastAsk) {
  Optimizer opt(Domain::Box(Eigen::VectorXd::Zero(1), Eigen::VectorXd::Constant(1, 2.0)), nullptr,
                "tv-gp-ucb", StrategyParams(), FixedModelOptions());
  opt.TellMany(Eigen::MatrixXd::Constant(1, 2, 0.5), Eigen::MatrixXd(), Eigen::Vector2d(1, 2));
  const Eigen::MatrixXd batch = opt.AskBatch(2);       // round 0
  opt.Ask();                                           // round 1
  opt.Ask();                                           // round 2
  opt.Tell(batch.col(1), 0.3);                         // answers round 0
  opt.Tell(Eigen::VectorXd::Constant(1, 1.234), 0.1);  // nothing pending there: round 2
  const std::vector<Observation> obs = opt.observations();
  ASSERT_EQ(obs.size(), 4u);
  EXPECT_EQ(obs[0].round, 0);
  EXPECT_EQ(obs[1].round, 0);
  EXPECT_EQ(obs[2].round, 0);
  EXPECT_EQ(obs[3].round, 2);
}

// Fitting eps: the log carries every round and the fits, so a resumed run is the same run.
TEST(OptimizerTimeTest, ResumeRebuildsTheFittedForgettingModel) {
  GPBANDIT_SKIP_UNLESS_BIT_REPRODUCIBLE();
  const std::string path = TempLogPath("tv_resume");
  OptimizerOptions o = CheapOptions(11);
  o.log_path = path;
  const Domain box = Domain::Box(Eigen::VectorXd::Zero(1), Eigen::VectorXd::Constant(1, 2.0));
  Optimizer live(box, nullptr, "tv-gp-ucb",
                 StrategyParams(R"({"epsilon":0.05,"fit_epsilon":true})"), o);
  for (int i = 0; i < 12; ++i) {
    const Eigen::VectorXd x = live.Ask();
    live.Tell(x, Drifting(x(0)) + 0.05 * i);
  }
  ASSERT_TRUE(live.has_fit_report());
  const double log_eps = live.model().kernel_log_params().tail(1)(0);
  EXPECT_GE(log_eps, std::log(1e-4) - 1e-12);
  EXPECT_LE(log_eps, std::log(0.5) + 1e-12);
  EXPECT_THAT(testing::ReadFile(path), ::testing::HasSubstr("\"round\":11"));
  // Resumed from a copy: both append their asks, and on one file each would see the other's.
  const std::string copy = TempLogPath("tv_resume_copy");
  {
    std::ofstream out(copy);
    out << testing::ReadFile(path);
  }
  const std::unique_ptr<Optimizer> resumed = Optimizer::Resume(copy);
  EXPECT_EQ(resumed->Fingerprint(), live.Fingerprint());
  const Eigen::VectorXd a = live.Ask();
  const Eigen::VectorXd b = resumed->Ask();
  EXPECT_EQ(a(0), b(0));
}

// With N = 4 the model forgets everything at rounds 4, 8, ...: there the posterior is exactly the
// prior (mean 0, standard deviation sqrt(k(x, x)) = 1); one round before, it is not.
TEST(OptimizerTimeTest, RGpUcbResetsExactlyAtTheGivenRounds) {
  Optimizer opt(Domain::Box(Eigen::VectorXd::Zero(1), Eigen::VectorXd::Constant(1, 2.0)),
                MakeSquaredExponential({0}, true, 1.0, 0.3), "r-gp-ucb",
                StrategyParams(R"({"reset_period":4})"), FixedModelOptions());
  std::vector<double> figures;
  opt.SetRoundCallback([&](const RoundReport& r) { figures.push_back(r.figure); });
  for (int round = 0; round < 13; ++round) {
    ASSERT_EQ(opt.rounds(), round);
    const std::vector<Observation> obs = opt.observations();
    for (double x : {0.3, 1.1, 1.8}) {
      const Prediction p = opt.Predict(Eigen::VectorXd::Constant(1, x));
      if (round % 4 == 0) {
        EXPECT_EQ(p.mean, 0.0) << "round " << round;
        EXPECT_EQ(p.stddev, 1.0) << "round " << round;
      }
    }
    if (round % 4 != 0) {
      // The last observation (this epoch's) is still seen at its own point.
      EXPECT_LT(opt.Predict(obs.back().x).stddev, 0.5) << "round " << round;
    }
    const Eigen::VectorXd x = opt.Ask();
    opt.Tell(x, Drifting(x(0)));
  }
  // beta_t restarts with the model (the first two rounds are the initial design: NaN).
  ASSERT_EQ(figures.size(), 13u);
  EXPECT_EQ(figures[4], figures[8]);
  EXPECT_EQ(figures[8], figures[12]);
  EXPECT_EQ(figures[5], figures[9]);
  EXPECT_LT(figures[4], figures[7]);
}

TEST(OptimizerTimeTest, OptionsAreCheckedAtConstruction) {
  const Domain box = Domain::Box(Eigen::VectorXd::Zero(1), Eigen::VectorXd::Constant(1, 2.0));
  ExpectInvalid(
      [&] { Optimizer(box, nullptr, "tv-gp-ucb", StrategyParams(R"({"epsilon":2})"), {}); },
      "epsilon = 2");
  ExpectInvalid(
      [&] { Optimizer(box, nullptr, "r-gp-ucb", StrategyParams(R"({"reset_period":-3})"), {}); },
      "reset_period = -3");
  // Explicit fit bounds must keep log(epsilon) below 0: kernel matern52 (2 log-params) x
  // forgetting (1).
  OptimizerOptions o;
  o.fit.lower_log_bounds = {-3, -3, -5};
  o.fit.upper_log_bounds = {3, 3, 1};
  ExpectInvalid(
      [&] { Optimizer(box, nullptr, "tv-gp-ucb", StrategyParams(R"({"fit_epsilon":true})"), o); },
      "upper_log_bounds[2] = 1");
}

}  // namespace
}  // namespace gpbandit
