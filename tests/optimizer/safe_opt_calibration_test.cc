// safe-opt's calibrated models through the Optimizer (model/signal_model.h): suggestions that
// do not depend on the units a signal is told in, the models' cautious refits and the prior
// knowledge a user gives them, refusals and warnings for seeds measured unsafe and thresholds in
// the wrong sense, and a recommendation that never leaves the safe set.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "gpbandit/optimizer/optimizer.h"
#include "gpbandit/study/log_header.h"
#include "tests/optimizer/plugin_test_util.h"

namespace gpbandit {
namespace {

// The problem: a safe disc of radius 0.6 about c = (0.1, -0.1) in [-1, 1]^2, g = 0.36 - |x - c|^2
// >= 0, and a reward peaked at (0.5, 0.3), near the disc's edge.
const Eigen::Vector2d kCentre(0.1, -0.1);
double CalibrationConstraint(const Eigen::VectorXd& x) {
  return 0.36 - (x - kCentre).squaredNorm();
}
double CalibrationReward(const Eigen::VectorXd& x) {
  return -(x - Eigen::Vector2d(0.5, 0.3)).squaredNorm();
}

Domain CalibrationBox() { return Domain::Box(Eigen::Vector2d(-1, -1), Eigen::Vector2d(1, 1)); }

// How the caller writes the signals: y = reward_scale * f + reward_shift, g' = scale * g + shift
// with threshold scale * 0 + shift.
struct Units {
  double scale = 1, shift = 0, reward_scale = 1, reward_shift = 0;
};

// The suggestions of `rounds` rounds in units u (the thresholds written exactly: shifts and
// scales of the tests are exact decimal numbers).
// raw: the models of log format <= 4 (every signal in the caller's units).
std::vector<Eigen::VectorXd> Suggestions(const Units& u, int rounds, bool raw = false) {
  std::ostringstream h;
  h.precision(17);
  h << "[" << u.shift << "]";
  StrategyParams params = StrategyParams()
                              .WithText("constraint_thresholds", h.str())
                              .WithText("seeds", "[[0.1, -0.1]]");
  OptimizerOptions options = testing::CheapOptions(3);
  if (raw) {
    params = params.WithText("calibrated", "false");
    options.gp.standardize_outputs = false;
  }
  Optimizer opt(CalibrationBox(), nullptr, "safe-opt", params, options);
  std::vector<Eigen::VectorXd> asked;
  for (int t = 0; t < rounds; ++t) {
    const Eigen::VectorXd x = opt.Ask();
    asked.push_back(x);
    opt.Tell(x, Eigen::VectorXd(), u.reward_scale * CalibrationReward(x) + u.reward_shift,
             Eigen::VectorXd::Constant(1, u.scale * CalibrationConstraint(x) + u.shift));
  }
  return asked;
}

constexpr int kCalibrationRounds = 25;

// The runs compared below explore: they leave the seed and reach the disc's edge region.
TEST(SafeOptCalibrationTest, TheComparedRunsExplore) {
  const std::vector<Eigen::VectorXd> base = Suggestions(Units(), kCalibrationRounds);
  double farthest = 0;
  for (const Eigen::VectorXd& x : base) farthest = std::max(farthest, (x - kCentre).norm());
  EXPECT_GT(farthest, 0.3);
  // The raw models, by contrast, do depend on the units.
  Units mm;
  mm.scale = 1000;
  const std::vector<Eigen::VectorXd> raw = Suggestions(Units(), kCalibrationRounds, true);
  const std::vector<Eigen::VectorXd> raw_mm = Suggestions(mm, kCalibrationRounds, true);
  double largest = 0;
  for (int t = 0; t < kCalibrationRounds; ++t)
    largest = std::max(largest, (raw[t] - raw_mm[t]).norm());
  EXPECT_GT(largest, 0.01);
}

// Scaling a signal and its threshold by a power of two changes every value the models see by
// exactly that power (or nothing, after the chain), so the suggestions are identical bit for bit
// over the whole run, refits included.
TEST(SafeOptCalibrationTest, PowersOfTwoLeaveEverySuggestionUnchangedBitForBit) {
  const std::vector<Eigen::VectorXd> base = Suggestions(Units(), kCalibrationRounds);
  for (int k : {-20, -7, 3, 10, 20}) {  // 2^-20 ~ 1e-6 ... 2^20 ~ 1e6
    Units u;
    u.scale = std::ldexp(1.0, k);
    u.reward_scale = std::ldexp(1.0, -k);
    const std::vector<Eigen::VectorXd> scaled = Suggestions(u, kCalibrationRounds);
    for (int t = 0; t < kCalibrationRounds; ++t)
      ASSERT_EQ(scaled[t], base[t]) << "2^" << k << ", round " << t;
  }
}

// Any other factor in 1e-6..1e6, and shifts, change the values by round-off only: the
// suggestions agree to round-off (a flipped discrete choice would differ by far more).
TEST(SafeOptCalibrationTest, AnyScaleOrShiftLeavesTheSuggestionsUnchangedToRoundOff) {
  const std::vector<Eigen::VectorXd> base = Suggestions(Units(), kCalibrationRounds);
  const Units variants[] = {{1e-6, 0, 1, 0},   {1e6, 0, 1, 0},   {3.7, 0, 1, 0},
                            {1000, -50, 1, 0}, {1.8, -32, 1, 0}, {1, 273.15, 1, 0},
                            {1, 0, 1e-6, 0},   {1, 0, 1e6, 5},   {0.02, 1, 7.3, -2}};
  for (const Units& u : variants) {
    const std::vector<Eigen::VectorXd> moved = Suggestions(u, kCalibrationRounds);
    for (int t = 0; t < kCalibrationRounds; ++t)
      ASSERT_LT((moved[t] - base[t]).norm(), 1e-9)
          << "scale " << u.scale << " shift " << u.shift << " reward scale " << u.reward_scale
          << ", round " << t;
  }
}

}  // namespace
}  // namespace gpbandit

