// The Optimizer's reward model of long studies (OptimizerOptions::local_model, model/
// reward_model.h): the switch from the exact GP to the local one at the threshold, exact resume
// across it, thread-count independence, refits on a subset, and the header's fields.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <nlohmann/json.hpp>
#include <vector>

#include "gpbandit/hyperparams/fit.h"
#include "gpbandit/optimizer/optimizer.h"
#include "gpbandit/study/log_header.h"
#include "model/refit_policy.h"
#include "study/round_rng.h"
#include "tests/optimizer/plugin_test_util.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

constexpr int kThreshold = 30;

double LocalReward(const Eigen::VectorXd& x) {
  return std::sin(4.0 * x(0)) * std::cos(3.0 * x(1)) - 0.5 * (x(2) - 0.3) * (x(2) - 0.3);
}

Domain Box() { return Domain::Box(Eigen::VectorXd::Zero(3), Eigen::VectorXd::Ones(3)); }

OptimizerOptions LocalOptions(std::uint64_t seed) {
  OptimizerOptions o = testing::CheapOptions(seed);
  o.local_model.exact_until = kThreshold;
  o.local_model.size = 20;
  o.local_model.regions = 2;
  o.fit_max_observations = 25;
  return o;
}

void TellUniform(int n, std::uint64_t seed, Optimizer* opt) {
  Rng rng(seed);
  const Eigen::MatrixXd X = testing::UniformPoints(3, n, 0.0, 1.0, rng);
  Eigen::VectorXd y(n);
  for (int j = 0; j < n; ++j) y(j) = LocalReward(X.col(j));
  opt->TellMany(X, Eigen::MatrixXd(), y);
}

// Ask/tell rounds; returns the points asked.
std::vector<Eigen::VectorXd> LocalRounds(int n, Optimizer* opt) {
  std::vector<Eigen::VectorXd> asked;
  for (int r = 0; r < n; ++r) {
    const Eigen::VectorXd x = opt->Ask();
    asked.push_back(x);
    opt->Tell(x, LocalReward(x));
  }
  return asked;
}

TEST(LocalModelTest, TheLocalModelTakesOverPastTheThreshold) {
  Optimizer opt(Box(), nullptr, "gp-ucb", StrategyParams(), LocalOptions(testing::TestSeed(1)));
  TellUniform(kThreshold, 2, &opt);
  EXPECT_EQ(opt.model().num_observations(), kThreshold);  // still the exact GP
  EXPECT_EQ(opt.t(), kThreshold + 1);
  TellUniform(1, 3, &opt);
  EXPECT_EQ(opt.model().num_observations(), 20);  // the local GP's neighbours
  EXPECT_EQ(opt.t(), kThreshold + 2);
  const std::vector<Eigen::VectorXd> asked = LocalRounds(15, &opt);
  for (const Eigen::VectorXd& x : asked)
    EXPECT_TRUE((x.array() >= 0.0).all() && (x.array() <= 1.0).all()) << x.transpose();
  EXPECT_EQ(opt.t(), kThreshold + 17);
  EXPECT_EQ(opt.model().num_observations(), 20);
  // Best is an observation of the local model, with its posterior mean.
  const Recommendation best = opt.Best();
  EXPECT_TRUE(std::isfinite(best.posterior_mean));
  EXPECT_EQ(best.observed_reward, LocalReward(best.x));
}

