// The ask's posterior (optimizer/ask_posterior.cc, declared in optimizer/round_chooser.h): the
// model itself until the first hallucination, then a copy in which each hallucinated point is
// observed at its own posterior mean (GP-BUCB: the variance shrinks, the mean does not move),
// on a GP or on a finite set's rank-one belief.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "gpbandit/kernel/kernel_factory.h"
#include "model/finite_set_belief.h"
#include "optimizer/round_chooser.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

constexpr double kNoise = 0.01;
constexpr double kLengthscale = 0.3;

// k(a, b) of the squared exponential of variance 1 on the line.
double K(double a, double b) {
  return std::exp(-(a - b) * (a - b) / (2.0 * kLengthscale * kLengthscale));
}

// A GP on the line without standardization (prior mean 0, variance 1), observed y0 at x0.
GaussianProcess Model(double x0, double y0) {
  GaussianProcessOptions options;
  options.noise_variance = kNoise;
  options.standardize_outputs = false;
  GaussianProcess gp(MakeSquaredExponential({0}, true, 1.0, kLengthscale), 1, options);
  gp.AddObservation(Eigen::VectorXd::Constant(1, x0), y0);
  return gp;
}

using testing::At;

TEST(AskPosterior, ReadsTheModelItselfUntilTheFirstHallucination) {
  const GaussianProcess model = Model(0.2, 1.5);
  const AskPosterior posterior(model);
  EXPECT_EQ(&posterior.gp(), &model);
  EXPECT_EQ(posterior.finite(), nullptr);
  EXPECT_EQ(posterior.num_hallucinated(), 0);
}

TEST(AskPosterior, AHallucinatedPointShrinksTheVarianceAndLeavesTheMean) {
  const GaussianProcess model = Model(0.2, 1.5);
  AskPosterior posterior(model);
  const double u = 0.5;
  posterior.Hallucinate(At(u), -1);
  EXPECT_EQ(posterior.num_hallucinated(), 1);
  EXPECT_NE(&posterior.gp(), &model);
  EXPECT_EQ(model.num_observations(), 1);  // the model never sees it
  EXPECT_EQ(posterior.gp().num_observations(), 2);
  // By hand: after (0.2, 1.5) the mean is m(x) = k(x, 0.2) 1.5 / (1 + lambda) and the
  // covariance c(a, b) = k(a, b) - k(a, 0.2) k(0.2, b) / (1 + lambda). Observing m(u) at u leaves
  // the mean everywhere; the variance becomes v(x) - c(x, u)^2 / (v(u) + lambda).
  const auto c = [](double a, double b) { return K(a, b) - K(a, 0.2) * K(0.2, b) / (1 + kNoise); };
  for (double x : {0.0, 0.2, 0.45, 0.5, 0.9}) {
    EXPECT_NEAR(posterior.gp().Mean(At(x)), K(x, 0.2) * 1.5 / (1 + kNoise), 1e-9) << "x " << x;
    const double expected = c(x, x) - c(x, u) * c(x, u) / (c(u, u) + kNoise);
    EXPECT_NEAR(posterior.gp().Variance(At(x)), expected, 1e-9) << "x " << x;
  }
  EXPECT_NEAR(model.Variance(At(u)), c(u, u), 1e-9);
}

TEST(AskPosterior, EveryHallucinationIsCounted) {
  const GaussianProcess model = Model(0.2, 1.5);
  AskPosterior posterior(model);
  posterior.Hallucinate(At(0.5), -1);
  const GaussianProcess* copy = &posterior.gp();
  posterior.Hallucinate(At(0.8), -1);
  EXPECT_EQ(posterior.num_hallucinated(), 2);
  EXPECT_EQ(&posterior.gp(), copy);  // one copy for the call
  EXPECT_EQ(posterior.gp().num_observations(), 3);
}

TEST(AskPosterior, DetachStopsReadingTheModel) {
  GaussianProcess model = Model(0.2, 1.5);
  AskPosterior posterior(model);
  posterior.Detach();
  EXPECT_NE(&posterior.gp(), &model);
  EXPECT_EQ(posterior.num_hallucinated(), 0);
  model.AddObservation(At(0.9), -3.0);
  EXPECT_EQ(posterior.gp().num_observations(), 1);
  EXPECT_NEAR(posterior.gp().Mean(At(0.2)), 1.5 / (1 + kNoise), 1e-12);
}

// Three candidates on the line; the belief has no standardization (prior mean 0, variance 1).
FiniteSetBelief Belief() {
  Eigen::MatrixXd candidates(1, 3);
  candidates << 0.0, 0.5, 1.0;
  return FiniteSetBelief(*MakeSquaredExponential({0}, true, 1.0, kLengthscale), candidates, kNoise,
                         /*standardize=*/false);
}

TEST(AskPosterior, OnARankOneBeliefThereIsNoGp) {
  const FiniteSetBelief belief = Belief();
  const AskPosterior posterior(belief);
  EXPECT_EQ(posterior.finite(), &belief);
  EXPECT_THROW(posterior.gp(), std::logic_error);
}

TEST(AskPosterior, ARankOneHallucinationObservesTheCandidateAtItsMean) {
  FiniteSetBelief belief = Belief();
  belief.Observe(0, 2.0);
  AskPosterior posterior(belief);
  posterior.Hallucinate(At(0.5), 1);
  ASSERT_NE(posterior.finite(), nullptr);
  EXPECT_NE(posterior.finite(), &belief);
  EXPECT_EQ(belief.num_observations(), 1);
  EXPECT_EQ(posterior.finite()->num_observations(), 2);
  EXPECT_EQ(posterior.num_hallucinated(), 1);
  // The mean at candidate 1 stays k(0.5, 0) 2 / (1 + lambda); its variance is then
  // c11 - c11^2 / (c11 + lambda) with c11 = 1 - k(0.5, 0)^2 / (1 + lambda).
  const double k = K(0.5, 0.0);
  const double c11 = 1.0 - k * k / (1 + kNoise);
  EXPECT_NEAR(posterior.finite()->Mean(1), k * 2.0 / (1 + kNoise), 1e-12);
  EXPECT_NEAR(posterior.finite()->Variance(1), c11 * kNoise / (c11 + kNoise), 1e-12);
  EXPECT_NEAR(belief.Variance(1), c11, 1e-12);
}

TEST(AskPosterior, ARankOneHallucinationNeedsACandidateAndChangesNothingWithout) {
  const FiniteSetBelief belief = Belief();
  AskPosterior posterior(belief);
  EXPECT_THROW(posterior.Hallucinate(At(0.5), -1), std::logic_error);
  EXPECT_EQ(posterior.num_hallucinated(), 0);
  EXPECT_EQ(posterior.finite(), &belief);
}

TEST(AskPosterior, DetachCopiesTheBelief) {
  FiniteSetBelief belief = Belief();
  AskPosterior posterior(belief);
  posterior.Detach();
  EXPECT_NE(posterior.finite(), &belief);
  belief.Observe(2, 1.0);
  EXPECT_EQ(posterior.finite()->num_observations(), 0);
}

}  // namespace
}  // namespace gpbandit
