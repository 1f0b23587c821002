// The acquisitions of several outcomes (outcome_acquisition.h): each rule's value against its
// formula evaluated here from the GPs' own means and variances, and every gradient against
// finite differences.
#include "gpbandit/acquisition/outcome_acquisition.h"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "gpbandit/acquisition/ehvi.h"
#include "gpbandit/acquisition/feasibility.h"
#include "gpbandit/acquisition/gp_ts.h"
#include "gpbandit/acquisition/gp_ucb.h"
#include "gpbandit/acquisition/log_expected_improvement.h"
#include "gpbandit/acquisition/probability_of_improvement.h"
#include "gpbandit/kernel/kernel_factory.h"
#include "tests/acquisition/fake_posterior.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

// A GP over [0, 1]^2 through n seeded points of f.
GaussianProcess FittedGp(double (*f)(const Eigen::VectorXd&), int n, std::uint64_t seed) {
  GaussianProcessOptions options;
  options.noise_variance = 1e-4;
  GaussianProcess gp(MakeMatern52({0, 1}, true, 1.0, 0.4), 2, options);
  Rng rng(seed);
  const Eigen::MatrixXd X = testing::UniformPoints(2, n, 0.0, 1.0, rng);
  for (int j = 0; j < n; ++j) gp.AddObservation(X.col(j), f(X.col(j)));
  return gp;
}

double F0(const Eigen::VectorXd& x) { return std::sin(3 * x(0)) + x(1); }
double F1(const Eigen::VectorXd& x) { return -std::pow(x(0) - 0.3, 2) + 0.5 * x(1) * x(1); }
double C0(const Eigen::VectorXd& x) { return x(0) + x(1) - 1.0; }

struct Models {
  GaussianProcess f0 = FittedGp(F0, 8, 1), f1 = FittedGp(F1, 8, 2), c0 = FittedGp(C0, 8, 3);
};

void Posterior(const GaussianProcess& gp, const Eigen::VectorXd& x, double* mean, double* sd) {
  double variance = 0.0;
  gp.MeanAndVariance(x, mean, &variance);
  *sd = std::sqrt(variance);
}

OutcomeRound Round(const Models& m, int k, bool constrained, const Eigen::MatrixXd& front) {
  OutcomeRound round;
  round.objectives = {&m.f0};
  if (k == 2) round.objectives.push_back(&m.f1);
  if (constrained) round.constraints = {&m.c0};
  round.front = front;
  round.reference = Eigen::VectorXd::Constant(k, -2.0);
  round.normalization.lower = Eigen::VectorXd::Constant(k, -1.0);
  round.normalization.upper = Eigen::VectorXd::Constant(k, 2.0);
  round.weights = k == 2 ? Eigen::VectorXd(Eigen::Vector2d(0.3, 0.7)) : Eigen::VectorXd::Ones(1);
  return round;
}

void ExpectGradientMatches(const ContinuousAcquisition& a, const Eigen::VectorXd& x,
                           const std::string& what) {
  Eigen::VectorXd gradient;
  a.Evaluate(x, &gradient);
  testing::ExpectGradientNear([&](const Eigen::VectorXd& y) { return a.Evaluate(y, nullptr); }, x,
                              gradient, 1e-4, 1e-6, what);
}

const Eigen::Vector2d kPoints[] = {Eigen::Vector2d(0.2, 0.3), Eigen::Vector2d(0.7, 0.55),
                                   Eigen::Vector2d(0.45, 0.9)};

TEST(OutcomeAcquisition, SearchesForFeasibilityWhileNothingObservedIsFeasible) {
  const Models m;
  LogExpectedImprovement ei;
  ei.BeginRound(testing::MakeRound(5, 0));
  Rng rng(1);
  const auto a = MakeOutcomeAcquisition(ei, Round(m, 1, true, Eigen::MatrixXd(1, 0)), rng);
  for (const Eigen::Vector2d& x : kPoints) {
    double mean, sd;
    Posterior(m.c0, x, &mean, &sd);
    EXPECT_NEAR(a->Evaluate(x, nullptr), std::log(0.5 * std::erfc(mean / sd / std::sqrt(2.0))),
                1e-9);
    ExpectGradientMatches(*a, x, "log PoF");
  }
}

