#include "gpbandit/maximizer/box_maximizer.h"

#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>

#include "numerics/thread_policy.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

using Function = std::function<double(const Eigen::VectorXd&, Eigen::VectorXd*)>;

class FunctionAcquisition : public ContinuousAcquisition {
 public:
  explicit FunctionAcquisition(Function f) : f_(std::move(f)) {}
  double Evaluate(const ConstVectorRef& x, Eigen::VectorXd* gradient) const override {
    return f_(x, gradient);
  }

 private:
  Function f_;
};

void ExpectInside(const Eigen::VectorXd& x, const Eigen::VectorXd& lower,
                  const Eigen::VectorXd& upper) {
  for (int i = 0; i < x.size(); ++i) {
    EXPECT_GE(x(i), lower(i)) << i;
    EXPECT_LE(x(i), upper(i)) << i;
  }
}

// Hartmann-3 as a reward (maximum 3.86278 at (0.114614, 0.555649, 0.852547); four local maxima).
double Hartmann3(const Eigen::VectorXd& x, Eigen::VectorXd* gradient) {
  static const double alpha[4] = {1.0, 1.2, 3.0, 3.2};
  static const double A[4][3] = {{3, 10, 30}, {0.1, 10, 35}, {3, 10, 30}, {0.1, 10, 35}};
  static const double P[4][3] = {{0.3689, 0.1170, 0.2673},
                                 {0.4699, 0.4387, 0.7470},
                                 {0.1091, 0.8732, 0.5547},
                                 {0.0381, 0.5743, 0.8828}};
  double sum = 0.0;
  if (gradient != nullptr) gradient->setZero(3);
  for (int i = 0; i < 4; ++i) {
    double inner = 0.0;
    for (int j = 0; j < 3; ++j) inner += A[i][j] * (x(j) - P[i][j]) * (x(j) - P[i][j]);
    const double term = alpha[i] * std::exp(-inner);
    sum += term;
    if (gradient != nullptr)
      for (int j = 0; j < 3; ++j) (*gradient)(j) -= term * 2.0 * A[i][j] * (x(j) - P[i][j]);
  }
  return sum;
}

// -||x - c||^2 + 0.3 sum_i cos(10 (x_i - k_i)): many local maxima; when k is the projection of c
// onto the box, both terms peak at k, so k is the global maximum.
Function RippledBowl(const Eigen::VectorXd& c, const Eigen::VectorXd& k) {
  return [c, k](const Eigen::VectorXd& x, Eigen::VectorXd* gradient) {
    double value = -(x - c).squaredNorm();
    if (gradient != nullptr) *gradient = -2.0 * (x - c);
    for (int i = 0; i < x.size(); ++i) {
      value += 0.3 * std::cos(10.0 * (x(i) - k(i)));
      if (gradient != nullptr) (*gradient)(i) -= 3.0 * std::sin(10.0 * (x(i) - k(i)));
    }
    return value;
  };
}

BoxMaximizerOptions TestOptions() {
  BoxMaximizerOptions options;
  options.num_raw_samples = 256;
  options.num_starts = 8;
  return options;
}

TEST(BoxMaximizerTest, FindsTheHartmann3MaximumInside) {
  Rng rng(testing::TestSeed(5));
  FunctionAcquisition acquisition(Hartmann3);
  const Eigen::VectorXd lower = Eigen::VectorXd::Zero(3), upper = Eigen::VectorXd::Ones(3);
  const BoxMaximizerResult result =
      MaximizeOverBox(acquisition, lower, upper, Eigen::MatrixXd(3, 0), TestOptions(), rng);
  EXPECT_NEAR(result.value, 3.86278, 1e-4) << result.BriefReport();
  EXPECT_NEAR(result.x(0), 0.114614, 1e-3);
  EXPECT_NEAR(result.x(1), 0.555649, 1e-3);
  EXPECT_NEAR(result.x(2), 0.852547, 1e-3);
  EXPECT_FALSE(result.from_raw_sample);
  ExpectInside(result.x, lower, upper);
}

TEST(BoxMaximizerTest, FindsAMaximumInACorner) {
  Rng rng(testing::TestSeed(6));
  const Eigen::VectorXd lower = (Eigen::VectorXd(3) << -1.0, 0.0, 2.0).finished();
  const Eigen::VectorXd upper = (Eigen::VectorXd(3) << 1.0, 0.5, 3.0).finished();
  // c beyond the corner (upper, lower, upper); k is that corner.
  const Eigen::VectorXd corner = (Eigen::VectorXd(3) << 1.0, 0.0, 3.0).finished();
  const Eigen::VectorXd c = (Eigen::VectorXd(3) << 1.5, -0.5, 4.0).finished();
  FunctionAcquisition acquisition(RippledBowl(c, corner));
  const BoxMaximizerResult result =
      MaximizeOverBox(acquisition, lower, upper, Eigen::MatrixXd(3, 0), TestOptions(), rng);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(result.x(i), corner(i), 1e-5) << i;
  ExpectInside(result.x, lower, upper);
}

