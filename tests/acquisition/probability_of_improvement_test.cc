#include "gpbandit/acquisition/probability_of_improvement.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "tests/acquisition/fake_posterior.h"
#include "tests/acquisition/options_json_test_util.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

using testing::MakeRound;

TEST(ProbabilityOfImprovementTest, ClosedForm) {
  ProbabilityOfImprovement pi{ImprovementOptions()};  // no margin
  pi.BeginRound(MakeRound(1, 1, 0.0));
  // Phi(-0.5) = 0.5 erfc(0.5 / sqrt(2)) = 0.308537538725987.
  EXPECT_NEAR(pi.Score(-0.5, 1.0, nullptr, nullptr), 0.30853753872598688, 1e-14);
  // Phi(1) with mu = 2, sigma = 2, best = 0 and xi = 0: z = 1.
  EXPECT_NEAR(pi.Score(2.0, 4.0, nullptr, nullptr), 0.84134474606854293, 1e-14);
  ImprovementOptions options;
  options.xi = 2.0;
  ProbabilityOfImprovement margin(options);
  margin.BeginRound(MakeRound(1, 1, 0.0));
  EXPECT_NEAR(margin.Score(2.0, 4.0, nullptr, nullptr), 0.5, 1e-15);
}

// The default margin is 0.005 prior standard deviations of f per action dimension: in 2-D with
// signal variance 4, xi = 0.005 * 2 * 2 = 0.02, and PI(mu = 2, sigma = 2, best = 0) = Phi(0.99) =
// 0.83891294...; xi adds to it; in 10-D the margin is 0.1 and PI = Phi(0.95) = 0.82894387...
TEST(ProbabilityOfImprovementTest, DefaultMarginGrowsWithTheActionDimension) {
  EXPECT_EQ(ProbabilityOfImprovement::DefaultOptions().relative_xi_per_dim, 0.005);
  EXPECT_EQ(ProbabilityOfImprovement::DefaultOptions().relative_xi, 0.0);
  EXPECT_EQ(ProbabilityOfImprovement::DefaultOptions().xi, 0.0);
  ProbabilityOfImprovement pi;
  EXPECT_EQ(pi.options().relative_xi_per_dim, 0.005);
  RoundState state = MakeRound(1, 1, 0.0);
  state.action_dim = 2;
  state.signal_variance = 4.0;
  pi.BeginRound(state);
  EXPECT_DOUBLE_EQ(pi.figure(), 0.02);
  EXPECT_NEAR(pi.Score(2.0, 4.0, nullptr, nullptr), 0.8389129404891691, 1e-14);
  RoundState wide = state;
  wide.action_dim = 10;
  pi.BeginRound(wide);
  EXPECT_DOUBLE_EQ(pi.figure(), 0.1);
  EXPECT_NEAR(pi.Score(2.0, 4.0, nullptr, nullptr), 0.8289438736915182, 1e-14);
  ImprovementOptions options = ProbabilityOfImprovement::DefaultOptions();
  options.xi = 0.08;
  options.relative_xi = 0.05;  // adds to the per-dimension margin: (0.05 + 0.01) * 2 = 0.12
  ProbabilityOfImprovement both(options);
  both.BeginRound(state);
  EXPECT_DOUBLE_EQ(both.figure(), 0.2);
  EXPECT_NEAR(both.Score(2.0, 4.0, nullptr, nullptr), 0.8159398746532405, 1e-14);  // Phi(0.9)
  // The registry's factory starts from the same defaults; a given key overrides them.
  const auto created = ProbabilityOfImprovement::Create(StrategyParams());
  EXPECT_EQ(static_cast<const ProbabilityOfImprovement&>(*created).options().relative_xi_per_dim,
            0.005);
  const auto none =
      ProbabilityOfImprovement::Create(StrategyParams(R"({"relative_xi_per_dim": 0})"));
  EXPECT_EQ(static_cast<const ProbabilityOfImprovement&>(*none).options().relative_xi_per_dim, 0.0);
  options.relative_xi = -1.0;
  EXPECT_THROW(ProbabilityOfImprovement{options}, std::invalid_argument);
  options.relative_xi = 0.0;
  for (double bad :
       {-0.5, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
    options.relative_xi_per_dim = bad;
    try {
      ProbabilityOfImprovement{options};
      ADD_FAILURE() << "accepted relative_xi_per_dim = " << bad;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("relative_xi_per_dim"), std::string::npos) << e.what();
    }
  }
}

TEST(ProbabilityOfImprovementTest, DegenerateCasesAreFinite) {
  ProbabilityOfImprovement pi{ImprovementOptions()};
  pi.BeginRound(MakeRound(1, 1, 1.0));
  EXPECT_EQ(pi.Score(2.0, 0.0, nullptr, nullptr), 1.0);
  EXPECT_EQ(pi.Score(1.0, 0.0, nullptr, nullptr), 0.5);
  EXPECT_EQ(pi.Score(0.0, 0.0, nullptr, nullptr), 0.0);
  const double far = pi.Score(-1e4, 1.0, nullptr, nullptr);
  EXPECT_TRUE(std::isfinite(far));
  EXPECT_EQ(far, 0.0);
  pi.BeginRound(MakeRound(1, 1, -std::numeric_limits<double>::infinity()));
  EXPECT_EQ(pi.Score(0.0, 1.0, nullptr, nullptr), 1.0);
}

TEST(ProbabilityOfImprovementTest, DerivativesMatchFiniteDifferences) {
  ProbabilityOfImprovement pi;
  pi.BeginRound(MakeRound(1, 1, 0.2));
  for (double mean : {-1.5, 0.0, 0.7}) {
    for (double variance : {0.09, 1.0, 3.0}) {
      double d_mean = 0, d_variance = 0;
      pi.Score(mean, variance, &d_mean, &d_variance);
      testing::ExpectGradientNear(
          [&](const Eigen::VectorXd& p) { return pi.Score(p(0), p(1), nullptr, nullptr); },
          Eigen::Vector2d(mean, variance), Eigen::Vector2d(d_mean, d_variance), 1e-6, 1e-9, "PI");
    }
  }
}

TEST(ProbabilityOfImprovementTest, OptionsSurviveJsonExactly) {
  testing::ExpectXiSurvivesJson<ProbabilityOfImprovement>();
}

}  // namespace
}  // namespace gpbandit
