// The Optimizer with a time model (acquisition/time_model.h): TV-GP-UCB's forgetting kernel and
// R-GP-UCB's epochs (fixed, or started by the residual test) on the round coordinate it appends,
// checked against the GP formulas written out here; every observation's round, logged and
// replayed, and the restarts found again on replay.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <cmath>
#include <fstream>
#include <functional>
#include <memory>
#include <vector>

#include "gpbandit/kernel/kernel_factory.h"
#include "gpbandit/optimizer/optimizer.h"
#include "gpbandit/study/log_header.h"
#include "tests/optimizer/plugin_test_util.h"
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

Domain ZeroToTwo() {
  return Domain::Box(Eigen::VectorXd::Zero(1), Eigen::VectorXd::Constant(1, 2.0));
}

// An optimizer logging to a fresh file (CheapOptions(seed)) that has been told `rounds` rounds
// of reward(x, i).
using TimedReward = std::function<double(const Eigen::VectorXd&, int)>;
std::unique_ptr<Optimizer> RunLogged(const std::string& strategy, const std::string& options,
                                     int seed, const std::string& log_name, int rounds,
                                     const TimedReward& reward) {
  OptimizerOptions o = CheapOptions(seed);
  o.log_path = TempLogPath(log_name);
  auto opt =
      std::make_unique<Optimizer>(ZeroToTwo(), nullptr, strategy, StrategyParams(options), o);
  for (int i = 0; i < rounds; ++i) {
    const Eigen::VectorXd x = opt->Ask();
    opt->Tell(x, reward(x, i));
  }
  return opt;
}

// Resumes a copy of a log's text (both append their asks, and on one file each would see the
// other's), checks it holds what `live` holds, then that both ask the same points in rounds
// first..last - 1 told reward(x, i).
void ExpectResumedCopyContinues(Optimizer& live, const std::string& log_text,
                                const std::string& copy_name, int first, int last,
                                const TimedReward& reward) {
  const std::string copy = TempLogPath(copy_name);
  {
    std::ofstream out(copy);
    out << log_text;
  }
  const std::unique_ptr<Optimizer> resumed = Optimizer::Resume(copy);
  EXPECT_EQ(resumed->Fingerprint(), live.Fingerprint());
  for (int i = first; i < last; ++i) {
    const Eigen::VectorXd a = live.Ask();
    const Eigen::VectorXd b = resumed->Ask();
    ASSERT_EQ(a(0), b(0)) << "ask " << i;
    live.Tell(a, reward(a, i));
    resumed->Tell(b, reward(b, i));
    EXPECT_EQ(resumed->Predict(a).mean, live.Predict(a).mean);
  }
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
  const TimedReward reward = [](const Eigen::VectorXd& x, int i) {
    return Drifting(x(0)) + 0.05 * i;
  };
  const std::unique_ptr<Optimizer> live =
      RunLogged("tv-gp-ucb", R"({"epsilon":0.05,"fit_epsilon":true})", 11, "tv_resume", 12, reward);
  ASSERT_TRUE(live->has_fit_report());
  const double log_eps = live->model().kernel_log_params().tail(1)(0);
  EXPECT_GE(log_eps, std::log(1e-4) - 1e-12);
  EXPECT_LE(log_eps, std::log(0.5) + 1e-12);
  const std::string log = testing::ReadFile(live->options().log_path);
  EXPECT_THAT(log, ::testing::HasSubstr("\"round\":11"));
  ExpectResumedCopyContinues(*live, log, "tv_resume_copy", 12, 13, reward);
}

