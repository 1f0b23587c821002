// The Optimizer on a finite set with the rank-one model and no exact GP
// (OptimizerOptions::finite_set_rank_one_updates): what each round tells the strategy, the
// queries (Best, Best(context), Predict, information_gain) and the round reports equal those of
// the exact GP (the option off) on the same observations; a resumed run is bit-exact; a told
// point that is not a candidate hands over to the exact GP; model() refuses while there is none.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "gpbandit/acquisition/gp_ucb.h"
#include "gpbandit/kernel/kernel_factory.h"
#include "gpbandit/optimizer/optimizer.h"
#include "tests/optimizer/plugin_test_util.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

// GP-UCB that keeps a copy of every RoundState it is given.
class RecordingGpUcb : public GpUcb {
 public:
  explicit RecordingGpUcb(std::shared_ptr<std::vector<RoundState>> seen)
      : GpUcb(GpUcbOptions()), seen_(std::move(seen)) {}
  void BeginRound(const RoundState& state) override {
    seen_->push_back(state);
    GpUcb::BeginRound(state);
  }
  std::unique_ptr<Strategy> Clone() const override {
    return std::make_unique<RecordingGpUcb>(*this);
  }
  // So that the rounds compare them too (GP-UCB's own rounds do not read them).
  bool reads_sequential_variances() const override { return true; }

 private:
  std::shared_ptr<std::vector<RoundState>> seen_;
};

Eigen::MatrixXd Candidates() {
  Rng rng(9);
  return testing::UniformPoints(2, 40, -1.0, 2.0, rng);
}

OptimizerOptions FixedOptions(bool rank_one, std::uint64_t seed) {
  OptimizerOptions o = testing::CheapOptions(seed);
  o.refit.enabled = false;
  o.gp.noise_variance = 0.01;
  o.finite_set_rank_one_updates = rank_one;
  return o;
}

double Reward(const Eigen::VectorXd& x, double noise) {
  return 1e3 + 3.0 - (x - Eigen::Vector2d(0.4, 0.9)).squaredNorm() + noise;
}

struct PlayedRun {
  std::vector<RoundState> states;
  std::vector<RoundReport> reports;
  std::vector<Eigen::MatrixXd> suggestions;
  std::vector<Recommendation> best, best_at;
  std::vector<Prediction> predictions;
  std::vector<double> information_gains;
};

// Asks (every fourth a batch of 3 whose last point stays pending a round) and tells, and the
// queries after each round at two candidates and one point between them.
PlayedRun Play(bool rank_one, int rounds) {
  auto seen = std::make_shared<std::vector<RoundState>>();
  const Eigen::MatrixXd candidates = Candidates();
  Optimizer opt(Domain::FiniteSet(candidates), MakeMatern32(FirstDims(2), true, 1.0, 0.4),
                std::make_unique<RecordingGpUcb>(seen), FixedOptions(rank_one, 5));
  std::normal_distribution<double> noise(0.0, 0.05);
  Rng noise_rng(2);
  PlayedRun run;
  for (int round = 0; round < rounds; ++round) {
    const Eigen::MatrixXd X = round % 4 == 3 ? opt.AskBatch(3) : Eigen::MatrixXd(opt.Ask());
    run.suggestions.push_back(X);
    run.reports.push_back(opt.last_round_report());
    const Eigen::Index told = X.cols() > 1 ? X.cols() - 1 : X.cols();
    for (Eigen::Index j = 0; j < told; ++j) opt.Tell(X.col(j), Reward(X.col(j), noise(noise_rng)));
    run.best.push_back(opt.Best());
    run.best_at.push_back(opt.Best(Eigen::VectorXd()));
    run.predictions.push_back(opt.Predict(candidates.col(3)));
    run.predictions.push_back(opt.Predict(0.5 * (candidates.col(0) + candidates.col(1))));
    run.information_gains.push_back(opt.information_gain());
  }
  run.states = *seen;
  return run;
}