TEST(OutcomeAcquisition, ConstrainedLogEiIsLogEiPlusLogPof) {
  const Models m;
  LogExpectedImprovement ei;
  ei.BeginRound(testing::MakeRound(5, 0));
  Rng rng(1);
  const Eigen::MatrixXd front = (Eigen::MatrixXd(1, 2) << 0.4, 1.1).finished();
  const auto a = MakeOutcomeAcquisition(ei, Round(m, 1, true, front), rng);
  for (const Eigen::Vector2d& x : kPoints) {
    double fm, fs, cm, cs;
    Posterior(m.f0, x, &fm, &fs);
    Posterior(m.c0, x, &cm, &cs);
    const double z = (fm - 1.1) / fs;
    const double ei_value = fs * (std::exp(-z * z / 2) / std::sqrt(2 * M_PI) +
                                  z * 0.5 * std::erfc(-z / std::sqrt(2.0)));
    const double expected =
        std::log(ei_value) + std::log(0.5 * std::erfc(cm / cs / std::sqrt(2.0)));
    EXPECT_NEAR(a->Evaluate(x, nullptr), expected, 1e-8 * (1 + std::abs(expected)));
    ExpectGradientMatches(*a, x, "constrained log EI");
  }
}

TEST(OutcomeAcquisition, ProbabilityOfImprovementTakesLogPhiPlusLogPof) {
  const Models m;
  ProbabilityOfImprovement pi;
  pi.BeginRound(testing::MakeRound(5, 0));
  Rng rng(1);
  const Eigen::MatrixXd front = (Eigen::MatrixXd(1, 1) << 0.9).finished();
  const auto a = MakeOutcomeAcquisition(pi, Round(m, 1, true, front), rng);
  for (const Eigen::Vector2d& x : kPoints) {
    double fm, fs, cm, cs;
    Posterior(m.f0, x, &fm, &fs);
    Posterior(m.c0, x, &cm, &cs);
    const double expected = std::log(0.5 * std::erfc(-(fm - 0.9) / fs / std::sqrt(2.0))) +
                            std::log(0.5 * std::erfc(cm / cs / std::sqrt(2.0)));
    EXPECT_NEAR(a->Evaluate(x, nullptr), expected, 1e-8 * (1 + std::abs(expected)));
    ExpectGradientMatches(*a, x, "constrained log PI");
  }
}

TEST(OutcomeAcquisition, TwoObjectivesTakeLogEhviOverTheFront) {
  const Models m;
  LogExpectedHypervolumeImprovement ehvi;
  ehvi.BeginRound(testing::MakeRound(5, 0));
  Rng rng(1);
  const Eigen::MatrixXd front =
      (Eigen::MatrixXd(2, 3) << 0.5, 1.0, -1.5, 0.2, -0.1, 0.3).finished();
  for (const bool constrained : {false, true}) {
    const auto a = MakeOutcomeAcquisition(ehvi, Round(m, 2, constrained, front), rng);
    const ExpectedHypervolumeImprovement reference_ehvi(front, Eigen::Vector2d(-2.0, -2.0));
    for (const Eigen::Vector2d& x : kPoints) {
      Eigen::Vector2d mean, sd;
      Posterior(m.f0, x, &mean(0), &sd(0));
      Posterior(m.f1, x, &mean(1), &sd(1));
      double expected = std::log(reference_ehvi.Value(mean, sd, nullptr, nullptr));
      if (constrained) {
        double cm, cs;
        Posterior(m.c0, x, &cm, &cs);
        expected += std::log(0.5 * std::erfc(cm / cs / std::sqrt(2.0)));
      }
      EXPECT_NEAR(a->Evaluate(x, nullptr), expected, 1e-8 * (1 + std::abs(expected)));
      ExpectGradientMatches(*a, x, constrained ? "log EHVI + log PoF" : "log EHVI");
    }
  }
}

