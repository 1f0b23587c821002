// Properties every kernel must have, checked on every kernel gpbandit ships and on sum/product
// composites (disjoint dims, nested): gradients against finite differences, symmetry, PSD Gram
// matrices, batch overrides against the pairwise definitions, deep Clone, SetLogParams
// rejections. Kernel-specific closed forms live in the other *kernel*_test.cc files.
#include "gpbandit/kernel/kernel.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "gpbandit/kernel/kernel_factory.h"
#include "gpbandit/numerics/random.h"
#include "tests/kernel/kernel_cases.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

using testing::AllCases;
using ::testing::HasSubstr;
using testing::KernelCase;
using testing::RandomPoints;

class KernelPropertiesTest : public ::testing::TestWithParam<KernelCase> {
 protected:
  // The case's kernel with its log-params moved by random offsets, so that ARD lengthscales
  // differ from each other and from 1.
  std::unique_ptr<Kernel> MakePerturbed(Rng& rng) const {
    return testing::MakePerturbed(GetParam(), rng);
  }
};

TEST_P(KernelPropertiesTest, GradientInAMatchesFiniteDifferences) {
  Rng rng(testing::TestSeed(11));
  const std::unique_ptr<Kernel> kernel = MakePerturbed(rng);
  const Eigen::MatrixXd X = RandomPoints(GetParam(), 12, rng);
  for (int p = 0; p + 1 < X.cols(); p += 2) {
    const Eigen::VectorXd a = X.col(p), b = X.col(p + 1);
    // Accumulation onto a non-zero vector with a scale, as the GP does.
    const Eigen::VectorXd start = Eigen::VectorXd::LinSpaced(a.size(), -1.0, 1.0);
    Eigen::VectorXd grad = start;
    kernel->AccumulateGradientA(a, b, 2.5, grad);
    const auto f = [&](const Eigen::VectorXd& x) { return 2.5 * kernel->Value(x, b); };
    testing::ExpectGradientNear(f, a, grad - start, 1e-5, 1e-7, GetParam().name);
  }
}

TEST_P(KernelPropertiesTest, GradientInAAtEqualPointsHoldsTheSecondArgumentFixed) {
  Rng rng(testing::TestSeed(12));
  const std::unique_ptr<Kernel> kernel = MakePerturbed(rng);
  const Eigen::MatrixXd X = RandomPoints(GetParam(), 3, rng);
  for (int p = 0; p < X.cols(); ++p) {
    const Eigen::VectorXd b = X.col(p);
    Eigen::VectorXd grad = Eigen::VectorXd::Zero(b.size());
    kernel->AccumulateGradientA(b, b, 1.0, grad);
    ASSERT_TRUE(grad.allFinite()) << GetParam().name;
    // Central differences of an even function of a - b are exactly its symmetric subgradient 0
    // at a = b, so this also covers Matern-1/2's kink.
    const auto f = [&](const Eigen::VectorXd& x) { return kernel->Value(x, b); };
    testing::ExpectGradientNear(f, b, grad, 1e-5, 1e-7, GetParam().name);
  }
}

TEST_P(KernelPropertiesTest, GradientInLogParamsMatchesFiniteDifferences) {
  Rng rng(testing::TestSeed(13));
  const std::unique_ptr<Kernel> kernel = MakePerturbed(rng);
  const Eigen::MatrixXd X = RandomPoints(GetParam(), 10, rng);
  const Eigen::VectorXd theta = kernel->GetLogParams();
  for (int p = 0; p + 1 < X.cols(); p += 2) {
    const Eigen::VectorXd a = X.col(p), b = X.col(p + 1);
    Eigen::VectorXd grad = Eigen::VectorXd::Constant(kernel->NumParams(), 123.0);
    kernel->GradientLogParams(a, b, grad);
    const std::unique_ptr<Kernel> probe = kernel->Clone();
    const auto f = [&](const Eigen::VectorXd& t) {
      probe->SetLogParams(t);
      return probe->Value(a, b);
    };
    testing::ExpectGradientNear(f, theta, grad, 1e-5, 1e-7, GetParam().name);
  }
}