void ExpectNearRelative(double a, double b, double tolerance, const std::string& what) {
  EXPECT_NEAR(a, b, tolerance * std::max(1.0, std::abs(b))) << what;
}

TEST(FiniteSetOptimizerTest, RoundsAndQueriesEqualTheExactGps) {
  const PlayedRun exact = Play(false, 24), rank_one = Play(true, 24);
  ASSERT_EQ(exact.states.size(), rank_one.states.size());
  for (std::size_t r = 0; r < exact.states.size(); ++r) {
    const RoundState &a = rank_one.states[r], &b = exact.states[r];
    const std::string at = "state " + std::to_string(r);
    EXPECT_EQ(a.t, b.t) << at;
    EXPECT_EQ(a.num_candidates, b.num_candidates) << at;
    ExpectNearRelative(a.information_gain, b.information_gain, 1e-9, at + " information gain");
    ExpectNearRelative(a.noise_variance, b.noise_variance, 1e-9, at + " noise");
    ExpectNearRelative(a.signal_variance, b.signal_variance, 1e-9, at + " signal");
    ExpectNearRelative(a.incumbent, b.incumbent, 1e-9, at + " incumbent");
    EXPECT_EQ(a.best_observed, b.best_observed) << at;
    ASSERT_EQ(a.sequential_variances.size(), b.sequential_variances.size()) << at;
    for (Eigen::Index i = 0; i < a.sequential_variances.size(); ++i)
      EXPECT_NEAR(a.sequential_variances(i), b.sequential_variances(i), 1e-9) << at;
  }
  for (std::size_t r = 0; r < exact.suggestions.size(); ++r) {
    const std::string at = "round " + std::to_string(r);
    EXPECT_EQ(rank_one.suggestions[r], exact.suggestions[r]) << at;
    const RoundReport &a = rank_one.reports[r], &b = exact.reports[r];
    EXPECT_EQ(a.t, b.t) << at;
    EXPECT_EQ(std::isnan(a.figure), std::isnan(b.figure)) << at;  // NaN: design points only
    if (!std::isnan(b.figure)) ExpectNearRelative(a.figure, b.figure, 1e-9, at + " figure");
    for (std::size_t j = 0; j < a.acquisition_values.size(); ++j)
      if (!std::isnan(b.acquisition_values[j]))
        ExpectNearRelative(a.acquisition_values[j], b.acquisition_values[j], 1e-9, at);
    EXPECT_EQ(rank_one.best[r].x, exact.best[r].x) << at;
    ExpectNearRelative(rank_one.best[r].posterior_mean, exact.best[r].posterior_mean, 1e-9, at);
    EXPECT_EQ(rank_one.best[r].observed_reward, exact.best[r].observed_reward) << at;
    EXPECT_EQ(rank_one.best_at[r].x, exact.best_at[r].x) << at;
    ExpectNearRelative(rank_one.best_at[r].posterior_mean, exact.best_at[r].posterior_mean, 1e-9,
                       at);
    ExpectNearRelative(rank_one.information_gains[r], exact.information_gains[r], 1e-9, at);
  }
  for (std::size_t i = 0; i < exact.predictions.size(); ++i) {
    ExpectNearRelative(rank_one.predictions[i].mean, exact.predictions[i].mean, 1e-9, "mean");
    EXPECT_NEAR(rank_one.predictions[i].stddev, exact.predictions[i].stddev, 1e-6)
        << "prediction " << i;
  }
}

