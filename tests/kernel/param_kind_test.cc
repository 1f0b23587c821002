// The parameter kinds: the built-in table, every registered kind's data valid, registration at
// run time (idempotent for the same data, refused for other data, bad names or ranges, and a
// refused registration changes nothing), and every shipped kernel's kinds registered.
#include "gpbandit/kernel/param_kind.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "gpbandit/kernel/kernel_registry.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

using ::testing::HasSubstr;

TEST(ParamKindTest, BuiltInKindsAndTheirData) {
  const std::vector<ParamKind> all = ParamKind::All();
  ASSERT_GE(all.size(), 4u);
  EXPECT_EQ(all[0], ParamKind::kSignalVariance);
  EXPECT_EQ(all[1], ParamKind::kLengthscale);
  EXPECT_EQ(all[2], ParamKind::kPeriod);
  EXPECT_EQ(all[3], ParamKind::kOther);
  EXPECT_EQ(ParamKind(), ParamKind::kOther);
  EXPECT_EQ(ParamKindName(ParamKind::kSignalVariance), "signal_variance");
  EXPECT_EQ(ParamKindName(ParamKind::kLengthscale), "lengthscale");
  EXPECT_EQ(ParamKindName(ParamKind::kPeriod), "period");
  EXPECT_EQ(ParamKindName(ParamKind::kOther), "other");

  const ParamKindInfo& lengthscale = ParamKind::kLengthscale.info();
  EXPECT_EQ(lengthscale.original_units, OriginalUnits::kInputWidth);
  EXPECT_EQ(lengthscale.cautious_direction, CautiousDirection::kOnlyShrink);
  EXPECT_EQ(lengthscale.default_range.min, 1e-3);
  EXPECT_EQ(lengthscale.default_range.max, 1e2);
  const ParamKindInfo& variance = ParamKind::kSignalVariance.info();
  EXPECT_EQ(variance.original_units, OriginalUnits::kOutputVariance);
  EXPECT_EQ(variance.cautious_direction, CautiousDirection::kOnlyGrow);
  EXPECT_EQ(ParamKind::kPeriod.info().original_units, OriginalUnits::kInputWidth);
  EXPECT_EQ(ParamKind::kPeriod.info().cautious_direction, CautiousDirection::kFree);
  EXPECT_EQ(ParamKind::kOther.info().original_units, OriginalUnits::kNone);
  EXPECT_EQ(ParamKind::kOther.info().default_range.max, 1e3);  // the signal variance's range
  EXPECT_EQ(OriginalUnitsName(OriginalUnits::kOutputVariance), "output_variance");
  EXPECT_EQ(CautiousDirectionName(CautiousDirection::kOnlyShrink), "only_shrink");

  std::ostringstream printed;
  printed << ParamKind::kPeriod;
  EXPECT_EQ(printed.str(), "period");
}

TEST(ParamKindTest, EveryRegisteredKindHasValidDataAndIsFoundByName) {
  for (ParamKind kind : ParamKind::All()) {
    const ParamKindInfo& info = kind.info();
    std::string error;
    EXPECT_TRUE(info.default_range.IsValid(info.name, &error)) << error;
    EXPECT_FALSE(info.description.empty()) << info.name;
    EXPECT_EQ(ParamKind::FromName(info.name), kind);
    EXPECT_TRUE(ParamKind::IsRegistered(info.name));
  }
}

// Every kernel of the registry declares one registered kind per log-param.
TEST(ParamKindTest, EveryRegisteredKernelDeclaresRegisteredKinds) {
  KernelSpec spec;
  spec.dims = {0, 1};
  for (const std::string& name : KernelRegistry::Default().Names()) {
    const std::unique_ptr<Kernel> kernel = KernelRegistry::Default().Create(name, spec);
    const std::vector<ParamKind> kinds = kernel->ParamKinds();
    ASSERT_EQ(static_cast<int>(kinds.size()), kernel->NumParams()) << name;
    for (ParamKind kind : kinds) EXPECT_TRUE(ParamKind::IsRegistered(kind.name())) << name;
  }
}

TEST(ParamKindTest, RegistersANewKindOnceAndRefusesConflictingData) {
  const int before = static_cast<int>(ParamKind::All().size());
  const ParamKindInfo shape{"test_shape",
                            "a shape parameter",
                            {0.1, 10.0, 0.5, 2.0},
                            OriginalUnits::kNone,
                            CautiousDirection::kFree};
  EXPECT_FALSE(ParamKind::IsRegistered("test_shape"));
  const ParamKind kind = ParamKind::Register(shape);
  EXPECT_EQ(kind.id(), before);
  EXPECT_EQ(kind.name(), "test_shape");
  EXPECT_EQ(kind.info().default_range.start_max, 2.0);
  EXPECT_EQ(ParamKind::FromName("test_shape"), kind);
  // The same data again: the same kind.
  EXPECT_EQ(ParamKind::Register(shape), kind);
  // Other data under the same name, or a built-in's name with other data: refused.
  ParamKindInfo other = shape;
  other.cautious_direction = CautiousDirection::kOnlyGrow;
  testing::ExpectInvalid([&] { ParamKind::Register(other); },
                         "\"test_shape\": a parameter kind of this name is already registered");
  other = ParamKind::kLengthscale.info();
  other.default_range.max = 50.0;
  testing::ExpectInvalid([&] { ParamKind::Register(other); }, "\"lengthscale\"");
  EXPECT_EQ(static_cast<int>(ParamKind::All().size()), before + 1);
  EXPECT_EQ(ParamKind::kLengthscale.info().default_range.max, 1e2);
}

TEST(ParamKindTest, RefusesBadNamesAndRangesNamingThem) {
  const int before = static_cast<int>(ParamKind::All().size());
  ParamKindInfo info{
      "", "x", {0.1, 10.0, 0.5, 2.0}, OriginalUnits::kNone, CautiousDirection::kFree};
  testing::ExpectInvalid([&] { ParamKind::Register(info); }, "ParamKindInfo.name = \"\"");
  info.name = "Shape";
  testing::ExpectInvalid([&] { ParamKind::Register(info); }, "ParamKindInfo.name = \"Shape\"");
  info.name = "bad_range";
  info.default_range.min = 0.0;
  testing::ExpectInvalid([&] { ParamKind::Register(info); },
                         "ParamKindInfo.default_range.min must be finite and > 0, got 0");
  info.default_range = {0.1, 0.1, 0.5, 2.0};
  testing::ExpectInvalid([&] { ParamKind::Register(info); },
                         "ParamKindInfo.default_range.max must be finite and > min (0.1), got 0.1");
  info.default_range = {0.1, 10.0, 2.0, 1.0};
  testing::ExpectInvalid([&] { ParamKind::Register(info); }, "default_range.start_max");
  info.default_range = {0.1, 10.0, 0.5, HUGE_VAL};
  testing::ExpectInvalid([&] { ParamKind::Register(info); }, "default_range.start_max");
  EXPECT_EQ(static_cast<int>(ParamKind::All().size()), before);
  EXPECT_FALSE(ParamKind::IsRegistered("bad_range"));
  EXPECT_THAT([] { ParamKind::FromName("alpha_unknown"); },
              ::testing::ThrowsMessage<std::invalid_argument>(
                  HasSubstr("parameter kind \"alpha_unknown\" is not registered; registered: "
                            "signal_variance, lengthscale, period, other")));
}

}  // namespace
}  // namespace gpbandit
