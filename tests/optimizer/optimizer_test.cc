#include "gpbandit/optimizer/optimizer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <thread>

#include "examples/problems/synthetic_functions.h"
#include "gpbandit/acquisition/gp_ucb.h"
#include "gpbandit/kernel/kernel_factory.h"
#include "gpbandit/study/observation_log.h"
#include "tests/optimizer/plugin_test_util.h"
#include "tests/test_domains.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

using testing::CheapOptions;
using testing::ExpectInvalid;
using ::testing::HasSubstr;
using testing::TempLogPath;

using testing::kInf;
using testing::kNaN;

using testing::UnitSquare;

double Bump(const Eigen::VectorXd& x) {
  return -(x - Eigen::VectorXd::Constant(x.size(), 0.3)).squaredNorm();
}

void ExpectInBox(const Domain& d, const Eigen::VectorXd& x) {
  ASSERT_EQ(x.size(), d.action_dim());
  for (int i = 0; i < x.size(); ++i) {
    EXPECT_TRUE(std::isfinite(x(i)));
    EXPECT_GE(x(i), d.lower()(i));
    EXPECT_LE(x(i), d.upper()(i));
  }
}

TEST(OptimizerTest, ImprovesOnBranin) {
  const auto f = problems::MakeBranin();
  OptimizerOptions o = CheapOptions(3);
  o.initial_design_size = 5;
  Optimizer opt(Domain::Box(f.lower, f.upper), nullptr, "gp-ucb", StrategyParams(), o);
  double best_design = -kInf;
  for (int i = 0; i < 30; ++i) {
    const Eigen::VectorXd x = opt.Ask();
    ExpectInBox(opt.domain(), x);
    const double y = f.reward(x);
    if (i < 5) best_design = std::max(best_design, y);
    opt.Tell(x, y);
  }
  EXPECT_EQ(opt.t(), 31);
  EXPECT_EQ(opt.rounds(), 30);
  const Recommendation r = opt.Best();
  // The design's best on Branin is typically around -5..-20; 25 model rounds get within 1.
  EXPECT_GT(r.observed_reward, best_design);
  EXPECT_GT(r.observed_reward, f.max_reward - 1.0);
  EXPECT_TRUE(std::isfinite(opt.figure()));
  EXPECT_EQ(opt.figure_name(), "beta_t");
  EXPECT_TRUE(opt.has_fit_report());
  EXPECT_GT(opt.information_gain(), 0.0);
}

TEST(OptimizerTest, InitialDesignIsSpaceFillingAndCountsWarmStart) {
  OptimizerOptions o = CheapOptions();
  o.initial_design_size = 4;
  Optimizer opt(UnitSquare(), nullptr, "gp-ucb", StrategyParams(), o);
  // Two observations already made: only two design points remain.
  Eigen::MatrixXd X(2, 2);
  X << 0.1, 0.9, 0.1, 0.9;
  opt.TellMany(X, Eigen::MatrixXd(), Eigen::Vector2d(Bump(X.col(0)), Bump(X.col(1))));
  const Eigen::MatrixXd batch = opt.AskBatch(2);
  // A Latin hypercube of 4 puts its points in distinct quarters of each axis.
  EXPECT_NE(std::floor(batch(0, 0) * 4), std::floor(batch(0, 1) * 4));
  EXPECT_NE(std::floor(batch(1, 0) * 4), std::floor(batch(1, 1) * 4));
  const auto before = opt.last_fit_report();
  EXPECT_FALSE(opt.has_fit_report());  // design rounds do not fit
  opt.Tell(batch.col(0), Bump(batch.col(0)));
  opt.Tell(batch.col(1), Bump(batch.col(1)));
  opt.Ask();  // model-driven: fits
  EXPECT_TRUE(opt.has_fit_report());
}

