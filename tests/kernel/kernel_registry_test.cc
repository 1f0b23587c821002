// The kernel registry: every registered kernel builds from a spec, describes itself under its
// name and takes the spec's initial values by kind; registration and creation errors name the
// field; user kernels register at run time.
#include "gpbandit/kernel/kernel_registry.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "gpbandit/kernel/kernel_factory.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

KernelSpec Spec(std::vector<int> dims) {
  KernelSpec spec;
  spec.dims = std::move(dims);
  spec.variance = 2.0;
  spec.lengthscale = 0.5;
  spec.initial_values = {{"period", 0.25}};
  return spec;
}

TEST(KernelRegistryTest, TheBuiltInKernelsInOrder) {
  EXPECT_EQ(KernelRegistry::Default().Names(),
            (std::vector<std::string>{"se", "matern12", "matern32", "matern52", "periodic",
                                      "linear", "constant"}));
  EXPECT_EQ(KernelNames(), KernelRegistry::Default().Names());
}

// Built from a spec, each kernel describes itself under its registered name, and the spec's
// initial value of each kind reaches every log-param of that kind; a copy is the same kernel.
TEST(KernelRegistryTest, EveryRegisteredKernelBuildsFromItsSpecAndDescribesItself) {
  const KernelRegistry& registry = KernelRegistry::Default();
  const KernelSpec spec = Spec({0, 1});
  for (const std::string& name : registry.Names()) {
    EXPECT_TRUE(registry.Contains(name));
    EXPECT_FALSE(registry.Description(name).empty()) << name;
    const std::unique_ptr<Kernel> kernel = registry.Create(name, spec);
    ASSERT_NE(kernel, nullptr) << name;
    EXPECT_THAT(kernel->Describe(), StartsWith(name + "(")) << name;
    const std::vector<std::string> names = kernel->ParamNames();
    const std::vector<ParamKind> kinds = kernel->ParamKinds();
    const Eigen::VectorXd log_params = kernel->GetLogParams();
    ASSERT_EQ(static_cast<int>(names.size()), kernel->NumParams()) << name;
    ASSERT_EQ(static_cast<int>(kinds.size()), kernel->NumParams()) << name;
    for (int j = 0; j < kernel->NumParams(); ++j) {
      EXPECT_THAT(names[j], StartsWith(name + ".")) << name;
      const double expected = kinds[j] == ParamKind::kSignalVariance ? spec.variance
                              : kinds[j] == ParamKind::kLengthscale
                                  ? spec.lengthscale
                                  : spec.InitialValue(kinds[j].name(), 1.0);
      EXPECT_NEAR(std::exp(log_params(j)), expected, 1e-14 * expected) << names[j];
    }
    const std::unique_ptr<Kernel> copy = kernel->Clone();
    EXPECT_EQ(copy->Describe(), kernel->Describe());
    EXPECT_EQ(copy->GetLogParams(), log_params);
  }
}

TEST(KernelRegistryTest, CreateRefusesUnknownNamesAndBadSpecsNamingThem) {
  const KernelRegistry& registry = KernelRegistry::Default();
  EXPECT_THAT([&] { registry.Create("rbf", Spec({0})); },
              ::testing::ThrowsMessage<std::invalid_argument>(
                  HasSubstr("kernel = 'rbf': unknown; registered: se, matern12")));
  KernelSpec spec = Spec({0});
  spec.variance = -1.0;
  testing::ExpectInvalid([&] { registry.Create("se", spec); },
                         "kernel 'se': KernelSpec.variance must be finite and > 0, got -1");
  spec = Spec({0});
  spec.lengthscale = NAN;
  testing::ExpectInvalid([&] { registry.Create("se", spec); }, "KernelSpec.lengthscale");
  spec = Spec({0});
  spec.initial_values["perod"] = 1.0;
  testing::ExpectInvalid([&] { registry.Create("periodic", spec); },
                         "KernelSpec.initial_values[\"perod\"] names no registered parameter kind");
  spec = Spec({0});
  spec.initial_values["lengthscale"] = 1.0;
  testing::ExpectInvalid([&] { registry.Create("se", spec); }, "set KernelSpec.lengthscale");
  spec = Spec({0});
  spec.initial_values["period"] = 0.0;
  testing::ExpectInvalid([&] { registry.Create("periodic", spec); },
                         "KernelSpec.initial_values[\"period\"] must be finite and > 0, got 0");
  // The kernel's own checks pass through.
  testing::ExpectInvalid([&] { registry.Create("matern52", Spec({})); }, "dims is empty");
}

TEST(KernelRegistryTest, UserKernelsRegisterAtRunTime) {
  KernelRegistry registry;
  EXPECT_TRUE(registry.Names().empty());
  registry.Register(
      "scaled-se",
      [](const KernelSpec& s) { return MakeSquaredExponential(s.dims, false, 3.0 * s.variance); },
      "an SE kernel with three times the variance");
  EXPECT_TRUE(registry.Contains("scaled-se"));
  EXPECT_EQ(registry.Description("scaled-se"), "an SE kernel with three times the variance");
  EXPECT_NEAR(std::exp(registry.Create("scaled-se", Spec({0}))->GetLogParams()(0)), 6.0, 1e-14);

  testing::ExpectInvalid(
      [&] {
        registry.Register(
            "scaled-se", [](const KernelSpec&) { return MakeConstant(); }, "");
      },
      "name = 'scaled-se': a kernel of this name is already registered");
  testing::ExpectInvalid(
      [&] {
        registry.Register(
            "", [](const KernelSpec&) { return nullptr; }, "");
      },
      "name = \"\"");
  testing::ExpectInvalid(
      [&] {
        registry.Register(
            "Se", [](const KernelSpec&) { return nullptr; }, "");
      },
      "name = \"Se\"");
  testing::ExpectInvalid([&] { registry.Register("empty", nullptr, ""); },
                         "factory: empty factory for kernel 'empty'");
  registry.Register(
      "null", [](const KernelSpec&) { return std::unique_ptr<Kernel>(); }, "");
  testing::ExpectInvalid([&] { registry.Create("null", Spec({0})); },
                         "kernel = 'null': its factory returned nullptr");
  EXPECT_EQ(registry.Names(), (std::vector<std::string>{"scaled-se", "null"}));
  testing::ExpectInvalid([&] { registry.Description("rbf"); }, "registered: scaled-se, null");
}

}  // namespace
}  // namespace gpbandit
