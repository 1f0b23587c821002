// The kernel factory: by-name construction, the error listing known names, dims helpers.
#include "gpbandit/kernel/kernel_factory.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

namespace gpbandit {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

TEST(KernelFactoryTest, MakesEveryKernelByName) {
  for (const std::string& name : KernelNames()) {
    const std::unique_ptr<Kernel> kernel = MakeKernel(name, {0, 1}, true, 2.0, 0.5);
    ASSERT_NE(kernel, nullptr) << name;
    EXPECT_THAT(kernel->Describe(), StartsWith(name + "(")) << name;
    EXPECT_THAT(kernel->ParamNames()[0], StartsWith(name + ".")) << name;
    // The variance reaches every kernel.
    EXPECT_NEAR(std::exp(kernel->GetLogParams()(0)), 2.0, 1e-14) << name;
  }
  EXPECT_EQ(MakeKernel("se", {0, 1}, false)->NumParams(), 2);
  EXPECT_EQ(MakeKernel("matern32", {0, 1, 2}, true)->NumParams(), 4);
  EXPECT_EQ(MakeKernel("constant", {0, 1, 2})->NumParams(), 1);
}

TEST(KernelFactoryTest, UnknownNameListsTheKnownOnes) {
  EXPECT_THAT([] { MakeKernel("rbf", {0}); },
              ::testing::ThrowsMessage<std::invalid_argument>(
                  HasSubstr("kernel = 'rbf': unknown; registered: se, matern12, matern32, "
                            "matern52, periodic, linear, constant")));
}

TEST(KernelFactoryTest, ConstructorErrorsPassThrough) {
  EXPECT_THROW(MakeKernel("matern52", {}), std::invalid_argument);
  EXPECT_THROW(MakeSquaredExponential({0}, true, -1.0), std::invalid_argument);
  EXPECT_THROW(MakeSum({}), std::invalid_argument);
  EXPECT_THROW(MakeProduct({}), std::invalid_argument);
}

TEST(KernelFactoryTest, DimsHelpers) {
  EXPECT_EQ(FirstDims(3), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(DimRange(4, 2), (std::vector<int>{4, 5}));
  EXPECT_TRUE(FirstDims(0).empty());
}

}  // namespace
}  // namespace gpbandit