TEST(OptimizerTest, BatchPointsAreDistinctAndPendingShrinksVariance) {
  OptimizerOptions o = CheapOptions(5);
  o.initial_design_size = 3;
  o.refit.enabled = false;
  for (const std::string strategy : {"gp-ucb", "mean", "variance", "ei"}) {
    Optimizer opt(UnitSquare(), nullptr, strategy, StrategyParams(), o);
    for (int i = 0; i < 3; ++i) {
      const Eigen::VectorXd x = opt.Ask();
      opt.Tell(x, Bump(x));
    }
    const Eigen::MatrixXd batch = opt.AskBatch(4);
    ASSERT_EQ(batch.cols(), 4);
    for (int i = 0; i < 4; ++i) {
      ExpectInBox(opt.domain(), batch.col(i));
      for (int j = 0; j < i; ++j)
        EXPECT_GT((batch.col(i) - batch.col(j)).norm(), 0.0) << strategy << " " << i << " " << j;
    }
    EXPECT_EQ(opt.pending_actions().cols(), 4);
  }
  // Variance-only with a pending point must not suggest that point again (GP-BUCB).
  Optimizer opt(UnitSquare(), nullptr, "variance", StrategyParams(), o);
  for (int i = 0; i < 3; ++i) {
    const Eigen::VectorXd x = opt.Ask();
    opt.Tell(x, Bump(x));
  }
  const Eigen::VectorXd first = opt.Ask();
  const Eigen::VectorXd second = opt.Ask();
  EXPECT_GT((first - second).norm(), 0.05);
  // Telling the pending point releases it.
  opt.Tell(first, Bump(first));
  EXPECT_EQ(opt.pending_actions().cols(), 1);
  opt.ClearPending();
  EXPECT_EQ(opt.pending_actions().cols(), 0);
}

TEST(OptimizerTest, NonFiniteRewardThrowPolicyLeavesStateUnchanged) {
  OptimizerOptions o = CheapOptions();
  const std::string path = TempLogPath("nan_throw");
  o.log_path = path;
  Optimizer opt(UnitSquare(), nullptr, "gp-ucb", StrategyParams(), o);
  const Eigen::VectorXd x = opt.Ask();
  opt.Tell(x, 1.0);
  const std::string fingerprint = opt.Fingerprint();
  const std::string log_before = testing::ReadFile(path);
  for (double bad : {kNaN, kInf, -kInf}) {
    ExpectInvalid([&] { opt.Tell(x, bad); }, "y is not finite");
    EXPECT_EQ(opt.Fingerprint(), fingerprint);
  }
  EXPECT_EQ(testing::ReadFile(path), log_before);
  std::remove(path.c_str());
}

TEST(OptimizerTest, NonFiniteRewardSkipPolicyRecordsFailureAndMinusInfNeverIncumbent) {
  OptimizerOptions o = CheapOptions();
  o.non_finite_rewards = NonFiniteRewardPolicy::kSkip;
  o.initial_design_size = 3;
  const std::string path = TempLogPath("nan_skip");
  o.log_path = path;
  Optimizer opt(UnitSquare(), nullptr, "ei", StrategyParams(), o);
  const Eigen::MatrixXd b = opt.AskBatch(3);
  opt.Tell(b.col(0), -kInf);
  opt.Tell(b.col(1), kNaN);
  opt.Tell(b.col(2), -5.0);
  EXPECT_EQ(opt.num_accepted(), 1);
  EXPECT_EQ(opt.num_failed(), 2);
  EXPECT_EQ(opt.model().num_observations(), 1);
  EXPECT_EQ(opt.pending_actions().cols(), 0);  // failed evaluations release their points
  // The incumbent is the only finite observation, never the -inf one.
  EXPECT_EQ(opt.Best().x, b.col(2));
  EXPECT_EQ(opt.Best().observed_reward, -5.0);
  // Standardization saw only the finite value.
  EXPECT_EQ(opt.model().output_offset(), -5.0);
  // Logged as failed with its kind.
  const LogContents log = ReadLog(path);
  ASSERT_EQ(log.records.size(), 7u);  // header, 3 pending, 3 tells
  EXPECT_FALSE(log.records[4].accepted);
  EXPECT_TRUE(std::isinf(log.records[4].y) && log.records[4].y < 0);
  EXPECT_TRUE(std::isnan(log.records[5].y));
  const Eigen::VectorXd next = opt.Ask();
  ExpectInBox(opt.domain(), next);
  std::remove(path.c_str());
}