TEST_P(KernelPropertiesTest, IsSymmetric) {
  Rng rng(testing::TestSeed(14));
  const std::unique_ptr<Kernel> kernel = MakePerturbed(rng);
  const Eigen::MatrixXd X = RandomPoints(GetParam(), 10, rng);
  for (int i = 0; i < X.cols(); ++i)
    for (int j = 0; j < X.cols(); ++j)
      EXPECT_DOUBLE_EQ(kernel->Value(X.col(i), X.col(j)), kernel->Value(X.col(j), X.col(i)));
}

TEST_P(KernelPropertiesTest, GramIsSymmetricPositiveSemiDefinite) {
  Rng rng(testing::TestSeed(15));
  const std::unique_ptr<Kernel> kernel = MakePerturbed(rng);
  const Eigen::MatrixXd K = kernel->Gram(RandomPoints(GetParam(), 30, rng));
  ASSERT_EQ(K.rows(), 30);
  ASSERT_EQ(K.cols(), 30);
  EXPECT_EQ(K, K.transpose()) << "Gram must be exactly symmetric (Cholesky reads one triangle)";
  const Eigen::VectorXd eig = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(K).eigenvalues();
  EXPECT_GT(eig.maxCoeff(), 0.0);
  EXPECT_GE(eig.minCoeff(), -1e-9 * eig.maxCoeff()) << GetParam().name;
}

TEST_P(KernelPropertiesTest, BatchFormsEqualPairwiseValues) {
  Rng rng(testing::TestSeed(16));
  const std::unique_ptr<Kernel> kernel = MakePerturbed(rng);
  const Eigen::MatrixXd A = RandomPoints(GetParam(), 9, rng);
  const Eigen::MatrixXd B = RandomPoints(GetParam(), 7, rng);
  const Eigen::MatrixXd cross = kernel->Cross(A, B);
  ASSERT_EQ(cross.rows(), 9);
  ASSERT_EQ(cross.cols(), 7);
  for (int i = 0; i < 9; ++i)
    for (int j = 0; j < 7; ++j)
      EXPECT_NEAR(cross(i, j), kernel->Value(A.col(i), B.col(j)), 1e-12) << i << "," << j;
  const Eigen::MatrixXd gram = kernel->Gram(A);
  const Eigen::VectorXd diag = kernel->Diagonal(A);
  ASSERT_EQ(diag.size(), 9);
  for (int i = 0; i < 9; ++i) {
    EXPECT_NEAR(diag(i), kernel->Value(A.col(i), A.col(i)), 1e-12);
    for (int j = 0; j < 9; ++j)
      EXPECT_NEAR(gram(i, j), kernel->Value(A.col(i), A.col(j)), 1e-12) << i << "," << j;
  }
  // Empty batches are legal and give empty results.
  EXPECT_EQ(kernel->Cross(A, Eigen::MatrixXd(GetParam().dim, 0)).cols(), 0);
  EXPECT_EQ(kernel->Gram(Eigen::MatrixXd(GetParam().dim, 0)).size(), 0);
}

TEST_P(KernelPropertiesTest, ContractedGradientEqualsWeightedPairwiseGradients) {
  Rng rng(testing::TestSeed(17));
  const std::unique_ptr<Kernel> kernel = MakePerturbed(rng);
  const int n = 14;
  const Eigen::MatrixXd X = RandomPoints(GetParam(), n, rng);
  const Eigen::MatrixXd R = testing::UniformPoints(n, n, -1.0, 1.0, rng);
  const Eigen::MatrixXd W = R + R.transpose();
  Eigen::VectorXd expected = Eigen::VectorXd::Zero(kernel->NumParams());
  Eigen::VectorXd magnitude = Eigen::VectorXd::Zero(kernel->NumParams());
  Eigen::VectorXd grad(kernel->NumParams());
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      kernel->GradientLogParams(X.col(i), X.col(j), grad);
      expected += W(i, j) * grad;
      magnitude += (W(i, j) * grad).cwiseAbs();
    }
  }
  const Eigen::VectorXd contracted = kernel->ContractGradientLogParams(X, W);
  ASSERT_EQ(contracted.size(), kernel->NumParams());
  for (int p = 0; p < kernel->NumParams(); ++p)
    EXPECT_NEAR(contracted(p), expected(p), 1e-11 * (1.0 + magnitude(p))) << "param " << p;
}

