#include "gpbandit/gp/gaussian_process.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "gpbandit/kernel/kernel_factory.h"
#include "numerics/math.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

using testing::ExpectGradientNear;
using ::testing::HasSubstr;
using testing::TestSeed;
using testing::UniformPoints;

// The textbook posterior (Rasmussen & Williams eq. 2.25-2.26) by a dense solve, in the model's
// standardized units mapped back: the reference the incremental implementation must match.
struct DirectPosterior {
  DirectPosterior(const Kernel& kernel, const Eigen::MatrixXd& X, const Eigen::VectorXd& y,
                  double noise, bool standardize, bool gls_mean = false)
      : kernel(kernel), X(X) {
    if (standardize && y.size() > 0) {
      offset = y.mean();
      if (y.size() >= 2) {
        const double sd = std::sqrt((y.array() - offset).square().sum() / y.size());
        if (sd > 0) scale = sd;
      }
    }
    Eigen::MatrixXd K(X.cols(), X.cols());
    for (int i = 0; i < X.cols(); ++i)
      for (int j = 0; j < X.cols(); ++j) K(i, j) = kernel.Value(X.col(i), X.col(j));
    K.diagonal().array() += noise;
    Kinv = K.inverse();
    // The GLS mean 1^T C^-1 y / 1^T C^-1 1 (the scale stays the sample deviation).
    if (standardize && gls_mean && y.size() > 0) offset = Kinv.colwise().sum().dot(y) / Kinv.sum();
    ystd = (y.array() - offset) / scale;
    logdet = std::log(K.determinant());
  }
  Eigen::VectorXd KVec(const Eigen::VectorXd& x) const {
    Eigen::VectorXd k(X.cols());
    for (int i = 0; i < X.cols(); ++i) k(i) = kernel.Value(X.col(i), x);
    return k;
  }
  double Mean(const Eigen::VectorXd& x) const { return offset + scale * KVec(x).dot(Kinv * ystd); }
  double Cov(const Eigen::VectorXd& a, const Eigen::VectorXd& b) const {
    return scale * scale * (kernel.Value(a, b) - KVec(a).dot(Kinv * KVec(b)));
  }
  const Kernel& kernel;
  Eigen::MatrixXd X;
  Eigen::MatrixXd Kinv;
  Eigen::VectorXd ystd;
  double offset = 0.0, scale = 1.0, logdet = 0.0;
};

double TestFunction(const Eigen::VectorXd& x) {
  return std::sin(3.0 * x(0)) + 0.5 * x(1) * x(1) - 0.3 * x(0) * x(1);
}

GaussianProcess MakeGp(int dim, bool standardize, double noise = 1e-3,
                       PriorMeanEstimate prior_mean = PriorMeanEstimate::kSampleMean) {
  GaussianProcessOptions options;
  options.noise_variance = noise;
  options.standardize_outputs = standardize;
  options.prior_mean = prior_mean;
  return GaussianProcess(MakeMatern52(FirstDims(dim), true, 1.3, 0.4), dim, options);
}

// Everything observable about a model, to check that a rejected call changed nothing.
struct Snapshot {
  explicit Snapshot(const GaussianProcess& gp)
      : t(gp.num_observations()),
        X(gp.inputs()),
        y(gp.outputs()),
        params(gp.kernel_log_params()),
        noise(gp.noise_variance()),
        jitter(gp.jitter()),
        gain(gp.InformationGain()) {
    probe = Eigen::VectorXd::Constant(gp.input_dim(), 0.37);
    mean = gp.Mean(probe);
    variance = gp.Variance(probe);
  }
  void ExpectSame(const GaussianProcess& gp) const {
    EXPECT_EQ(gp.num_observations(), t);
    EXPECT_EQ(gp.inputs(), X);
    EXPECT_EQ(gp.outputs(), y);
    EXPECT_EQ(gp.kernel_log_params(), params);
    EXPECT_EQ(gp.noise_variance(), noise);
    EXPECT_EQ(gp.jitter(), jitter);
    EXPECT_EQ(gp.InformationGain(), gain);
    EXPECT_EQ(gp.Mean(probe), mean);
    EXPECT_EQ(gp.Variance(probe), variance);
  }
  int t;
  Eigen::MatrixXd X;
  Eigen::VectorXd y, params, probe;
  double noise, jitter, gain, mean, variance;
};

TEST(GaussianProcessTest, PriorPredictionsWithoutData) {
  GaussianProcess gp = MakeGp(2, false);
  const Eigen::Vector2d x(0.3, 0.8);
  EXPECT_EQ(gp.Mean(x), 0.0);
  EXPECT_NEAR(gp.Variance(x), 1.3, 1e-12);  // the signal variance
  EXPECT_EQ(gp.InformationGain(), 0.0);
}