TEST(OptimizerTest, DuplicatesConstantRewardsAndSingleObservation) {
  OptimizerOptions o = CheapOptions();
  o.initial_design_size = 0;
  o.gp.noise_variance = 0.0;  // zero noise: only the fit's floor and the jitter ladder help
  for (const std::string strategy : {"gp-ucb", "ei", "pi", "gp-ts"}) {
    Optimizer opt(UnitSquare(), nullptr, strategy, StrategyParams(), o);
    // No data at all: the prior drives the choice.
    ExpectInBox(opt.domain(), opt.Ask());
    opt.ClearPending();
    // A single observation.
    opt.Tell(Eigen::Vector2d(0.5, 0.5), 2.0);
    ExpectInBox(opt.domain(), opt.Ask());
    opt.ClearPending();
    // The same point 20 times with the same reward: duplicates and constant rewards.
    for (int i = 0; i < 20; ++i) opt.Tell(Eigen::Vector2d(0.5, 0.5), 2.0);
    for (int i = 0; i < 3; ++i) {
      const Eigen::VectorXd x = opt.Ask();
      ExpectInBox(opt.domain(), x);
      opt.Tell(x, 2.0);
    }
    EXPECT_TRUE(std::isfinite(opt.Best().posterior_mean)) << strategy;
    EXPECT_NEAR(opt.Best().posterior_mean, 2.0, 1e-6) << strategy;
    EXPECT_EQ(opt.model().output_scale(), 1.0);
  }
}

TEST(OptimizerTest, BestBeforeAnyObservationThrows) {
  Optimizer opt(UnitSquare(), nullptr, "gp-ucb", StrategyParams(), CheapOptions());
  EXPECT_THROW(opt.Best(), std::logic_error);
}

TEST(OptimizerTest, RejectsBadConstruction) {
  ExpectInvalid([] { Domain::Box(Eigen::Vector2d(0, 2), Eigen::Vector2d(1, 1)); }, "lower[1]");
  ExpectInvalid([] { Domain::Box(Eigen::Vector2d(0, -kInf), Eigen::Vector2d(1, 1)); },
                "not finite");
  ExpectInvalid([] { Domain::Box(Eigen::Vector2d(0, 0), Eigen::Vector3d(1, 1, 1)); }, "size 3");
  ExpectInvalid(
      [] { Optimizer(UnitSquare(), nullptr, "no-such", StrategyParams(), CheapOptions()); },
      "no-such");
  OptimizerOptions bad = CheapOptions();
  bad.maximizer_starts = 0;
  ExpectInvalid([&] { Optimizer(UnitSquare(), nullptr, "gp-ucb", StrategyParams(), bad); },
                "maximizer_starts");
  ExpectInvalid(
      [] {
        Optimizer(UnitSquare(), MakeMatern52(FirstDims(3)), "gp-ucb", StrategyParams(),
                  CheapOptions());
      },
      "dimension");
}

