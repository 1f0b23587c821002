// CompositeKernel: sum/product values against their parts, log-param concatenation and names,
// rollback of a failed SetLogParams, validation through every part, construction errors.
#include "gpbandit/kernel/composite_kernel.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "gpbandit/kernel/kernel_factory.h"

namespace gpbandit {
namespace {

using ::testing::HasSubstr;
using ::testing::ThrowsMessage;

std::vector<std::unique_ptr<Kernel>> SeAndIndex() {
  std::vector<std::unique_ptr<Kernel>> parts;
  parts.push_back(MakeSquaredExponential({0, 1}, true, 1.5, 0.8));
  parts.push_back(
      MakeIndexKernel(2, Eigen::Matrix2d::Identity() * 0.5 + Eigen::Matrix2d::Constant(0.25), 2.0));
  return parts;
}

TEST(CompositeKernelTest, SumAndProductOfParts) {
  const CompositeKernel sum(CompositeOperation::kSum, SeAndIndex());
  const CompositeKernel product(CompositeOperation::kProduct, SeAndIndex());
  const Eigen::Vector3d a(0.1, 0.2, 0.0);
  const Eigen::Vector3d b(0.9, -0.4, 1.0);
  const double r2 = (0.8 * 0.8 + 0.6 * 0.6) / 0.64;
  const double se = 1.5 * std::exp(-0.5 * r2);
  const double index = 2.0 * 0.25;
  EXPECT_NEAR(sum.Value(a, b), se + index, 1e-14);
  EXPECT_NEAR(product.Value(a, b), se * index, 1e-14);
  EXPECT_EQ(product.MinInputDim(), 3);
  EXPECT_EQ(product.Describe(), "product(se(dims=0,1; ard), index(dim=2; items=2))");
}

TEST(CompositeKernelTest, LogParamsAreConcatenatedInOrder) {
  CompositeKernel kernel(CompositeOperation::kProduct, SeAndIndex());
  ASSERT_EQ(kernel.NumParams(), 4);
  const Eigen::Vector4d theta(0.1, 0.2, 0.3, 0.4);
  kernel.SetLogParams(theta);
  EXPECT_EQ(kernel.part(0).GetLogParams(), theta.head(3));
  EXPECT_EQ(kernel.part(1).GetLogParams(), theta.tail(1));
  EXPECT_EQ(kernel.GetLogParams(), theta);
  EXPECT_THAT(
      kernel.ParamNames(),
      ::testing::ElementsAre("product[0].se.log_variance", "product[0].se.log_lengthscale[0]",
                             "product[0].se.log_lengthscale[1]", "product[1].index.log_scale"));
}

TEST(CompositeKernelTest, NestedNamesCarryEveryLevel) {
  std::vector<std::unique_ptr<Kernel>> inner;
  inner.push_back(MakeConstant());
  inner.push_back(MakeLinear({0}, false));
  std::vector<std::unique_ptr<Kernel>> outer;
  outer.push_back(MakeMatern32({1}));
  outer.push_back(MakeSum(std::move(inner)));
  const CompositeKernel kernel(CompositeOperation::kProduct, std::move(outer));
  EXPECT_THAT(kernel.ParamNames(), ::testing::Contains("product[1].sum[1].linear.log_lengthscale"));
  EXPECT_EQ(kernel.NumParams(), 5);
  EXPECT_EQ(kernel.MinInputDim(), 2);
}

// A part that accepts its size but rejects a positive first log-param, to force a failure
// half way through a composite's SetLogParams.
class PickyKernel : public Kernel {
 public:
  std::unique_ptr<Kernel> Clone() const override { return std::make_unique<PickyKernel>(*this); }
  std::string Describe() const override { return "picky"; }
  int MinInputDim() const override { return 0; }
  int NumParams() const override { return 1; }
  Eigen::VectorXd GetLogParams() const override { return Eigen::VectorXd::Constant(1, theta_); }
  void SetLogParams(const ConstVectorRef& p) override {
    if (p(0) > 0.0) throw std::invalid_argument("picky: log_params[0] > 0");
    theta_ = p(0);
  }
  std::vector<std::string> ParamNames() const override { return {"picky.t"}; }
  double Value(const ConstVectorRef&, const ConstVectorRef&) const override {
    return std::exp(theta_);
  }
  void AccumulateGradientA(const ConstVectorRef&, const ConstVectorRef&, double,
                           VectorRef) const override {}
  void GradientLogParams(const ConstVectorRef&, const ConstVectorRef&,
                         VectorRef grad) const override {
    grad(0) = std::exp(theta_);
  }