// A strategy that does not read the sequential variances is not handed them (one number per
// observation, each round); one that does gets one per observation.
TEST(FiniteSetOptimizerTest, SequentialVariancesOnlyForStrategiesThatReadThem) {
  auto seen = std::make_shared<std::vector<RoundState>>();
  class NotReading : public RecordingGpUcb {
   public:
    using RecordingGpUcb::RecordingGpUcb;
    bool reads_sequential_variances() const override { return false; }
  };
  for (bool reads : {true, false}) {
    seen->clear();
    std::unique_ptr<Strategy> strategy =
        reads ? std::make_unique<RecordingGpUcb>(seen) : std::make_unique<NotReading>(seen);
    Optimizer opt(Domain::FiniteSet(Candidates()), nullptr, std::move(strategy),
                  FixedOptions(true, 2));
    for (int round = 0; round < 8; ++round) {
      const Eigen::VectorXd x = opt.Ask();
      opt.Tell(x, Reward(x, 0.0));
    }
    ASSERT_FALSE(seen->empty());
    const RoundState& last = seen->back();
    EXPECT_EQ(last.sequential_variances.size(), reads ? last.t - 1 : 0) << reads;
    EXPECT_GT(last.information_gain, 0.0) << reads;
  }
}

// Asks and tells a study to `rounds` rounds, leaving a batch's last point pending now and then.
void Rounds(int from, int to, Optimizer* opt) {
  for (int round = from; round < to; ++round) {
    const Eigen::MatrixXd X = round % 5 == 4 ? opt->AskBatch(2) : Eigen::MatrixXd(opt->Ask());
    opt->Tell(X.col(0), Reward(X.col(0), 0.01 * std::sin(7.0 * round)));
  }
}

TEST(FiniteSetOptimizerTest, ResumeIsExact) {
  const std::uint64_t seed = testing::TestSeed(11);
  const std::string reference_path = testing::TempLogPath("finite_rank_one_reference");
  OptimizerOptions options = FixedOptions(true, seed);
  options.log_path = reference_path;
  std::string reference_fingerprint;
  Eigen::VectorXd reference_next;
  {
    Optimizer reference(Domain::FiniteSet(Candidates()), nullptr, "igp-ucb", options);
    Rounds(0, 30, &reference);
    reference_fingerprint = reference.Fingerprint();
  }
  for (int stop_after : {7, 19}) {
    const std::string path = testing::TempLogPath("finite_rank_one_" + std::to_string(stop_after));
    options.log_path = path;
    {
      Optimizer first(Domain::FiniteSet(Candidates()), nullptr, "igp-ucb", options);
      Rounds(0, stop_after, &first);
    }
    auto resumed = Optimizer::Resume(path);
    Rounds(stop_after, 30, resumed.get());
    GPBANDIT_SKIP_UNLESS_BIT_REPRODUCIBLE();
    EXPECT_EQ(resumed->Fingerprint(), reference_fingerprint) << "stop after " << stop_after;
    resumed.reset();
    EXPECT_EQ(testing::ReadLogWithoutLeases(path), testing::ReadLogWithoutLeases(reference_path))
        << "stop after " << stop_after;
  }
}

TEST(FiniteSetOptimizerTest, NoExactGpIsKept) {
  Optimizer rank_one(Domain::FiniteSet(Candidates()), nullptr, "gp-ucb", FixedOptions(true, 1));
  Rounds(0, 5, &rank_one);
  try {
    rank_one.model();
    ADD_FAILURE() << "model() returned without an exact GP";
  } catch (const std::logic_error& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("finite_set_rank_one_updates"));
  }
  Optimizer exact(Domain::FiniteSet(Candidates()), nullptr, "gp-ucb", FixedOptions(false, 1));
  Rounds(0, 5, &exact);
  EXPECT_EQ(exact.model().num_observations(), 5);
  // With refits (the kernel changes) the exact GP is kept whatever the option.
  OptimizerOptions refits = FixedOptions(true, 1);
  refits.refit.enabled = true;
  Optimizer refitted(Domain::FiniteSet(Candidates()), nullptr, "gp-ucb", refits);
  Rounds(0, 5, &refitted);
  EXPECT_EQ(refitted.model().num_observations(), 5);
}