TEST(OptimizerTest, RejectsWrongDimensionsAndOutOfBoxPoints) {
  const Domain d = Domain::Box(Eigen::Vector2d(-1, 0), Eigen::Vector2d(1, 10)).WithContext(1);
  Optimizer opt(d, nullptr, "cgp-ucb", StrategyParams(), CheapOptions());
  const Eigen::VectorXd z = Eigen::VectorXd::Constant(1, 0.5);
  const std::string fingerprint = opt.Fingerprint();
  ExpectInvalid([&] { opt.Ask(); }, "context has size 0 but the context dimension is 1");
  ExpectInvalid([&] { opt.Ask(Eigen::Vector2d(1, 2)); }, "size 2");
  ExpectInvalid([&] { opt.Ask(Eigen::VectorXd::Constant(1, kNaN)); }, "not finite");
  ExpectInvalid([&] { opt.AskBatch(0, z); }, "q must be >= 1, got 0");
  ExpectInvalid([&] { opt.Tell(Eigen::Vector3d(0, 0, 0), z, 1.0); },
                "x has size 3 but the action dimension is 2");
  ExpectInvalid([&] { opt.Tell(Eigen::Vector2d(0, 11), z, 1.0); }, "x[1] = 11 is outside [0, 10]");
  ExpectInvalid([&] { opt.Tell(Eigen::Vector2d(-1.5, 1), z, 1.0); }, "x[0] = -1.5");
  ExpectInvalid([&] { opt.Tell(Eigen::Vector2d(0, 1), Eigen::VectorXd(), 1.0); }, "context");
  ExpectInvalid(
      [&] {
        opt.TellMany(Eigen::MatrixXd::Zero(2, 2), Eigen::MatrixXd::Zero(1, 2),
                     Eigen::VectorXd::Zero(3));
      },
      "y has 3");
  // All-or-nothing warm start: the second column is bad, so the first is not recorded either.
  Eigen::MatrixXd X(2, 2);
  X << 0, 0.5, 1, 20;
  ExpectInvalid([&] { opt.TellMany(X, Eigen::MatrixXd::Zero(1, 2), Eigen::Vector2d(1, 2)); },
                "X.col[1][1] = 20");
  EXPECT_EQ(opt.Fingerprint(), fingerprint);
}

TEST(OptimizerTest, FixedDimensionAndContextAreHeld) {
  // lower == upper: a fixed dimension; the context coordinate is fixed by the caller.
  const Domain d =
      Domain::Box(Eigen::Vector3d(0, 2, 0), Eigen::Vector3d(1, 2, 1))
          .WithContext(1, Eigen::VectorXd::Constant(1, -1), Eigen::VectorXd::Constant(1, 1));
  OptimizerOptions o = CheapOptions();
  o.initial_design_size = 2;
  Optimizer opt(d, nullptr, "cgp-ucb", StrategyParams(), o);
  Rng rng(7);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int i = 0; i < 8; ++i) {
    const Eigen::VectorXd z = Eigen::VectorXd::Constant(1, u(rng));
    const Eigen::VectorXd x = opt.Ask(z);
    ExpectInBox(d, x);
    EXPECT_EQ(x(1), 2.0);
    opt.Tell(x, z, -std::pow(x(0) - 0.5 * (z(0) + 1), 2) - x(2) * x(2));
  }
  const Eigen::MatrixXd contexts = opt.pending_contexts();
  EXPECT_EQ(contexts.cols(), 0);
  ExpectInvalid([&] { opt.Ask(Eigen::VectorXd::Constant(1, 1.5)); }, "context[0] = 1.5");
}

TEST(OptimizerTest, FiniteCandidateSet) {
  Rng rng(testing::TestSeed(11));
  const Eigen::MatrixXd candidates = testing::UniformPoints(2, 40, -3, 3, rng);
  const Domain d = Domain::FiniteSet(candidates);
  OptimizerOptions o = CheapOptions();
  o.refit.enabled = false;
  Optimizer opt(d, nullptr, "gp-ucb", StrategyParams(), o);
  auto reward = [](const Eigen::VectorXd& x) { return -x.squaredNorm(); };
  for (int i = 0; i < 25; ++i) {
    const Eigen::VectorXd x = opt.Ask();
    bool is_candidate = false;
    for (int c = 0; c < candidates.cols(); ++c) is_candidate |= (candidates.col(c) == x);
    EXPECT_TRUE(is_candidate);
    opt.Tell(x, reward(x));
  }
  const Eigen::MatrixXd batch = opt.AskBatch(40);
  for (int i = 0; i < 40; ++i)
    for (int j = 0; j < i; ++j) EXPECT_NE(batch.col(i), batch.col(j));
  ExpectInvalid([&] { opt.AskBatch(41); }, "q = 41 exceeds the 40 candidates");
  double best = -kInf;
  for (int c = 0; c < candidates.cols(); ++c) best = std::max(best, reward(candidates.col(c)));
  EXPECT_GT(opt.Best().observed_reward, best - 0.5);
}