TEST_P(KernelPropertiesTest, CloneIsDeep) {
  Rng rng(testing::TestSeed(18));
  const std::unique_ptr<Kernel> kernel = MakePerturbed(rng);
  const Eigen::VectorXd original = kernel->GetLogParams();
  const std::unique_ptr<Kernel> clone = kernel->Clone();
  EXPECT_EQ(clone->Describe(), kernel->Describe());
  EXPECT_EQ(clone->GetLogParams(), original);
  clone->SetLogParams(original.array() + 0.5);
  EXPECT_EQ(kernel->GetLogParams(), original);
  const Eigen::MatrixXd X = RandomPoints(GetParam(), 2, rng);
  EXPECT_NE(clone->Value(X.col(0), X.col(1)), kernel->Value(X.col(0), X.col(1)));
}

TEST_P(KernelPropertiesTest, LogParamsRoundTripAndHaveOneNameEach) {
  const std::unique_ptr<Kernel> kernel = GetParam().make();
  const int n = kernel->NumParams();
  ASSERT_GE(n, 1);
  EXPECT_EQ(static_cast<int>(kernel->ParamNames().size()), n);
  const Eigen::VectorXd theta = Eigen::VectorXd::LinSpaced(n, -0.4, 0.7);
  kernel->SetLogParams(theta);
  EXPECT_EQ(kernel->GetLogParams(), theta);
  EXPECT_LE(kernel->MinInputDim(), GetParam().dim);
}

TEST_P(KernelPropertiesTest, SetLogParamsRejectsBadInputAndKeepsState) {
  const std::unique_ptr<Kernel> kernel = GetParam().make();
  const Eigen::VectorXd before = kernel->GetLogParams();
  const int n = kernel->NumParams();
  try {
    kernel->SetLogParams(Eigen::VectorXd::Zero(n + 1));
    ADD_FAILURE() << "wrong size accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("log_params has size " + std::to_string(n + 1)));
    EXPECT_THAT(e.what(), HasSubstr("expected " + std::to_string(n)));
  }
  EXPECT_EQ(kernel->GetLogParams(), before);
  Eigen::VectorXd bad = Eigen::VectorXd::Zero(n);
  bad(n - 1) = std::numeric_limits<double>::quiet_NaN();
  try {
    kernel->SetLogParams(bad);
    ADD_FAILURE() << "NaN accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("log_params[" + std::to_string(n - 1) + "] = nan"));
  }
  bad(n - 1) = std::numeric_limits<double>::infinity();
  EXPECT_THROW(kernel->SetLogParams(bad), std::invalid_argument);
  EXPECT_EQ(kernel->GetLogParams(), before);
}

TEST_P(KernelPropertiesTest, ValidatePointAcceptsGoodPointsAndRejectsShortOnes) {
  Rng rng(testing::TestSeed(19));
  const std::unique_ptr<Kernel> kernel = GetParam().make();
  const Eigen::MatrixXd X = RandomPoints(GetParam(), 5, rng);
  for (int j = 0; j < X.cols(); ++j) EXPECT_NO_THROW(kernel->ValidatePoint(X.col(j), "x"));
  if (kernel->MinInputDim() > 0) {
    const Eigen::VectorXd shorter = X.col(0).head(kernel->MinInputDim() - 1);
    try {
      kernel->ValidatePoint(shorter, "candidate");
      ADD_FAILURE() << "short point accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_THAT(e.what(), HasSubstr("candidate has size " + std::to_string(shorter.size())));
    }
  }
}