TEST(BoxMaximizerTest, FindsAMaximumOnAFace) {
  Rng rng(testing::TestSeed(7));
  const Eigen::VectorXd lower = Eigen::VectorXd::Zero(2), upper = Eigen::VectorXd::Ones(2);
  // Global maximum at (1, 0.3): on the face x0 = 1, interior in x1.
  const Eigen::VectorXd k = (Eigen::VectorXd(2) << 1.0, 0.3).finished();
  const Eigen::VectorXd c = (Eigen::VectorXd(2) << 2.0, 0.3).finished();
  FunctionAcquisition acquisition(RippledBowl(c, k));
  const BoxMaximizerResult result =
      MaximizeOverBox(acquisition, lower, upper, Eigen::MatrixXd(2, 0), TestOptions(), rng);
  EXPECT_NEAR(result.x(0), 1.0, 1e-5);
  EXPECT_NEAR(result.x(1), 0.3, 1e-5);
  ExpectInside(result.x, lower, upper);
}

TEST(BoxMaximizerTest, FixedCoordinatesStayExactlyFixed) {
  Rng rng(testing::TestSeed(8));
  Eigen::VectorXd lower = Eigen::VectorXd::Zero(3), upper = Eigen::VectorXd::Ones(3);
  lower(1) = upper(1) = 0.555649;  // a context held fixed
  FunctionAcquisition acquisition(Hartmann3);
  // An extra start that disagrees with the fixed coordinate is clamped onto it.
  Eigen::MatrixXd extra(3, 1);
  extra << 0.9, 0.1, 0.1;
  const BoxMaximizerResult result =
      MaximizeOverBox(acquisition, lower, upper, extra, TestOptions(), rng);
  EXPECT_EQ(result.x(1), 0.555649);
  EXPECT_NEAR(result.x(0), 0.114614, 2e-3);
  EXPECT_NEAR(result.x(2), 0.852547, 2e-3);
  // Every coordinate fixed: the box is a point.
  const BoxMaximizerResult point =
      MaximizeOverBox(acquisition, upper, upper, Eigen::MatrixXd(3, 0), TestOptions(), rng);
  EXPECT_EQ(point.x, upper);
}

TEST(BoxMaximizerTest, ExtraStartsAreUsed) {
  // A narrow spike far from everything else: the raw sample misses it, a start placed near it
  // finds it.
  const Function spike = [](const Eigen::VectorXd& x, Eigen::VectorXd* gradient) {
    const double d2 = (x.array() - 0.8123).square().sum();
    const double value = std::exp(-d2 / 2e-6);
    if (gradient != nullptr) *gradient = -value * (x.array() - 0.8123).matrix() / 1e-6;
    return value;
  };
  FunctionAcquisition acquisition(spike);
  Rng rng(testing::TestSeed(9));
  const Eigen::VectorXd lower = Eigen::VectorXd::Zero(4), upper = Eigen::VectorXd::Ones(4);
  Eigen::MatrixXd extra = Eigen::MatrixXd::Constant(4, 1, 0.8125);
  const BoxMaximizerResult result =
      MaximizeOverBox(acquisition, lower, upper, extra, TestOptions(), rng);
  EXPECT_NEAR(result.value, 1.0, 1e-6) << result.BriefReport();
}

TEST(BoxMaximizerTest, SameResultWithOneAndTwoThreads) {
  const ScopedParallelismForTesting parallel;  // the policy would run this small work serially
  FunctionAcquisition acquisition(Hartmann3);
  const Eigen::VectorXd lower = Eigen::VectorXd::Zero(3), upper = Eigen::VectorXd::Ones(3);
  const std::uint64_t seed = testing::TestSeed(10);
  BoxMaximizerResult results[2];
  const int saved = omp_get_max_threads();
  for (int threads : {1, 2}) {
    omp_set_num_threads(threads);
    Rng rng(seed);
    results[threads - 1] =
        MaximizeOverBox(acquisition, lower, upper, Eigen::MatrixXd(3, 0), TestOptions(), rng);
  }
  omp_set_num_threads(saved);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(results[0].x(i), results[1].x(i)) << i;
  EXPECT_EQ(results[0].value, results[1].value);
  EXPECT_EQ(results[0].num_evaluations, results[1].num_evaluations);
}

