#include "gpbandit/gp/local_gaussian_process.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

#include "gpbandit/kernel/kernel_factory.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

using testing::ExpectGradientNear;
using testing::ExpectInvalid;
using testing::TestSeed;
using testing::UniformPoints;

constexpr int kDim = 3;

std::unique_ptr<Kernel> TestKernel() {
  auto kernel = MakeMatern52({0, 1, 2}, /*ard=*/true);
  Eigen::VectorXd log_params(4);
  log_params << std::log(1.3), std::log(0.2), std::log(0.35), std::log(0.5);
  kernel->SetLogParams(log_params);
  return kernel;
}

double Objective(const Eigen::VectorXd& x) {
  return std::sin(5.0 * x(0)) + std::cos(3.0 * x(1)) * x(2) -
         (x - Eigen::VectorXd::Constant(kDim, 0.6)).squaredNorm();
}

struct Data {
  Eigen::MatrixXd X;
  Eigen::VectorXd y;
};

Data MakeData(int n, std::uint64_t seed) {
  Rng rng(seed);
  Data d;
  d.X = UniformPoints(kDim, n, 0.0, 1.0, rng);
  d.y.resize(n);
  for (int j = 0; j < n; ++j) d.y(j) = Objective(d.X.col(j));
  return d;
}

GaussianProcessOptions Options() {
  GaussianProcessOptions o;
  o.noise_variance = 1e-3;
  return o;
}

LocalGaussianProcess MakeLocal(const Data& d, int size) {
  LocalGaussianProcess local(TestKernel(), kDim, Options(), size);
  for (Eigen::Index j = 0; j < d.X.cols(); ++j) local.AddObservation(d.X.col(j), d.y(j));
  return local;
}

// The correlation of x with a under `kernel`, written out from kernel values.
double Correlation(const Kernel& kernel, const Eigen::VectorXd& x, const Eigen::VectorXd& a) {
  return kernel.Value(x, a) / std::sqrt(kernel.Value(x, x) * kernel.Value(a, a));
}

TEST(LocalGaussianProcessTest, WithEveryObservationItIsTheExactGp) {
  const Data d = MakeData(60, TestSeed(11));
  const LocalGaussianProcess local = MakeLocal(d, 60);
  GaussianProcess batch(TestKernel(), kDim, Options());
  batch.AddObservations(d.X, d.y);
  GaussianProcess incremental(TestKernel(), kDim, Options());
  for (Eigen::Index j = 0; j < d.X.cols(); ++j) incremental.AddObservation(d.X.col(j), d.y(j));
  ASSERT_EQ(local.local().num_observations(), 60);
  Rng rng(5);
  const Eigen::MatrixXd probes = UniformPoints(kDim, 20, 0.0, 1.0, rng);
  for (Eigen::Index j = 0; j < probes.cols(); ++j) {
    // One factorization of the same rows in the same order: bit for bit the batch-built GP.
    EXPECT_EQ(local.local().Mean(probes.col(j)), batch.Mean(probes.col(j)));
    EXPECT_EQ(local.local().Variance(probes.col(j)), batch.Variance(probes.col(j)));
    EXPECT_NEAR(local.local().Mean(probes.col(j)), incremental.Mean(probes.col(j)), 1e-9);
    EXPECT_NEAR(local.local().Variance(probes.col(j)), incremental.Variance(probes.col(j)), 1e-9);
  }
  const Eigen::VectorXd means = local.MeansAtObservations();
  EXPECT_TRUE(means.isApprox(incremental.MeansAtObservations(), 1e-9));
}

