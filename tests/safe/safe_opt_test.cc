// SafeOpt on a finite set and a box: the safe set of a 1-D GP against its closed form, the
// choice among maximizers and expanders computed by hand, the safety property over many random
// GPs (with and without constraint signals), and the options' checks.
#include "gpbandit/safe/safe_opt.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "gpbandit/kernel/kernel_factory.h"
#include "gpbandit/safe/safe_set.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

constexpr double kLengthscale = 0.2;
constexpr double kNoise = 0.01;
constexpr double kBeta = 2.0;

GaussianProcessOptions FixedOptions() {
  GaussianProcessOptions o;
  o.noise_variance = kNoise;
  o.standardize_outputs = false;
  return o;
}

GaussianProcess Gp1d() {
  return GaussianProcess(MakeSquaredExponential({0}, false, 1.0, kLengthscale), 1, FixedOptions());
}

double Se(double a, double b) {
  const double r = (a - b) / kLengthscale;
  return std::exp(-0.5 * r * r);
}

Eigen::MatrixXd Grid(int n) {
  Eigen::MatrixXd X(1, n);
  for (int j = 0; j < n; ++j) X(0, j) = static_cast<double>(j) / (n - 1);
  return X;
}

// The posterior of a zero-mean SE GP after one noisy observation y0 at x0, by hand.
struct OnePointPosterior {
  double x0, y0;
  double Mean(double x) const { return Se(x, x0) * y0 / (1.0 + kNoise); }
  double Cov(double a, double b) const { return Se(a, b) - Se(a, x0) * Se(x0, b) / (1.0 + kNoise); }
  double Sd(double x) const { return std::sqrt(std::max(Cov(x, x), 0.0)); }
  double Lower(double x) const { return Mean(x) - kBeta * Sd(x); }
  double Upper(double x) const { return Mean(x) + kBeta * Sd(x); }
};

TEST(SafeSetTest, OneObservationSafeSetAndChoiceMatchTheClosedForm) {
  GaussianProcess gp = Gp1d();
  const double x0 = 0.5, y0 = 1.0, h = 0.2;
  gp.AddObservation(Eigen::VectorXd::Constant(1, x0), y0);
  const Eigen::MatrixXd X = Grid(41);
  const OnePointPosterior post{x0, y0};
  SafeSignal reward;
  reward.gp = &gp;
  reward.threshold = h;
  const std::vector<SafeSignal> signals = {reward};
  const SafeBounds bounds = ComputeSafeBounds(signals, X, kBeta);
  const std::vector<bool> safe = SafeMask(signals, bounds, {});
  std::vector<int> expected_safe;
  double best_lower = -1e300;
  for (int j = 0; j < X.cols(); ++j) {
    const bool by_hand = post.Lower(X(0, j)) >= h;
    EXPECT_EQ(safe[j], by_hand) << "x = " << X(0, j) << ", l = " << post.Lower(X(0, j));
    if (by_hand) {
      expected_safe.push_back(j);
      best_lower = std::max(best_lower, post.Lower(X(0, j)));
    }
  }
  // The seed's neighbourhood: x = 0.5 and a few grid steps each side, not the ends.
  ASSERT_GE(expected_safe.size(), 3u);
  ASSERT_LT(expected_safe.size(), 20u);
  // Maximizers and expanders by hand: the rank-one update with y = u(x).
  std::vector<std::pair<int, double>> eligible;  // G u M with their widths
  double widest = -1.0;
  for (int j : expected_safe) {
    const double x = X(0, j);
    const bool maximizer = post.Upper(x) >= best_lower;
    bool expander = false;
    const double denominator = post.Cov(x, x) + kNoise;
    for (int k = 0; k < X.cols(); ++k) {
      if (safe[k]) continue;
      const double c = post.Cov(x, X(0, k));
      const double mean = post.Mean(X(0, k)) + c * kBeta * post.Sd(x) / denominator;
      const double variance = post.Cov(X(0, k), X(0, k)) - c * c / denominator;
      expander = expander || mean - kBeta * std::sqrt(std::max(variance, 0.0)) >= h;
    }
    const double width = 2.0 * kBeta * post.Sd(x);
    if (maximizer || expander) {
      eligible.emplace_back(j, width);
      widest = std::max(widest, width);
    }
  }
  const SafeChoice choice = ChooseSafePoint(signals, X, {}, kBeta);
  EXPECT_EQ(choice.safe_set_size, static_cast<int>(expected_safe.size()));
  EXPECT_NEAR(choice.width, widest, 1e-9);
  bool among_widest = false;
  for (const auto& [j, width] : eligible)
    among_widest = among_widest || (j == choice.index && width >= widest - 1e-9);
  EXPECT_TRUE(among_widest) << "chose " << choice.index;
  // The safe set is symmetric about the seed: its widest points are its two edges (equal up to
  // roundoff in the grid's coordinates).
  EXPECT_TRUE(choice.index == expected_safe.front() || choice.index == expected_safe.back())
      << "chose " << choice.index;
}