namespace gpbandit {
namespace {

// A 1-D problem with the seed at 0.5 and the constraint g = 0.5 - |x - 0.4| >= 0.
StrategyParams OneSeed(const std::string& seeds = "[[0.5]]", const std::string& h = "[0]") {
  return StrategyParams().WithText("constraint_thresholds", h).WithText("seeds", seeds);
}
Domain Line() { return Domain::Box(Eigen::VectorXd::Zero(1), Eigen::VectorXd::Ones(1)); }
Eigen::VectorXd X(double x) { return Eigen::VectorXd::Constant(1, x); }
Eigen::VectorXd G(double g) { return Eigen::VectorXd::Constant(1, g); }

// A seed measured unsafe stops the run: the next ask refuses, naming the seed and the value,
// and changes nothing (not even its log).
TEST(SafeOptCalibrationTest, ASeedMeasuredUnsafeStopsTheRun) {
  OptimizerOptions options = testing::CheapOptions(1);
  options.log_path = testing::TempLogPath("safe_unsafe_seed");
  Optimizer opt(Line(), nullptr, "safe-opt", OneSeed(), options);
  ASSERT_EQ(opt.Ask(), X(0.5));
  opt.Tell(X(0.5), Eigen::VectorXd(), 1.0, G(-0.7));
  const std::string before = opt.Fingerprint(), log = testing::ReadFile(options.log_path);
  try {
    opt.Ask();
    ADD_FAILURE() << "asked past a seed measured unsafe";
  } catch (const std::runtime_error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("no safe seed left"), std::string::npos) << message;
    EXPECT_NE(message.find("seed 0 (0.5): constraint g_1 measured -0.7 < threshold 0"),
              std::string::npos)
        << message;
    // Its only measurement violates the threshold: the sense is questioned too.
    EXPECT_NE(message.find("right sense"), std::string::npos) << message;
  }
  EXPECT_EQ(opt.Fingerprint(), before);
  EXPECT_EQ(testing::ReadFile(options.log_path), log);
  std::remove(options.log_path.c_str());
}

// With another seed left, the one measured unsafe is dropped: the round report says so (once),
// it is never suggested again, and every later suggestion is the other seed or in the safe set.
TEST(SafeOptCalibrationTest, ASeedMeasuredUnsafeIsDroppedWhileOthersRemain) {
  Optimizer opt(Line(), nullptr, "safe-opt", OneSeed("[[0.5], [0.9]]"), testing::CheapOptions(2));
  ASSERT_EQ(opt.Ask(), X(0.5));
  opt.Tell(X(0.5), Eigen::VectorXd(), 1.0, G(0.4));
  ASSERT_EQ(opt.Ask(), X(0.9));
  opt.Tell(X(0.9), Eigen::VectorXd(), 0.5, G(-0.3));  // the second seed breaks the limit
  const Eigen::VectorXd next = opt.Ask();
  const std::vector<std::string> warnings = opt.last_round_report().warnings;
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("seed 1 (0.9): constraint g_1 measured -0.3 < threshold 0; dropped"),
            std::string::npos)
      << warnings[0];
  for (int t = 0; t < 10; ++t) {
    const Eigen::VectorXd x = t == 0 ? next : opt.Ask();
    if (t > 0) {
      EXPECT_TRUE(opt.last_round_report().warnings.empty());
    }
    EXPECT_NE(x, X(0.9));
    if (x != X(0.5)) {
      EXPECT_GE(opt.SafetyMargin(x), 0.0) << x(0);
    }
    opt.Tell(x, Eigen::VectorXd(), -std::abs(x(0) - 0.3), G(0.5 - std::abs(x(0) - 0.4)));
  }
}