// A told point in the candidates' bounding box that is not one of them: the exact GP on every
// observation takes over, predicts as the rank-one model did, and a resumed run follows.
TEST(FiniteSetOptimizerTest, ANonCandidateHandsOverToTheExactGp) {
  const std::string path = testing::TempLogPath("finite_rank_one_switch");
  OptimizerOptions options = FixedOptions(true, testing::TestSeed(13));
  options.log_path = path;
  const Eigen::MatrixXd candidates = Candidates();
  const Eigen::VectorXd between = 0.5 * (candidates.col(2) + candidates.col(5));
  Optimizer opt(Domain::FiniteSet(candidates), nullptr, "ei", options);
  Rounds(0, 12, &opt);
  const Prediction before = opt.Predict(between);
  const Prediction at_candidate = opt.Predict(candidates.col(7));
  EXPECT_THROW(opt.model(), std::logic_error);
  opt.Tell(between, Reward(between, 0.0));
  EXPECT_EQ(opt.model().num_observations(), 13);
  EXPECT_EQ(opt.t(), 14);
  // The new observation moved the prediction at its own point only by what it taught.
  EXPECT_LT(opt.Predict(between).stddev, before.stddev);
  Rounds(12, 20, &opt);
  const std::string fingerprint = opt.Fingerprint();
  auto resumed = Optimizer::Resume(path);
  GPBANDIT_SKIP_UNLESS_BIT_REPRODUCIBLE();
  EXPECT_EQ(resumed->Fingerprint(), fingerprint);
  EXPECT_TRUE(std::isfinite(at_candidate.mean));
}

// A failure imputed at the worst reward (kImputeWorst) is in the model but never the incumbent
// nor Best(), as with the exact GP.
TEST(FiniteSetOptimizerTest, ImputedFailuresAreNeverRecommended) {
  for (bool rank_one : {true, false}) {
    OptimizerOptions options = FixedOptions(rank_one, 3);
    options.non_finite_rewards = NonFiniteRewardPolicy::kImputeWorst;
    const Eigen::MatrixXd candidates = Candidates();
    Optimizer opt(Domain::FiniteSet(candidates), nullptr, "gp-ucb", options);
    opt.Tell(candidates.col(0), 1.0);
    opt.Tell(candidates.col(1), 2.0);
    opt.Tell(candidates.col(2), std::nan(""));
    EXPECT_EQ(opt.t(), 4) << rank_one;
    EXPECT_EQ(opt.Best().x, candidates.col(1)) << rank_one;
    EXPECT_EQ(opt.Best().observed_reward, 2.0) << rank_one;
  }
}

// Rewards past 2^256 move the model to another power-of-two unit (ScaleOutputs): the rank-one
// model follows it exactly, so the suggestions stay those of the exact GP.
TEST(FiniteSetOptimizerTest, HugeRewardsSuggestAsTheExactGp) {
  std::vector<Eigen::VectorXd> suggested[2];
  Prediction predicted[2];
  const Eigen::MatrixXd candidates = Candidates();
  for (bool rank_one : {true, false}) {
    Optimizer opt(Domain::FiniteSet(candidates), nullptr, "ei", FixedOptions(rank_one, 7));
    for (int round = 0; round < 15; ++round) {
      const Eigen::VectorXd x = opt.Ask();
      suggested[rank_one].push_back(x);
      opt.Tell(x, (round < 8 ? 1e10 : 1e300) * (2.0 - x.squaredNorm()));
    }
    EXPECT_GT(opt.reward_unit(), 1.0) << rank_one;
    predicted[rank_one] = opt.Predict(candidates.col(0));
  }
  EXPECT_EQ(suggested[0], suggested[1]);
  EXPECT_NEAR(predicted[1].mean / predicted[0].mean, 1.0, 1e-9);
  EXPECT_NEAR(predicted[1].stddev / predicted[0].stddev, 1.0, 1e-6);
}

}  // namespace
}  // namespace gpbandit