TEST(LocalModelTest, ContextsAndFiniteSetsKeepTheExactGp) {
  Optimizer contextual(Box().WithContext(1, Eigen::VectorXd::Zero(1), Eigen::VectorXd::Ones(1)),
                       nullptr, "cgp-ucb", StrategyParams(), LocalOptions(4));
  Rng rng(5);
  const Eigen::MatrixXd X = testing::UniformPoints(3, kThreshold + 5, 0.0, 1.0, rng);
  const Eigen::MatrixXd Z = testing::UniformPoints(1, kThreshold + 5, 0.0, 1.0, rng);
  Eigen::VectorXd y(X.cols());
  for (Eigen::Index j = 0; j < X.cols(); ++j) y(j) = LocalReward(X.col(j)) + Z(0, j);
  contextual.TellMany(X, Z, y);
  EXPECT_EQ(contextual.model().num_observations(), kThreshold + 5);

  Optimizer finite(Domain::FiniteSet(X), nullptr, "gp-ucb", StrategyParams(), LocalOptions(6));
  finite.TellMany(X, Eigen::MatrixXd(), y);
  EXPECT_EQ(finite.model().num_observations(), kThreshold + 5);
}

// A run stopped before or after the switch and resumed from its log writes the log of the
// uninterrupted run, byte for byte (but for the leases' times and worker names).
void ExpectResumeAcrossTheSwitchIsExact(LocalAnchor anchor) {
  const std::uint64_t seed = testing::TestSeed(7);
  const std::string reference_path = testing::TempLogPath("local_reference");
  OptimizerOptions options = LocalOptions(seed);
  options.local_model.anchor = anchor;
  options.log_path = reference_path;
  std::string reference_fingerprint;
  {
    Optimizer reference(Box(), nullptr, "gp-ucb", StrategyParams(), options);
    LocalRounds(50, &reference);
    reference_fingerprint = reference.Fingerprint();
    EXPECT_EQ(reference.model().num_observations(), 20);
  }
  for (int stop_after : {10, 25, 40}) {
    const std::string path = testing::TempLogPath("local_resume_" + std::to_string(stop_after));
    options.log_path = path;
    {
      Optimizer first(Box(), nullptr, "gp-ucb", StrategyParams(), options);
      LocalRounds(stop_after, &first);
    }
    auto resumed = Optimizer::Resume(path);
    LocalRounds(50 - stop_after, resumed.get());
    GPBANDIT_SKIP_UNLESS_BIT_REPRODUCIBLE();
    EXPECT_EQ(resumed->Fingerprint(), reference_fingerprint) << "stop after " << stop_after;
    resumed.reset();
    EXPECT_EQ(testing::ReadLogWithoutLeases(path), testing::ReadLogWithoutLeases(reference_path))
        << "stop after " << stop_after;
  }
}

TEST(LocalModelTest, ResumeAcrossTheSwitchIsExact) {
  ExpectResumeAcrossTheSwitchIsExact(LocalAnchor::kHighestOutput);
}

TEST(LocalModelTest, ResumeAcrossTheSwitchIsExactWithTheMeanAnchor) {
  ExpectResumeAcrossTheSwitchIsExact(LocalAnchor::kHighestMean);
}

// Two workers of one study whose asks and tells interleave across the switch: each replays the
// other's tells under the study's lock with the models' work deferred until it lets go
// (ModelKeeper::CatchUp), and still holds the study's model, local GP included, bit for bit.
TEST(LocalModelTest, WorkersReplayingEachOthersTellsAcrossTheSwitchHoldTheStudysModel) {
  const std::string path = testing::TempLogPath("local_shared");
  OptimizerOptions options = LocalOptions(testing::TestSeed(9));
  options.log_path = path;
  Optimizer a(Box(), nullptr, "gp-ucb", StrategyParams(), options);
  Optimizer b(Box(), nullptr, "gp-ucb", StrategyParams(), options);
  for (int r = 0; r < 20; ++r) {
    const Eigen::VectorXd xa = a.Ask();
    const Eigen::VectorXd xb = b.Ask();
    a.Tell(xa, LocalReward(xa));
    b.Tell(xb, LocalReward(xb));
  }
  a.Sync();
  b.Sync();
  EXPECT_EQ(a.t(), 41);
  EXPECT_EQ(a.model().num_observations(), 20);  // the local GP's neighbours
  EXPECT_EQ(b.model().num_observations(), 20);
  GPBANDIT_SKIP_UNLESS_BIT_REPRODUCIBLE();
  const std::string study = Optimizer::Resume(path)->Fingerprint();
  EXPECT_EQ(a.Fingerprint(), study);
  EXPECT_EQ(b.Fingerprint(), study);
  std::remove(path.c_str());
  std::remove((path + ".lock").c_str());
}