TEST(LocalGaussianProcessTest, NeighboursAreTheRowsMostCorrelatedWithTheBestOutput) {
  const Data d = MakeData(200, TestSeed(12));
  const LocalGaussianProcess local = MakeLocal(d, 40);
  Eigen::Index best = 0;
  d.y.maxCoeff(&best);
  EXPECT_EQ(local.anchor(), best);
  const std::unique_ptr<Kernel> kernel = TestKernel();
  std::vector<int> rows(200);
  std::iota(rows.begin(), rows.end(), 0);
  std::stable_sort(rows.begin(), rows.end(), [&](int i, int j) {
    return Correlation(*kernel, d.X.col(i), d.X.col(best)) >
           Correlation(*kernel, d.X.col(j), d.X.col(best));
  });
  rows.resize(40);
  std::sort(rows.begin(), rows.end());
  EXPECT_EQ(local.neighbours(), rows);
  EXPECT_EQ(local.num_observations(), 200);
  EXPECT_EQ(local.local().num_observations(), 40);
}

// The means reach Best() and the incumbent only in the neighbourhood's interior: correlation
// with the anchor at least the square root of the least member's.
TEST(LocalGaussianProcessTest, MeansAreGivenInTheInteriorOfTheNeighbourhood) {
  const Data d = MakeData(200, TestSeed(22));
  const LocalGaussianProcess local = MakeLocal(d, 40);
  const std::unique_ptr<Kernel> kernel = TestKernel();
  const Eigen::VectorXd a = d.X.col(local.anchor());
  double floor = 1.0;
  for (int row : local.neighbours())
    if (row != local.anchor()) floor = std::min(floor, Correlation(*kernel, d.X.col(row), a));
  const Eigen::VectorXd means = local.MeansAtObservations();
  const Eigen::VectorXd local_means = local.local().MeansAtObservations();
  int inside = 0;
  for (int i = 0; i < 200; ++i) {
    const auto at = std::find(local.neighbours().begin(), local.neighbours().end(), i);
    const bool interior =
        at != local.neighbours().end() && Correlation(*kernel, d.X.col(i), a) >= std::sqrt(floor);
    EXPECT_EQ(std::isnan(means(i)), !interior) << "row " << i;
    if (interior) {
      EXPECT_EQ(means(i), local_means(at - local.neighbours().begin()));
      ++inside;
    }
  }
  EXPECT_GT(inside, 1);
  EXPECT_LT(inside, 40);
}

// Rasmussen & Williams eqs. 2.25-2.26 by a dense inverse on the neighbours (standardized
// outputs, as the GP standardizes them).
TEST(LocalGaussianProcessTest, PredictsTheClosedFormPosteriorOfItsNeighbours) {
  const Data d = MakeData(150, TestSeed(13));
  const LocalGaussianProcess local = MakeLocal(d, 30);
  const std::vector<int>& rows = local.neighbours();
  const std::unique_ptr<Kernel> kernel = TestKernel();
  const int n = static_cast<int>(rows.size());
  Eigen::MatrixXd K(n, n);
  Eigen::VectorXd y(n);
  for (int i = 0; i < n; ++i) {
    y(i) = d.y(rows[i]);
    for (int j = 0; j < n; ++j) K(i, j) = kernel->Value(d.X.col(rows[i]), d.X.col(rows[j]));
  }
  K.diagonal().array() += Options().noise_variance;
  const double offset = y.mean();
  const double scale = std::sqrt((y.array() - offset).square().mean());
  const Eigen::MatrixXd Kinv = K.inverse();
  const Eigen::VectorXd alpha = Kinv * ((y.array() - offset) / scale).matrix();
  Rng rng(6);
  const Eigen::MatrixXd probes = UniformPoints(kDim, 10, 0.0, 1.0, rng);
  for (Eigen::Index p = 0; p < probes.cols(); ++p) {
    Eigen::VectorXd k(n);
    for (int i = 0; i < n; ++i) k(i) = kernel->Value(d.X.col(rows[i]), probes.col(p));
    const double mean = offset + scale * k.dot(alpha);
    const double variance =
        scale * scale * (kernel->Value(probes.col(p), probes.col(p)) - k.dot(Kinv * k));
    EXPECT_NEAR(local.local().Mean(probes.col(p)), mean, 1e-8);
    EXPECT_NEAR(local.local().Variance(probes.col(p)), variance, 1e-8);
  }
}