TEST(OutcomeAcquisition, IndexStrategiesScalarizeTheirIndexAndAddLogPof) {
  const Models m;
  GpUcbOptions options;
  options.beta.kind = BetaScheduleKind::kConstant;
  options.beta.constant_beta = 4.0;
  GpUcb ucb(options);
  ucb.BeginRound(testing::MakeRound(5, 0));
  Rng rng(1);
  const Eigen::MatrixXd front = (Eigen::MatrixXd(2, 1) << 0.5, 0.2).finished();
  const auto a = MakeOutcomeAcquisition(ucb, Round(m, 2, true, front), rng);
  for (const Eigen::Vector2d& x : kPoints) {
    Eigen::Vector2d mean, sd;
    Posterior(m.f0, x, &mean(0), &sd(0));
    Posterior(m.f1, x, &mean(1), &sd(1));
    double cm, cs;
    Posterior(m.c0, x, &cm, &cs);
    // Chebyshev: min_i w_i (ucb_i - lower) / (upper - lower), ucb = m + 2 s.
    const Eigen::Vector2d ucbs = mean + 2.0 * sd;
    const double chebyshev = std::min(0.3 * (ucbs(0) + 1.0) / 3.0, 0.7 * (ucbs(1) + 1.0) / 3.0);
    const double expected = chebyshev + std::log(0.5 * std::erfc(cm / cs / std::sqrt(2.0)));
    EXPECT_NEAR(a->Evaluate(x, nullptr), expected, 1e-9);
    ExpectGradientMatches(*a, x, "scalarized UCB + log PoF");
  }
}

// GP-TS: the scalarized draw where every drawn constraint holds, below every feasible value
// elsewhere; evaluating twice gives the same draw.
TEST(OutcomeAcquisition, ThompsonDrawsFollowScbosRule) {
  const Models m;
  GpTs ts;
  ts.BeginRound(testing::MakeRound(5, 0));
  Rng rng(4);
  const Eigen::MatrixXd front = (Eigen::MatrixXd(1, 1) << 0.5).finished();
  const auto a = MakeOutcomeAcquisition(ts, Round(m, 1, true, front), rng);
  int feasible = 0, infeasible = 0;
  Rng points(9);
  const Eigen::MatrixXd X = testing::UniformPoints(2, 200, 0.0, 1.0, points);
  for (Eigen::Index j = 0; j < X.cols(); ++j) {
    const double v = a->Evaluate(X.col(j), nullptr);
    EXPECT_EQ(v, a->Evaluate(X.col(j), nullptr));
    if (v <= -10.0)
      ++infeasible;
    else
      ++feasible;
    // Far inside the constraint (x0 + x1 << 1) the draw is feasible; far outside it is not.
    if (X(0, j) + X(1, j) < 0.5) {
      EXPECT_GT(v, -10.0) << X.col(j).transpose();
    }
    if (X(0, j) + X(1, j) > 1.5) {
      EXPECT_LE(v, -10.0) << X.col(j).transpose();
    }
  }
  EXPECT_GT(feasible, 0);
  EXPECT_GT(infeasible, 0);
}

TEST(OutcomeAcquisition, RefusesSizesThatDoNotMatch) {
  const Models m;
  LogExpectedImprovement ei;
  ei.BeginRound(testing::MakeRound(5, 0));
  Rng rng(1);
  OutcomeRound round = Round(m, 2, false, Eigen::MatrixXd(2, 1));
  round.weights = Eigen::VectorXd::Ones(3);
  testing::ExpectInvalid([&] { MakeOutcomeAcquisition(ei, round, rng); },
                         "one entry per objective (2)");
  round = Round(m, 2, false, Eigen::MatrixXd::Zero(3, 1));
  testing::ExpectInvalid([&] { MakeOutcomeAcquisition(ei, round, rng); }, "front has 3 rows");
}

TEST(OutcomeAcquisition, RulesByStrategyKind) {
  EXPECT_EQ(OutcomeRuleOf(LogExpectedImprovement()), OutcomeRule::kImprovement);
  EXPECT_EQ(OutcomeRuleOf(LogExpectedHypervolumeImprovement()), OutcomeRule::kImprovement);
  EXPECT_EQ(OutcomeRuleOf(ProbabilityOfImprovement()), OutcomeRule::kProbabilityOfImprovement);
  EXPECT_EQ(OutcomeRuleOf(GpUcb()), OutcomeRule::kIndex);
  EXPECT_EQ(OutcomeRuleOf(GpTs()), OutcomeRule::kDraws);
}

}  // namespace
}  // namespace gpbandit
