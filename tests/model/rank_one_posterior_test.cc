// The rank-one posterior against the exact GP on the same observations: means and variances at
// the candidates and elsewhere to ~1e-9, round statistics, refit data; and a told point that is
// no candidate rejected without change.
#include "model/rank_one_posterior.h"

#include <gtest/gtest.h>

#include <random>
#include <stdexcept>

#include "gpbandit/kernel/kernel_factory.h"
#include "model/exact_posterior.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

struct Pair {
  RankOnePosterior rank_one;
  ExactPosterior exact;
};

Pair ObservedPair(const Eigen::MatrixXd& candidates, int t, Rng& rng) {
  GaussianProcessOptions options;
  options.noise_variance = 0.02;
  auto kernel = MakeMatern52(FirstDims(2), true, 1.2, 0.3);
  Pair p{RankOnePosterior(kernel->Clone(), candidates, options),
         ExactPosterior(kernel->Clone(), 2, options)};
  std::uniform_int_distribution<int> pick(0, static_cast<int>(candidates.cols()) - 1);
  std::normal_distribution<double> noise(0.0, 0.1);
  for (int i = 0; i < t; ++i) {
    const int c = pick(rng);
    const double y = 5.0 + std::sin(4.0 * candidates(0, c)) + noise(rng);
    p.rank_one.AddObservation(candidates.col(c), y, i % 3 != 0);
    p.exact.AddObservation(candidates.col(c), y, i % 3 != 0);
  }
  return p;
}

void ExpectSamePosterior(const PosteriorModel& a, const PosteriorModel& b,
                         const Eigen::MatrixXd& at) {
  Eigen::VectorXd ma, va, mb, vb;
  a.Posterior(at, &ma, &va);
  b.Posterior(at, &mb, &vb);
  for (Eigen::Index j = 0; j < at.cols(); ++j) {
    EXPECT_NEAR(ma(j), mb(j), 1e-9 * std::max(1.0, std::abs(mb(j)))) << j;
    EXPECT_NEAR(va(j), vb(j), 1e-9) << j;
  }
}

TEST(RankOnePosteriorTest, EqualsTheExactGpOnTheSameData) {
  Rng rng(testing::TestSeed(31));
  const Eigen::MatrixXd candidates = testing::UniformPoints(2, 25, 0.0, 1.0, rng);
  Pair p = ObservedPair(candidates, 30, rng);
  EXPECT_EQ(p.rank_one.kind(), PosteriorKind::kRankOne);
  EXPECT_EQ(p.rank_one.gp(), nullptr);
  EXPECT_EQ(p.rank_one.num_observations(), 30);
  ExpectSamePosterior(p.rank_one, p.exact, candidates);
  ExpectSamePosterior(p.rank_one, p.exact, testing::UniformPoints(2, 6, 0.0, 1.0, rng));
  EXPECT_NEAR(p.rank_one.InformationGain(), p.exact.InformationGain(), 1e-9);
  const Eigen::VectorXd a = p.rank_one.MeansAtObservations(), b = p.exact.MeansAtObservations();
  for (Eigen::Index i = 0; i < a.size(); ++i) EXPECT_NEAR(a(i), b(i), 1e-8) << i;
  // New hyperparameters and scaled outputs keep them equal.
  Eigen::VectorXd log_params = p.exact.kernel_log_params();
  log_params(0) += 0.3;
  p.rank_one.SetHyperparameters(log_params, 0.03);
  p.exact.SetHyperparameters(log_params, 0.03);
  p.rank_one.ScaleOutputs(-2);
  p.exact.ScaleOutputs(-2);
  ExpectSamePosterior(p.rank_one, p.exact, candidates);
  EXPECT_EQ(p.rank_one.noise_variance(), 0.03);
}

TEST(RankOnePosteriorTest, RoundStatisticsMatchTheExactGpAndKeepTheIncumbent) {
  Rng rng(testing::TestSeed(32));
  const Eigen::MatrixXd candidates = testing::UniformPoints(2, 20, 0.0, 1.0, rng);
  const Pair p = ObservedPair(candidates, 25, rng);
  RoundState rank_one, exact;
  p.rank_one.RoundStatistics(true, &rank_one);
  p.exact.RoundStatistics(true, &exact);
  EXPECT_NEAR(rank_one.information_gain, exact.information_gain, 1e-9);
  EXPECT_NEAR(rank_one.signal_variance, exact.signal_variance, 1e-9 * exact.signal_variance);
  EXPECT_NEAR(rank_one.noise_variance, exact.noise_variance, 1e-6 * exact.noise_variance);
  EXPECT_EQ(rank_one.best_observed, exact.best_observed);
  ASSERT_EQ(rank_one.sequential_variances.size(), exact.sequential_variances.size());
  for (Eigen::Index i = 0; i < rank_one.sequential_variances.size(); ++i)
    EXPECT_NEAR(rank_one.sequential_variances(i), exact.sequential_variances(i), 1e-9) << i;
  int candidate = -1;
  EXPECT_EQ(rank_one.incumbent, p.rank_one.model().Incumbent(&candidate));
  EXPECT_GT(rank_one.incumbent, -INFINITY);
  EXPECT_EQ(exact.incumbent, -INFINITY);  // the exact model leaves it to the caller
}

TEST(RankOnePosteriorTest, FitDataIsTheExactGpOnEvenlySpacedRows) {
  Rng rng(testing::TestSeed(33));
  const Eigen::MatrixXd candidates = testing::UniformPoints(2, 10, 0.0, 1.0, rng);
  const Pair p = ObservedPair(candidates, 12, rng);
  const GaussianProcess data = p.rank_one.FitData(4);
  const GaussianProcess expected = p.exact.FitData(4);
  EXPECT_EQ(data.inputs(), expected.inputs());
  EXPECT_EQ(data.outputs(), expected.outputs());
  EXPECT_EQ(p.rank_one.FitData(50).outputs(), p.exact.gp()->outputs());
}

TEST(RankOnePosteriorTest, NoCandidateIsRejectedWithoutChange) {
  Rng rng(testing::TestSeed(34));
  const Eigen::MatrixXd candidates = testing::UniformPoints(2, 8, 0.0, 1.0, rng);
  Pair p = ObservedPair(candidates, 5, rng);
  EXPECT_THROW(p.rank_one.AddObservation(Eigen::VectorXd::Constant(2, 2.0), 1.0, true),
               std::invalid_argument);
  EXPECT_THROW(p.rank_one.AddObservation(candidates.col(0), std::nan(""), true),
               std::invalid_argument);
  EXPECT_EQ(p.rank_one.num_observations(), 5);
  ExpectSamePosterior(p.rank_one, p.exact, candidates);
}

}  // namespace
}  // namespace gpbandit