TEST(LocalGaussianProcessTest, GradientsMatchFiniteDifferences) {
  const Data d = MakeData(120, TestSeed(14));
  const LocalGaussianProcess local = MakeLocal(d, 35);
  const GaussianProcess& gp = local.local();
  Rng rng(7);
  const Eigen::MatrixXd probes = UniformPoints(kDim, 5, 0.1, 0.9, rng);
  for (Eigen::Index p = 0; p < probes.cols(); ++p) {
    double mean, variance;
    Eigen::VectorXd mean_gradient, variance_gradient;
    gp.MeanAndVariance(probes.col(p), &mean, &variance, &mean_gradient, &variance_gradient);
    ExpectGradientNear([&](const Eigen::VectorXd& x) { return gp.Mean(x); }, probes.col(p),
                       mean_gradient, 1e-5, 1e-7, "mean");
    ExpectGradientNear([&](const Eigen::VectorXd& x) { return gp.Variance(x); }, probes.col(p),
                       variance_gradient, 1e-5, 1e-7, "variance");
  }
}

// The property a run resumed from its log needs: the local model depends on the observations
// and hyperparameters only, not on when it was read.
TEST(LocalGaussianProcessTest, TheLocalModelDoesNotDependOnWhenItWasRead) {
  const Data d = MakeData(120, TestSeed(15));
  const LocalGaussianProcess once = MakeLocal(d, 30);
  LocalGaussianProcess every_time(TestKernel(), kDim, Options(), 30);
  for (Eigen::Index j = 0; j < d.X.cols(); ++j) {
    every_time.AddObservation(d.X.col(j), d.y(j));
    if (j % 7 == 0) {
      every_time.local();
      every_time.SetHyperparameters(TestKernel()->GetLogParams(), Options().noise_variance);
    }
  }
  const LocalGaussianProcess copy = every_time;
  Rng rng(8);
  const Eigen::MatrixXd probes = UniformPoints(kDim, 10, 0.0, 1.0, rng);
  for (Eigen::Index p = 0; p < probes.cols(); ++p) {
    EXPECT_EQ(every_time.local().Mean(probes.col(p)), once.local().Mean(probes.col(p)));
    EXPECT_EQ(every_time.local().Variance(probes.col(p)), once.local().Variance(probes.col(p)));
    EXPECT_EQ(copy.local().Mean(probes.col(p)), once.local().Mean(probes.col(p)));
  }
  EXPECT_EQ(every_time.local().LogMarginalLikelihood(), once.local().LogMarginalLikelihood());
}

TEST(LocalGaussianProcessTest, NewHyperparametersReachTheLocalModelAndItsReference) {
  const Data d = MakeData(80, TestSeed(16));
  LocalGaussianProcess local = MakeLocal(d, 20);
  const GaussianProcess* before = &local.local();
  Eigen::VectorXd log_params = local.kernel_log_params();
  log_params(1) += 0.5;
  local.SetHyperparameters(log_params, 2e-3);
  EXPECT_EQ(&local.local(), before);  // rebuilt in place
  EXPECT_EQ(local.local().kernel_log_params(), log_params);
  EXPECT_EQ(local.local().noise_variance(), 2e-3);
}

TEST(LocalGaussianProcessTest, EveryPointOfTheTrustBoxJoinsTheNeighbourhood) {
  const Data d = MakeData(300, TestSeed(17));
  const LocalGaussianProcess local = MakeLocal(d, 40);
  Eigen::VectorXd lower = Eigen::VectorXd::Zero(kDim), upper = Eigen::VectorXd::Ones(kDim);
  local.LocalTrustBox(0, kDim, &lower, &upper);
  const Eigen::VectorXd anchor = d.X.col(local.anchor());
  EXPECT_TRUE((lower.array() <= anchor.array()).all() && (anchor.array() <= upper.array()).all());
  EXPECT_LT((upper - lower).prod(), 0.5);  // narrower than the box
  Rng rng(9);
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  for (int trial = 0; trial < 30; ++trial) {
    Eigen::VectorXd x(kDim);
    for (int i = 0; i < kDim; ++i) x(i) = lower(i) + (upper(i) - lower(i)) * u01(rng);
    // Corners too: the farthest points of the box from the anchor.
    if (trial < 8)
      for (int i = 0; i < kDim; ++i) x(i) = ((trial >> i) & 1) ? upper(i) : lower(i);
    LocalGaussianProcess grown = local;
    grown.AddObservation(x, d.y.minCoeff());  // below the best: the anchor stays
    const std::vector<int>& rows = grown.neighbours();
    EXPECT_TRUE(std::binary_search(rows.begin(), rows.end(), 300)) << x.transpose();
  }
}