TEST(LocalModelTest, SuggestionsDoNotDependOnTheThreadCount) {
  GPBANDIT_SKIP_UNLESS_BIT_REPRODUCIBLE();
  OptimizerOptions one = LocalOptions(testing::TestSeed(8)), two = one;
  one.num_threads = 1;
  two.num_threads = 2;
  Optimizer a(Box(), nullptr, "gp-ucb", StrategyParams(), one);
  Optimizer b(Box(), nullptr, "gp-ucb", StrategyParams(), two);
  const std::vector<Eigen::VectorXd> xa = LocalRounds(45, &a), xb = LocalRounds(45, &b);
  for (std::size_t r = 0; r < xa.size(); ++r) EXPECT_EQ(xa[r], xb[r]) << "round " << r;
  EXPECT_EQ(a.Fingerprint(), b.Fingerprint());
}

// A refit of the exact GP fits fit_max_observations observations spread evenly over the order
// told, with the fit options and generator of the round, and the whole model takes the result.
TEST(LocalModelTest, RefitsOfTheExactGpFitASampleSpreadOverTheStudy) {
  OptimizerOptions options = LocalOptions(testing::TestSeed(9));
  options.local_model.exact_until = 1000;  // the exact GP throughout
  options.initial_design_size = 0;
  Optimizer opt(Box(), nullptr, "gp-ucb", StrategyParams(), options);
  TellUniform(60, 10, &opt);
  const GaussianProcess before = opt.model();
  opt.Ask();  // round 0 refits
  ASSERT_TRUE(opt.has_fit_report());

  // Rows floor(i 60 / 25), i < 25.
  Eigen::MatrixXd X(3, 25);
  Eigen::VectorXd y(25);
  for (int i = 0; i < 25; ++i) {
    X.col(i) = before.inputs().col(i * 60 / 25);
    y(i) = before.outputs()(i * 60 / 25);
  }
  GaussianProcessOptions gp_options = before.options();
  gp_options.noise_variance = before.noise_variance();
  GaussianProcess data(before.kernel().Clone(), 3, gp_options);
  data.AddObservations(X, y);
  const RefitPolicy policy(options, TimeModel(), /*default_kernel=*/true, /*cautious=*/false,
                           before.kernel_log_params());
  Rng rng = RoundRng(options.seed, 0, kStreamFit);
  FitHyperparameters(policy.OptionsFor(data, 60), rng, &data);
  EXPECT_EQ(opt.model().kernel_log_params(), data.kernel_log_params());
  EXPECT_EQ(opt.model().noise_variance(), data.noise_variance());
  EXPECT_EQ(opt.model().num_observations(), 60);
}