// A threshold in the wrong sense (an upper limit told as a lower one): every measurement
// violates it, and the refusal says so.
TEST(SafeOptCalibrationTest, AThresholdInTheWrongSenseIsReported) {
  // "peak <= 0.05" told as g = peak with threshold 0.05.
  Optimizer opt(Line(), nullptr, "safe-opt", OneSeed("[[0.5]]", "[0.05]"),
                testing::CheapOptions(3));
  opt.Tell(opt.Ask(), Eigen::VectorXd(), 1.0, G(0.02));
  try {
    opt.Ask();
    ADD_FAILURE() << "went on with every measurement below the threshold";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("g = -q with threshold -L"), std::string::npos)
        << e.what();
  }
}

// Best never recommends a point outside the safe set: here the best reward ever told is at a
// point measured unsafe, and the mean's maximizer over the whole box is far from every
// observation; Best() and Best(context) recommend an evaluated point measured safe whose lower
// bounds clear the threshold, the same one.
TEST(SafeOptCalibrationTest, BestRecommendsInsideTheSafeSet) {
  Optimizer opt(Line(), nullptr, "safe-opt", OneSeed(), testing::CheapOptions(4));
  auto g = [](double x) { return 0.3 - std::abs(x - 0.4); };  // safe on [0.1, 0.7]
  auto f = [](double x) { return x; };                        // best at the unsafe end
  for (int t = 0; t < 12; ++t) {
    const Eigen::VectorXd x = opt.Ask();
    opt.Tell(x, Eigen::VectorXd(), f(x(0)), G(g(x(0))));
  }
  opt.Tell(X(0.95), Eigen::VectorXd(), 5.0, G(g(0.95)));  // told by hand: high reward, unsafe
  const Recommendation best = opt.Best();
  EXPECT_NE(best.x, X(0.95));
  EXPECT_GE(g(best.x(0)), 0.0) << best.x(0);
  EXPECT_TRUE(best.x == X(0.5) || opt.SafetyMargin(best.x) >= 0.0) << best.x(0);
  EXPECT_GT(best.x(0), 0.5);  // it did move towards the reward
  const Recommendation at = opt.Best(Eigen::VectorXd());
  EXPECT_EQ(at.x, best.x);
  EXPECT_EQ(at.posterior_mean, best.posterior_mean);
  // The recommendation from the safe set: inside it too, and at least as good by the model.
  Optimizer from_set(Line(), nullptr, "safe-opt", OneSeed().WithText("recommendation", "safe-set"),
                     testing::CheapOptions(4));
  for (const Observation& o : opt.observations()) from_set.Tell(o.x, o.z, o.y, o.constraints);
  const Recommendation in_set = from_set.Best(Eigen::VectorXd());
  EXPECT_GE(from_set.SafetyMargin(in_set.x), 0.0);
  EXPECT_GE(g(in_set.x(0)), 0.0);
  EXPECT_EQ(from_set.Best().x, in_set.x);
}