// A scale keeps that fraction of the box around the anchor: inside a box wide enough not to
// clip it, every half-width is the scale times the whole box's, and the box stays symmetric.
TEST(LocalGaussianProcessTest, TheTrustBoxScalesAroundItsAnchor) {
  const Data d = MakeData(300, TestSeed(25));
  const LocalGaussianProcess local = MakeLocal(d, 40);
  const Eigen::VectorXd anchor = d.X.col(local.anchor());
  auto box = [&](double scale, Eigen::VectorXd* lower, Eigen::VectorXd* upper) {
    *lower = Eigen::VectorXd::Constant(kDim, -10.0);
    *upper = Eigen::VectorXd::Constant(kDim, 11.0);
    local.LocalTrustBox(0, kDim, lower, upper, scale);
  };
  Eigen::VectorXd lower_whole, upper_whole, lower, upper;
  box(1.0, &lower_whole, &upper_whole);
  box(0.7, &lower, &upper);
  for (int i = 0; i < kDim; ++i) {
    const double half_whole = upper_whole(i) - anchor(i);
    ASSERT_GT(half_whole, 0.0);
    EXPECT_LT(half_whole, 1.0);  // found by bisection, not the outer box
    EXPECT_NEAR(anchor(i) - lower_whole(i), half_whole, 1e-12);
    EXPECT_NEAR(upper(i) - anchor(i), 0.7 * half_whole, 1e-12);
    EXPECT_NEAR(anchor(i) - lower(i), 0.7 * half_whole, 1e-12);
  }
  for (double bad : {0.0, -0.5, 1.5, std::numeric_limits<double>::quiet_NaN()})
    ExpectInvalid([&] { box(bad, &lower, &upper); }, "scale");
}

// Region 1's anchor: the best output at least 0.3 from the best one; every point of each
// region's box joins the local model.
TEST(LocalGaussianProcessTest, RegionsHaveTheirOwnAnchorsAndTrustBoxes) {
  const Data d = MakeData(300, TestSeed(21));
  LocalGaussianProcess local(TestKernel(), kDim, Options(), 60, 3);
  for (Eigen::Index j = 0; j < d.X.cols(); ++j) local.AddObservation(d.X.col(j), d.y(j));
  ASSERT_EQ(local.anchors().size(), 3u);
  EXPECT_EQ(local.anchors()[0], local.anchor());
  EXPECT_EQ(local.neighbours().size(), 60u);
  const Eigen::VectorXd a0 = d.X.col(local.anchor());
  int second = -1;
  for (int i = 0; i < 300; ++i)
    if ((d.X.col(i) - a0).norm() >= 0.3 && (second < 0 || d.y(i) > d.y(second))) second = i;
  EXPECT_EQ(local.anchors()[1], second);
  Rng rng(10);
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  for (int region = 0; region < 3; ++region) {
    Eigen::VectorXd lower = Eigen::VectorXd::Zero(kDim), upper = Eigen::VectorXd::Ones(kDim);
    local.LocalTrustBox(region, kDim, &lower, &upper);
    for (int trial = 0; trial < 10; ++trial) {
      Eigen::VectorXd x(kDim);
      for (int i = 0; i < kDim; ++i) x(i) = lower(i) + (upper(i) - lower(i)) * u01(rng);
      LocalGaussianProcess grown = local;
      grown.AddObservation(x, d.y.minCoeff());
      const std::vector<int>& members = grown.neighbours();
      EXPECT_TRUE(std::binary_search(members.begin(), members.end(), 300))
          << "region " << region << " x " << x.transpose();
    }
  }
  ExpectInvalid([&] { LocalGaussianProcess(TestKernel(), kDim, Options(), 2, 3); }, "regions = 3");
}

