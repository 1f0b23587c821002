// GaussianProcess predictions through every kernel's hooks (gp/kernel.h): the fast path of each
// kernel shipped (composites included) against the same kernel behind the interface's generic
// defaults, and the gradients of the mean and variance against finite differences.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "gpbandit/gp/gaussian_process.h"
#include "tests/kernel/kernel_cases.h"
#include "tests/test_util.h"
#include "tests/user_kernel.h"

namespace gpbandit {
namespace {

using testing::KernelCase;

class GaussianProcessKernelsTest : public ::testing::TestWithParam<KernelCase> {
 protected:
  // A GP with the case's kernel (behind the generic defaults when `generic`) on 15 points.
  GaussianProcess Make(bool generic) const {
    Rng rng(testing::TestSeed(51));
    std::unique_ptr<Kernel> kernel = testing::MakePerturbed(GetParam(), rng);
    if (generic) kernel = std::make_unique<testing::UserKernel>(std::move(kernel));
    GaussianProcessOptions options;
    options.noise_variance = 0.05;
    GaussianProcess gp(std::move(kernel), GetParam().dim, options);
    const Eigen::MatrixXd X = testing::RandomPoints(GetParam(), 15, rng);
    Eigen::VectorXd y(15);
    for (int j = 0; j < 15; ++j) y(j) = 2.0 + std::sin(3.0 * X.col(j).sum());
    gp.AddObservations(X, y);
    return gp;
  }
};

TEST_P(GaussianProcessKernelsTest, FastPathsMatchTheGenericDefaults) {
  const GaussianProcess fast = Make(false), generic = Make(true);
  Rng rng(testing::TestSeed(52));
  const Eigen::MatrixXd P = testing::RandomPoints(GetParam(), 6, rng);
  for (int j = 0; j < P.cols(); ++j) {
    double m1, v1, m2, v2;
    Eigen::VectorXd dm1, dv1, dm2, dv2;
    fast.MeanAndVariance(P.col(j), &m1, &v1, &dm1, &dv1);
    generic.MeanAndVariance(P.col(j), &m2, &v2, &dm2, &dv2);
    EXPECT_NEAR(m1, m2, 1e-10 * (1.0 + std::abs(m2)));
    EXPECT_NEAR(v1, v2, 1e-10 * (1.0 + v2));
    EXPECT_NEAR(fast.Mean(P.col(j)), m2, 1e-10 * (1.0 + std::abs(m2)));
    for (int i = 0; i < P.rows(); ++i) {
      EXPECT_NEAR(dm1(i), dm2(i), 1e-9 * (1.0 + std::abs(dm2(i)))) << "mean gradient " << i;
      EXPECT_NEAR(dv1(i), dv2(i), 1e-9 * (1.0 + std::abs(dv2(i)))) << "variance gradient " << i;
    }
  }
}

TEST_P(GaussianProcessKernelsTest, MeanAndVarianceGradientsMatchFiniteDifferences) {
  const GaussianProcess gp = Make(false);
  Rng rng(testing::TestSeed(53));
  const Eigen::MatrixXd P = testing::RandomPoints(GetParam(), 3, rng);
  for (int j = 0; j < P.cols(); ++j) {
    double mean, variance;
    Eigen::VectorXd d_mean, d_variance;
    gp.MeanAndVariance(P.col(j), &mean, &variance, &d_mean, &d_variance);
    // Item indices must stay integers: the differences leave them alone (and the gradient
    // there must be 0, the kernels being piecewise constant in them).
    const auto fixed = [&](Eigen::VectorXd x) {
      for (int d : GetParam().index_dims) x(d) = P(d, j);
      return x;
    };
    testing::ExpectGradientNear([&](const Eigen::VectorXd& x) { return gp.Mean(fixed(x)); },
                                P.col(j), d_mean, 1e-5, 1e-6, "mean");
    if (variance > 1e-6) {
      testing::ExpectGradientNear([&](const Eigen::VectorXd& x) { return gp.Variance(fixed(x)); },
                                  P.col(j), d_variance, 1e-5, 1e-6, "variance");
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllKernels, GaussianProcessKernelsTest,
                         ::testing::ValuesIn(testing::AllCases()),
                         [](const ::testing::TestParamInfo<KernelCase>& info) {
                           return info.param.name;
                         });

}  // namespace
}  // namespace gpbandit