TEST(GaussianProcessTest, MatchesDirectFormula) {
  Rng rng(TestSeed(11));
  for (bool standardize : {false, true}) {
    GaussianProcess gp = MakeGp(2, standardize);
    const Eigen::MatrixXd X = UniformPoints(2, 25, 0.0, 1.0, rng);
    Eigen::VectorXd y(25);
    for (int i = 0; i < 25; ++i) y(i) = 10.0 + 4.0 * TestFunction(X.col(i));
    for (int i = 0; i < 25; ++i) gp.AddObservation(X.col(i), y(i));
    const DirectPosterior direct(gp.kernel(), X, y, 1e-3, standardize);
    const Eigen::MatrixXd probes = UniformPoints(2, 10, -0.2, 1.2, rng);
    for (int j = 0; j < probes.cols(); ++j) {
      const Eigen::VectorXd a = probes.col(j), b = probes.col((j + 1) % probes.cols());
      EXPECT_NEAR(gp.Mean(a), direct.Mean(a), 1e-8 * (1 + std::abs(direct.Mean(a))));
      EXPECT_NEAR(gp.Variance(a), std::max(0.0, direct.Cov(a, a)), 1e-9);
      EXPECT_NEAR(gp.Covariance(a, b), direct.Cov(a, b), 1e-9);
    }
    const Eigen::MatrixXd C = gp.Covariance(probes);
    for (int i = 0; i < probes.cols(); ++i)
      for (int j = 0; j < probes.cols(); ++j)
        EXPECT_NEAR(C(i, j), direct.Cov(probes.col(i), probes.col(j)), 1e-9);
    // log p(y_std) = -1/2 y^T K^-1 y - 1/2 log |K| - n/2 log 2 pi.
    const double lml = -0.5 * direct.ystd.dot(direct.Kinv * direct.ystd) - 0.5 * direct.logdet -
                       0.5 * 25 * std::log(2 * kPi);
    EXPECT_NEAR(gp.LogMarginalLikelihood(), lml, 1e-8 * std::abs(lml));
  }
}

TEST(GaussianProcessTest, GlsPriorMeanMatchesDirectFormula) {
  Rng rng(TestSeed(21));
  const auto gls = PriorMeanEstimate::kGeneralizedLeastSquares;
  GaussianProcess gp = MakeGp(2, true, 1e-3, gls);
  const Eigen::MatrixXd X = UniformPoints(2, 25, 0.0, 1.0, rng);
  Eigen::VectorXd y(25);
  for (int i = 0; i < 25; ++i) y(i) = 10.0 + 4.0 * TestFunction(X.col(i));
  for (int i = 0; i < 25; ++i) gp.AddObservation(X.col(i), y(i));
  const DirectPosterior direct(gp.kernel(), X, y, 1e-3, true, true);
  EXPECT_NEAR(gp.output_offset(), direct.offset, 1e-9 * std::abs(direct.offset));
  EXPECT_GT(std::abs(direct.offset - y.mean()), 1e-3);  // a different estimate from the sample's
  const Eigen::MatrixXd probes = UniformPoints(2, 10, -0.2, 1.2, rng);
  for (int j = 0; j < probes.cols(); ++j) {
    const Eigen::VectorXd a = probes.col(j);
    EXPECT_NEAR(gp.Mean(a), direct.Mean(a), 1e-8 * (1 + std::abs(direct.Mean(a))));
    EXPECT_NEAR(gp.Variance(a), std::max(0.0, direct.Cov(a, a)), 1e-9);
  }
  const Eigen::Vector2d far(40.0, -40.0);  // beyond every lengthscale: the prior mean
  EXPECT_NEAR(gp.Mean(far), direct.offset, 1e-9 * std::abs(direct.offset));
}

// Observations crowded at the maximum pull the sample mean up to the maximum's value; the GLS
// mean counts the crowd about once and stays near the level of the spread points.
TEST(GaussianProcessTest, GlsPriorMeanCountsACrowdAboutOnce) {
  const auto gls = PriorMeanEstimate::kGeneralizedLeastSquares;
  GaussianProcess sample = MakeGp(1, true, 1e-2), pooled = MakeGp(1, true, 1e-2, gls);
  std::vector<std::pair<double, double>> points = {{0.0, 0.0}, {1.0, 0.2}, {2.0, -0.1}, {3.0, 0.1}};
  for (int i = 0; i < 30; ++i) points.emplace_back(5.0 + 0.001 * i, 3.0);
  for (const auto& [x, y] : points) {
    sample.AddObservation(Eigen::VectorXd::Constant(1, x), y);
    pooled.AddObservation(Eigen::VectorXd::Constant(1, x), y);
  }
  EXPECT_GT(sample.output_offset(), 2.5);  // 30 of 34 observations sit at 3
  // Five nearly independent groups (four points 1 apart under a 0.4 lengthscale, and the crowd):
  // about (0 + 0.2 - 0.1 + 0.1 + 3) / 5 = 0.64.
  EXPECT_GT(pooled.output_offset(), 0.3);
  EXPECT_LT(pooled.output_offset(), 1.0);
  const Eigen::VectorXd unmeasured = Eigen::VectorXd::Constant(1, 20.0);
  EXPECT_NEAR(pooled.Mean(unmeasured), pooled.output_offset(), 1e-9);
}