TEST(BoxMaximizerTest, NanRegionsDiscardStartsInsteadOfFailing) {
  // NaN on half the box, Hartmann-3 on the other half: the maximum of the finite part is found.
  const Function half_nan = [](const Eigen::VectorXd& x, Eigen::VectorXd* gradient) {
    if (x(2) > 0.7) return std::numeric_limits<double>::quiet_NaN();
    return Hartmann3(x, gradient);
  };
  FunctionAcquisition acquisition(half_nan);
  Rng rng(testing::TestSeed(12));
  const Eigen::VectorXd lower = Eigen::VectorXd::Zero(3), upper = Eigen::VectorXd::Ones(3);
  Eigen::MatrixXd extra(3, 1);
  extra << 0.1, 0.5, 0.9;  // starts in the NaN region: discarded
  BoxMaximizerResult result;
  ASSERT_NO_THROW(result = MaximizeOverBox(acquisition, lower, upper, extra, TestOptions(), rng));
  EXPECT_TRUE(std::isfinite(result.value));
  EXPECT_LE(result.x(2), 0.7);
  EXPECT_GE(result.starts_failed, 1);
  // Hartmann-3 restricted to x2 <= 0.7 exceeds 3 (its value near (0.11, 0.55, 0.7)).
  EXPECT_GT(result.value, 3.0);
}

TEST(BoxMaximizerTest, AllNanReturnsAPointInsideWithoutThrowing) {
  FunctionAcquisition acquisition([](const Eigen::VectorXd&, Eigen::VectorXd*) {
    return std::numeric_limits<double>::quiet_NaN();
  });
  Rng rng(1);
  const Eigen::VectorXd lower = Eigen::VectorXd::Zero(2), upper = Eigen::VectorXd::Ones(2);
  BoxMaximizerResult result;
  ASSERT_NO_THROW(result = MaximizeOverBox(acquisition, lower, upper, Eigen::MatrixXd(2, 0),
                                           TestOptions(), rng));
  EXPECT_TRUE(std::isnan(result.value));
  EXPECT_TRUE(result.from_raw_sample);
  ExpectInside(result.x, lower, upper);
}

TEST(BoxMaximizerTest, ExceptionsAreRethrownAfterTheParallelRegion) {
  FunctionAcquisition acquisition([](const Eigen::VectorXd& x, Eigen::VectorXd* g) -> double {
    if (g != nullptr && x(0) > 0.0) throw std::runtime_error("boom");
    return -x.squaredNorm();
  });
  Rng rng(1);
  EXPECT_THROW(MaximizeOverBox(acquisition, Eigen::VectorXd::Zero(2), Eigen::VectorXd::Ones(2),
                               Eigen::MatrixXd(2, 0), TestOptions(), rng),
               std::runtime_error);
}

TEST(BoxMaximizerTest, ResultIsClampedExactlyIntoTheBox) {
  // Increasing in every coordinate: the optimum is the upper corner; roundoff in the cos map
  // must not leave the box.
  FunctionAcquisition acquisition([](const Eigen::VectorXd& x, Eigen::VectorXd* g) {
    if (g != nullptr) *g = Eigen::VectorXd::Ones(x.size());
    return x.sum();
  });
  Rng rng(2);
  const Eigen::VectorXd lower = (Eigen::VectorXd(2) << 0.1, -7.3).finished();
  const Eigen::VectorXd upper = (Eigen::VectorXd(2) << 0.3, 1.0 / 3.0).finished();
  const BoxMaximizerResult result =
      MaximizeOverBox(acquisition, lower, upper, Eigen::MatrixXd(2, 0), TestOptions(), rng);
  ExpectInside(result.x, lower, upper);
  EXPECT_NEAR(result.x(0), 0.3, 1e-9);
  EXPECT_NEAR(result.x(1), 1.0 / 3.0, 1e-9);
}

TEST(BoxMaximizerTest, RejectsBadBoxesAndOptions) {
  FunctionAcquisition acquisition(Hartmann3);
  Rng rng(1);
  const Eigen::VectorXd ones = Eigen::VectorXd::Ones(3), zeros = Eigen::VectorXd::Zero(3);
  const Eigen::MatrixXd none(3, 0);
  EXPECT_THROW(MaximizeOverBox(acquisition, ones, zeros, none, TestOptions(), rng),
               std::invalid_argument);
  Eigen::VectorXd inf = ones;
  inf(1) = std::numeric_limits<double>::infinity();
  EXPECT_THROW(MaximizeOverBox(acquisition, zeros, inf, none, TestOptions(), rng),
               std::invalid_argument);
  EXPECT_THROW(
      MaximizeOverBox(acquisition, zeros, Eigen::VectorXd::Ones(2), none, TestOptions(), rng),
      std::invalid_argument);
  EXPECT_THROW(MaximizeOverBox(acquisition, zeros, ones, Eigen::MatrixXd(2, 1), TestOptions(), rng),
               std::invalid_argument);
  BoxMaximizerOptions options = TestOptions();
  options.num_starts = 0;
  std::string error;
  EXPECT_FALSE(options.IsValid(&error));
  EXPECT_NE(error.find("num_starts"), std::string::npos);
  EXPECT_THROW(MaximizeOverBox(acquisition, zeros, ones, none, options, rng),
               std::invalid_argument);
  try {
    MaximizeOverBox(acquisition, ones, zeros, none, TestOptions(), rng);
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("lower[0] = 1"), std::string::npos) << e.what();
  }
}