// Prior knowledge given per signal: a fixed model keeps it through refits, and the constraint's
// posterior is reported in the told units.
TEST(SafeOptCalibrationTest, GivenSignalModelsAreKept) {
  const StrategyParams params = OneSeed().WithText(
      "signal_models",
      R"([{}, {"kernel": "se", "lengthscales": [0.25], "stddev": 0.4, "noise_stddev": 0.01,
              "prior_mean": 0, "fit": false}])");
  Optimizer opt(Line(), nullptr, "safe-opt", params, testing::CheapOptions(5));
  for (int t = 0; t < 8; ++t) {
    const Eigen::VectorXd x = opt.Ask();
    opt.Tell(x, Eigen::VectorXd(), -x(0), G(0.5 - std::abs(x(0) - 0.4)));
  }
  // The unit is the first value's distance from the prior mean 0: 0.4 at the seed 0.5.
  const Eigen::VectorXd p = opt.constraint_model(0).kernel_log_params();
  EXPECT_NEAR(p(0), 2.0 * std::log(0.4 / 0.4), 1e-12);
  EXPECT_NEAR(p(1), std::log(0.25), 1e-12);
  EXPECT_NEAR(opt.constraint_model(0).noise_variance(),
              std::max(std::pow(0.01 / 0.4, 2), 0.02 * 0.02), 1e-15);
  const Prediction at_seed = opt.PredictConstraint(0, X(0.5));
  EXPECT_NEAR(at_seed.mean, 0.4, 0.05);  // told units
  EXPECT_LT(at_seed.stddev, 0.1);
  EXPECT_THROW(opt.PredictConstraint(1, X(0.5)), std::out_of_range);
  // A bad model is refused at construction, naming it.
  try {
    Optimizer bad(Line(), nullptr, "safe-opt",
                  OneSeed().WithText("signal_models", R"([{}, {"stddev": -1}])"),
                  testing::CheapOptions());
    ADD_FAILURE() << "accepted a negative stddev";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("signal_models[1].stddev = -1"), std::string::npos)
        << e.what();
  }
}

// A calibrated study resumes exactly: the fit records hold every signal model ("signals"), the
// reward's threshold model included, and the resumed optimizer continues as the original.
TEST(SafeOptCalibrationTest, ResumedCalibratedRunsContinueExactly) {
  OptimizerOptions options = testing::CheapOptions(6);
  options.log_path = testing::TempLogPath("safe_calibrated_resume");
  options.sense = ObjectiveSense::kMinimize;
  const StrategyParams params = OneSeed().With("threshold", 2.0);  // cost <= 2 too
  Optimizer opt(Line(), nullptr, "safe-opt", params, options);
  for (int t = 0; t < 10; ++t) {
    const Eigen::VectorXd x = opt.Ask();
    opt.Tell(x, Eigen::VectorXd(), 1.0 + x(0), G(0.5 - std::abs(x(0) - 0.4)));
  }
  const std::string log = testing::ReadFile(options.log_path);
  EXPECT_NE(log.find("\"signals\":[{"), std::string::npos);
  EXPECT_NE(log.find("\"version\":" + std::to_string(kLogFormatVersion)), std::string::npos);
  const std::string copy = testing::TempLogPath("safe_calibrated_resume_copy");
  std::ofstream(copy, std::ios::binary) << log;
  const std::unique_ptr<Optimizer> resumed = Optimizer::Resume(copy);
  EXPECT_EQ(resumed->Fingerprint(), opt.Fingerprint());
  EXPECT_EQ(resumed->Ask(), opt.Ask());
  EXPECT_EQ(resumed->Best().x, opt.Best().x);
  std::remove(options.log_path.c_str());
  std::remove(copy.c_str());
}

}  // namespace
}  // namespace gpbandit