TEST(GaussianProcessTest, GlsPriorMeanIncrementalEqualsBatchAndSurvivesRefits) {
  Rng rng(TestSeed(22));
  const auto gls = PriorMeanEstimate::kGeneralizedLeastSquares;
  const int n = 120;
  const Eigen::MatrixXd X = UniformPoints(3, n, 0.0, 1.0, rng);
  Eigen::VectorXd y(n);
  for (int i = 0; i < n; ++i) y(i) = 1e3 + TestFunction(X.col(i)) + X(2, i);
  GaussianProcess incremental = MakeGp(3, true, 1e-2, gls), batch = MakeGp(3, true, 1e-2, gls);
  for (int i = 0; i < n; ++i) incremental.AddObservation(X.col(i), y(i));
  batch.AddObservations(X, y);
  EXPECT_NEAR(incremental.output_offset(), batch.output_offset(), 1e-9 * 1e3);
  const Eigen::VectorXd probe = Eigen::VectorXd::Constant(3, 0.4);
  EXPECT_NEAR(incremental.Mean(probe), batch.Mean(probe), 1e-8 * 1e3);
  // New hyperparameters give the estimate of the new C, as a model built with them does.
  Eigen::VectorXd params = batch.kernel_log_params();
  params.array() += 0.3;
  batch.SetHyperparameters(params, 2e-2);
  GaussianProcess rebuilt = MakeGp(3, true, 2e-2, gls);
  rebuilt.SetHyperparameters(params, 2e-2);
  rebuilt.AddObservations(X, y);
  EXPECT_NEAR(batch.output_offset(), rebuilt.output_offset(), 1e-9 * 1e3);
  EXPECT_NEAR(batch.Mean(probe), rebuilt.Mean(probe), 1e-8 * 1e3);
  batch.RemoveLastObservations(n - 10);
  GaussianProcess first_ten = MakeGp(3, true, 2e-2, gls);
  first_ten.SetHyperparameters(params, 2e-2);
  first_ten.AddObservations(X.leftCols(10), y.head(10));
  EXPECT_NEAR(batch.output_offset(), first_ten.output_offset(), 1e-9 * 1e3);
}

TEST(GaussianProcessTest, IncrementalAppendsEqualBatchRefactorization) {
  Rng rng(TestSeed(12));
  const int n = 200;
  const Eigen::MatrixXd X = UniformPoints(3, n, 0.0, 1.0, rng);
  Eigen::VectorXd y(n);
  for (int i = 0; i < n; ++i) y(i) = TestFunction(X.col(i)) + X(2, i);
  GaussianProcess incremental = MakeGp(3, true, 1e-2);
  for (int i = 0; i < n; ++i) incremental.AddObservation(X.col(i), y(i));
  GaussianProcess batch = MakeGp(3, true, 1e-2);
  batch.AddObservations(X, y);
  EXPECT_EQ(incremental.jitter(), 0.0);
  const Eigen::MatrixXd probes = UniformPoints(3, 50, 0.0, 1.0, rng);
  Eigen::VectorXd m1, v1, m2, v2;
  incremental.Predict(probes, &m1, &v1);
  batch.Predict(probes, &m2, &v2);
  for (int j = 0; j < probes.cols(); ++j) {
    EXPECT_NEAR(m1(j), m2(j), 1e-9 * std::max(1.0, std::abs(m2(j))));
    EXPECT_NEAR(v1(j), v2(j), 1e-9 * std::max(1.0, std::abs(v2(j))));
  }
  EXPECT_NEAR(incremental.InformationGain(), batch.InformationGain(),
              1e-9 * batch.InformationGain());
  EXPECT_NEAR(incremental.LogMarginalLikelihood(), batch.LogMarginalLikelihood(),
              1e-9 * std::abs(batch.LogMarginalLikelihood()));
}

TEST(GaussianProcessTest, BatchPredictionEqualsPointwise) {
  Rng rng(TestSeed(13));
  GaussianProcess gp = MakeGp(2, true);
  const Eigen::MatrixXd X = UniformPoints(2, 30, 0.0, 1.0, rng);
  for (int i = 0; i < 30; ++i) gp.AddObservation(X.col(i), TestFunction(X.col(i)));
  const Eigen::MatrixXd probes = UniformPoints(2, 20, 0.0, 1.0, rng);
  Eigen::VectorXd means, variances;
  gp.Predict(probes, &means, &variances);
  for (int j = 0; j < 20; ++j) {
    double m, v;
    gp.MeanAndVariance(probes.col(j), &m, &v);
    EXPECT_NEAR(means(j), m, 1e-12 * std::max(1.0, std::abs(m)));
    EXPECT_NEAR(variances(j), v, 1e-12);
  }
}

TEST(GaussianProcessTest, MeansAtObservationsEqualPredictionsThere) {
  for (const double noise : {1e-3, 0.0}) {
    Rng rng(TestSeed(31));
    GaussianProcess gp = MakeGp(2, true, noise);
    const Eigen::MatrixXd X = UniformPoints(2, 40, 0.0, 1.0, rng);
    for (int i = 0; i < 40; ++i) gp.AddObservation(X.col(i), TestFunction(X.col(i)));
    gp.AddObservation(X.col(3), TestFunction(X.col(3)) + 0.01);  // a duplicate input
    const Eigen::VectorXd fast = gp.MeansAtObservations();
    ASSERT_EQ(fast.size(), 41);
    const DirectPosterior direct(gp.kernel(), gp.inputs(), gp.outputs(),
                                 gp.noise_variance() + gp.jitter(), true);
    // With zero noise the duplicate makes K + jitter I ill-conditioned (cond ~ 1e10): every
    // route loses digits to roundoff there, the dense reference (an explicit inverse) most.
    for (int i = 0; i < 41; ++i) {
      const Eigen::VectorXd x = gp.inputs().col(i);
      if (noise > 0.0) {
        EXPECT_NEAR(fast(i), gp.Mean(x), 1e-10) << "i " << i;
        EXPECT_NEAR(fast(i), direct.Mean(x), 1e-8) << "i " << i;
      } else {
        EXPECT_NEAR(fast(i), gp.Mean(x), 1e-6) << "zero noise, i " << i;
      }
    }
  }
  EXPECT_EQ(MakeGp(2, true).MeansAtObservations().size(), 0);
}

