// The safe-set functions through their own interface, on bounds written by hand and on GPs whose
// posterior is known in closed form (the prior, one observation): the mask, the optimistic
// choice, widths, appended points, the empty safe set, declared-safe points and refused input.
// (safe_opt_test.cc checks the choice among maximizers and expanders against a hand computation
// on a grid.)
#include "gpbandit/safe/safe_set.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "gpbandit/kernel/kernel_factory.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

using testing::ExpectInvalid;

using testing::kInf;
using testing::kNaN;

// A 1-D SE GP with prior variance `variance`, lengthscale 0.2, noise 0.01, outputs as told.
GaussianProcess PriorGp(double variance) {
  GaussianProcessOptions options;
  options.noise_variance = 0.01;
  options.standardize_outputs = false;
  return GaussianProcess(MakeSquaredExponential({0}, false, variance, 0.2), 1, options);
}

Eigen::MatrixXd Points(std::initializer_list<double> xs) {
  Eigen::MatrixXd X(1, static_cast<Eigen::Index>(xs.size()));
  Eigen::Index j = 0;
  for (double x : xs) X(0, j++) = x;
  return X;
}

// Bounds of two signals at three points, by hand.
SafeBounds HandBounds() {
  SafeBounds b;
  b.lower.resize(2, 3);
  b.upper.resize(2, 3);
  b.lower << 0.0, 1.0, 2.0,  //
      5.0, 0.5, 3.0;
  b.upper = b.lower.array() + 1.0;
  b.mean = b.lower.array() + 0.5;
  b.stddev = Eigen::MatrixXd::Constant(2, 3, 0.25);
  return b;
}

TEST(SafeSetTest, MaskNeedsEverySafetySignalsLowerBoundAtItsThreshold) {
  GaussianProcess gp = PriorGp(1.0);
  SafeSignal objective{&gp};  // NaN threshold: no safety signal
  SafeSignal constraint{&gp, 1.0};
  const SafeBounds b = HandBounds();
  // Signal 1 alone: lower >= 1 at points 0 and 2 (5, 3), not at point 1 (0.5).
  EXPECT_EQ(SafeMask({objective, constraint}, b, {}), (std::vector<bool>{true, false, true}));
  // Signal 0 with threshold 1 too: point 0 (lower 0) drops out; the edge lower == h is safe.
  objective.threshold = 1.0;
  EXPECT_EQ(SafeMask({objective, constraint}, b, {}), (std::vector<bool>{false, false, true}));
  // Declared-safe points are in S whatever their bounds.
  EXPECT_EQ(SafeMask({objective, constraint}, b, {true, false, false}),
            (std::vector<bool>{true, false, true}));
  // No safety signal: every point is safe.
  EXPECT_EQ(SafeMask({SafeSignal{&gp}}, b, {}), (std::vector<bool>{true, true, true}));
  ExpectInvalid([&] { SafeMask({objective}, b, {true}); }, "declared_safe has 1 entries for 3");
}

TEST(SafeSetTest, OptimisticChoiceIsTheFirstBestSafePoint) {
  GaussianProcess gp = PriorGp(1.0);
  const SafeSignal objective{&gp};
  const SafeSignal constraint{&gp, 1.0};
  const SafeBounds b = HandBounds();
  // S = {0, 2}: point 1 has the highest value but is unsafe.
  SafeChoice choice = ChooseOptimistic({objective, constraint}, b, Eigen::Vector3d(2, 9, 1), {});
  EXPECT_EQ(choice.index, 0);
  EXPECT_TRUE(choice.maximizer);
  EXPECT_EQ(choice.safe_set_size, 2);
  // Equal values: the first.
  choice = ChooseOptimistic({objective, constraint}, b, Eigen::Vector3d(4, 9, 4), {});
  EXPECT_EQ(choice.index, 0);
  // Empty S: no choice.
  const SafeSignal strict{&gp, 100.0};
  choice = ChooseOptimistic({objective, strict}, b, Eigen::Vector3d(1, 2, 3), {});
  EXPECT_EQ(choice.index, -1);
  EXPECT_FALSE(choice.maximizer);
  EXPECT_EQ(choice.safe_set_size, 0);
}