TEST(OptimizerTest, ConcurrentWorkersShareOneOptimizer) {
  OptimizerOptions o = CheapOptions();
  o.refit.enabled = false;
  const std::string path = TempLogPath("concurrent");
  o.log_path = path;
  Optimizer opt(UnitSquare(), nullptr, "gp-ucb", StrategyParams(), o);
  std::vector<std::thread> workers;
  for (int w = 0; w < 4; ++w) {
    workers.emplace_back([&opt] {
      for (int i = 0; i < 6; ++i) {
        const Eigen::VectorXd x = opt.Ask();
        opt.Tell(x, Bump(x));
      }
    });
  }
  for (auto& w : workers) w.join();
  EXPECT_EQ(opt.num_accepted(), 24);
  EXPECT_EQ(opt.pending_actions().cols(), 0);
  // The log is whole: header, 24 pending and 24 tells, and it rebuilds the same state.
  const LogContents log = ReadLog(path);
  EXPECT_EQ(log.records.size(), 49u);
  const std::string fingerprint = opt.Fingerprint();
  const auto resumed = Optimizer::Resume(path);
  std::remove(path.c_str());
  GPBANDIT_SKIP_UNLESS_BIT_REPRODUCIBLE();
  EXPECT_EQ(resumed->Fingerprint(), fingerprint);
}

// Interrupting a run at any record and resuming from the log gives the same log, byte for byte,
// as the uninterrupted run: same suggestions, same fits.
TEST(OptimizerTest, ResumedRunContinuesExactly) {
  GPBANDIT_SKIP_UNLESS_BIT_REPRODUCIBLE();
  const auto f = problems::MakeBranin();
  const Domain d = Domain::Box(f.lower, f.upper);
  OptimizerOptions o = CheapOptions(testing::TestSeed(21));
  o.initial_design_size = 4;
  o.refit.every = 3;
  o.refit.small_until = 6;
  const int kRounds = 14;
  auto run = [&](const std::string& path, int stop_after, bool stop_before_tell) {
    o.log_path = path;
    auto opt = std::make_unique<Optimizer>(d, nullptr, "gp-ucb", StrategyParams(), o);
    for (int i = 0; i < kRounds; ++i) {
      if (i == stop_after) {
        Eigen::MatrixXd pending(d.action_dim(), 0);
        if (stop_before_tell) {
          opt->Ask();
          pending = opt->pending_actions();
        }
        opt.reset();  // "crash"
        opt = Optimizer::Resume(path);
        const Eigen::MatrixXd resumed = opt->pending_actions();
        EXPECT_EQ(resumed.rows(), pending.rows());
        EXPECT_EQ(resumed.cols(), pending.cols());
        EXPECT_TRUE(resumed.rows() == pending.rows() && resumed.cols() == pending.cols() &&
                    resumed == pending);
        if (stop_before_tell) {
          opt->Tell(pending.col(0), f.reward(pending.col(0)));
          continue;
        }
      }
      const Eigen::VectorXd x = opt->Ask();
      opt->Tell(x, f.reward(x));
    }
    return opt->Fingerprint();
  };
  const std::string reference_path = TempLogPath("resume_ref");
  const std::string reference = run(reference_path, -1, false);
  const std::string reference_log = testing::ReadLogWithoutLeases(reference_path);
  for (int stop : {2, 5, 9}) {
    for (bool before_tell : {false, true}) {
      const std::string path = TempLogPath("resume_" + std::to_string(stop));
      EXPECT_EQ(run(path, stop, before_tell), reference) << stop << " " << before_tell;
      EXPECT_EQ(testing::ReadLogWithoutLeases(path), reference_log) << stop << " " << before_tell;
      std::remove(path.c_str());
    }
  }
  std::remove(reference_path.c_str());
}