TEST(GaussianProcessTest, GradientsMatchFiniteDifferences) {
  Rng rng(TestSeed(14));
  for (const char* name : {"se", "matern32", "matern52", "linear"}) {
    GaussianProcessOptions options;
    options.noise_variance = 1e-2;
    GaussianProcess gp(MakeKernel(name, FirstDims(2), true, 1.1, 0.5), 2, options);
    const Eigen::MatrixXd X = UniformPoints(2, 15, 0.0, 1.0, rng);
    for (int i = 0; i < 15; ++i) gp.AddObservation(X.col(i), 3.0 * TestFunction(X.col(i)));
    for (int trial = 0; trial < 5; ++trial) {
      const Eigen::VectorXd x = UniformPoints(2, 1, 0.05, 0.95, rng).col(0);
      const Eigen::VectorXd b = UniformPoints(2, 1, 0.05, 0.95, rng).col(0);
      double m, v;
      Eigen::VectorXd dm, dv, dc;
      gp.MeanAndVariance(x, &m, &v, &dm, &dv);
      ExpectGradientNear([&](const Eigen::VectorXd& z) { return gp.Mean(z); }, x, dm, 1e-5, 1e-7,
                         std::string(name) + " mean");
      ExpectGradientNear([&](const Eigen::VectorXd& z) { return gp.Variance(z); }, x, dv, 1e-4,
                         1e-7, std::string(name) + " variance");
      gp.Covariance(x, b, &dc);
      ExpectGradientNear([&](const Eigen::VectorXd& z) { return gp.Covariance(z, b); }, x, dc, 1e-4,
                         1e-7, std::string(name) + " covariance");
    }
  }
}

TEST(GaussianProcessTest, JointSamplesMatchPosterior) {
  Rng rng(TestSeed(15));
  GaussianProcess gp = MakeGp(1, false, 1e-2);
  for (double x : {0.1, 0.4, 0.45, 0.9})
    gp.AddObservation(Eigen::VectorXd::Constant(1, x), std::cos(5 * x));
  Eigen::MatrixXd probes(1, 4);
  probes << 0.0, 0.3, 0.6, 1.0;
  const int n = 40000;
  const Eigen::MatrixXd samples = gp.SampleJoint(probes, n, rng);
  const Eigen::VectorXd mean = samples.rowwise().mean();
  const Eigen::MatrixXd centered = samples.colwise() - mean;
  const Eigen::MatrixXd cov = centered * centered.transpose() / (n - 1);
  Eigen::VectorXd means, variances;
  gp.Predict(probes, &means, &variances);
  const Eigen::MatrixXd expected = gp.Covariance(probes);
  for (int i = 0; i < 4; ++i) {
    // Standard error of a sample mean is sigma / sqrt(n); allow 5 of them.
    EXPECT_NEAR(mean(i), means(i), 5 * std::sqrt(variances(i) / n) + 1e-12);
    for (int j = 0; j < 4; ++j)
      EXPECT_NEAR(cov(i, j), expected(i, j), 0.05 * std::sqrt(variances(i) * variances(j)) + 1e-9);
  }
}

TEST(GaussianProcessTest, NearDuplicatePointsWithZeroNoiseUseJitter) {
  Rng rng(TestSeed(16));
  GaussianProcessOptions options;
  options.noise_variance = 0.0;
  GaussianProcess gp(MakeSquaredExponential(FirstDims(2), true, 1.0, 0.3), 2, options);
  std::normal_distribution<double> tiny(0.0, 1e-9);
  for (int i = 0; i < 1000; ++i) {
    const Eigen::Vector2d x(0.5 + tiny(rng), 0.5 + tiny(rng));
    gp.AddObservation(x, 1.0 + tiny(rng));
  }
  EXPECT_EQ(gp.num_observations(), 1000);
  EXPECT_GT(gp.jitter(), 0.0);
  EXPECT_LE(gp.jitter(), 1e-2);
  const Eigen::Vector2d probe(0.5, 0.5), far(0.9, 0.1);
  double m, v;
  Eigen::VectorXd dm, dv;
  gp.MeanAndVariance(probe, &m, &v, &dm, &dv);
  EXPECT_TRUE(std::isfinite(m) && std::isfinite(v) && dm.allFinite() && dv.allFinite());
  EXPECT_NEAR(m, 1.0, 1e-3);
  EXPECT_GE(v, 0.0);
  EXPECT_TRUE(std::isfinite(gp.Mean(far)));
  EXPECT_TRUE(std::isfinite(gp.InformationGain()));
  EXPECT_TRUE(std::isfinite(gp.LogMarginalLikelihood()));
}