// A lucky draw: a row 0.3 below the best output, told four more times at its value and once
// 0.1 above the best output. The highest-output rule centres the model on the lucky draw; the
// highest-mean rule on the row of the highest posterior mean among the interior rows of that
// first model (not the lucky draw: the mean there is about the average of the five), and holds
// the rows most correlated with it.
TEST(LocalGaussianProcessTest, TheMeanAnchorIsTheHighestInteriorMeanNearTheBestOutput) {
  const Data base = MakeData(300, TestSeed(23));
  GaussianProcessOptions options = Options();
  options.noise_variance = 0.05;
  Eigen::Index best = 0;
  base.y.maxCoeff(&best);
  int lucky = -1;  // the row nearest to the best one among those 0.3 below it
  for (int i = 0; i < 300; ++i) {
    const double distance = (base.X.col(i) - base.X.col(best)).norm();
    if (base.y(i) <= base.y(best) - 0.3 &&
        (lucky < 0 || distance < (base.X.col(lucky) - base.X.col(best)).norm()))
      lucky = i;
  }
  ASSERT_GE(lucky, 0);
  Data d;
  d.X.resize(kDim, 304);
  d.y.resize(304);
  d.X.leftCols(300) = base.X;
  d.y.head(300) = base.y;
  for (int j = 300; j < 304; ++j) {
    d.X.col(j) = base.X.col(lucky);
    d.y(j) = base.y(lucky);
  }
  d.y(lucky) = base.y(best) + 0.1;
  LocalGaussianProcess by_output(TestKernel(), kDim, options, 60, 1, LocalAnchor::kHighestOutput);
  LocalGaussianProcess by_mean(TestKernel(), kDim, options, 60, 1, LocalAnchor::kHighestMean);
  for (Eigen::Index j = 0; j < d.X.cols(); ++j) {
    by_output.AddObservation(d.X.col(j), d.y(j));
    by_mean.AddObservation(d.X.col(j), d.y(j));
  }
  ASSERT_EQ(by_output.anchors()[0], lucky);
  const Eigen::VectorXd first_means = by_output.MeansAtObservations();
  int expected = -1;
  for (int i = 0; i < 304; ++i)
    if (!std::isnan(first_means(i)) && (expected < 0 || first_means(i) > first_means(expected)))
      expected = i;
  EXPECT_EQ(by_mean.anchors()[0], expected);
  EXPECT_NE(by_mean.anchors()[0], lucky);
  EXPECT_EQ(by_mean.anchor(), lucky);  // anchor() is still the highest output's row
  EXPECT_EQ(by_mean.anchor_rule(), LocalAnchor::kHighestMean);
  const std::unique_ptr<Kernel> kernel = TestKernel();
  const Eigen::VectorXd a = d.X.col(expected);
  std::vector<int> rows(304);
  std::iota(rows.begin(), rows.end(), 0);
  std::stable_sort(rows.begin(), rows.end(), [&](int i, int j) {
    if (i == expected || j == expected) return i == expected && j != expected;
    return Correlation(*kernel, d.X.col(i), a) > Correlation(*kernel, d.X.col(j), a);
  });
  rows.resize(60);
  std::sort(rows.begin(), rows.end());
  EXPECT_EQ(by_mean.neighbours(), rows);
  Eigen::VectorXd lower = Eigen::VectorXd::Zero(kDim), upper = Eigen::VectorXd::Ones(kDim);
  by_mean.LocalTrustBox(0, kDim, &lower, &upper);
  EXPECT_TRUE((lower.array() <= a.array()).all() && (a.array() <= upper.array()).all());
}