// With N = 4 the model forgets everything at rounds 4, 8, ...: there the posterior is exactly the
// prior (mean 0, standard deviation sqrt(k(x, x)) = 1); one round before, it is not.
TEST(OptimizerTimeTest, RGpUcbResetsExactlyAtTheGivenRounds) {
  Optimizer opt(Domain::Box(Eigen::VectorXd::Zero(1), Eigen::VectorXd::Constant(1, 2.0)),
                MakeSquaredExponential({0}, true, 1.0, 0.3), "r-gp-ucb",
                StrategyParams(R"({"restart":"epochs","reset_period":4})"), FixedModelOptions());
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

// The residual rule with a window of one observation and threshold 4: each value is told at
// mu +- f 2 sqrt(sigma^2 + noise) from the model's prediction at its point (noise 0.01, the
// outputs not standardized, no refits), so z^2 = 4 f^2. f = 0.99 keeps the model; f = 1.01
// starts a new epoch at the next round, where the posterior is exactly the prior (mean 0,
// standard deviation 1) and beta_t starts again from t = 1.
TEST(OptimizerTimeTest, RGpUcbRestartsWhereTheResidualOfATellExceedsTheThreshold) {
  const double noise = 0.01;
  Optimizer opt(Domain::Box(Eigen::VectorXd::Zero(1), Eigen::VectorXd::Constant(1, 2.0)),
                MakeSquaredExponential({0}, true, 1.0, 0.3), "r-gp-ucb",
                StrategyParams(R"({"restart_window":1,"restart_threshold":4})"),
                FixedModelOptions());
  std::vector<double> figures;
  opt.SetRoundCallback([&](const RoundReport& r) { figures.push_back(r.figure); });
  const std::vector<double> factor = {0.99, -0.99, 0.99, -1.01, 0.99, 1.01, -0.99};
  for (std::size_t round = 0; round < factor.size(); ++round) {
    const Eigen::VectorXd x = opt.Ask();
    // Before the tell the next round shares the point's epoch: this is the model it meets.
    const Prediction p = opt.Predict(x);
    const double spread = std::sqrt(p.stddev * p.stddev + noise);
    opt.Tell(x, p.mean + factor[round] * 2.0 * spread);
    const bool restarted = std::abs(factor[round]) > 1.0;
    for (double at : {0.3, 1.1, 1.8}) {
      const Prediction after = opt.Predict(Eigen::VectorXd::Constant(1, at));
      if (restarted) {
        EXPECT_EQ(after.mean, 0.0) << "round " << round;
        EXPECT_EQ(after.stddev, 1.0) << "round " << round;
      }
    }
    if (!restarted) {
      EXPECT_LT(opt.Predict(x).stddev, 0.5) << "round " << round;
    }
  }
  // Rounds 0 and 1 are the design; t = 3 at round 2, t = 1 at rounds 4 and 6 (new epochs).
  ASSERT_EQ(figures.size(), factor.size());
  EXPECT_EQ(figures[4], figures[6]);
  EXPECT_LT(figures[4], figures[5]);
  EXPECT_LT(figures[4], figures[2]);
}

// A jump in the objective restarts the default rule (fitted, standardized model); a resumed
// optimizer replays the same tells into the same models, finds the same restarts and asks the
// same points.
TEST(OptimizerTimeTest, ResumeFindsTheSameRestarts) {
  GPBANDIT_SKIP_UNLESS_BIT_REPRODUCIBLE();
  const TimedReward jump = [](const Eigen::VectorXd& x, int i) {
    return (i < 25 ? Drifting(x(0)) : -2.0 * Drifting(x(0)) + 3.0) + 0.01 * std::sin(7.0 * i);
  };
  const std::unique_ptr<Optimizer> live = RunLogged("r-gp-ucb", "{}", 5, "r_resume", 0, jump);
  std::vector<double> figures;
  live->SetRoundCallback([&](const RoundReport& r) { figures.push_back(r.figure); });
  for (int i = 0; i < 40; ++i) {
    const Eigen::VectorXd x = live->Ask();
    live->Tell(x, jump(x, i));
  }
  // beta_t fell back (to t = 1) after the jump: a restart.
  bool restarted = false;
  for (std::size_t r = 26; r < figures.size(); ++r) restarted |= figures[r] < figures[r - 1];
  EXPECT_TRUE(restarted);
  ExpectResumedCopyContinues(*live, testing::ReadFile(live->options().log_path), "r_resume_copy",
                             40, 44, jump);
}

// A log of format version 6 ran r-gp-ucb with the paper's fixed epochs, the only rule then: its
// header (without "restart") resumes with them, and continues as the optimizer that wrote it.
TEST(OptimizerTimeTest, AVersion6LogResumesWithFixedEpochs) {
  GPBANDIT_SKIP_UNLESS_BIT_REPRODUCIBLE();
  const TimedReward reward = [](const Eigen::VectorXd& x, int i) {
    return Drifting(x(0)) + 0.1 * i;
  };
  const std::unique_ptr<Optimizer> live =
      RunLogged("r-gp-ucb", R"({"restart":"epochs","reset_period":5})", 7, "r_v6", 13, reward);
  // The header as the code of version 6 wrote it.
  std::string log = testing::ReadFile(live->options().log_path);
  const std::string current = "\"version\":" + std::to_string(kLogFormatVersion);
  const std::string rule = "\"restart\":\"epochs\",";
  ASSERT_NE(log.find(current), std::string::npos);
  ASSERT_NE(log.find(rule), std::string::npos);
  log.replace(log.find(current), current.size(), "\"version\":6");
  log.erase(log.find(rule), rule.size());
  ExpectResumedCopyContinues(*live, log, "r_v6_copy", 13, 16, reward);
}

TEST(OptimizerTimeTest, OptionsAreCheckedAtConstruction) {
  const Domain box = Domain::Box(Eigen::VectorXd::Zero(1), Eigen::VectorXd::Constant(1, 2.0));
  ExpectInvalid(
      [&] { Optimizer(box, nullptr, "tv-gp-ucb", StrategyParams(R"({"epsilon":2})"), {}); },
      "epsilon = 2");
  ExpectInvalid(
      [&] { Optimizer(box, nullptr, "r-gp-ucb", StrategyParams(R"({"reset_period":-3})"), {}); },
      "reset_period = -3");
  ExpectInvalid(
      [&] {
        Optimizer(box, nullptr, "r-gp-ucb", StrategyParams(R"({"restart_threshold":0})"), {});
      },
      "restart_threshold = 0");
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