TEST(OptimizerTest, ConstructorContinuesAnExistingLogAndRejectsAMismatch) {
  const std::string path = TempLogPath("mismatch");
  OptimizerOptions o = CheapOptions();
  o.log_path = path;
  {
    Optimizer opt(UnitSquare(), nullptr, "gp-ucb", StrategyParams(), o);
    opt.Tell(opt.Ask(), 1.0);
  }
  {
    Optimizer opt(UnitSquare(), nullptr, "gp-ucb", StrategyParams(), o);
    EXPECT_EQ(opt.num_accepted(), 1);
  }
  EXPECT_THROW(Optimizer(UnitSquare(), nullptr, "ei", StrategyParams(), o), std::runtime_error);
  EXPECT_THROW(Optimizer(Domain::Box(Eigen::Vector2d(0, 0), Eigen::Vector2d(1, 2)), nullptr,
                         "gp-ucb", StrategyParams(), o),
               std::runtime_error);
  o.seed = 99;
  EXPECT_THROW(Optimizer(UnitSquare(), nullptr, "gp-ucb", StrategyParams(), o), std::runtime_error);
  // The rejected constructions wrote nothing.
  EXPECT_EQ(ReadLog(path).records.size(), 3u);
  std::remove(path.c_str());
}

TEST(OptimizerTest, ResumeFromTheLogAloneRemembersDomainAndStrategy) {
  const std::string path = TempLogPath("alone");
  OptimizerOptions o = CheapOptions(8);
  o.log_path = path;
  const StrategyParams s = StrategyParams().With("beta_scale", 0.2);
  {
    Optimizer opt(Domain::Box(Eigen::Vector2d(0, 0), Eigen::Vector2d(1, 10)), nullptr, "gp-ucb", s,
                  o);
    opt.Tell(opt.Ask(), 1.0);
  }
  const auto resumed = Optimizer::Resume(path);
  EXPECT_EQ(resumed->strategy_name(), "gp-ucb");
  EXPECT_EQ(resumed->strategy_options().at("beta_scale"), 0.2);
  EXPECT_EQ(resumed->domain().upper()(1), 10.0);
  EXPECT_EQ(resumed->options().seed, 8u);
  EXPECT_EQ(resumed->num_accepted(), 1);
  EXPECT_THROW(Optimizer::Resume(path + ".missing"), std::runtime_error);
  std::remove(path.c_str());
}

// A user strategy given as an object: UCB with a fixed kappa, its options {"kappa": k}.
class FixedKappaUcb : public IndexStrategy {
 public:
  explicit FixedKappaUcb(double kappa) : kappa_(kappa) {}
  std::string name() const override { return "test-fixed-kappa-ucb"; }
  void BeginRound(const RoundState& state) override { ValidateRoundState(state); }
  double figure() const override { return kappa_; }
  std::string figure_name() const override { return "kappa"; }
  double Score(double mean, double variance, double* d_mean, double* d_variance) const override {
    const double sigma = std::sqrt(std::max(variance, 0.0));
    if (d_mean != nullptr) *d_mean = 1.0;
    if (d_variance != nullptr) *d_variance = sigma > 0.0 ? kappa_ / (2.0 * sigma) : 0.0;
    return mean + kappa_ * sigma;
  }
  std::unique_ptr<Strategy> Clone() const override {
    return std::make_unique<FixedKappaUcb>(*this);
  }
  std::string OptionsJson() const override { return StrategyParams().With("kappa", kappa_).json(); }

 private:
  double kappa_;
};

// Five tells, then one point left pending.
void Play(Optimizer& opt) {
  for (int i = 0; i < 5; ++i) {
    const Eigen::VectorXd x = opt.Ask();
    opt.Tell(x, -x.squaredNorm());
  }
  opt.Ask();
}

