// The capability hooks of the Kernel interface (kernel.h), on every kernel gpbandit ships and on
// composites: each fast hook against the pairwise definitions, the same through the interface's
// generic defaults (a user kernel), log-param kinds, and the random features of the prior
// (unbiased for k, gradients against finite differences, spectral samples against k).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "gpbandit/kernel/kernel.h"
#include "gpbandit/kernel/kernel_features.h"
#include "tests/kernel/kernel_cases.h"
#include "tests/test_util.h"
#include "tests/user_kernel.h"

namespace gpbandit {
namespace {

using testing::KernelCase;
using testing::RandomPoints;

// The case's kernel, perturbed; with `generic`, wrapped so that only the interface's defaults run.
std::unique_ptr<Kernel> MakeCaseKernel(const KernelCase& c, bool generic, Rng& rng) {
  std::unique_ptr<Kernel> kernel = testing::MakePerturbed(c, rng);
  if (generic) return std::make_unique<testing::UserKernel>(std::move(kernel));
  return kernel;
}

class KernelHooksTest : public ::testing::TestWithParam<KernelCase> {};

// CrossWithPoint's values against Value, and AccumulateWeightedGradientA against the sum of
// AccumulateGradientA over the columns; one cache reused over points and sizes, as the GP does.
TEST_P(KernelHooksTest, OnePointAgainstManyMatchesThePairwiseDefinitions) {
  for (bool generic : {false, true}) {
    Rng rng(testing::TestSeed(31));
    const std::unique_ptr<Kernel> kernel = MakeCaseKernel(GetParam(), generic, rng);
    KernelPointCache cache;
    for (int n : {9, 4, 9, 6, 1}) {  // every n mod 4: the fast paths sum four columns at a time
      const Eigen::MatrixXd X = RandomPoints(GetParam(), n, rng);
      const Eigen::VectorXd x = RandomPoints(GetParam(), 1, rng).col(0);
      const Eigen::VectorXd c = testing::UniformPoints(n, 1, -1.0, 1.0, rng).col(0);
      kernel->CrossWithPoint(x, X, true, &cache);
      ASSERT_EQ(cache.values.size(), n);
      Eigen::VectorXd expected = Eigen::VectorXd::Constant(x.size(), 0.5);
      for (int j = 0; j < n; ++j) {
        const double k = kernel->Value(x, X.col(j));
        EXPECT_NEAR(cache.values(j), k, 1e-13 * (1.0 + std::abs(k))) << generic << " " << j;
        kernel->AccumulateGradientA(x, X.col(j), -1.5 * c(j), expected);
      }
      Eigen::VectorXd grad = Eigen::VectorXd::Constant(x.size(), 0.5);  // accumulates onto it
      kernel->AccumulateWeightedGradientA(x, X, cache, c, -1.5, grad);
      for (int i = 0; i < x.size(); ++i)
        EXPECT_NEAR(grad(i), expected(i), 1e-12 * (1.0 + std::abs(expected(i)))) << generic;
      const Eigen::VectorXd values = cache.values;
      kernel->CrossWithPoint(x, X, false, &cache);
      EXPECT_EQ(cache.values, values);
    }
  }
}

// GramAndParts equals Gram, and the contraction from its parts equals ContractGradientLogParams
// even after noise is added to the Gram diagonal (kernels must not read it), with a result that
// does not depend on the thread count (n = 80 takes the parallel paths).
TEST_P(KernelHooksTest, GramWithPartsAndItsContractionMatchTheBatchForms) {
  for (bool generic : {false, true}) {
    Rng rng(testing::TestSeed(32));
    const std::unique_ptr<Kernel> kernel = MakeCaseKernel(GetParam(), generic, rng);
    const int n = 80;
    const Eigen::MatrixXd X = RandomPoints(GetParam(), n, rng);
    const Eigen::MatrixXd R = testing::UniformPoints(n, n, -1.0, 1.0, rng);
    const Eigen::MatrixXd W = R + R.transpose();
    Eigen::MatrixXd K;
    KernelGramCache cache;
    kernel->GramAndParts(X, &K, &cache, 1);
    const Eigen::MatrixXd gram = kernel->Gram(X);
    ASSERT_EQ(K.rows(), n);
    EXPECT_LE((K - gram).cwiseAbs().maxCoeff(), 1e-12 * (1.0 + gram.cwiseAbs().maxCoeff()));
    K.diagonal().array() += 0.3;
    const Eigen::VectorXd contracted =
        kernel->ContractGradientLogParamsFromParts(X, W, K, cache, 1);
    const Eigen::VectorXd expected = kernel->ContractGradientLogParams(X, W);
    ASSERT_EQ(contracted.size(), kernel->NumParams());
    for (int p = 0; p < contracted.size(); ++p) {
      EXPECT_NEAR(contracted(p), expected(p), 1e-10 * (1.0 + std::abs(expected(p))))
          << generic << " param " << p;
    }
    if (testing::kBitReproducibleBuild) {
      Eigen::MatrixXd K2;
      KernelGramCache cache2;
      kernel->GramAndParts(X, &K2, &cache2, 2);
      K2.diagonal().array() += 0.3;
      EXPECT_EQ(K2, K);
      EXPECT_EQ(kernel->ContractGradientLogParamsFromParts(X, W, K2, cache2, 2), contracted);
    }
  }
}

TEST_P(KernelHooksTest, EveryLogParamHasAKind) {
  const std::unique_ptr<Kernel> kernel = GetParam().make();
  const std::vector<ParamKind> kinds = kernel->ParamKinds();
  ASSERT_EQ(static_cast<int>(kinds.size()), kernel->NumParams());
  const std::vector<std::string> names = kernel->ParamNames();
  for (std::size_t j = 0; j < kinds.size(); ++j) {
    // The shipped kernels name their log-params after their kind (the fit no longer reads
    // names, but a user reading a report does).
    const std::string expected = kinds[j] == ParamKind::kLengthscale ? "log_lengthscale"
                                 : kinds[j] == ParamKind::kPeriod    ? "log_period"
                                                                     : "log_";
    EXPECT_NE(kinds[j], ParamKind::kOther) << names[j];
    EXPECT_THAT(names[j], ::testing::HasSubstr(expected)) << ParamKindName(kinds[j]);
  }
  const testing::UserKernel user(GetParam().make());
  EXPECT_EQ(user.ParamKinds(), std::vector<ParamKind>(kinds.size(), ParamKind::kOther));
}

// Over R independent draws of m features, the mean of phi(a) . phi(b) tends to k(a, b): the
// tolerance is 5 standard errors of that mean (its sample standard deviation / sqrt(R)), so a
// biased construction fails while a correct one fails with probability ~1e-6 per check. Exact
// feature maps have no spread and must match to rounding.
TEST_P(KernelHooksTest, FeaturesAreUnbiasedForTheKernel) {
  Rng rng(testing::TestSeed(33));
  const std::unique_ptr<Kernel> kernel = testing::MakePerturbed(GetParam(), rng);
  ASSERT_TRUE(kernel->HasFeatures());
  const Eigen::MatrixXd P = RandomPoints(GetParam(), 4, rng);
  const int draws = 3000, m = 16;
  std::vector<Eigen::VectorXd> products(static_cast<std::size_t>(draws));
  for (int r = 0; r < draws; ++r) {
    const std::unique_ptr<KernelFeatures> phi = kernel->DrawFeatures(m, rng);
    Eigen::MatrixXd F(phi->size(), P.cols());
    Eigen::VectorXd v;
    for (int j = 0; j < P.cols(); ++j) {
      phi->Evaluate(P.col(j), &v);
      ASSERT_EQ(v.size(), phi->size());
      F.col(j) = v;
    }
    // phi(p_0) . phi(p_j) for j = 0..3 (j = 0: the variance).
    products[static_cast<std::size_t>(r)] = F.transpose() * F.col(0);
  }
  for (int j = 0; j < P.cols(); ++j) {
    double mean = 0.0, square = 0.0;
    for (const Eigen::VectorXd& p : products) {
      mean += p(j) / draws;
      square += p(j) * p(j) / draws;
    }
    const double stderr_of_mean = std::sqrt(std::max(0.0, square - mean * mean) / (draws - 1));
    const double k = kernel->Value(P.col(0), P.col(j));
    EXPECT_NEAR(mean, k, 5.0 * stderr_of_mean + 1e-12 * (1.0 + std::abs(k))) << "pair 0," << j;
  }
}

TEST_P(KernelHooksTest, FeatureGradientsMatchFiniteDifferences) {
  Rng rng(testing::TestSeed(34));
  const std::unique_ptr<Kernel> kernel = testing::MakePerturbed(GetParam(), rng);
  const std::unique_ptr<KernelFeatures> phi = kernel->DrawFeatures(32, rng);
  const Eigen::VectorXd w = StandardNormalVector(phi->size(), rng);
  const auto g = [&](const Eigen::VectorXd& x) {
    Eigen::VectorXd v;
    phi->Evaluate(x, &v);
    return w.dot(v);
  };
  const Eigen::MatrixXd X = RandomPoints(GetParam(), 3, rng);
  for (int j = 0; j < X.cols(); ++j) {
    const Eigen::VectorXd start = Eigen::VectorXd::LinSpaced(X.rows(), -1.0, 1.0);
    Eigen::VectorXd grad = start;
    phi->AccumulateWeightedGradient(X.col(j), w, grad);
    testing::ExpectGradientNear(g, X.col(j), grad - start, 1e-5, 1e-6, GetParam().name);
  }
}

// Bochner: k(a, b) = s2 E[cos(omega . (a - b))] over the normalized spectral measure; the mean
// over 20000 drawn frequencies is within 5 standard errors of k.
TEST_P(KernelHooksTest, SpectralSamplesReproduceTheKernel) {
  Rng rng(testing::TestSeed(35));
  const std::unique_ptr<Kernel> kernel = testing::MakePerturbed(GetParam(), rng);
  if (!kernel->HasSpectralMeasure()) {
    EXPECT_THROW(kernel->DrawSpectrum(4, rng), std::invalid_argument);
    return;
  }
  const int m = 20000;
  const SpectralSample sample = kernel->DrawSpectrum(m, rng);
  ASSERT_EQ(sample.size(), m);
  ASSERT_EQ(static_cast<std::size_t>(sample.frequencies.rows()), sample.dims.size());
  const Eigen::MatrixXd P = RandomPoints(GetParam(), 3, rng);
  for (int j = 1; j < P.cols(); ++j) {
    Eigen::VectorXd tau(sample.dims.size());
    for (std::size_t k = 0; k < sample.dims.size(); ++k)
      tau(static_cast<Eigen::Index>(k)) = P(sample.dims[k], 0) - P(sample.dims[k], j);
    const Eigen::ArrayXd values =
        sample.variance * (sample.frequencies.transpose() * tau).array().cos();
    const double mean = values.mean();
    const double sd = std::sqrt((values - mean).square().sum() / (m - 1));
    EXPECT_NEAR(mean, kernel->Value(P.col(0), P.col(j)), 5.0 * sd / std::sqrt(m) + 1e-12);
  }
}

TEST_P(KernelHooksTest, AUserKernelHasNoFeaturesAndSaysSo) {
  const testing::UserKernel user(GetParam().make());
  Rng rng(1);
  EXPECT_FALSE(user.HasFeatures());
  EXPECT_FALSE(user.HasSpectralMeasure());
  testing::ExpectInvalid([&] { user.DrawFeatures(8, rng); }, "provides no random features");
  testing::ExpectInvalid([&] { user.DrawSpectrum(8, rng); }, "no spectral measure");
  testing::ExpectInvalid([&] { GetParam().make()->DrawFeatures(0, rng); }, "num_features = 0");
}

INSTANTIATE_TEST_SUITE_P(AllKernels, KernelHooksTest, ::testing::ValuesIn(testing::AllCases()),
                         [](const ::testing::TestParamInfo<KernelCase>& info) {
                           return info.param.name;
                         });

}  // namespace
}  // namespace gpbandit