 private:
  double theta_ = -1.0;
};

TEST(CompositeKernelTest, FailedSetLogParamsLeavesEveryPartUnchanged) {
  std::vector<std::unique_ptr<Kernel>> parts;
  parts.push_back(MakeSquaredExponential({0}));
  parts.push_back(std::make_unique<PickyKernel>());
  CompositeKernel kernel(CompositeOperation::kSum, std::move(parts));
  const Eigen::VectorXd before = kernel.GetLogParams();
  EXPECT_THAT([&] { kernel.SetLogParams(Eigen::Vector3d(0.5, 0.5, 0.5)); },
              ThrowsMessage<std::invalid_argument>(HasSubstr("picky")));
  EXPECT_EQ(kernel.GetLogParams(), before);
  EXPECT_THAT([&] { kernel.SetLogParams(Eigen::Vector2d(0.5, 0.5)); },
              ThrowsMessage<std::invalid_argument>(HasSubstr("log_params has size 2, expected 3")));
  EXPECT_EQ(kernel.GetLogParams(), before);
}

TEST(CompositeKernelTest, ValidatePointAsksEveryPart) {
  const CompositeKernel kernel(CompositeOperation::kProduct, SeAndIndex());
  EXPECT_NO_THROW(kernel.ValidatePoint(Eigen::Vector3d(0.1, 0.2, 1.0), "x"));
  EXPECT_THAT([&] { kernel.ValidatePoint(Eigen::Vector3d(0.1, 0.2, 2.0), "x"); },
              ThrowsMessage<std::invalid_argument>(HasSubstr("x[2] = 2 is not an item")));
  EXPECT_THAT([&] { kernel.ValidatePoint(Eigen::Vector3d(NAN, 0.2, 1.0), "x"); },
              ThrowsMessage<std::invalid_argument>(HasSubstr("x[0] = nan")));
  EXPECT_THAT([&] { kernel.ValidatePoint(Eigen::Vector2d(0.1, 0.2), "x"); },
              ThrowsMessage<std::invalid_argument>(HasSubstr("x has size 2")));
}

TEST(CompositeKernelTest, ConstructorRejectsEmptyAndNullParts) {
  EXPECT_THAT(
      [] { CompositeKernel(CompositeOperation::kSum, {}); },
      ThrowsMessage<std::invalid_argument>(HasSubstr("CompositeKernel(sum): parts is empty")));
  EXPECT_THAT(
      [] {
        std::vector<std::unique_ptr<Kernel>> parts;
        parts.push_back(MakeConstant());
        parts.push_back(nullptr);
        CompositeKernel(CompositeOperation::kProduct, std::move(parts));
      },
      ThrowsMessage<std::invalid_argument>(HasSubstr("parts[1] is null")));
}

TEST(CompositeKernelTest, CloneCopiesEveryPart) {
  CompositeKernel kernel(CompositeOperation::kSum, SeAndIndex());
  const std::unique_ptr<Kernel> clone = kernel.Clone();
  kernel.SetLogParams(Eigen::Vector4d::Zero());
  EXPECT_NE(clone->GetLogParams(), kernel.GetLogParams());
  const auto& copy = dynamic_cast<const CompositeKernel&>(*clone);
  EXPECT_NE(&copy.part(0), &kernel.part(0));
}

}  // namespace
}  // namespace gpbandit
