#include "space/parameter_space_json.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "tests/test_util.h"

namespace gpbandit {
namespace {

using nlohmann::json;
using testing::ExpectInvalid;

ParameterSpace Space() {
  return ParameterSpace({Parameter::Real("kp", 0.1, 10.0, ParameterScale::kLog),
                         Parameter::Integer("taps", 1, 8),
                         Parameter::Categorical("mode", {"p", "pi", "pid"})});
}

TEST(ParameterSpaceJsonTest, WritesEachKindWithItsFields) {
  const json expected = json::parse(R"([
    {"name": "kp", "type": "real", "scale": "log", "lower": 0.1, "upper": 10.0},
    {"name": "taps", "type": "integer", "scale": "linear", "lower": 1.0, "upper": 8.0},
    {"name": "mode", "type": "categorical", "labels": ["p", "pi", "pid"]}])");
  EXPECT_EQ(internal::ParametersToJson(Space()), expected);
}

TEST(ParameterSpaceJsonTest, RoundTripsThroughText) {
  const ParameterSpace space = Space();
  const json text = json::parse(internal::ParametersToJson(space).dump());
  EXPECT_EQ(internal::ParametersFromJson(text, "parameters"), space);
  // An empty list is no space (ParameterSpace refuses it).
  ExpectInvalid([] { internal::ParametersFromJson(json::array(), "p"); }, "the space has none");
}

TEST(ParameterSpaceJsonTest, ScaleDefaultsToLinear) {
  const ParameterSpace space = internal::ParametersFromJson(
      json::parse(R"([{"name": "x", "type": "real", "lower": -1, "upper": 1}])"), "p");
  EXPECT_EQ(space, ParameterSpace({Parameter::Real("x", -1.0, 1.0)}));
}

TEST(ParameterSpaceJsonTest, RefusedEntriesNameTheEntryAndField) {
  const auto read = [](const char* text) {
    internal::ParametersFromJson(json::parse(text), "header.parameters");
  };
  ExpectInvalid([&] { read(R"({"name": "x"})"); }, "header.parameters is not an array");
  ExpectInvalid([&] { read(R"([{"name": "x", "type": "real", "lower": 0}])"); },
                "header.parameters[0].upper is missing");
  ExpectInvalid(
      [&] {
        read(R"([{"name": "a", "type": "integer", "lower": 0, "upper": 2}, {"type": "real"}])");
      },
      "header.parameters[1].name is missing");
  ExpectInvalid([&] { read(R"([{"name": "x", "type": "complex"}])"); },
                "header.parameters[0].type = \"complex\" is not \"real\", \"integer\" or "
                "\"categorical\"");
  ExpectInvalid(
      [&] { read(R"([{"name": "x", "type": "real", "scale": "ln", "lower": 1, "upper": 2}])"); },
      "header.parameters[0].scale = \"ln\" is not \"linear\" or \"log\"");
  ExpectInvalid([&] { read(R"([{"name": "x", "type": "real", "lower": "0", "upper": 1}])"); },
                "header.parameters[0].lower has the wrong type: \"0\"");
  ExpectInvalid([&] { read(R"([{"name": "m", "type": "categorical", "labels": [1, 2]}])"); },
                "header.parameters[0].labels has the wrong type");
  ExpectInvalid([&] { read(R"([3])"); }, "header.parameters[0].name is missing");
}

TEST(ParameterSpaceJsonTest, NamedValuesHoldNumbersAndLabels) {
  const json named = internal::NamedValuesToJson(Space(), Eigen::Vector3d(0.5, 4.0, 2.0));
  EXPECT_EQ(named, json::parse(R"({"kp": 0.5, "taps": 4, "mode": "pid"})"));
  EXPECT_TRUE(named.at("taps").is_number_integer());
  EXPECT_TRUE(named.at("kp").is_number_float());
}

}  // namespace
}  // namespace gpbandit