TEST_P(KernelPropertiesTest, HugeDistancesGiveFiniteValuesAndGradients) {
  const std::unique_ptr<Kernel> kernel = GetParam().make();
  for (const double spread : {1e3, 1e155, 1e300}) {
    Eigen::VectorXd a = Eigen::VectorXd::Zero(GetParam().dim);
    Eigen::VectorXd b = Eigen::VectorXd::Zero(GetParam().dim);
    for (int d = 0; d < GetParam().dim; ++d) {
      const bool is_index = std::find(GetParam().index_dims.begin(), GetParam().index_dims.end(),
                                      d) != GetParam().index_dims.end();
      if (is_index) {
        a(d) = 1.0;
        b(d) = 2.0;
      } else {
        a(d) = spread;
        b(d) = -spread * 0.5;
      }
    }
    // The linear kernel grows without bound; only stationary parts must stay finite at 1e300.
    if (spread > 1e3 && kernel->Describe().find("linear") != std::string::npos) continue;
    EXPECT_TRUE(std::isfinite(kernel->Value(a, b))) << spread;
    Eigen::VectorXd grad_a = Eigen::VectorXd::Zero(a.size());
    kernel->AccumulateGradientA(a, b, 1.0, grad_a);
    EXPECT_TRUE(grad_a.allFinite()) << spread;
    Eigen::VectorXd grad_theta(kernel->NumParams());
    kernel->GradientLogParams(a, b, grad_theta);
    EXPECT_TRUE(grad_theta.allFinite()) << spread;
    Eigen::MatrixXd X(a.size(), 2);
    X << a, b;
    EXPECT_TRUE(kernel->Gram(X).allFinite()) << spread;
    EXPECT_TRUE(kernel->ContractGradientLogParams(X, Eigen::MatrixXd::Ones(2, 2)).allFinite())
        << spread;
  }
}