TEST(GaussianProcessTest, DuplicatePointsAreLegal) {
  GaussianProcess gp = MakeGp(1, true, 1e-2);
  const Eigen::VectorXd x = Eigen::VectorXd::Constant(1, 0.5);
  gp.AddObservation(x, 1.0);
  gp.AddObservation(x, 2.0);
  gp.AddObservation(x, 3.0);
  EXPECT_EQ(gp.jitter(), 0.0);  // the noise alone keeps K + noise I well conditioned
  EXPECT_NEAR(gp.Mean(x), 2.0, 0.05);
}

TEST(GaussianProcessTest, InformationGainIsHalfLogDet) {
  Rng rng(TestSeed(17));
  const double noise = 0.05;
  GaussianProcess gp = MakeGp(2, false, noise);
  const Eigen::MatrixXd X = UniformPoints(2, 12, 0.0, 1.0, rng);
  double sum = 0.0;
  for (int i = 0; i < 12; ++i) {
    sum += 0.5 * std::log(1.0 + gp.Variance(X.col(i)) / noise);
    gp.AddObservation(X.col(i), TestFunction(X.col(i)));
  }
  Eigen::MatrixXd K = gp.kernel().Gram(X) / noise;
  K.diagonal().array() += 1.0;
  EXPECT_NEAR(gp.InformationGain(), 0.5 * std::log(K.determinant()), 1e-9);
  EXPECT_NEAR(gp.InformationGain(), sum, 1e-9);
}

TEST(GaussianProcessTest, SequentialVariancesArePriorPosteriorVariances) {
  Rng rng(TestSeed(19));
  const double noise = 0.05;
  GaussianProcess gp = MakeGp(2, false, noise);
  const Eigen::MatrixXd X = UniformPoints(2, 10, 0.0, 1.0, rng);
  Eigen::VectorXd expected(10);
  for (int i = 0; i < 10; ++i) {
    expected(i) = gp.Variance(X.col(i));  // given the observations before it
    gp.AddObservation(X.col(i), TestFunction(X.col(i)));
  }
  const Eigen::VectorXd v = gp.SequentialVariances();
  ASSERT_EQ(v.size(), 10);
  for (int i = 0; i < 10; ++i) EXPECT_NEAR(v(i), expected(i), 1e-10) << i;
  EXPECT_NEAR(0.5 * (v.array() / noise).log1p().sum(), gp.InformationGain(), 1e-10);
}

// Unstandardized, prior mean 0: z_i = (y_i - mu_{i-1}(x_i)) / sqrt(sigma_{i-1}^2(x_i) + noise),
// the posterior taken before observation i was added (incremental against the whitened batch).
TEST(GaussianProcessTest, OneStepResidualsArePredictionErrorsBeforeEachObservation) {
  Rng rng(TestSeed(23));
  const double noise = 0.05;
  GaussianProcess gp = MakeGp(2, false, noise);
  const Eigen::MatrixXd X = UniformPoints(2, 12, 0.0, 1.0, rng);
  Eigen::VectorXd expected(12);
  for (int i = 0; i < 12; ++i) {
    const double y = 3.0 * TestFunction(X.col(i));
    expected(i) = (y - gp.Mean(X.col(i))) / std::sqrt(gp.Variance(X.col(i)) + noise);
    gp.AddObservation(X.col(i), y);
  }
  ASSERT_EQ(gp.jitter(), 0.0);
  const Eigen::VectorXd z = gp.OneStepResiduals();
  ASSERT_EQ(z.size(), 12);
  for (int i = 0; i < 12; ++i) EXPECT_NEAR(z(i), expected(i), 1e-10) << i;
}

// Standardized, under either prior mean: |z|^2 = r^T (K + noise I)^-1 r with r the outputs as
// the model sees them (y - offset) / scale, and z_0 = r_0 / sqrt(k(x_0, x_0) + noise).
TEST(GaussianProcessTest, OneStepResidualsWhitenTheStandardizedOutputs) {
  Rng rng(TestSeed(24));
  const Eigen::MatrixXd X = UniformPoints(2, 15, 0.0, 1.0, rng);
  for (PriorMeanEstimate mean :
       {PriorMeanEstimate::kSampleMean, PriorMeanEstimate::kGeneralizedLeastSquares}) {
    GaussianProcess gp = MakeGp(2, true, 1e-2, mean);
    Eigen::VectorXd y(15);
    for (int i = 0; i < 15; ++i) y(i) = 7.0 + 2.0 * TestFunction(X.col(i));
    for (int i = 0; i < 15; ++i) gp.AddObservation(X.col(i), y(i));
    const Eigen::VectorXd r = (y.array() - gp.output_offset()) / gp.output_scale();
    Eigen::MatrixXd C = gp.kernel().Gram(X);
    C.diagonal().array() += gp.noise_variance() + gp.jitter();
    const Eigen::VectorXd z = gp.OneStepResiduals();
    EXPECT_NEAR(z.squaredNorm(), r.dot(C.llt().solve(r)), 1e-9);
    EXPECT_NEAR(z(0), r(0) / std::sqrt(C(0, 0)), 1e-10);
  }
}

