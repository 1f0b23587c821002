// The Optimizer's rank-one model over a finite set against the exact GP it replaces: the same
// means and variances at every candidate and elsewhere (GaussianProcess::Predict, with
// standardized outputs whose offset and scale move with every observation), the same
// information gain and statistics, rebuilt when the hyperparameters change; the incumbent among
// accepted rewards; and Optimizers with and without it making the same suggestions.
#include "model/finite_set_model.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>

#include "gpbandit/kernel/kernel_factory.h"
#include "gpbandit/maximizer/candidate_posterior.h"
#include "gpbandit/optimizer/optimizer.h"
#include "tests/optimizer/plugin_test_util.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

// Everything the Optimizer reads from the model equals the exact GP's on the same observations:
// means and variances at every candidate (GaussianProcess::Predict) and away from them, the
// standardization, the information gain and the sequential variances behind it, the means at
// the observations; relative to the GP's output scale.
void ExpectSameModel(const FiniteSetModel& model, const GaussianProcess& gp,
                     const Eigen::MatrixXd& candidates, const Eigen::MatrixXd& elsewhere,
                     const std::string& where) {
  const FiniteSetBelief& belief = model.belief();
  const double scale = gp.output_scale();
  ASSERT_EQ(model.num_observations(), gp.num_observations()) << where;
  EXPECT_NEAR(belief.output_offset(), gp.output_offset(), 1e-12 * std::abs(gp.output_offset()))
      << where;
  EXPECT_NEAR(belief.output_scale(), scale, 1e-10 * scale) << where;
  Eigen::VectorXd means, variances;
  gp.Predict(candidates, &means, &variances);
  const Eigen::VectorXd belief_means = belief.Means();
  for (Eigen::Index i = 0; i < candidates.cols(); ++i) {
    EXPECT_NEAR(belief_means(i), means(i), 1e-8 * scale) << where << " candidate " << i;
    EXPECT_EQ(belief.Mean(static_cast<int>(i)), belief_means(i)) << where << " candidate " << i;
    EXPECT_NEAR(belief.Variance(static_cast<int>(i)), std::max(variances(i), 0.0),
                1e-8 * scale * scale)
        << where << " candidate " << i;
  }
  for (Eigen::Index j = 0; j < elsewhere.cols(); ++j) {
    double mean = 0, variance = 0, gp_mean = 0, gp_variance = 0;
    model.Predict(elsewhere.col(j), &mean, &variance);
    gp.MeanAndVariance(elsewhere.col(j), &gp_mean, &gp_variance);
    EXPECT_NEAR(mean, gp_mean, 1e-7 * scale) << where << " point " << j;
    EXPECT_NEAR(variance, gp_variance, 1e-7 * scale * scale) << where << " point " << j;
  }
  EXPECT_NEAR(model.InformationGain(), gp.InformationGain(), 1e-9 * gp.InformationGain()) << where;
  const Eigen::VectorXd sequential = model.SequentialVariances();
  const Eigen::VectorXd gp_sequential = gp.SequentialVariances();
  ASSERT_EQ(sequential.size(), gp_sequential.size()) << where;
  for (Eigen::Index i = 0; i < sequential.size(); ++i)
    EXPECT_NEAR(sequential(i), gp_sequential(i), 1e-9) << where << " observation " << i;
  const Eigen::VectorXd at_rows = model.MeansAtObservations();
  const Eigen::VectorXd gp_at_rows = gp.MeansAtObservations();
  for (Eigen::Index i = 0; i < at_rows.size(); ++i)
    EXPECT_NEAR(at_rows(i), gp_at_rows(i), 1e-8 * scale) << where << " observation " << i;
  EXPECT_EQ(model.best_output(), gp.num_observations() > 0
                                     ? gp.outputs().maxCoeff()
                                     : -std::numeric_limits<double>::infinity())
      << where;
}

TEST(FiniteSetModelTest, EqualsTheExactGpWithStandardizedOutputsAsObservationsArrive) {
  Rng rng(testing::TestSeed(3));
  const Eigen::MatrixXd candidates = testing::UniformPoints(2, 30, 0.0, 1.0, rng);
  const Eigen::MatrixXd elsewhere = testing::UniformPoints(2, 4, 0.0, 1.0, rng);
  GaussianProcessOptions options;
  options.noise_variance = 0.01;
  GaussianProcess gp(MakeMatern52(FirstDims(2), true, 1.3, 0.3), 2, options);
  FiniteSetModel model(gp.kernel().Clone(), candidates, options);
  std::uniform_int_distribution<int> pick(0, 29);
  std::normal_distribution<double> noise(0.0, 0.1);
  // A large mean with a small spread: the reference keeps the means accurate.
  for (int t = 1; t <= 40; ++t) {
    const int c = t <= 30 ? pick(rng) : 3;  // repeats, as noisy bandits do
    const double y = 1e6 + std::sin(4 * candidates(0, c)) + noise(rng);
    gp.AddObservation(candidates.col(c), y);
    model.AddObservation(c, y, true);
    if (t % 7 == 0 || t == 1)
      ExpectSameModel(model, gp, candidates, elsewhere, "t " + std::to_string(t));
  }
  // New hyperparameters: rebuilt from every observation.
  Eigen::VectorXd log_params = gp.kernel_log_params();
  log_params(1) += 0.4;
  gp.SetHyperparameters(log_params, 0.02);
  model.SetHyperparameters(log_params, 0.02);
  ExpectSameModel(model, gp, candidates, elsewhere, "after new hyperparameters");
  // Outputs scaled by a power of two (the Optimizer's reward unit).
  gp.ScaleOutputs(-3);
  model.ScaleOutputs(-3);
  ExpectSameModel(model, gp, candidates, elsewhere, "after ScaleOutputs");
  // And the exact GP it hands over when a told point is not a candidate.
  const GaussianProcess exact = model.ExactModel();
  ASSERT_EQ(exact.num_observations(), gp.num_observations());
  EXPECT_EQ(exact.outputs(), gp.outputs());
  EXPECT_EQ(exact.inputs(), gp.inputs());
  ExpectSameModel(model, exact, candidates, elsewhere, "against ExactModel");
}

