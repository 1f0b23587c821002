// The round chooser of a finite set (optimizer/finite_set_chooser.cc): the argmax of the
// strategy's scores over the candidates the batch does not hold yet, scored on the GP at the
// candidates or on the rank-one belief.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "model/finite_set_belief.h"
#include "optimizer/round_chooser.h"
#include "tests/optimizer/chooser_test_util.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

using testing::ChooserBench;

// Five candidates on a line, 0 to 4: their unit inputs are 0, 0.25, ..., 1.
Domain Five() {
  Eigen::MatrixXd candidates(1, 5);
  candidates << 0.0, 1.0, 2.0, 3.0, 4.0;
  return Domain::FiniteSet(candidates);
}

Eigen::VectorXd Scores(std::vector<double> v) {
  return Eigen::Map<Eigen::VectorXd>(v.data(), static_cast<Eigen::Index>(v.size()));
}

using testing::kNaN;

TEST(FiniteSetChooser, PlaysTheFirstArgmaxOfTheScoresAndRecordsIt) {
  ChooserBench b(Five());
  b.strategy.scores = Scores({0.1, 0.7, 0.3, 0.7, -1.0});
  AskCall call = b.Call(1);
  double value = kNaN;
  Rng rng(1);
  const Eigen::VectorXd x = MakeFiniteSetChooser()->Choose(b.Inputs(), 0, rng, &call, &value);
  EXPECT_EQ(x, Eigen::VectorXd::Constant(1, 1.0));
  EXPECT_EQ(value, 0.7);
  EXPECT_EQ(call.chosen_candidate, std::vector<int>{1});
}

TEST(FiniteSetChooser, SkipsTheCandidatesTheBatchHolds) {
  ChooserBench b(Five());
  b.strategy.scores = Scores({0.1, 0.7, 0.3, 0.7, -1.0});
  AskCall call = b.Call(3);
  const auto chooser = MakeFiniteSetChooser();
  double value = kNaN;
  Rng rng(1);
  std::vector<double> played;
  for (int slot = 0; slot < 3; ++slot)
    played.push_back(chooser->Choose(b.Inputs(), slot, rng, &call, &value)(0));
  EXPECT_EQ(played, (std::vector<double>{1.0, 3.0, 2.0}));
  EXPECT_EQ(call.chosen_candidate, (std::vector<int>{1, 3, 2}));
  EXPECT_EQ(value, 0.3);
}

TEST(FiniteSetChooser, NaNScoresNeverWin) {
  ChooserBench b(Five());
  b.strategy.scores = Scores({kNaN, -5.0, kNaN, -7.0, kNaN});
  AskCall call = b.Call(1);
  double value = kNaN;
  Rng rng(1);
  EXPECT_EQ(MakeFiniteSetChooser()->Choose(b.Inputs(), 0, rng, &call, &value)(0), 1.0);
  EXPECT_EQ(value, -5.0);
}

TEST(FiniteSetChooser, OnlyNaNScoresTakeTheFirstCandidateNotHeldInsteadOfFailing) {
  ChooserBench b(Five());
  b.strategy.scores = Eigen::VectorXd::Constant(5, kNaN);
  AskCall call = b.Call(2);
  call.chosen_candidate = {0, 2};  // held by the batch
  double value = 0.0;
  Rng rng(1);
  EXPECT_EQ(MakeFiniteSetChooser()->Choose(b.Inputs(), 1, rng, &call, &value)(0), 1.0);
  EXPECT_TRUE(std::isnan(value));
  EXPECT_EQ(call.chosen_candidate, (std::vector<int>{0, 2, 1}));
}

TEST(FiniteSetChooser, ScoresTheGpAtTheRoundsCandidateInputs) {
  ChooserBench b(Five());
  // One observation, y = 1 at candidate 3 (unit input 0.75): the mean peaks there.
  b.gp.AddObservation(Eigen::VectorXd::Constant(1, 0.75), 1.0);
  AskCall call = b.Call(1);
  double value = kNaN;
  Rng rng(1);
  const Eigen::VectorXd x = MakeFiniteSetChooser()->Choose(b.Inputs(), 0, rng, &call, &value);
  EXPECT_EQ(x(0), 3.0);
  ASSERT_EQ(b.strategy.last_means.size(), 5);
  // Squared exponential, variance 1, lengthscale 0.3, noise 1e-4, no standardization: the mean
  // at u is exp(-(u - 0.75)^2 / (2 0.3^2)) / (1 + 1e-4).
  for (int c = 0; c < 5; ++c) {
    const double u = 0.25 * c;
    const double expected = std::exp(-(u - 0.75) * (u - 0.75) / (2 * 0.09)) / (1.0 + 1e-4);
    EXPECT_NEAR(b.strategy.last_means(c), expected, 1e-9) << "candidate " << c;
  }
  EXPECT_NEAR(value, 1.0 / (1.0 + 1e-4), 1e-9);
}

TEST(FiniteSetChooser, ScoresTheRankOneBeliefWhenThePosteriorHasOne) {
  ChooserBench b(Five());
  const double lambda = 0.01;
  FiniteSetBelief belief(*MakeSquaredExponential({0}, true, 1.0, 0.3), b.round.unit_candidates,
                         lambda, /*standardize=*/false);
  belief.Observe(1, 2.0);
  const AskPosterior posterior(belief);
  const ChoiceInputs in{b.domain, b.strategy, b.options, *b.replica->model, posterior,
                        b.round,  b.pending,  0.0,       b.replica.get()};
  AskCall call = b.Call(1);
  double value = kNaN;
  Rng rng(1);
  EXPECT_EQ(MakeFiniteSetChooser()->Choose(in, 0, rng, &call, &value)(0), 1.0);
  // At the observed candidate the mean is k / (k + lambda) * y = 2 / 1.01.
  EXPECT_NEAR(value, 2.0 / (1.0 + lambda), 1e-12);
  for (int c = 0; c < 5; ++c) {
    const double d = 0.25 * (c - 1);
    EXPECT_NEAR(b.strategy.last_means(c), std::exp(-d * d / 0.18) * 2.0 / (1.0 + lambda), 1e-12)
        << "candidate " << c;
  }
  EXPECT_EQ(b.strategy.last_gp, nullptr);  // no GP was asked for
}

}  // namespace
}  // namespace gpbandit