// The highest-mean rule keeps the property a resumed run needs: one function of the
// observations and hyperparameters, whenever the model was read, copies included.
TEST(LocalGaussianProcessTest, TheMeanAnchoredModelDoesNotDependOnWhenItWasRead) {
  const Data d = MakeData(150, TestSeed(24));
  LocalGaussianProcess once(TestKernel(), kDim, Options(), 30, 2, LocalAnchor::kHighestMean);
  LocalGaussianProcess every_time(TestKernel(), kDim, Options(), 30, 2, LocalAnchor::kHighestMean);
  for (Eigen::Index j = 0; j < d.X.cols(); ++j) {
    once.AddObservation(d.X.col(j), d.y(j));
    every_time.AddObservation(d.X.col(j), d.y(j));
    if (j % 5 == 0) {
      every_time.MeansAtObservations();
      every_time.SetHyperparameters(TestKernel()->GetLogParams(), Options().noise_variance);
    }
  }
  const LocalGaussianProcess copy = every_time;
  EXPECT_EQ(copy.anchor_rule(), LocalAnchor::kHighestMean);
  EXPECT_EQ(every_time.anchors(), once.anchors());
  EXPECT_EQ(copy.anchors(), once.anchors());
  EXPECT_EQ(every_time.neighbours(), once.neighbours());
  Rng rng(11);
  const Eigen::MatrixXd probes = UniformPoints(kDim, 10, 0.0, 1.0, rng);
  for (Eigen::Index p = 0; p < probes.cols(); ++p) {
    EXPECT_EQ(every_time.local().Mean(probes.col(p)), once.local().Mean(probes.col(p)));
    EXPECT_EQ(copy.local().Variance(probes.col(p)), once.local().Variance(probes.col(p)));
  }
}

TEST(LocalGaussianProcessTest, TheTrustBoxIsTheWholeBoxWhileEveryObservationIsANeighbour) {
  const Data d = MakeData(30, TestSeed(18));
  const LocalGaussianProcess local = MakeLocal(d, 40);
  Eigen::VectorXd lower = Eigen::VectorXd::Zero(kDim), upper = Eigen::VectorXd::Ones(kDim);
  local.LocalTrustBox(0, kDim, &lower, &upper);
  EXPECT_EQ(lower, Eigen::VectorXd::Zero(kDim));
  EXPECT_EQ(upper, Eigen::VectorXd::Ones(kDim));
}

TEST(LocalGaussianProcessTest, ScalingTheOutputsScalesThePredictionsExactly) {
  const Data d = MakeData(90, TestSeed(19));
  LocalGaussianProcess local = MakeLocal(d, 25);
  const Eigen::VectorXd x = Eigen::VectorXd::Constant(kDim, 0.4);
  const double mean = local.local().Mean(x), variance = local.local().Variance(x);
  local.ScaleOutputs(3);
  EXPECT_EQ(local.local().Mean(x), 8.0 * mean);
  EXPECT_EQ(local.local().Variance(x), 64.0 * variance);
}

TEST(LocalGaussianProcessTest, BadInputIsRefusedAndChangesNothing) {
  ExpectInvalid([] { LocalGaussianProcess(TestKernel(), kDim, Options(), 0); }, "size = 0");
  const Data d = MakeData(20, TestSeed(20));
  LocalGaussianProcess local = MakeLocal(d, 10);
  const double mean = local.local().Mean(Eigen::VectorXd::Constant(kDim, 0.5));
  ExpectInvalid([&] { local.AddObservation(Eigen::VectorXd::Zero(2), 1.0); }, "dimension 2");
  ExpectInvalid([&] { local.AddObservation(Eigen::VectorXd::Zero(kDim), std::nan("")); }, "y =");
  ExpectInvalid([&] { local.SetHyperparameters(local.kernel_log_params(), -1.0); },
                "noise_variance");
  ExpectInvalid([&] { local.SetHyperparameters(Eigen::VectorXd::Zero(2), 1e-3); }, "");
  EXPECT_EQ(local.num_observations(), 20);
  EXPECT_EQ(local.local().Mean(Eigen::VectorXd::Constant(kDim, 0.5)), mean);
}

}  // namespace
}  // namespace gpbandit
