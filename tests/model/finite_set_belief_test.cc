#include "model/finite_set_belief.h"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "gpbandit/kernel/kernel_factory.h"

namespace gpbandit {
namespace {

constexpr double kLambda = 0.01;

Eigen::MatrixXd Candidates() {
  Eigen::MatrixXd c(1, 4);
  c << 0.0, 0.3, 0.7, 1.0;
  return c;
}

std::unique_ptr<Kernel> TestKernel() { return MakeMatern52({0}, true, 1.0, 0.5); }

// The exact GP's answer, computed directly: with standardization c and s are the mean and the
// population standard deviation of the outputs (s = 1 below two outputs or for equal ones); the
// mean is c + k^T (K + lambda I)^-1 (y - c) and the variance s^2 (k(x, x) - k^T (K + lambda I)^-1
// k).
struct Exact {
  Eigen::VectorXd means, variances;
  double offset = 0, scale = 1;
};

Exact ExactPosterior(const std::vector<std::pair<int, double>>& observed, bool standardize) {
  const Eigen::MatrixXd x = Candidates();
  const std::unique_ptr<Kernel> k = TestKernel();
  const int n = static_cast<int>(observed.size());
  const int N = static_cast<int>(x.cols());
  Exact e;
  Eigen::VectorXd y(n);
  for (int i = 0; i < n; ++i) y(i) = observed[i].second;
  if (standardize && n > 0) {
    e.offset = y.mean();
    const double var = (y.array() - e.offset).square().mean();
    const bool equal = (y.array() == y(0)).all();  // a computed var may be a roundoff > 0
    if (n >= 2 && !equal) e.scale = std::sqrt(var);
  }
  Eigen::MatrixXd K(n, n), Ks(n, N);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j)
      K(i, j) = k->Value(x.col(observed[i].first), x.col(observed[j].first));
    for (int j = 0; j < N; ++j) Ks(i, j) = k->Value(x.col(observed[i].first), x.col(j));
  }
  K.diagonal().array() += kLambda;
  e.means.resize(N);
  e.variances.resize(N);
  const Eigen::LLT<Eigen::MatrixXd> llt(K);
  const Eigen::VectorXd alpha =
      n > 0 ? Eigen::VectorXd(llt.solve((y.array() - e.offset).matrix())) : Eigen::VectorXd();
  for (int j = 0; j < N; ++j) {
    const double prior = k->Value(x.col(j), x.col(j));
    if (n == 0) {
      e.means(j) = e.offset;
      e.variances(j) = prior;
      continue;
    }
    const Eigen::VectorXd kj = Ks.col(j);
    e.means(j) = e.offset + kj.dot(alpha);
    e.variances(j) = e.scale * e.scale * (prior - kj.dot(llt.solve(kj)));
  }
  return e;
}

FiniteSetBelief Observed(const std::vector<std::pair<int, double>>& observed, bool standardize) {
  FiniteSetBelief belief(*TestKernel(), Candidates(), kLambda, standardize);
  for (const auto& [index, y] : observed) belief.Observe(index, y);
  return belief;
}

void ExpectMatches(const FiniteSetBelief& belief, const Exact& e, double tolerance) {
  EXPECT_NEAR(belief.output_offset(), e.offset, tolerance);
  EXPECT_NEAR(belief.output_scale(), e.scale, tolerance);
  const Eigen::VectorXd means = belief.Means();
  ASSERT_EQ(means.size(), e.means.size());
  for (int j = 0; j < belief.size(); ++j) {
    EXPECT_NEAR(means(j), e.means(j), tolerance) << "candidate " << j;
    EXPECT_EQ(belief.Mean(j), means(j)) << "candidate " << j;  // the same bits both ways
    EXPECT_NEAR(belief.Variance(j), e.variances(j), tolerance) << "candidate " << j;
  }
}

const std::vector<std::pair<int, double>> kData = {{0, 1.0}, {2, 3.0}, {1, 2.5}, {2, 2.0}};

TEST(FiniteSetBelief, BeforeAnyObservationItIsThePrior) {
  for (bool standardize : {false, true}) {
    const FiniteSetBelief belief(*TestKernel(), Candidates(), kLambda, standardize);
    EXPECT_EQ(belief.size(), 4);
    EXPECT_EQ(belief.num_observations(), 0);
    EXPECT_EQ(belief.noise_variance(), kLambda);
    ExpectMatches(belief, ExactPosterior({}, standardize), 1e-15);
  }
}

TEST(FiniteSetBelief, WithoutStandardizationIsTheZeroMeanPosterior) {
  const FiniteSetBelief belief = Observed(kData, false);
  EXPECT_EQ(belief.num_observations(), 4);
  EXPECT_EQ(belief.output_offset(), 0.0);
  EXPECT_EQ(belief.output_scale(), 1.0);
  EXPECT_EQ(belief.reference(), 0.0);
  ExpectMatches(belief, ExactPosterior(kData, false), 1e-10);
}

