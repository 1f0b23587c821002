// The text forms of parameters, spaces and points (parameter_spec.h): what the command line
// and space files read.
#include "gpbandit/space/parameter_spec.h"

#include <gtest/gtest.h>

#include "tests/test_util.h"

namespace gpbandit {
namespace {

using testing::ExpectInvalid;

TEST(ParameterSpecTest, ParsesEveryKind) {
  EXPECT_EQ(ParseParameterSpec("kp=log:0.1:100"),
            Parameter::Real("kp", 0.1, 100, ParameterScale::kLog));
  EXPECT_EQ(ParseParameterSpec("gain=real:-1:1e3"), Parameter::Real("gain", -1, 1000));
  EXPECT_EQ(ParseParameterSpec("gain=-1:1"), Parameter::Real("gain", -1, 1));
  EXPECT_EQ(ParseParameterSpec("taps=int:1:12"), Parameter::Integer("taps", 1, 12));
  EXPECT_EQ(ParseParameterSpec("size=int-log:1:4096"),
            Parameter::Integer("size", 1, 4096, ParameterScale::kLog));
  EXPECT_EQ(ParseParameterSpec("mode=cat:pid,lead-lag"),
            Parameter::Categorical("mode", {"pid", "lead-lag"}));
  EXPECT_EQ(ParseParameterSpec("unit=cat:m:s"), Parameter::Categorical("unit", {"m:s"}));
  EXPECT_TRUE(ParseParameterSpec("rate=int:250:250").fixed());
}

TEST(ParameterSpecTest, FormatsBackToAnEqualParameter) {
  for (const std::string spec : {"kp=log:0.1:100", "gain=real:-1:0.3333333333333333",
                                 "taps=int:1:12", "size=int-log:1:4096", "mode=cat:pid,lead-lag"}) {
    EXPECT_EQ(FormatParameterSpec(ParseParameterSpec(spec)), spec);
  }
  ExpectInvalid([] { FormatParameterSpec(Parameter::Categorical("c", {"a,b"})); },
                "holds ',' and has no spec form");
}

TEST(ParameterSpecTest, RefusesBadSpecsNamingThem) {
  ExpectInvalid([] { ParseParameterSpec("kp"); }, "'kp' is not of the form name=...");
  ExpectInvalid([] { ParseParameterSpec("=int:1:2"); }, "not of the form");
  ExpectInvalid([] { ParseParameterSpec("kp=lg:1:2"); }, "the kind 'lg' is not real, log, int");
  ExpectInvalid([] { ParseParameterSpec("kp=log:0:2"); }, "parameter spec 'kp=log:0:2': ");
  ExpectInvalid([] { ParseParameterSpec("kp=log:0:2"); }, "a log scale needs lower > 0");
  ExpectInvalid([] { ParseParameterSpec("n=int:1.5:2"); }, "lower: '1.5' is not an integer");
  ExpectInvalid([] { ParseParameterSpec("x=real:a:2"); }, "lower: 'a' is not a number");
  ExpectInvalid([] { ParseParameterSpec("x=real:1"); }, "'real' takes two bounds");
  ExpectInvalid([] { ParseParameterSpec("x=1"); }, "the kind '1' is not");
  ExpectInvalid([] { ParseParameterSpec("x=int:1:2:3"); }, "'int' takes two bounds");
  ExpectInvalid([] { ParseParameterSpec("m=cat:"); }, "'cat' takes labels");
  ExpectInvalid([] { ParseParameterSpec("m=cat:a,,b"); }, "labels[1] is empty");
  ExpectInvalid([] { ParseParameterSpecs({"a=0:1", "a=int:0:1"}); }, "the name is repeated");
}

TEST(ParameterSpecTest, SpacesRoundTripThroughJson) {
  const ParameterSpace space = ParseParameterSpecs(
      {"kp=log:0.1:100", "taps=int:1:12", "mode=cat:pid,lead-lag", "ki=real:-0.1:0.3"});
  const std::string json = FormatParameterSpaceJson(space);
  EXPECT_EQ(ParseParameterSpaceJson(json), space);
  EXPECT_EQ(ParseParameterSpaceJson(
                R"({"parameters": [{"name": "a", "type": "real", "lower": 0, "upper": 2}]})"),
            ParameterSpace({Parameter::Real("a", 0, 2)}));
  ExpectInvalid([] { ParseParameterSpaceJson("{"); }, "not JSON");
  ExpectInvalid([] { ParseParameterSpaceJson("{}"); }, "has no \"parameters\"");
  ExpectInvalid(
      [] { ParseParameterSpaceJson(R"({"parameters": [{"name": "a", "type": "rael"}]})"); },
      "parameters[0].type = \"rael\"");
  ExpectInvalid(
      [] { ParseParameterSpaceJson(R"({"parameters": [{"name": "a", "type": "real"}]})"); },
      "parameters[0].lower is missing");
  ExpectInvalid(
      [] {
        ParseParameterSpaceJson(
            R"({"parameters": [{"name": "a", "type": "categorical", "labels": "x"}]})");
      },
      "parameters[0].labels has the wrong type");
}

TEST(ParameterSpecTest, PointsPrintAsPairsThatParseBackExactly) {
  const ParameterSpace space =
      ParseParameterSpecs({"kp=log:0.1:100", "taps=int:1:12", "mode=cat:pid,lead-lag"});
  const NamedValues p = {{"kp", 0.1 + 0.2}, {"taps", 4LL}, {"mode", std::string("lead-lag")}};
  const std::string text = FormatNamedValues(space, p);
  EXPECT_EQ(text, "kp=0.30000000000000004 taps=4 mode=lead-lag");
  EXPECT_EQ(ParseNamedValues(space, {"mode=lead-lag", "kp=0.30000000000000004", "taps=4"}), p);
  EXPECT_EQ(FormatNamedValues(space, p, ","), "kp=0.30000000000000004,taps=4,mode=lead-lag");
  ExpectInvalid([&] { ParseNamedValues(space, {"kp=1", "taps=4"}); }, "values['mode'] is missing");
  ExpectInvalid([&] { ParseNamedValues(space, {"kp=1", "kp=2"}); }, "'kp' is given twice");
  ExpectInvalid([&] { ParseNamedValues(space, {"kd=1"}); }, "'kd' is no parameter of the space");
  ExpectInvalid(
      [&] {
        ParseNamedValues(space, {"kp=1", "taps=4.5", "mode=pid"});
      },
      "value 'taps=4.5': '4.5' is not an integer");
  ExpectInvalid(
      [&] {
        ParseNamedValues(space, {"kp=1", "taps=40", "mode=pid"});
      },
      "values['taps'] = 40 is outside [1, 12]");
  ExpectInvalid([&] { FormatNamedValues(space, {{"kp", 1.0}}); }, "values['taps'] is missing");
}

}  // namespace
}  // namespace gpbandit