TEST(LocalModelTest, TheHeaderLogsTheSettingsAndOlderHeadersMeanTheExactGp) {
  LogHeader header;
  header.domain = Box();
  header.strategy = "gp-ucb";
  header.options = LocalOptions(11);
  header.kernel_description = "k";
  header.kernel_log_params = Eigen::VectorXd::Zero(1);
  header.options.fit.max_seconds = 2.5;
  const LogHeader parsed = ParseLogHeader(FormatLogHeader(header));
  EXPECT_EQ(parsed.options.local_model.exact_until, kThreshold);
  EXPECT_EQ(parsed.options.local_model.size, 20);
  EXPECT_EQ(parsed.options.local_model.regions, 2);
  EXPECT_EQ(parsed.options.local_model.anchor, LocalAnchor::kHighestOutput);
  header.options.local_model.anchor = LocalAnchor::kHighestMean;
  EXPECT_EQ(ParseLogHeader(FormatLogHeader(header)).options.local_model.anchor,
            LocalAnchor::kHighestMean);
  EXPECT_EQ(parsed.options.local_model.trust_box_scale, 0.7);
  header.options.local_model.trust_box_scale = 0.375;
  EXPECT_EQ(ParseLogHeader(FormatLogHeader(header)).options.local_model.trust_box_scale, 0.375);
  EXPECT_EQ(parsed.options.fit_max_observations, 25);
  EXPECT_EQ(parsed.options.fit.max_seconds, 2.5);

  nlohmann::json older = nlohmann::json::parse(FormatLogHeader(header));
  older["options"].erase("local_model");
  older["options"].erase("fit_max_observations");
  older["options"]["fit"].erase("max_seconds");
  const LogHeader old = ParseLogHeader(older.dump());
  EXPECT_EQ(old.options.local_model.exact_until, std::numeric_limits<int>::max());
  // Written before the anchor was an option: the highest output's row.
  nlohmann::json without_anchor = nlohmann::json::parse(FormatLogHeader(header));
  without_anchor["options"]["local_model"].erase("anchor");
  EXPECT_EQ(ParseLogHeader(without_anchor.dump()).options.local_model.anchor,
            LocalAnchor::kHighestOutput);
  // Written before the trust box was scaled: the whole box.
  nlohmann::json without_scale = nlohmann::json::parse(FormatLogHeader(header));
  without_scale["options"]["local_model"].erase("trust_box_scale");
  EXPECT_EQ(ParseLogHeader(without_scale.dump()).options.local_model.trust_box_scale, 1.0);
  nlohmann::json unknown = nlohmann::json::parse(FormatLogHeader(header));
  unknown["options"]["local_model"]["anchor"] = "lowest";
  EXPECT_THROW(
      {
        try {
          ParseLogHeader(unknown.dump());
        } catch (const std::exception& e) {
          EXPECT_THAT(e.what(), ::testing::HasSubstr("local_model.anchor"));
          throw;
        }
      },
      std::exception);
  EXPECT_EQ(old.options.fit_max_observations, std::numeric_limits<int>::max());
  EXPECT_EQ(old.options.fit.max_seconds, std::numeric_limits<double>::infinity());
}

TEST(LocalModelTest, BadSettingsAreRefusedNamingTheField) {
  auto expect_refused = [](void (*set)(OptimizerOptions*), const std::string& field) {
    OptimizerOptions o;
    set(&o);
    std::string error;
    EXPECT_FALSE(o.IsValid(&error));
    EXPECT_THAT(error, ::testing::HasSubstr(field));
    testing::ExpectInvalid([&] { Optimizer opt(Box(), nullptr, "gp-ucb", StrategyParams(), o); },
                           field);
  };
  expect_refused([](OptimizerOptions* o) { o->local_model.exact_until = 0; },
                 "local_model.exact_until");
  expect_refused([](OptimizerOptions* o) { o->local_model.size = 0; }, "local_model.size");
  expect_refused([](OptimizerOptions* o) { o->local_model.regions = 0; }, "local_model.regions");
  expect_refused([](OptimizerOptions* o) { o->local_model.anchor = static_cast<LocalAnchor>(7); },
                 "local_model.anchor");
  expect_refused([](OptimizerOptions* o) { o->local_model.trust_box_scale = 0.0; },
                 "local_model.trust_box_scale");
  expect_refused([](OptimizerOptions* o) { o->local_model.trust_box_scale = 1.5; },
                 "local_model.trust_box_scale");
  expect_refused(
      [](OptimizerOptions* o) {
        o->local_model.trust_box_scale = std::numeric_limits<double>::quiet_NaN();
      },
      "local_model.trust_box_scale");
  expect_refused([](OptimizerOptions* o) { o->fit_max_observations = 0; }, "fit_max_observations");
  expect_refused([](OptimizerOptions* o) { o->fit.max_seconds = 0.0; }, "max_seconds");
}

}  // namespace
}  // namespace gpbandit