TEST(LatinHypercubeTest, OnePointPerStratum) {
  Rng rng(testing::TestSeed(13));
  const int n = 50;
  const Eigen::VectorXd lower = (Eigen::VectorXd(2) << -1.0, 5.0).finished();
  const Eigen::VectorXd upper = (Eigen::VectorXd(2) << 1.0, 5.0).finished();
  const Eigen::MatrixXd points = LatinHypercube(lower, upper, n, rng);
  std::vector<int> count(n, 0);
  for (int j = 0; j < n; ++j) {
    const int stratum = std::min(n - 1, static_cast<int>((points(0, j) + 1.0) / 2.0 * n));
    ++count[stratum];
    EXPECT_EQ(points(1, j), 5.0);  // fixed coordinate
  }
  for (int c : count) EXPECT_EQ(c, 1);
}

TEST(ScrambledSobolTest, EveryElementaryIntervalHoldsOnePoint) {
  // The first 2^k points of the first two Sobol coordinates form a (0, k, 2)-net: each of the
  // 2^k boxes [i / 2^a, (i + 1) / 2^a) x [j / 2^b, (j + 1) / 2^b) with a + b = k holds exactly
  // one point; a digital shift (XOR of the bits) permutes those boxes and keeps it so.
  Rng rng(testing::TestSeed(29));
  const int n = 64;
  const Eigen::VectorXd lower = (Eigen::VectorXd(3) << 0.0, 7.0, -2.0).finished();
  const Eigen::VectorXd upper = (Eigen::VectorXd(3) << 1.0, 7.0, 2.0).finished();
  const Eigen::MatrixXd points = ScrambledSobol(lower, upper, n, rng);
  ASSERT_EQ(points.rows(), 3);
  ASSERT_EQ(points.cols(), n);
  for (int a = 0; a <= 6; ++a) {
    const int rows = 1 << a, cols = n >> a;
    std::vector<int> count(static_cast<std::size_t>(n), 0);
    for (int j = 0; j < n; ++j) {
      EXPECT_EQ(points(1, j), 7.0);  // fixed coordinate
      const int r = static_cast<int>(points(0, j) * rows);
      const int c = static_cast<int>((points(2, j) + 2.0) / 4.0 * cols);
      ++count[static_cast<std::size_t>(r * cols + c)];
    }
    for (int k : count) EXPECT_EQ(k, 1) << "a = " << a;
  }
}

TEST(ScrambledSobolTest, ShiftDependsOnTheGeneratorOnly) {
  const Eigen::VectorXd lower = Eigen::VectorXd::Zero(4), upper = Eigen::VectorXd::Ones(4);
  Rng a(5), b(5), c(6);
  const Eigen::MatrixXd pa = ScrambledSobol(lower, upper, 32, a);
  EXPECT_EQ(pa, ScrambledSobol(lower, upper, 32, b));
  EXPECT_NE(pa, ScrambledSobol(lower, upper, 32, c));
  EXPECT_EQ(ParseRawSampleDesign(RawSampleDesignName(RawSampleDesign::kSobol)),
            RawSampleDesign::kSobol);
  EXPECT_THROW(ParseRawSampleDesign("halton"), std::invalid_argument);
}

TEST(ScrambledSobolTest, TheMaximizerFindsTheHartmann3MaximumFromSobolSamples) {
  Rng rng(testing::TestSeed(31));
  BoxMaximizerOptions options = TestOptions();
  options.raw_sample_design = RawSampleDesign::kSobol;
  const FunctionAcquisition acquisition(Hartmann3);
  const BoxMaximizerResult result =
      MaximizeOverBox(acquisition, Eigen::VectorXd::Zero(3), Eigen::VectorXd::Ones(3),
                      Eigen::MatrixXd(), options, rng);
  EXPECT_NEAR(result.value, 3.86278, 1e-4) << result.BriefReport();
  EXPECT_NEAR(result.x(2), 0.852547, 1e-3);
  EXPECT_FALSE(result.from_raw_sample);
}

}  // namespace
}  // namespace gpbandit