// Two observations: the safe set after observing the first choice, against the 2 x 2 closed
// form; it grows on the side of the new observation and keeps the seed's neighbourhood.
TEST(SafeSetTest, SafeSetGrowsAsTheClosedFormAfterASecondObservation) {
  const double x0 = 0.5, h = 0.2;
  auto f = [](double x) { return 1.0 - 2.0 * (x - 0.45) * (x - 0.45); };
  GaussianProcess gp = Gp1d();
  gp.AddObservation(Eigen::VectorXd::Constant(1, x0), f(x0));
  const Eigen::MatrixXd X = Grid(41);
  SafeSignal reward;
  reward.gp = &gp;
  reward.threshold = h;
  const SafeChoice first = ChooseSafePoint({reward}, X, {}, kBeta);
  const double x1 = X(0, first.index);
  gp.AddObservation(Eigen::VectorXd::Constant(1, x1), f(x1));
  // The posterior with two observations, K = [[1 + n, k01], [k01, 1 + n]] inverted by hand.
  const double k01 = Se(x0, x1), a = 1.0 + kNoise, det = a * a - k01 * k01;
  const double y0 = f(x0), y1 = f(x1);
  const SafeBounds bounds = ComputeSafeBounds({reward}, X, kBeta);
  const std::vector<bool> safe = SafeMask({reward}, bounds, {});
  int before = 0, after = 0;
  const OnePointPosterior one{x0, y0};
  for (int j = 0; j < X.cols(); ++j) {
    const double x = X(0, j), ka = Se(x, x0), kb = Se(x, x1);
    const double mean = (ka * (a * y0 - k01 * y1) + kb * (a * y1 - k01 * y0)) / det;
    const double variance = 1.0 - (a * ka * ka - 2.0 * k01 * ka * kb + a * kb * kb) / det;
    const bool by_hand = mean - kBeta * std::sqrt(std::max(variance, 0.0)) >= h;
    EXPECT_EQ(safe[j], by_hand) << "x = " << x;
    before += one.Lower(x) >= h;
    after += by_hand;
  }
  EXPECT_GT(after, before);
  EXPECT_TRUE(safe[20]);  // the seed x = 0.5
}

SafeOptOptions Options1d() {
  SafeOptOptions o;
  o.threshold = 0.2;
  o.seeds = {{0.5}};
  return o;
}

