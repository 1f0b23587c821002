#include "gpbandit/acquisition/mean_only.h"

#include <gtest/gtest.h>

#include "gpbandit/maximizer/finite_argmax.h"
#include "tests/acquisition/fake_posterior.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

TEST(MeanOnlyTest, PicksTheArgmaxOfTheMean) {
  testing::FakePosterior posterior((Eigen::VectorXd(4) << 0.1, 0.7, 0.3, -2.0).finished(),
                                   (Eigen::VectorXd(4) << 5.0, 0.0, 9.0, 1.0).finished());
  MeanOnly mean;
  mean.BeginRound(testing::MakeRound(1, 4));
  Rng rng(3);
  const Eigen::VectorXd scores = mean.ScoreCandidates(posterior, rng);
  EXPECT_EQ(FiniteArgmax(scores), 1);
  EXPECT_EQ(scores(3), -2.0);
  double d_mean = 0, d_variance = 1;
  mean.Score(0.0, 1.0, &d_mean, &d_variance);
  EXPECT_EQ(d_mean, 1.0);
  EXPECT_EQ(d_variance, 0.0);
  EXPECT_EQ(mean.Clone()->name(), "mean");
}

TEST(MeanOnlyTest, HasNoOptions) {
  EXPECT_EQ(MeanOnly().OptionsJson(), "{}");
  EXPECT_EQ(MeanOnly::Create(StrategyParams())->name(), "mean");
  testing::ExpectInvalid([] { MeanOnly::Create(StrategyParams().With("xi", 0.1)); },
                         "mean options: unknown key 'xi'; valid keys: none");
}

}  // namespace
}  // namespace gpbandit