TEST(SafeSetTest, PriorBoundsAreZeroPlusMinusBetaTimesThePriorStddev) {
  GaussianProcess gp = PriorGp(4.0);  // prior sd 2 everywhere
  const double beta = 1.5;
  const Eigen::MatrixXd X = Points({0.0, 0.3, 0.9});
  SafeSignal capped{&gp, -1.0};
  capped.max_mean = -0.5;  // the lower bound starts from min(0, -0.5)
  const SafeBounds b = ComputeSafeBounds({SafeSignal{&gp}, capped}, X, beta);
  ASSERT_EQ(b.mean.rows(), 2);
  ASSERT_EQ(b.mean.cols(), 3);
  for (int j = 0; j < 3; ++j) {
    EXPECT_NEAR(b.mean(0, j), 0.0, 1e-12);
    EXPECT_NEAR(b.stddev(0, j), 2.0, 1e-9);
    EXPECT_NEAR(b.lower(0, j), -3.0, 1e-9);
    EXPECT_NEAR(b.upper(0, j), 3.0, 1e-9);
    EXPECT_NEAR(b.lower(1, j), -0.5 - 3.0, 1e-9);
    EXPECT_NEAR(b.upper(1, j), 3.0, 1e-9);  // the cap bounds only the lower bound
  }
}

TEST(SafeSetTest, OneObservationBoundsMatchTheClosedForm) {
  GaussianProcess gp = PriorGp(1.0);
  gp.AddObservation(Eigen::VectorXd::Constant(1, 0.5), 2.0);
  const double beta = 2.0, x = 0.6;
  const double k = std::exp(-0.5 * (0.1 / 0.2) * (0.1 / 0.2));  // SE(0.6, 0.5)
  const double mean = k * 2.0 / 1.01, sd = std::sqrt(1.0 - k * k / 1.01);
  const SafeBounds b = ComputeSafeBounds({SafeSignal{&gp}}, Points({x}), beta);
  EXPECT_NEAR(b.mean(0, 0), mean, 1e-9);
  EXPECT_NEAR(b.stddev(0, 0), sd, 1e-9);
  EXPECT_NEAR(b.lower(0, 0), mean - beta * sd, 1e-9);
  EXPECT_NEAR(b.upper(0, 0), mean + beta * sd, 1e-9);
  EXPECT_NEAR(OptimisticObjective({SafeSignal{&gp}}, Points({x}), b, beta)(0), mean + beta * sd,
              1e-9);
}

TEST(SafeSetTest, ScaledWidthsTakeTheWidestSignalAfterScaling) {
  GaussianProcess wide = PriorGp(4.0), narrow = PriorGp(1.0);  // prior sd 2 and 1
  const double beta = 1.5;
  const Eigen::MatrixXd X = Points({0.1, 0.7});
  SafeSignal a{&wide};
  a.width_scale = 4.0;  // 2 beta 2 / 4 = 1.5
  SafeSignal b{&narrow, 0.0};
  b.width_scale = 0.5;  // 2 beta 1 / 0.5 = 6
  const std::vector<SafeSignal> signals = {a, b};
  const SafeBounds bounds = ComputeSafeBounds(signals, X, beta);
  const Eigen::VectorXd widths = ScaledWidths(signals, X, bounds, beta);
  EXPECT_NEAR(widths(0), 6.0, 1e-8);
  EXPECT_NEAR(widths(1), 6.0, 1e-8);
  // gp_for_widths replaces a signal's stddev in the widths: an observed model at 0.1.
  GaussianProcess observed = PriorGp(1.0);
  observed.AddObservation(Eigen::VectorXd::Constant(1, 0.1), 0.0);
  b.gp_for_widths = &observed;
  const Eigen::VectorXd hallucinated = ScaledWidths({a, b}, X, bounds, beta);
  const double sd_at_observation = std::sqrt(1.0 - 1.0 / 1.01);
  EXPECT_NEAR(hallucinated(0), std::max(1.5, 2 * beta * sd_at_observation / 0.5), 1e-8);
}