TEST_P(KernelPropertiesTest, ExtremeLogParamsGiveFiniteValuesAndGradients) {
  Rng rng(testing::TestSeed(20));
  const Eigen::MatrixXd X = RandomPoints(GetParam(), 4, rng);
  const Eigen::MatrixXd W = Eigen::MatrixXd::Ones(4, 4);
  for (const double extreme : {-800.0, 800.0}) {
    const std::unique_ptr<Kernel> kernel = GetParam().make();
    // A product of parts at 1e304 overflows whatever the parts do; single kernels must not.
    if (kernel->Describe().rfind("product", 0) == 0) continue;
    kernel->SetLogParams(Eigen::VectorXd::Constant(kernel->NumParams(), extreme));
    EXPECT_TRUE(kernel->Gram(X).allFinite()) << extreme;
    EXPECT_TRUE(kernel->Cross(X, X.leftCols(2)).allFinite()) << extreme;
    EXPECT_TRUE(kernel->ContractGradientLogParams(X, W).allFinite()) << extreme;
    for (int j = 1; j < X.cols(); ++j) {
      Eigen::VectorXd grad_a = Eigen::VectorXd::Zero(X.rows());
      kernel->AccumulateGradientA(X.col(0), X.col(j), 1.0, grad_a);
      Eigen::VectorXd grad_theta(kernel->NumParams());
      kernel->GradientLogParams(X.col(0), X.col(j), grad_theta);
      EXPECT_TRUE(grad_a.allFinite()) << extreme;
      EXPECT_TRUE(grad_theta.allFinite()) << extreme;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllKernels, KernelPropertiesTest, ::testing::ValuesIn(AllCases()),
                         [](const ::testing::TestParamInfo<KernelCase>& info) {
                           return info.param.name;
                         });

TEST(CheckLogParamsTest, NamesTheCaller) {
  try {
    CheckLogParams("my_kernel", 2, Eigen::VectorXd::Zero(3));
    ADD_FAILURE() << "accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("my_kernel"));
  }
  EXPECT_NO_THROW(CheckLogParams("my_kernel", 2, Eigen::VectorXd::Zero(2)));
}

TEST(CheckDimsTest, RejectsEmptyNegativeAndDuplicateDims) {
  EXPECT_NO_THROW(CheckDims("k", {0, 2, 1}));
  EXPECT_THAT([] { CheckDims("k", {}); },
              ::testing::ThrowsMessage<std::invalid_argument>(HasSubstr("dims is empty")));
  EXPECT_THAT(
      [] {
        CheckDims("k", {0, -2});
      },
      ::testing::ThrowsMessage<std::invalid_argument>(HasSubstr("dims[1] = -2")));
  EXPECT_THAT(
      [] {
        CheckDims("k", {3, 1, 3});
      },
      ::testing::ThrowsMessage<std::invalid_argument>(HasSubstr("dims[2] = 3 is a duplicate")));
}

// A kernel with only the pure virtuals, to exercise the base-class batch defaults.
class PairwiseOnlyKernel : public Kernel {
 public:
  std::unique_ptr<Kernel> Clone() const override {
    return std::make_unique<PairwiseOnlyKernel>(*this);
  }
  std::string Describe() const override { return "pairwise_only"; }
  int MinInputDim() const override { return 2; }
  int NumParams() const override { return 1; }
  Eigen::VectorXd GetLogParams() const override { return Eigen::VectorXd::Constant(1, theta_); }
  void SetLogParams(const ConstVectorRef& p) override {
    CheckLogParams("pairwise_only", 1, p);
    theta_ = p(0);
  }
  std::vector<std::string> ParamNames() const override { return {"t"}; }
  // k(a, b) = exp(theta) (1 + a0 b0) (1 + a1 b1): a valid (product of linear + constant) kernel.
  double Value(const ConstVectorRef& a, const ConstVectorRef& b) const override {
    return std::exp(theta_) * (1.0 + a(0) * b(0)) * (1.0 + a(1) * b(1));
  }
  void AccumulateGradientA(const ConstVectorRef&, const ConstVectorRef&, double,
                           VectorRef) const override {}
  void GradientLogParams(const ConstVectorRef& a, const ConstVectorRef& b,
                         VectorRef grad) const override {
    grad(0) = Value(a, b);
  }

 private:
  double theta_ = 0.3;
};

TEST(KernelBaseTest, DefaultBatchFormsFollowValue) {
  PairwiseOnlyKernel kernel;
  Eigen::MatrixXd X(2, 3);
  X << 0.5, -1.0, 2.0,  //
      1.5, 0.25, -0.5;
  const double s = std::exp(0.3);
  const auto k = [&](int i, int j) {
    return s * (1.0 + X(0, i) * X(0, j)) * (1.0 + X(1, i) * X(1, j));
  };
  const Eigen::MatrixXd gram = kernel.Gram(X);
  const Eigen::MatrixXd cross = kernel.Cross(X, X.rightCols(2));
  const Eigen::VectorXd diag = kernel.Diagonal(X);
  for (int i = 0; i < 3; ++i) {
    EXPECT_DOUBLE_EQ(diag(i), k(i, i));
    for (int j = 0; j < 3; ++j) EXPECT_DOUBLE_EQ(gram(i, j), k(i, j));
    for (int j = 0; j < 2; ++j) EXPECT_DOUBLE_EQ(cross(i, j), k(i, j + 1));
  }
  Eigen::MatrixXd W(3, 3);
  W << 1.0, 2.0, 0.0,  //
      2.0, -1.0, 0.5,  //
      0.0, 0.5, 3.0;
  double expected = 0.0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) expected += W(i, j) * k(i, j);
  EXPECT_NEAR(kernel.ContractGradientLogParams(X, W)(0), expected, 1e-12);
  EXPECT_THROW(kernel.ContractGradientLogParams(X, Eigen::MatrixXd::Ones(2, 2)),
               std::invalid_argument);
  EXPECT_THROW(kernel.Cross(Eigen::MatrixXd::Ones(1, 3), X), std::invalid_argument);
}

TEST(KernelBaseTest, DefaultValidatePointChecksSizeAndFiniteness) {
  PairwiseOnlyKernel kernel;
  EXPECT_NO_THROW(kernel.ValidatePoint(Eigen::Vector2d(0.1, 0.2), "x"));
  EXPECT_THAT([&] { kernel.ValidatePoint(Eigen::Vector2d(0.1, NAN), "x_next"); },
              ::testing::ThrowsMessage<std::invalid_argument>(HasSubstr("x_next[1] = nan")));
  EXPECT_THAT([&] { kernel.ValidatePoint(Eigen::VectorXd::Zero(1), "x_next"); },
              ::testing::ThrowsMessage<std::invalid_argument>(HasSubstr("x_next has size 1")));
}

}  // namespace
}  // namespace gpbandit