TEST(FiniteSetBelief, WithStandardizationIsTheExactGpsPosterior) {
  const FiniteSetBelief belief = Observed(kData, true);
  // c = (1 + 3 + 2.5 + 2) / 4 = 2.125; s^2 = mean of squared deviations = 0.546875.
  EXPECT_DOUBLE_EQ(belief.output_offset(), 2.125);
  EXPECT_DOUBLE_EQ(belief.output_scale(), std::sqrt(0.546875));
  EXPECT_EQ(belief.reference(), 1.0);  // the first output
  ExpectMatches(belief, ExactPosterior(kData, true), 1e-10);
}

TEST(FiniteSetBelief, AfterOneOutputEveryMeanIsThatOutput) {
  const FiniteSetBelief belief = Observed({{1, 1e9}}, true);
  EXPECT_EQ(belief.output_scale(), 1.0);
  for (int j = 0; j < 4; ++j) EXPECT_EQ(belief.Mean(j), 1e9) << j;
}

TEST(FiniteSetBelief, EqualOutputsHaveScaleExactlyOne) {
  const FiniteSetBelief belief = Observed({{0, 0.1}, {1, 0.1}, {3, 0.1}}, true);
  EXPECT_EQ(belief.output_scale(), 1.0);
  EXPECT_DOUBLE_EQ(belief.output_offset(), 0.1);
  ExpectMatches(belief, ExactPosterior({{0, 0.1}, {1, 0.1}, {3, 0.1}}, true), 1e-12);
}

TEST(FiniteSetBelief, ALargeMeanWithASmallSpreadLosesNoAccuracy) {
  const std::vector<std::pair<int, double>> data = {
      {0, 1e8 + 0.25}, {1, 1e8 - 0.5}, {3, 1e8 + 1.0}};
  const FiniteSetBelief belief = Observed(data, true);
  const Exact e = ExactPosterior(data, true);
  ExpectMatches(belief, e, 1e-7);
}

TEST(FiniteSetBelief, RefusesANonFiniteOutputNamingItAndChangesNothing) {
  FiniteSetBelief belief = Observed({{0, 1.0}}, true);
  const Eigen::VectorXd before = belief.Means();
  for (double y :
       {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
    try {
      belief.Observe(1, y);
      FAIL() << "no exception for " << y;
    } catch (const std::invalid_argument& e) {
      const std::string message = e.what();
      EXPECT_NE(message.find("y = " + std::string(std::isnan(y) ? "nan" : "inf")),
                std::string::npos)
          << message;
      EXPECT_NE(message.find("not finite"), std::string::npos) << message;
    }
  }
  EXPECT_EQ(belief.num_observations(), 1);
  EXPECT_EQ(belief.Means(), before);
}

TEST(FiniteSetBelief, RefusesAnIndexOutOfRangeAndChangesNothing) {
  FiniteSetBelief belief(*TestKernel(), Candidates(), kLambda, true);
  EXPECT_THROW(belief.Observe(4, 1.0), std::invalid_argument);
  EXPECT_THROW(belief.Observe(-1, 1.0), std::invalid_argument);
  EXPECT_EQ(belief.num_observations(), 0);
  // The first output after the refusals is still the reference.
  belief.Observe(2, 5.0);
  EXPECT_EQ(belief.reference(), 5.0);
  EXPECT_EQ(belief.output_offset(), 5.0);
}

TEST(FiniteSetBelief, RefusesANoiseVarianceThatIsNotPositive) {
  EXPECT_THROW(FiniteSetBelief(*TestKernel(), Candidates(), 0.0, true), std::invalid_argument);
  EXPECT_THROW(FiniteSetBelief(*TestKernel(), Candidates(), -1.0, false), std::invalid_argument);
  EXPECT_THROW(FiniteSetBelief(*TestKernel(), Eigen::MatrixXd(1, 0), kLambda, false),
               std::invalid_argument);
}

TEST(FiniteSetBelief, ScalingTheOutputsIsObservingScaledOutputs) {
  std::vector<std::pair<int, double>> scaled = kData;
  for (auto& entry : scaled) entry.second *= 8.0;
  for (bool standardize : {false, true}) {
    FiniteSetBelief belief = Observed(kData, standardize);
    const Eigen::VectorXd variances_before =
        (Eigen::VectorXd(4) << belief.Variance(0), belief.Variance(1), belief.Variance(2),
         belief.Variance(3))
            .finished();
    belief.ScaleOutputs(3);
    const FiniteSetBelief direct = Observed(scaled, standardize);
    for (int j = 0; j < 4; ++j) {
      EXPECT_NEAR(belief.Mean(j), direct.Mean(j), 1e-9) << j;
      EXPECT_NEAR(belief.Variance(j), direct.Variance(j), 1e-9) << j;
      // The standardized variance scales by 8^2; the known prior's does not depend on y.
      EXPECT_NEAR(belief.Variance(j), variances_before(j) * (standardize ? 64.0 : 1.0), 1e-9) << j;
    }
    EXPECT_NEAR(belief.output_offset(), direct.output_offset(), 1e-12);
    EXPECT_NEAR(belief.output_scale(), direct.output_scale(), 1e-12);
  }
}

}  // namespace
}  // namespace gpbandit