TEST(SafeSetTest, AppendPointsGivesTheBoundsOfTheWholeSet) {
  GaussianProcess gp = PriorGp(1.0);
  gp.AddObservation(Eigen::VectorXd::Constant(1, 0.4), 1.0);
  const std::vector<SafeSignal> signals = {SafeSignal{&gp}, SafeSignal{&gp, 0.1}};
  Eigen::MatrixXd X = Points({0.0, 0.4});
  SafeBounds bounds = ComputeSafeBounds(signals, X, 2.0);
  AppendPoints(signals, Points({0.5, 0.9}), 2.0, &X, &bounds);
  const Eigen::MatrixXd all = Points({0.0, 0.4, 0.5, 0.9});
  EXPECT_EQ(X, all);
  const SafeBounds expected = ComputeSafeBounds(signals, all, 2.0);
  EXPECT_TRUE(bounds.mean.isApprox(expected.mean, 1e-12));
  EXPECT_TRUE(bounds.stddev.isApprox(expected.stddev, 1e-12));
  EXPECT_TRUE(bounds.lower.isApprox(expected.lower, 1e-12));
  EXPECT_TRUE(bounds.upper.isApprox(expected.upper, 1e-12));
}

TEST(SafeSetTest, EmptySafeSetChoosesNothingUnlessAPointIsDeclaredSafe) {
  GaussianProcess gp = PriorGp(1.0);  // prior: lower bound -2 < threshold 0 everywhere
  const std::vector<SafeSignal> signals = {SafeSignal{&gp, 0.0}};
  const Eigen::MatrixXd X = Points({0.0, 0.5, 1.0});
  SafeChoice choice = ChooseSafePoint(signals, X, {}, 2.0);
  EXPECT_EQ(choice.index, -1);
  EXPECT_EQ(choice.safe_set_size, 0);
  choice = ChooseSafePoint(signals, X, {false, true, false}, 2.0);
  EXPECT_EQ(choice.index, 1);
  EXPECT_EQ(choice.safe_set_size, 1);
  EXPECT_TRUE(choice.maximizer);         // the only point of S is its own best lower bound
  EXPECT_NEAR(choice.width, 4.0, 1e-9);  // 2 beta sd = 2 * 2 * 1
}

TEST(SafeSetTest, NothingIsAnExpanderWhenEveryPointIsSafe) {
  GaussianProcess gp = PriorGp(1.0);
  const std::vector<SafeSignal> signals = {SafeSignal{&gp, -10.0}};
  const Eigen::MatrixXd X = Points({0.0, 0.5});
  const SafeBounds bounds = ComputeSafeBounds(signals, X, 2.0);
  const std::vector<bool> safe = SafeMask(signals, bounds, {});
  ASSERT_EQ(safe, (std::vector<bool>{true, true}));
  EXPECT_FALSE(IsExpander(signals, X, bounds, safe, 0, 2.0));
  EXPECT_FALSE(IsExpander(signals, X, bounds, safe, 1, 2.0));
}

TEST(SafeSetTest, RefusesBadSignalsAndBeta) {
  GaussianProcess gp = PriorGp(1.0);
  const Eigen::MatrixXd X = Points({0.0, 0.5});
  ExpectInvalid([&] { ChooseSafePoint({}, X, {}, 2.0); }, "signals: empty");
  ExpectInvalid(
      [&] {
        ChooseSafePoint({SafeSignal{&gp}, SafeSignal{}}, X, {}, 2.0);
      },
      "signals[1].gp: null");
  SafeSignal scaled{&gp};
  scaled.width_scale = 0.0;
  ExpectInvalid([&] { ChooseSafePoint({scaled}, X, {}, 2.0); },
                "signals[0].width_scale = 0: must be finite and > 0");
  ExpectInvalid(
      [&] {
        ChooseSafePoint({SafeSignal{&gp, kInf}}, X, {}, 2.0);
      },
      "signals[0].threshold = inf");
  SafeSignal capped{&gp, 0.0};
  capped.max_mean = kNaN;
  ExpectInvalid([&] { ChooseSafePoint({capped}, X, {}, 2.0); }, "signals[0].max_mean is NaN");
  ExpectInvalid([&] { ChooseSafePoint({SafeSignal{&gp}}, X, {}, 0.0); },
                "beta = 0: must be finite and > 0");
  ExpectInvalid([&] { ChooseSafePoint({SafeSignal{&gp}}, X, {}, kNaN); }, "beta = nan");
  ExpectInvalid(
      [&] {
        ChooseSafePoint({SafeSignal{&gp, -1.0}}, X, {true, true, true}, 2.0);
      },
      "declared_safe has 3 entries for 2 points");
}

}  // namespace
}  // namespace gpbandit