TEST(SafeOptTest, RefusesMissingThresholdSeedsAndBadValues) {
  auto message = [](const SafeOptOptions& o) {
    try {
      SafeOpt strategy(o);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  SafeOptOptions o = Options1d();
  o.threshold = std::nan("");
  EXPECT_NE(message(o).find("threshold"), std::string::npos) << message(o);
  o.constraint_thresholds = {1.0};  // a constraint threshold alone suffices
  EXPECT_EQ(message(o), "accepted");
  o = Options1d();
  o.seeds.clear();
  EXPECT_NE(message(o).find("seeds"), std::string::npos) << message(o);
  o.seeds = {{0.1, 0.2}, {0.3}};
  EXPECT_NE(message(o).find("seeds[1]"), std::string::npos) << message(o);
  o = Options1d();
  o.beta = 0.0;
  EXPECT_NE(message(o).find("beta = 0"), std::string::npos) << message(o);
  o = Options1d();
  o.constraint_thresholds = {HUGE_VAL};
  EXPECT_NE(message(o).find("constraint_thresholds[0]"), std::string::npos) << message(o);
  // Through the factory: no parameters at all is refused, naming the threshold.
  try {
    SafeOpt::Create(StrategyParams());
    ADD_FAILURE() << "created without threshold and seeds";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("safe-opt options: threshold"), std::string::npos)
        << e.what();
  }
}

TEST(SafeOptTest, OptionsRoundTripThroughJsonAndCommandLineText) {
  const StrategyParams params = StrategyParams()
                                    .With("threshold", -1.5)
                                    .WithText("seeds", "[[0.1, 0.2], [0.3, 0.4]]")
                                    .WithText("constraint_thresholds", "[2]");
  const std::unique_ptr<Strategy> s = SafeOpt::Create(params);
  const auto& o = static_cast<const SafeOpt&>(*s).options();
  EXPECT_EQ(o.threshold, -1.5);
  ASSERT_EQ(o.seeds.size(), 2u);
  EXPECT_EQ(o.seeds[1][0], 0.3);
  EXPECT_EQ(s->num_constraints(), 1);
  EXPECT_EQ(s->safe_seeds().cols(), 2);
  const std::unique_ptr<Strategy> again = SafeOpt::Create(StrategyParams(s->OptionsJson()));
  EXPECT_EQ(again->OptionsJson(), s->OptionsJson());
  // No reward threshold is written as null and read back as none.
  SafeOptOptions no_reward;
  no_reward.constraint_thresholds = {0.0};
  no_reward.seeds = {{0.0}};
  const std::string json = SafeOpt(no_reward).OptionsJson();
  EXPECT_NE(json.find("\"threshold\":null"), std::string::npos) << json;
  EXPECT_TRUE(std::isnan(
      static_cast<const SafeOpt&>(*SafeOpt::Create(StrategyParams(json))).options().threshold));
}

// The seeds come first, in order, while the model has not seen them.
TEST(SafeOptTest, SuggestsUnevaluatedSeedsFirst) {
  SafeOptOptions o = Options1d();
  o.seeds = {{0.5}, {0.25}};
  const SafeOpt strategy(o);
  GaussianProcess gp = Gp1d();
  SafeRound round;
  round.reward = round.reward_for_widths = &gp;
  round.candidates = Grid(5);
  round.seeds = Eigen::MatrixXd(1, 2);
  round.seeds << 0.5, 0.25;
  Rng rng(1);
  EXPECT_EQ(strategy.ChooseSafe(round, rng)(0), 0.5);
  gp.AddObservation(Eigen::VectorXd::Constant(1, 0.5), 1.0);
  EXPECT_EQ(strategy.ChooseSafe(round, rng)(0), 0.25);
}

// A random smooth function: a sum of a few random bumps.
struct RandomFunction {
  Eigen::MatrixXd centers;
  Eigen::VectorXd weights;
  double operator()(const Eigen::VectorXd& x) const {
    double v = 0.0;
    for (Eigen::Index j = 0; j < centers.cols(); ++j)
      v += weights(j) * std::exp(-8.0 * (x - centers.col(j)).squaredNorm());
    return v;
  }
};

RandomFunction DrawFunction(int dim, Rng& rng) {
  RandomFunction f;
  f.centers = testing::UniformPoints(dim, 4, 0.0, 1.0, rng);
  f.weights = testing::UniformPoints(4, 1, -1.0, 1.5, rng).col(0);
  return f;
}

// lower bound >= threshold under `gp` at x, computed from the GP's prediction.
bool LowerBoundHolds(const GaussianProcess& gp, const Eigen::VectorXd& x, double beta, double h) {
  double mean = 0, variance = 0;
  gp.MeanAndVariance(x, &mean, &variance);
  return mean - beta * std::sqrt(std::max(variance, 0.0)) >= h;
}

// The property of the safety contract: over many random GPs (kernels, lengthscales, noise,
// functions, thresholds, seeds; finite sets and boxes; with and without a constraint signal),
// every suggestion is a seed or clears every lower bound.
TEST(SafeOptTest, NeverSuggestsAPointWhoseLowerBoundIsBelowTheThreshold) {
  Rng rng(testing::TestSeed(20150706));
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  int checked = 0, beyond_seeds = 0;
  for (int trial = 0; trial < 60; ++trial) {
    const int dim = 1 + trial % 3;
    const bool box = trial % 2 == 1;
    const bool constrained = trial % 4 >= 2;
    std::vector<int> dims;
    for (int d = 0; d < dim; ++d) dims.push_back(d);
    GaussianProcessOptions options;
    options.noise_variance = std::pow(10.0, -4.0 + 3.0 * u01(rng));
    const double lengthscale = 0.1 + 0.4 * u01(rng);
    auto kernel = trial % 3 == 0 ? MakeSquaredExponential(dims, false, 1.0, lengthscale)
                                 : MakeMatern52(dims, false, 1.0, lengthscale);
    GaussianProcess reward(kernel->Clone(), dim, options);
    GaussianProcess constraint(kernel->Clone(), dim, options);
    const RandomFunction f = DrawFunction(dim, rng), g = DrawFunction(dim, rng);
    const Eigen::VectorXd seed = Eigen::VectorXd::Constant(dim, 0.5);
    SafeOptOptions o;
    o.threshold = f(seed) - 0.3 * u01(rng);
    o.beta = 1.0 + 2.0 * u01(rng);
    o.seeds = {std::vector<double>(static_cast<std::size_t>(dim), 0.5)};
    o.box_samples = 64;
    o.local_samples = 4;
    if (constrained) o.constraint_thresholds = {g(seed) - 0.3 * u01(rng)};
    const SafeOpt strategy(o);
    SafeRound round;
    round.reward = round.reward_for_widths = &reward;
    if (constrained) round.constraints = {&constraint};
    round.action_dim = dim;
    round.seeds = seed;
    round.lower = Eigen::VectorXd::Zero(dim);
    round.upper = Eigen::VectorXd::Ones(dim);
    if (!box) {
      round.candidates = testing::UniformPoints(dim, 60, 0.0, 1.0, rng);
      round.candidates.col(0) = seed;
    }
    for (int t = 0; t < 12; ++t) {
      const Eigen::VectorXd x = strategy.ChooseSafe(round, rng);
      ASSERT_EQ(x.size(), dim);
      const bool is_seed = x == seed;
      if (t > 0 && !is_seed) {
        ++beyond_seeds;
        EXPECT_TRUE(LowerBoundHolds(reward, x, o.beta, o.threshold))
            << "trial " << trial << " round " << t << " x = " << x.transpose();
        if (constrained) {
          EXPECT_TRUE(LowerBoundHolds(constraint, x, o.beta, o.constraint_thresholds[0]))
              << "trial " << trial << " round " << t;
        }
      }
      ++checked;
      reward.AddObservation(x, f(x));
      constraint.AddObservation(x, g(x));
    }
  }
  EXPECT_EQ(checked, 60 * 12);
  // Not a vacuous pass: many suggestions are points other than the seed (320 of 660 with the
  // default seed; some draws leave the seed's lower bound itself below the threshold).
  EXPECT_GT(beyond_seeds, 60 * 11 / 3);
}

// On a box the safe set grows from the seed under Sui et al.'s rule (expanders): after 20 rounds
// on a 1-D bump whose safe region is [0.2, 0.8] (f >= 0 there), the suggestions have reached
// near both ends.
TEST(SafeOptTest, ExploresTheSafeRegionOfABox) {
  auto f = [](double x) { return 0.09 - (x - 0.5) * (x - 0.5); };  // safe where |x - .5| <= .3
  GaussianProcessOptions options;
  options.noise_variance = 1e-6;
  options.standardize_outputs = false;
  GaussianProcess gp(MakeSquaredExponential({0}, false, 0.01, 0.3), 1, options);
  SafeOptOptions o;
  o.threshold = 0.0;
  o.seeds = {{0.5}};
  o.rule = SafeRule::kSafeOpt;
  o.beta = 2.0;
  const SafeOpt strategy(o);
  SafeRound round;
  round.reward = round.reward_for_widths = &gp;
  round.seeds = Eigen::MatrixXd::Constant(1, 1, 0.5);
  round.lower = Eigen::VectorXd::Zero(1);
  round.upper = Eigen::VectorXd::Ones(1);
  Rng rng(testing::TestSeed(7));
  double lo = 0.5, hi = 0.5;
  for (int t = 0; t < 20; ++t) {
    const Eigen::VectorXd x = strategy.ChooseSafe(round, rng);
    EXPECT_GE(f(x(0)), -1e-3) << "round " << t << " x = " << x(0);
    lo = std::min(lo, x(0));
    hi = std::max(hi, x(0));
    gp.AddObservation(x, f(x(0)));
  }
  EXPECT_LT(lo, 0.3);
  EXPECT_GT(hi, 0.7);
}

// The goal-directed rule: among the safe points, the highest mu + beta sigma of the objective
// (sigma of its widths model), computed by hand from the one-point posterior; a capped mean
// lowers the lower bound there and nowhere else.
TEST(SafeSetTest, OptimisticChoiceAndTheCapOnTheMean) {
  GaussianProcess gp = Gp1d();
  gp.AddObservation(Eigen::VectorXd::Constant(1, 0.5), 1.0);
  const Eigen::MatrixXd X = Grid(41);
  const OnePointPosterior post{0.5, 1.0};
  SafeSignal reward;
  reward.gp = &gp;
  reward.threshold = 0.2;
  std::vector<SafeSignal> signals = {reward};
  const SafeBounds bounds = ComputeSafeBounds(signals, X, kBeta);
  const Eigen::VectorXd optimistic = OptimisticObjective(signals, X, bounds, kBeta);
  const SafeChoice choice = ChooseOptimistic(signals, bounds, optimistic, {});
  int expected = -1;
  for (int j = 0; j < X.cols(); ++j) {
    EXPECT_NEAR(optimistic(j), post.Upper(X(0, j)), 1e-9);
    if (post.Lower(X(0, j)) >= 0.2 &&
        (expected < 0 || post.Upper(X(0, j)) > post.Upper(X(0, expected)) + 1e-12))
      expected = j;
  }
  ASSERT_GE(expected, 0);
  // Symmetric about 0.5: two optima equal up to round-off; the choice is one of them.
  ASSERT_GE(choice.index, 0);
  EXPECT_NEAR(post.Upper(X(0, choice.index)), post.Upper(X(0, expected)), 1e-12);
  EXPECT_GE(post.Lower(X(0, choice.index)), 0.2);
  EXPECT_TRUE(choice.maximizer);
  // The cap: l = min(mu, 0.5) - beta sigma.
  signals[0].max_mean = 0.5;
  const SafeBounds capped = ComputeSafeBounds(signals, X, kBeta);
  for (int j = 0; j < X.cols(); ++j)
    EXPECT_NEAR(capped.lower(0, j), std::min(post.Mean(X(0, j)), 0.5) - kBeta * post.Sd(X(0, j)),
                1e-9);
  EXPECT_EQ(capped.upper, bounds.upper);
  signals[0].max_mean = std::nan("");
  EXPECT_THROW(ComputeSafeBounds(signals, X, kBeta), std::invalid_argument);
}

// beta_t of Sui et al. with delta on a finite set, the constant beta otherwise; delta is refused
// on a box.
TEST(SafeOptTest, BetaFromDeltaOnFiniteSets) {
  SafeOptOptions o;
  o.threshold = 0.0;
  o.seeds = {{0.5}};
  EXPECT_EQ(SafeOpt(o).safety_beta(10, 400), 3.0);
  o.delta = 0.05;
  const SafeOpt with_delta(o);
  EXPECT_NEAR(with_delta.safety_beta(10, 400),
              std::sqrt(2.0 * std::log(400.0 * 100.0 * M_PI * M_PI / (6.0 * 0.05))), 1e-12);
  EXPECT_EQ(with_delta.safety_beta(10, 0), 3.0);  // a box: no |D|
  SearchSpace box;
  EXPECT_THROW(with_delta.CheckSupports(*MakeSquaredExponential({0}), box), std::invalid_argument);
  box.finite_set = true;
  EXPECT_NO_THROW(with_delta.CheckSupports(*MakeSquaredExponential({0}), box));
  o.delta = 1.5;
  EXPECT_THROW(SafeOpt{o}, std::invalid_argument);
}

// The options of format 5 read and write, and bad ones are refused naming the key.
TEST(SafeOptTest, ModelOptionsReadWriteAndRefuse) {
  const StrategyParams params(
      R"({"threshold": 1, "seeds": [[0.5]], "constraint_thresholds": [0], "rule": "safeopt",
          "recommendation": "safe-set", "calibrated": true, "delta": null,
          "signal_models": [{}, {"kernel": "matern32", "lengthscales": [0.2], "stddev": 2,
                                 "noise_stddev": 0.1, "noise_floor": 0.05, "prior_mean": null,
                                 "fit": true, "cautious": false,
                                 "context_lengthscale_cap": 0.5,
                                 "stddev_covers_measured": false}]})");
  const auto strategy = SafeOpt::Create(params);
  const auto* safe = dynamic_cast<const SafeOpt*>(strategy.get());
  ASSERT_NE(safe, nullptr);
  EXPECT_EQ(safe->options().rule, SafeRule::kSafeOpt);
  EXPECT_TRUE(safe->recommend_from_safe_set());
  const std::vector<SafetySignal> signals = safe->safety_signals();
  ASSERT_EQ(signals.size(), 2u);
  EXPECT_EQ(signals[0].threshold, 1.0);
  EXPECT_EQ(signals[1].model.kernel, "matern32");
  EXPECT_FALSE(signals[1].model.cautious);
  EXPECT_EQ(signals[1].model.context_lengthscale_cap, 0.5);
  EXPECT_EQ(signals[0].model.context_lengthscale_cap, 1.0);  // the default
  EXPECT_FALSE(signals[1].model.stddev_covers_measured);
  EXPECT_TRUE(signals[0].model.stddev_covers_measured);  // the default
  // Written and read back, the same options.
  EXPECT_EQ(SafeOpt::Create(StrategyParams(safe->OptionsJson()))->OptionsJson(),
            safe->OptionsJson());
  auto refused = [](const std::string& json) {
    try {
      SafeOpt::Create(StrategyParams(json));
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(refused(R"({"threshold": 0, "seeds": [[0]], "signal_models": [{}, {}]})")
                .find("signal_models size = 2"),
            std::string::npos);
  EXPECT_NE(refused(R"({"threshold": 0, "seeds": [[0]], "signal_models": [{"kernel": "rbf"}]})")
                .find("signal_models[0].kernel = \"rbf\""),
            std::string::npos);
  EXPECT_NE(refused(R"({"threshold": 0, "seeds": [[0]], "rule": "widest"})").find("rule"),
            std::string::npos);
  EXPECT_NE(refused(R"({"threshold": 0, "seeds": [[0]], "signal_models": [{"colour": 1}]})")
                .find("unknown key 'colour'"),
            std::string::npos);
  EXPECT_NE(refused(R"({"threshold": 0, "seeds": [[0]],
                        "signal_models": [{"context_lengthscale_cap": -0.5}]})")
                .find("signal_models[0].context_lengthscale_cap = -0.5"),
            std::string::npos);
  EXPECT_EQ(refused(R"({"threshold": 0, "seeds": [[0]],
                        "signal_models": [{"context_lengthscale_cap": 0}]})"),
            "accepted");
  EXPECT_NE(refused(R"({"threshold": 0, "seeds": [[0]],
                        "signal_models": [{"stddev_covers_measured": 1.5}]})")
                .find("stddev_covers_measured"),
            std::string::npos);
}

}  // namespace
}  // namespace gpbandit