TEST(GaussianProcessTest, ConstantAndSingleOutputsUseUnitScale) {
  GaussianProcess gp = MakeGp(1, true);
  gp.AddObservation(Eigen::VectorXd::Constant(1, 0.2), 5.0);
  EXPECT_EQ(gp.output_scale(), 1.0);
  EXPECT_EQ(gp.output_offset(), 5.0);
  gp.AddObservation(Eigen::VectorXd::Constant(1, 0.7), 5.0);
  EXPECT_EQ(gp.output_scale(), 1.0);
  EXPECT_NEAR(gp.Mean(Eigen::VectorXd::Constant(1, 0.4)), 5.0, 1e-12);
  EXPECT_TRUE(std::isfinite(gp.LogMarginalLikelihood()));
}

TEST(GaussianProcessTest, RemoveLastObservationsUndoesAppends) {
  Rng rng(TestSeed(18));
  const Eigen::MatrixXd X = UniformPoints(2, 20, 0.0, 1.0, rng);
  GaussianProcess gp = MakeGp(2, true);
  GaussianProcess reference = MakeGp(2, true);
  for (int i = 0; i < 20; ++i) {
    gp.AddObservation(X.col(i), TestFunction(X.col(i)));
    if (i < 15) reference.AddObservation(X.col(i), TestFunction(X.col(i)));
  }
  gp.RemoveLastObservations(5);
  EXPECT_EQ(gp.num_observations(), 15);
  const Eigen::Vector2d probe(0.3, 0.6);
  EXPECT_NEAR(gp.Mean(probe), reference.Mean(probe), 1e-12);
  EXPECT_NEAR(gp.Variance(probe), reference.Variance(probe), 1e-12);
  EXPECT_NEAR(gp.InformationGain(), reference.InformationGain(), 1e-12);
  EXPECT_THROW(gp.RemoveLastObservations(16), std::invalid_argument);
  gp.Clear();
  EXPECT_EQ(gp.num_observations(), 0);
}

TEST(GaussianProcessTest, SetHyperparametersRefactorizes) {
  Rng rng(TestSeed(19));
  const Eigen::MatrixXd X = UniformPoints(2, 20, 0.0, 1.0, rng);
  Eigen::VectorXd y(20);
  for (int i = 0; i < 20; ++i) y(i) = TestFunction(X.col(i));
  GaussianProcess gp = MakeGp(2, true);
  gp.AddObservations(X, y);
  Eigen::VectorXd params = gp.kernel_log_params();
  params(1) += 0.5;
  gp.SetHyperparameters(params, 0.02);
  GaussianProcessOptions options;
  options.noise_variance = 0.02;
  auto kernel = MakeMatern52(FirstDims(2), true);
  kernel->SetLogParams(params);
  GaussianProcess fresh(std::move(kernel), 2, options);
  fresh.AddObservations(X, y);
  const Eigen::Vector2d probe(0.25, 0.75);
  EXPECT_NEAR(gp.Mean(probe), fresh.Mean(probe), 1e-10);
  EXPECT_NEAR(gp.Variance(probe), fresh.Variance(probe), 1e-10);
}

TEST(GaussianProcessTest, BadInputThrowsAndLeavesModelUnchanged) {
  Rng rng(TestSeed(20));
  GaussianProcess gp = MakeGp(2, true);
  const Eigen::MatrixXd X = UniformPoints(2, 5, 0.0, 1.0, rng);
  for (int i = 0; i < 5; ++i) gp.AddObservation(X.col(i), TestFunction(X.col(i)));
  const Snapshot before(gp);
  const Eigen::Vector2d ok(0.5, 0.5);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();

  try {
    gp.AddObservation(ok, nan);
    ADD_FAILURE() << "NaN y accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("y = nan"));
  }
  before.ExpectSame(gp);
  try {
    gp.AddObservation(ok, -inf);
    ADD_FAILURE() << "-inf y accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("y = -inf"));
  }
  before.ExpectSame(gp);
  try {
    gp.AddObservation(Eigen::Vector3d(0.1, 0.2, 0.3), 1.0);
    ADD_FAILURE() << "wrong dimension accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("dimension 3"));
    EXPECT_THAT(e.what(), HasSubstr("input_dim = 2"));
  }
  before.ExpectSame(gp);
  try {
    gp.AddObservation(Eigen::Vector2d(0.1, nan), 1.0);
    ADD_FAILURE() << "NaN x accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("x[1] = nan"));
  }
  before.ExpectSame(gp);
  // A batch with one bad entry is rejected whole.
  Eigen::MatrixXd Xb = UniformPoints(2, 3, 0.0, 1.0, rng);
  Eigen::Vector3d yb(1.0, inf, 2.0);
  EXPECT_THROW(gp.AddObservations(Xb, yb), std::invalid_argument);
  before.ExpectSame(gp);
  EXPECT_THROW(gp.AddObservations(Xb, Eigen::Vector2d(1.0, 2.0)), std::invalid_argument);
  before.ExpectSame(gp);
  // Hyperparameters: wrong size, non-finite, negative noise.
  try {
    gp.SetHyperparameters(Eigen::VectorXd::Zero(7), 0.01);
    ADD_FAILURE() << "wrong hyperparameter size accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("7"));
  }
  before.ExpectSame(gp);
  Eigen::VectorXd bad = gp.kernel_log_params();
  bad(0) = nan;
  EXPECT_THROW(gp.SetHyperparameters(bad, 0.01), std::invalid_argument);
  before.ExpectSame(gp);
  try {
    gp.SetHyperparameters(gp.kernel_log_params(), -1.0);
    ADD_FAILURE() << "negative noise accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("noise_variance = -1"));
  }
  before.ExpectSame(gp);
  EXPECT_THROW(gp.Mean(Eigen::VectorXd::Zero(1)), std::invalid_argument);
  EXPECT_THROW(gp.RemoveLastObservations(-1), std::invalid_argument);
  before.ExpectSame(gp);
}