TEST(FiniteSetModelTest, WithoutStandardizationThePriorMeanIsZero) {
  Rng rng(testing::TestSeed(4));
  const Eigen::MatrixXd candidates = testing::UniformPoints(1, 12, 0.0, 1.0, rng);
  GaussianProcessOptions options;
  options.noise_variance = 0.05;
  options.standardize_outputs = false;
  GaussianProcess gp(MakeSquaredExponential({0}, true, 0.7, 0.2), 1, options);
  FiniteSetModel model(gp.kernel().Clone(), candidates, options);
  ExpectSameModel(model, gp, candidates, testing::UniformPoints(1, 3, 0.0, 1.0, rng), "prior");
  for (int c : {2, 5, 5, 9, 2, 0}) {
    gp.AddObservation(candidates.col(c), 3.0 + candidates(0, c));
    model.AddObservation(c, 3.0 + candidates(0, c), true);
  }
  EXPECT_EQ(model.belief().output_offset(), 0.0);
  EXPECT_EQ(model.belief().output_scale(), 1.0);
  ExpectSameModel(model, gp, candidates, testing::UniformPoints(1, 3, 0.0, 1.0, rng), "t 6");
}

TEST(FiniteSetModelTest, EqualOutputsHaveUnitScale) {
  const Eigen::MatrixXd candidates = Eigen::RowVectorXd::LinSpaced(5, 0.0, 1.0);
  GaussianProcessOptions options;
  FiniteSetModel model(MakeSquaredExponential({0}, true, 1.0, 0.3), candidates, options);
  for (int c : {0, 3, 3, 1}) model.AddObservation(c, 0.1, true);
  EXPECT_EQ(model.belief().output_offset(), 0.1);
  EXPECT_EQ(model.belief().output_scale(), 1.0);
}

// The incumbent is the best mean among candidates holding an accepted reward: a failure's
// imputed value (accepted = false) makes its candidate none.
TEST(FiniteSetModelTest, IncumbentAmongAcceptedCandidatesOnly) {
  const Eigen::MatrixXd candidates = Eigen::RowVectorXd::LinSpaced(6, 0.0, 1.0);
  GaussianProcessOptions options;
  options.noise_variance = 0.01;
  FiniteSetModel model(MakeSquaredExponential({0}, true, 1.0, 0.1), candidates, options);
  int candidate = 7;
  EXPECT_EQ(model.Incumbent(&candidate), -std::numeric_limits<double>::infinity());
  EXPECT_EQ(candidate, -1);
  model.AddObservation(1, 1.0, true);
  model.AddObservation(4, 5.0, false);  // imputed: not an incumbent whatever its mean
  model.AddObservation(2, 2.0, true);
  const double incumbent = model.Incumbent(&candidate);
  EXPECT_EQ(candidate, 2);
  EXPECT_EQ(incumbent, model.belief().Mean(2));
  EXPECT_GT(model.belief().Mean(4), incumbent);
  EXPECT_EQ(model.best_output(), 5.0);
}

TEST(FiniteSetModelTest, RefusesBadObservationsUnchanged) {
  const Eigen::MatrixXd candidates = Eigen::RowVectorXd::LinSpaced(5, 0.0, 1.0);
  GaussianProcessOptions options;
  FiniteSetModel model(MakeSquaredExponential({0}, true, 1.0, 0.3), candidates, options);
  model.AddObservation(2, 1.0, true);
  EXPECT_EQ(model.CandidateIndex(candidates.col(4)), 4);
  EXPECT_EQ(model.CandidateIndex(Eigen::VectorXd::Constant(1, 0.3)), -1);
  const Eigen::VectorXd means = model.belief().Means();
  EXPECT_THROW(model.AddObservation(5, 1.0, true), std::invalid_argument);
  EXPECT_THROW(model.AddObservation(-1, 1.0, true), std::invalid_argument);
  EXPECT_THROW(model.AddObservation(1, std::nan(""), true), std::invalid_argument);
  EXPECT_EQ(model.num_observations(), 1);
  EXPECT_EQ(model.belief().Means(), means);
  options.noise_variance = 0.0;
  EXPECT_THROW(FiniteSetModel(MakeSquaredExponential({0}, true, 1.0, 0.3), candidates, options),
               std::invalid_argument);
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
