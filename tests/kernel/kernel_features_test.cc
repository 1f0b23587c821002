// The building blocks of random features (kernel_features.h): spectral samples of products and
// sums, the exact Kronecker product of exact feature maps, the randomly indexed product's sizes,
// and argument checks. That every kernel's features are unbiased is tested with every kernel
// in kernel_hooks_test.cc.
#include "gpbandit/kernel/kernel_features.h"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <vector>

#include "gpbandit/kernel/kernel_factory.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

SpectralSample Sample(double variance, std::vector<int> dims, const Eigen::MatrixXd& omega) {
  SpectralSample s;
  s.variance = variance;
  s.dims = std::move(dims);
  s.frequencies = omega;
  return s;
}

TEST(KernelFeaturesTest, ProductSpectraAddFrequenciesOnTheUnionOfDims) {
  Eigen::MatrixXd a(2, 3), b(1, 3);
  a << 1, 2, 3,  //
      4, 5, 6;
  b << 10, 20, 30;
  const SpectralSample product =
      MultiplySpectra({Sample(2.0, {0, 3}, a), Sample(1.5, {3}, b)});  // overlapping dim 3
  EXPECT_EQ(product.variance, 3.0);
  EXPECT_EQ(product.dims, (std::vector<int>{0, 3}));
  Eigen::MatrixXd expected(2, 3);
  expected << 1, 2, 3,  //
      14, 25, 36;
  EXPECT_EQ(product.frequencies, expected);
  EXPECT_THROW(MultiplySpectra({Sample(1.0, {0}, b), Sample(1.0, {1}, a.leftCols(2))}),
               std::invalid_argument);
}

TEST(KernelFeaturesTest, SumSpectraMixThePartsByVariance) {
  Rng rng(testing::TestSeed(71));
  const int m = 20000;
  const SpectralSample mixture =
      MixSpectra({Sample(1.0, {0}, Eigen::MatrixXd::Constant(1, m, 1.0)),
                  Sample(3.0, {1}, Eigen::MatrixXd::Constant(1, m, 2.0))},
                 rng);
  EXPECT_EQ(mixture.variance, 4.0);
  ASSERT_EQ(mixture.dims, (std::vector<int>{0, 1}));
  int from_first = 0;
  for (int i = 0; i < m; ++i) {
    const bool first = mixture.frequencies(0, i) == 1.0 && mixture.frequencies(1, i) == 0.0;
    const bool second = mixture.frequencies(0, i) == 0.0 && mixture.frequencies(1, i) == 2.0;
    ASSERT_TRUE(first || second) << i;
    from_first += first ? 1 : 0;
  }
  // Binomial(m, 1/4): standard deviation sqrt(m 3/16) ~ 61; 5 of them.
  EXPECT_NEAR(from_first, m / 4, 5.0 * std::sqrt(m * 3.0 / 16.0));
}

TEST(KernelFeaturesTest, ExactPartsMultiplyExactlyByKronecker) {
  std::vector<std::unique_ptr<Kernel>> parts;
  Eigen::MatrixXd M(3, 3);
  M << 2.0, 0.5, 0.1,  //
      0.5, 1.0, 0.3,   //
      0.1, 0.3, 1.5;
  parts.push_back(MakeIndexKernel(2, M, 1.3));
  parts.push_back(MakeLinear({0, 1}, true, 0.7, 1.2));
  parts.push_back(MakeConstant(0.4));
  const std::unique_ptr<Kernel> kernel = MakeProduct(std::move(parts));
  Rng rng(testing::TestSeed(72));
  // 3 x 2 x 1 = 6 features <= 8 requested: the Kronecker product, exact for every draw.
  const std::unique_ptr<KernelFeatures> phi = kernel->DrawFeatures(8, rng);
  ASSERT_EQ(phi->size(), 6);
  Eigen::MatrixXd X = testing::UniformPoints(3, 4, -1.0, 1.0, rng);
  X.row(2) << 0, 2, 1, 2;
  Eigen::VectorXd fa, fb;
  for (int i = 0; i < 4; ++i) {
    phi->Evaluate(X.col(i), &fa);
    for (int j = 0; j < 4; ++j) {
      phi->Evaluate(X.col(j), &fb);
      EXPECT_NEAR(fa.dot(fb), kernel->Value(X.col(i), X.col(j)), 1e-13) << i << "," << j;
    }
  }
  // Fewer requested than the Kronecker size: the randomly indexed product of that size.
  EXPECT_EQ(kernel->DrawFeatures(4, rng)->size(), 4);
}

TEST(KernelFeaturesTest, SumFeaturesAreThePartsSideBySide) {
  std::vector<std::unique_ptr<Kernel>> parts;
  parts.push_back(MakeLinear({0}, true, 2.0));
  parts.push_back(MakeConstant(0.5));
  const std::unique_ptr<Kernel> kernel = MakeSum(std::move(parts));
  Rng rng(1);
  const std::unique_ptr<KernelFeatures> phi = kernel->DrawFeatures(16, rng);
  ASSERT_EQ(phi->size(), 2);
  Eigen::VectorXd v;
  phi->Evaluate(Eigen::VectorXd::Constant(1, 3.0), &v);
  EXPECT_NEAR(v(0), std::sqrt(2.0) * 3.0, 1e-14);
  EXPECT_NEAR(v(1), std::sqrt(0.5), 1e-14);
}

TEST(KernelFeaturesTest, BadArgumentsAreRefused) {
  Rng rng(1);
  testing::ExpectInvalid([&] { MakeSpectralFeatures(SpectralSample(), rng); }, "no frequencies");
  testing::ExpectInvalid([&] { MakeConcatenatedFeatures({}); }, "parts is empty");
  std::vector<std::unique_ptr<KernelFeatures>> null_part(1);
  testing::ExpectInvalid([&] { MakeProductFeatures(std::move(null_part), 4, rng); },
                         "parts[0] is null");
  std::vector<std::unique_ptr<KernelFeatures>> one;
  one.push_back(MakeConstant(1.0)->DrawFeatures(1, rng));
  testing::ExpectInvalid([&] { MakeProductFeatures(std::move(one), 0, rng); }, "num_features = 0");
}

}  // namespace
}  // namespace gpbandit