TEST(GaussianProcessTest, ConstructionRejectsBadArguments) {
  EXPECT_THROW(GaussianProcess(nullptr, 2), std::invalid_argument);
  try {
    GaussianProcess(MakeSquaredExponential({0, 3}), 2);
    ADD_FAILURE() << "input_dim below the kernel's dims accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("input_dim = 2"));
  }
  GaussianProcessOptions options;
  options.noise_variance = -0.5;
  std::string error;
  EXPECT_FALSE(options.IsValid(&error));
  EXPECT_THAT(error, HasSubstr("noise_variance"));
  EXPECT_THROW(GaussianProcess(MakeSquaredExponential({0}), 1, options), std::invalid_argument);
}

TEST(GaussianProcessTest, CopiesAreIndependent) {
  GaussianProcess gp = MakeGp(1, true);
  gp.AddObservation(Eigen::VectorXd::Constant(1, 0.1), 1.0);
  GaussianProcess copy = gp;
  copy.AddObservation(Eigen::VectorXd::Constant(1, 0.9), 2.0);
  EXPECT_EQ(gp.num_observations(), 1);
  EXPECT_EQ(copy.num_observations(), 2);
  Eigen::VectorXd params = copy.kernel_log_params();
  params(0) = 1.0;
  copy.SetHyperparameters(params, 1e-3);
  EXPECT_NE(gp.kernel_log_params()(0), 1.0);
}

// ---- Huge or tiny rewards (docs/design.md, "Faults": "huge or tiny rewards ... bounds whose width
// overflows") ------------------------------------------------------------------------------

// n points of the unit square and rewards offset + scale * TestFunction there.
void ScaledData(int n, double offset, double scale, std::uint64_t seed, Eigen::MatrixXd* X,
                Eigen::VectorXd* y) {
  Rng rng(seed);
  *X = UniformPoints(2, n, 0.0, 1.0, rng);
  y->resize(n);
  for (int i = 0; i < n; ++i) (*y)(i) = offset + scale * TestFunction(X->col(i));
}

TEST(HugeOrTinyRewardsTest, PowerOfTwoScalesChangeNothingButTheUnit) {
  // Standardization divides the scale out exactly: at any power of two the standardized data,
  // the likelihood and the information gain are bit for bit those of the unscaled data, and the
  // means are theirs times the power (incremental appends, with their changes of reference,
  // included).
  Eigen::MatrixXd X;
  Eigen::VectorXd f;
  ScaledData(30, 0.0, 1.0, TestSeed(21), &X, &f);
  GaussianProcess base = MakeGp(2, true);
  for (int i = 0; i < 30; ++i) base.AddObservation(X.col(i), f(i));
  const Eigen::Vector2d probe(0.31, 0.77);
  for (int k : {-1000, -600, -300, -60, 60, 300, 600, 1000}) {
    GaussianProcess gp = MakeGp(2, true);
    for (int i = 0; i < 30; ++i) gp.AddObservation(X.col(i), std::ldexp(f(i), k));
    EXPECT_EQ(gp.standardized_outputs(), base.standardized_outputs()) << "2^" << k;
    EXPECT_EQ(gp.LogMarginalLikelihood(), base.LogMarginalLikelihood()) << "2^" << k;
    EXPECT_EQ(gp.InformationGain(), base.InformationGain()) << "2^" << k;
    EXPECT_EQ(gp.output_scale(), std::ldexp(base.output_scale(), k)) << "2^" << k;
    EXPECT_EQ(gp.Mean(probe), std::ldexp(base.Mean(probe), k)) << "2^" << k;
    EXPECT_EQ(gp.MeansAtObservations(), base.MeansAtObservations().unaryExpr([k](double m) {
      return std::ldexp(m, k);
    })) << "2^"
        << k;
    // ScaleOutputs moves a model between units exactly.
    gp.ScaleOutputs(-k);
    EXPECT_EQ(gp.outputs(), base.outputs()) << "2^" << k;
    EXPECT_EQ(gp.Mean(probe), base.Mean(probe)) << "2^" << k;
  }
}