// The next two suggestions after telling the pending point.
std::vector<Eigen::VectorXd> NextTwo(Optimizer& opt) {
  const Eigen::MatrixXd pending = opt.pending_actions();
  for (Eigen::Index j = 0; j < pending.cols(); ++j)
    opt.Tell(pending.col(j), -pending.col(j).squaredNorm());
  std::vector<Eigen::VectorXd> next;
  for (int i = 0; i < 2; ++i) {
    next.push_back(opt.Ask());
    opt.Tell(next.back(), -next.back().squaredNorm());
  }
  return next;
}

// An optimizer built from a strategy object logs its name and options, and resumes through the
// registry: the same strategy, the same suggestions as an uninterrupted run.
TEST(OptimizerTest, StrategyObjectResumesThroughTheRegistry) {
  GpUcbOptions ucb;
  ucb.beta.scale = 0.3;
  const std::string path = TempLogPath("object");
  OptimizerOptions o = CheapOptions(4);
  o.log_path = path;
  {
    Optimizer opt(UnitSquare(), nullptr, std::make_unique<GpUcb>(ucb), o);
    EXPECT_EQ(opt.strategy_name(), "gp-ucb");
    Play(opt);
  }
  const auto resumed = Optimizer::Resume(path);
  EXPECT_EQ(resumed->strategy_name(), "gp-ucb");
  EXPECT_EQ(resumed->strategy_options(), StrategyParams(GpUcb(ucb).OptionsJson()));
  Optimizer reference(UnitSquare(), nullptr, std::make_unique<GpUcb>(ucb), CheapOptions(4));
  Play(reference);
  const std::vector<Eigen::VectorXd> a = NextTwo(*resumed), b = NextTwo(reference);
  GPBANDIT_SKIP_UNLESS_BIT_REPRODUCIBLE();
  EXPECT_EQ(a, b);
  std::remove(path.c_str());
}

TEST(OptimizerTest, UserStrategyObjectResumesOnceRegistered) {
  const std::string path = TempLogPath("user_object");
  OptimizerOptions o = CheapOptions(6);
  o.log_path = path;
  {
    Optimizer opt(UnitSquare(), nullptr, std::make_unique<FixedKappaUcb>(1.25), o);
    Play(opt);
  }
  try {
    Optimizer::Resume(path);
    ADD_FAILURE() << "resumed an unregistered strategy";
  } catch (const std::runtime_error& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("'test-fixed-kappa-ucb', which is not registered"));
  }
  StrategyRegistry::Default().Register("test-fixed-kappa-ucb", [](const StrategyParams& p) {
    return std::make_unique<FixedKappaUcb>(p.at("kappa"));
  });
  const auto resumed = Optimizer::Resume(path);
  EXPECT_EQ(resumed->strategy_options().at("kappa"), 1.25);
  Optimizer reference(UnitSquare(), nullptr, std::make_unique<FixedKappaUcb>(1.25),
                      CheapOptions(6));
  Play(reference);
  const std::vector<Eigen::VectorXd> a = NextTwo(*resumed), b = NextTwo(reference);
  GPBANDIT_SKIP_UNLESS_BIT_REPRODUCIBLE();
  EXPECT_EQ(a, b);
  std::remove(path.c_str());
}

class BadOptionsJson : public FixedKappaUcb {
 public:
  BadOptionsJson() : FixedKappaUcb(1.0) {}
  std::string OptionsJson() const override { return "kappa=1"; }
};

TEST(OptimizerTest, StrategyObjectIsChecked) {
  ExpectInvalid(
      [] { Optimizer(UnitSquare(), nullptr, std::unique_ptr<Strategy>(), CheapOptions()); },
      "strategy: null");
  ExpectInvalid(
      [] { Optimizer(UnitSquare(), nullptr, std::make_unique<BadOptionsJson>(), CheapOptions()); },
      "strategy 'test-fixed-kappa-ucb': OptionsJson(): strategy parameters 'kappa=1': not JSON");
}

}  // namespace
}  // namespace gpbandit
