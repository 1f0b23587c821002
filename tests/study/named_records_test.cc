#include "study/named_records.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "gpbandit/space/parameter_space.h"

namespace gpbandit {
namespace {

Eigen::VectorXd Vec(std::initializer_list<double> values) {
  Eigen::VectorXd v(static_cast<Eigen::Index>(values.size()));
  Eigen::Index i = 0;
  for (double value : values) v(i++) = value;
  return v;
}

ParameterSpace Controller() {
  return ParameterSpace({Parameter::Real("kp", 0.1, 100.0, ParameterScale::kLog),
                         Parameter::Integer("taps", 1, 12),
                         Parameter::Categorical("mode", {"pid", "lead-lag"})});
}

const char kRecord[] = R"({"type":"tell","x":[0.3,4,1],"y":1.5})";

TEST(WithNamedValues, LeavesARecordOfABoxAsItIs) {
  const Domain box = Domain::Box(Vec({0, 0}), Vec({1, 1}));
  // Not even parsed: spacing and key order survive.
  const std::string record = R"({ "y": 1.5, "type": "tell", "x": [0.1, 0.2] })";
  EXPECT_EQ(WithNamedValues(record, box, Vec({0.1, 0.2}), Eigen::VectorXd()), record);
  const Domain with_context = box.WithContext(1);
  EXPECT_EQ(WithNamedValues(record, with_context, Vec({0.1, 0.2}), Vec({3})), record);
}

TEST(WithNamedValues, AddsTheActionsNamedValues) {
  const Domain domain = Domain::Space(Controller());
  const nlohmann::json out =
      nlohmann::json::parse(WithNamedValues(kRecord, domain, Vec({0.3, 4, 1}), Eigen::VectorXd()));
  EXPECT_EQ(out["params"], nlohmann::json::parse(R"({"kp": 0.3, "taps": 4, "mode": "lead-lag"})"));
  EXPECT_FALSE(out.contains("context_params"));
  // The record's own fields are untouched: replay reads "x", not "params".
  EXPECT_EQ(out["type"], "tell");
  EXPECT_EQ(out["x"], nlohmann::json::parse("[0.3, 4, 1]"));
  EXPECT_EQ(out["y"], 1.5);
  EXPECT_EQ(out.size(), 4u);
}

TEST(WithNamedValues, NamesTheFirstLabelByItsIndexZero) {
  const Domain domain = Domain::Space(Controller());
  const nlohmann::json out = nlohmann::json::parse(
      WithNamedValues(R"({"type":"pending"})", domain, Vec({100, 12, 0}), Eigen::VectorXd()));
  EXPECT_EQ(out["params"]["mode"], "pid");
  EXPECT_EQ(out["params"]["taps"], 12);
  EXPECT_EQ(out["params"]["kp"], 100.0);
}

TEST(WithNamedValues, AddsTheContextsNamedValuesWhenTheyAreASpace) {
  const ParameterSpace weather(
      {Parameter::Real("wind", 0.0, 20.0), Parameter::Categorical("surface", {"dry", "wet"})});
  const Domain domain = Domain::Space(Controller()).WithContext(weather);
  const nlohmann::json out =
      nlohmann::json::parse(WithNamedValues(kRecord, domain, Vec({0.3, 4, 1}), Vec({7.5, 1})));
  EXPECT_EQ(out["params"]["taps"], 4);
  EXPECT_EQ(out["context_params"], nlohmann::json::parse(R"({"wind": 7.5, "surface": "wet"})"));
}

TEST(WithNamedValues, NamesContextsOfABoxDomainAlone) {
  const ParameterSpace weather({Parameter::Real("wind", 0.0, 20.0)});
  const Domain domain = Domain::Box(Vec({0}), Vec({1})).WithContext(weather);
  const nlohmann::json out = nlohmann::json::parse(
      WithNamedValues(R"({"type":"tell","x":[0.5]})", domain, Vec({0.5}), Vec({2.0})));
  EXPECT_FALSE(out.contains("params"));
  EXPECT_EQ(out["context_params"], nlohmann::json::parse(R"({"wind": 2.0})"));
}

TEST(WithNamedValues, KeepsDoublesExact) {
  const ParameterSpace space({Parameter::Real("a", 0.0, 1.0)});
  const Domain domain = Domain::Space(space);
  const double third = 1.0 / 3.0;
  const nlohmann::json out = nlohmann::json::parse(
      WithNamedValues(R"({"type":"tell","y":0.1})", domain, Vec({third}), Eigen::VectorXd()));
  EXPECT_EQ(out["params"]["a"].get<double>(), third);
  EXPECT_EQ(out["y"].get<double>(), 0.1);
}

}  // namespace
}  // namespace gpbandit