TEST(HugeOrTinyRewardsTest, MagnitudesUpToTheLargestDoubleStayFinite) {
  if (std::numeric_limits<long double>::max_exponent <= std::numeric_limits<double>::max_exponent)
    GTEST_SKIP() << "the reference needs a long double wider than double";
  Eigen::MatrixXd X;
  Eigen::VectorXd f;
  ScaledData(25, 0.0, 1.0, TestSeed(22), &X, &f);
  const double big = std::numeric_limits<double>::max();
  for (double scale : {1e300, 0.5 * big, big / 3.0}) {
    Eigen::VectorXd y = (scale / f.cwiseAbs().maxCoeff()) * f;
    y(0) = big;
    y(1) = -big;
    GaussianProcess gp = MakeGp(2, true);
    for (int i = 0; i < y.size(); ++i) gp.AddObservation(X.col(i), y(i));
    // Mean and deviation against a long double computation (range to ~1e4932).
    long double sum = 0, squares = 0;
    for (int i = 0; i < y.size(); ++i) sum += y(i);
    const long double mean = sum / y.size();
    for (int i = 0; i < y.size(); ++i) squares += (y(i) - mean) * (y(i) - mean);
    const long double sd = std::sqrt(squares / y.size());
    EXPECT_NEAR(gp.output_offset() / static_cast<double>(sd), static_cast<double>(mean / sd),
                1e-13);
    EXPECT_NEAR(gp.output_scale() / static_cast<double>(sd), 1.0, 1e-13);
    EXPECT_TRUE(gp.standardized_outputs().allFinite());
    EXPECT_LE(gp.standardized_outputs().cwiseAbs().maxCoeff(), std::sqrt(25.0));
    EXPECT_TRUE(std::isfinite(gp.LogMarginalLikelihood()));
    EXPECT_TRUE(std::isfinite(gp.InformationGain()));
    EXPECT_TRUE(gp.MeansAtObservations().allFinite());
    EXPECT_TRUE(std::isfinite(gp.Mean(Eigen::Vector2d(0.5, 0.5))));
    // The observations are interpolated: the largest mean is at the largest reward.
    Eigen::Index at_best = 0, at_max = 0;
    gp.MeansAtObservations().maxCoeff(&at_best);
    y.maxCoeff(&at_max);
    EXPECT_EQ(at_best, at_max);
  }
}

TEST(HugeOrTinyRewardsTest, TinyRelativeSpreadsAreSignalNotConstant) {
  // Rewards c (1 + r g) with spreads r down to a few units in the last place of c: any spread
  // the doubles represent is the scale, so the model follows the data and its best observed
  // mean is at the best reward (a threshold of 1e-12 relative to the mean took these for
  // constants and smoothed them away).
  Eigen::MatrixXd X;
  Eigen::VectorXd g;
  ScaledData(20, 0.0, 1.0, TestSeed(23), &X, &g);
  for (double c : {1.0, 1e5, 1e300, -1e300, 1e-300}) {
    for (double r : {1e-10, 1e-13, 1e-15}) {
      const Eigen::VectorXd y = (c * (1.0 + r * g.array())).matrix();
      if (y.maxCoeff() == y.minCoeff()) continue;  // below the resolution of c
      GaussianProcess gp = MakeGp(2, true, 1e-6);
      for (int i = 0; i < y.size(); ++i) gp.AddObservation(X.col(i), y(i));
      const Eigen::VectorXd means = gp.MeansAtObservations();
      ASSERT_TRUE(means.allFinite()) << c << " " << r;
      const double spread = y.maxCoeff() - y.minCoeff();
      EXPECT_LE((means - y).cwiseAbs().maxCoeff(), 0.05 * spread) << "c = " << c << ", r = " << r;
      Eigen::Index best = 0;
      means.maxCoeff(&best);
      EXPECT_EQ(y(best), y.maxCoeff()) << "c = " << c << ", r = " << r;
      EXPECT_TRUE(std::isfinite(gp.LogMarginalLikelihood()));
    }
  }
}

TEST(HugeOrTinyRewardsTest, IncrementalMatchesBatchAtAnyScale) {
  // Appends one at a time (with their changes of reference) against one batch factorization,
  // in standardized units.
  Eigen::MatrixXd X;
  Eigen::VectorXd f;
  ScaledData(60, 0.0, 1.0, TestSeed(24), &X, &f);
  Rng rng(TestSeed(25));
  const Eigen::MatrixXd probes = UniformPoints(2, 20, 0.0, 1.0, rng);
  for (const auto& [offset, scale] : std::vector<std::pair<double, double>>{
           {0.0, 1e300}, {0.0, 1e-300}, {1e8, 1e-4}, {-3e300, 1e287}, {1e-300, 1e-310}}) {
    const Eigen::VectorXd y = (offset + scale * f.array()).matrix();
    GaussianProcess incremental = MakeGp(2, true), batch = MakeGp(2, true);
    for (int i = 0; i < y.size(); ++i) incremental.AddObservation(X.col(i), y(i));
    batch.AddObservations(X, y);
    EXPECT_EQ(incremental.output_offset(), batch.output_offset());
    EXPECT_EQ(incremental.output_scale(), batch.output_scale());
    Eigen::VectorXd m1, m2;
    incremental.Predict(probes, &m1, nullptr);
    batch.Predict(probes, &m2, nullptr);
    const Eigen::ArrayXd z1 = (m1.array() - batch.output_offset()) / batch.output_scale();
    const Eigen::ArrayXd z2 = (m2.array() - batch.output_offset()) / batch.output_scale();
    EXPECT_LE((z1 - z2).abs().maxCoeff(), 1e-9) << offset << " + " << scale << " f";
    EXPECT_NEAR(incremental.LogMarginalLikelihood(), batch.LogMarginalLikelihood(),
                1e-9 * std::abs(batch.LogMarginalLikelihood()));
  }
}

}  // namespace
}  // namespace gpbandit
