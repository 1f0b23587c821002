// The Optimizer's rank-one posterior over a finite set against the exact GP it mirrors: the
// same means and variances at every candidate (GaussianProcess::Predict, with standardized
// outputs whose offset and scale move with every observation), rebuilt when the
// hyperparameters change, refused when an observation is not a candidate; and Optimizers with
// and without it making the same suggestions.
#include "plugin/finite_set_model.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

#include "gpbandit/acquisition/candidate_posterior.h"
#include "gpbandit/gp/kernel_factory.h"
#include "gpbandit/plugin/optimizer.h"
#include "tests/plugin/plugin_test_util.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

// Means and variances of the rank-one view equal the GP's at every candidate, relative to the
// GP's output scale.
void ExpectSamePosterior(const FiniteSetModel& model, const GaussianProcess& gp,
                         const Eigen::MatrixXd& candidates, const std::string& where) {
  const FiniteSetCandidatePosterior view(model.posterior(), model.reference(), gp.output_offset(),
                                         gp.output_scale());
  Eigen::VectorXd means, variances;
  gp.Predict(candidates, &means, &variances);
  const double scale = gp.output_scale();
  for (Eigen::Index i = 0; i < candidates.cols(); ++i) {
    EXPECT_NEAR(view.means()(i), means(i), 1e-8 * scale) << where << " candidate " << i;
    EXPECT_NEAR(view.variances()(i), std::max(variances(i), 0.0), 1e-8 * scale * scale)
        << where << " candidate " << i;
  }
}

TEST(FiniteSetModelTest, EqualsTheExactGpWithStandardizedOutputsAsObservationsArrive) {
  Rng rng(testing::TestSeed(3));
  const Eigen::MatrixXd candidates = testing::UniformPoints(2, 30, 0.0, 1.0, rng);
  GaussianProcessOptions options;
  options.noise_variance = 0.01;
  GaussianProcess gp(MakeMatern52(FirstDims(2), true, 1.3, 0.3), 2, options);
  FiniteSetModel model(candidates);
  std::uniform_int_distribution<int> pick(0, 29);
  std::normal_distribution<double> noise(0.0, 0.1);
  // A large mean with a small spread: the reference keeps the means accurate.
  for (int t = 1; t <= 40; ++t) {
    const int c = t <= 30 ? pick(rng) : 3;  // repeats, as noisy bandits do
    gp.AddObservation(candidates.col(c), 1e6 + std::sin(4 * candidates(0, c)) + noise(rng));
    ASSERT_TRUE(model.Sync(gp));
    if (t % 7 == 0 || t == 1) ExpectSamePosterior(model, gp, candidates, "t " + std::to_string(t));
  }
  // New hyperparameters: rebuilt from every observation.
  Eigen::VectorXd log_params = gp.kernel_log_params();
  log_params(1) += 0.4;
  gp.SetHyperparameters(log_params, 0.02);
  ASSERT_TRUE(model.Sync(gp));
  ExpectSamePosterior(model, gp, candidates, "after new hyperparameters");
  // Outputs scaled by a power of two (the Optimizer's reward unit): rebuilt as well.
  gp.ScaleOutputs(-3);
  ASSERT_TRUE(model.Sync(gp));
  ExpectSamePosterior(model, gp, candidates, "after ScaleOutputs");
}

TEST(FiniteSetModelTest, RefusesWhenAnObservationIsNotACandidate) {
  const Eigen::MatrixXd candidates = Eigen::RowVectorXd::LinSpaced(5, 0.0, 1.0);
  GaussianProcess gp(MakeSquaredExponential({0}, true, 1.0, 0.3), 1);
  FiniteSetModel model(candidates);
  gp.AddObservation(candidates.col(2), 1.0);
  EXPECT_TRUE(model.Sync(gp));
  EXPECT_EQ(model.CandidateIndex(candidates.col(4)), 4);
  EXPECT_EQ(model.CandidateIndex(Eigen::VectorXd::Constant(1, 0.3)), -1);
  gp.AddObservation(Eigen::VectorXd::Constant(1, 0.3), 0.5);
  EXPECT_FALSE(model.Sync(gp));
  gp.AddObservation(candidates.col(1), 0.2);
  EXPECT_FALSE(model.Sync(gp));
}

// Asks and tells on a finite set with the rank-one posterior and with the exact GP (the option
// off): single asks, batches and pending points give the same suggestions.
std::vector<Eigen::MatrixXd> RunSuggestions(const std::string& strategy, bool rank_one,
                                            bool standardize) {
  Rng rng(9);
  const Eigen::MatrixXd candidates = testing::UniformPoints(2, 60, -1.0, 2.0, rng);
  OptimizerOptions options = testing::CheapOptions(5);
  options.refit.enabled = false;
  options.gp.noise_variance = 0.01;
  options.gp.standardize_outputs = standardize;
  options.finite_set_rank_one_updates = rank_one;
  Optimizer optimizer(Domain::FiniteSet(candidates), MakeMatern32(FirstDims(2), true, 1.0, 0.4),
                      strategy, StrategyParams(), options);
  std::normal_distribution<double> noise(0.0, 0.05);
  Rng noise_rng(2);
  auto reward = [&](const Eigen::VectorXd& x) {
    return 3.0 - (x - Eigen::Vector2d(0.4, 0.9)).squaredNorm() + noise(noise_rng);
  };
  std::vector<Eigen::MatrixXd> suggestions;
  for (int round = 0; round < 25; ++round) {
    const Eigen::MatrixXd X =
        round % 5 == 4 ? optimizer.AskBatch(3) : Eigen::MatrixXd(optimizer.Ask());
    suggestions.push_back(X);
    // The last column of a batch stays pending for one round.
    const Eigen::Index told = X.cols() > 1 ? X.cols() - 1 : X.cols();
    for (Eigen::Index j = 0; j < told; ++j) optimizer.Tell(X.col(j), reward(X.col(j)));
  }
  return suggestions;
}

TEST(FiniteSetModelTest, OptimizerSuggestsAsWithTheExactGp) {
  for (const char* strategy : {"gp-ucb", "igp-ucb", "ei", "pi", "mean", "variance", "gp-ts"}) {
    for (bool standardize : {true, false}) {
      const std::vector<Eigen::MatrixXd> exact = RunSuggestions(strategy, false, standardize);
      const std::vector<Eigen::MatrixXd> rank_one = RunSuggestions(strategy, true, standardize);
      ASSERT_EQ(exact.size(), rank_one.size());
      for (std::size_t r = 0; r < exact.size(); ++r)
        EXPECT_TRUE(exact[r] == rank_one[r])
            << strategy << " standardize " << standardize << " round " << r << "\n"
            << exact[r] << "\nvs\n"
            << rank_one[r];
    }
  }
}

}  // namespace
}  // namespace gpbandit
