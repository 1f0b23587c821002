#include "gpbandit/acquisition/variance_only.h"

#include <gtest/gtest.h>

#include "gpbandit/maximizer/finite_argmax.h"
#include "tests/acquisition/fake_posterior.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

TEST(VarianceOnlyTest, PicksTheMostUncertainPoint) {
  testing::FakePosterior posterior((Eigen::VectorXd(4) << 10.0, 0.7, 0.3, -2.0).finished(),
                                   (Eigen::VectorXd(4) << 0.1, 0.0, 0.2, 3.0).finished());
  VarianceOnly variance;
  variance.BeginRound(testing::MakeRound(1, 4));
  Rng rng(3);
  EXPECT_EQ(FiniteArgmax(variance.ScoreCandidates(posterior, rng)), 3);
  EXPECT_EQ(variance.Score(0.0, -1e-18, nullptr, nullptr), 0.0);  // round-off clamps
  EXPECT_EQ(variance.Clone()->name(), "variance");
}

TEST(VarianceOnlyTest, HasNoOptions) {
  EXPECT_EQ(VarianceOnly().OptionsJson(), "{}");
  EXPECT_EQ(VarianceOnly::Create(StrategyParams())->name(), "variance");
  testing::ExpectInvalid([] { VarianceOnly::Create(StrategyParams().With("xi", 0.1)); },
                         "variance options: unknown key 'xi'; valid keys: none");
}

}  // namespace
}  // namespace gpbandit
