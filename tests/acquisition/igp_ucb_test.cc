#include "gpbandit/acquisition/igp_ucb.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "gpbandit/maximizer/finite_argmax.h"
#include "tests/acquisition/fake_posterior.h"
#include "tests/acquisition/options_json_test_util.h"

namespace gpbandit {
namespace {

using testing::FakePosterior;
using testing::MakeRound;

TEST(IgpUcbTest, BetaFromInformationGainAndScoreWithoutSqrt) {
  IgpUcbOptions options;
  options.rkhs_bound = 1.0;
  options.noise_bound = 0.5;
  IgpUcb igp(options);
  igp.BeginRound(MakeRound(3, 5, 0.0, 2.0));
  const double beta = 1.0 + 0.5 * std::sqrt(2.0 * (2.0 + 1.0 + std::log(10.0)));
  EXPECT_NEAR(igp.figure(), beta, 1e-12);
  double d_mean = 0, d_variance = 0;
  // mu + beta sigma (IGP-UCB multiplies sigma by beta_t itself).
  EXPECT_NEAR(igp.Score(0.5, 0.25, &d_mean, &d_variance), 0.5 + beta * 0.5, 1e-12);
  EXPECT_NEAR(d_variance, beta / (2.0 * 0.5), 1e-12);
}

TEST(IgpUcbTest, LargeBoundExploresSmallBoundExploits) {
  FakePosterior posterior((Eigen::VectorXd(3) << 1.0, 0.0, 0.9).finished(),
                          (Eigen::VectorXd(3) << 1e-6, 1.0, 1e-6).finished());
  Rng rng(1);
  IgpUcbOptions options;
  options.rkhs_bound = 50.0;
  IgpUcb explorer(options);
  explorer.BeginRound(MakeRound(1, 3));
  EXPECT_EQ(FiniteArgmax(explorer.ScoreCandidates(posterior, rng)), 1);
  options.rkhs_bound = 0.0;
  options.noise_bound = 1e-3;
  IgpUcb exploiter(options);
  exploiter.BeginRound(MakeRound(1, 3));
  EXPECT_EQ(FiniteArgmax(exploiter.ScoreCandidates(posterior, rng)), 0);
}

TEST(IgpUcbTest, DefaultNoiseBoundComesFromTheModelWithAFloor) {
  IgpUcb igp;
  EXPECT_EQ(igp.options().noise_bound, -1.0);
  EXPECT_EQ(igp.options().min_noise_bound, 0.02);
  EXPECT_EQ(igp.options().rkhs_bound, 0.5);
  // A noisy model: R = sqrt(0.09 / 4) = 0.15; lambda = the model's noise, so gamma is the round's.
  RoundState noisy = MakeRound(5, 0, 0.0, 3.0);
  noisy.noise_variance = 0.09;
  noisy.signal_variance = 4.0;
  igp.BeginRound(noisy);
  EXPECT_NEAR(igp.figure(), 0.5 + 0.15 * std::sqrt(2.0 * (3.0 + 1.0 + std::log(10.0))), 1e-12);
  // A noiseless model (fitted noise 1e-10): R = 0.02, gamma taken at lambda = 0.02^2 * 4 from
  // the sequential variances 2, 0.5, 0.016: 1/2 (log 1251 + log 313.5 + log 11).
  RoundState noiseless = noisy;
  noiseless.noise_variance = 1e-10 * 4.0;
  noiseless.information_gain = 30.0;  // the model's own, at its tiny noise: not used
  noiseless.sequential_variances = Eigen::Vector3d(2.0, 0.5, 0.016);
  igp.BeginRound(noiseless);
  const double gamma = 0.5 * (std::log(1251.0) + std::log(313.5) + std::log(11.0));
  EXPECT_NEAR(igp.figure(), 0.5 + 0.02 * std::sqrt(2.0 * (gamma + 1.0 + std::log(10.0))), 1e-12);
}

TEST(IgpUcbTest, RejectsBadOptionsAndRounds) {
  IgpUcbOptions options;
  options.noise_bound = std::nan("");
  EXPECT_THROW(IgpUcb{options}, std::invalid_argument);
  options.noise_bound = -1.0;
  options.min_noise_bound = -0.5;
  EXPECT_THROW(IgpUcb{options}, std::invalid_argument);
  options.min_noise_bound = 0.02;
  // B = R = 0 gives beta_t = 0: not a confidence bound, rejected.
  options.noise_bound = 0.0;
  options.rkhs_bound = 0.0;
  EXPECT_THROW(IgpUcb{options}, std::invalid_argument);
  IgpUcb igp;
  igp.BeginRound(MakeRound(2, 4, 0.0, 1.0));
  const double before = igp.figure();
  EXPECT_THROW(igp.BeginRound(MakeRound(0, 4)), std::invalid_argument);
  EXPECT_EQ(igp.figure(), before);
}

TEST(IgpUcbTest, OptionsSurviveJsonExactly) {
  using namespace testing;  // NOLINT: the extreme doubles
  IgpUcbOptions o;
  o.rkhs_bound = 1e300;
  o.noise_bound = kSmallestSubnormal;
  o.min_noise_bound = kLargest;
  o.delta = kPointThree;
  o.gamma.source = GammaSource::kSquaredExponentialBound;
  o.gamma.dim = 7;
  o.gamma.nu = kThird;
  o.gamma.scale = kLargest;
  const IgpUcb ucb(o);
  const auto back = RebuiltFromJson(ucb);
  ASSERT_NE(back, nullptr);
  ExpectSameBoundFields(back->options(), o);
  EXPECT_EQ(back->OptionsJson(), ucb.OptionsJson());
  EXPECT_EQ(
      StrategyParams(ucb.OptionsJson()).keys(),
      (std::vector<std::string>{"delta", "gamma_dim", "gamma_nu", "gamma_scale", "gamma_source",
                                "min_noise_bound", "noise_bound", "rkhs_bound"}));
}

}  // namespace
}  // namespace gpbandit
