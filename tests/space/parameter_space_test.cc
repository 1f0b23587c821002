// ParameterSpace: construction refuses every bad field with a message naming it; named values
// and vectors convert exactly both ways; illegal points are refused naming the parameter.
#include "gpbandit/space/parameter_space.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "tests/test_util.h"

namespace gpbandit {
namespace {

using testing::ExpectInvalid;

ParameterSpace Controller() {
  return ParameterSpace({Parameter::Real("kp", 0.1, 100.0, ParameterScale::kLog),
                         Parameter::Integer("taps", 1, 12),
                         Parameter::Categorical("mode", {"pid", "lead-lag"}),
                         Parameter::Fixed("rate", 250LL), Parameter::Real("ki", -1.0, 1.0)});
}

TEST(ParameterSpaceTest, DescribesItsParameters) {
  const ParameterSpace space = Controller();
  EXPECT_EQ(space.size(), 5);
  EXPECT_EQ(space.Index("mode"), 2);
  EXPECT_EQ(space.Index("nope"), -1);
  EXPECT_TRUE(space.has_discrete());
  EXPECT_FALSE(space.is_linear_box());
  EXPECT_TRUE(space.parameter(3).fixed());
  EXPECT_FALSE(space.parameter(3).discrete());
  EXPECT_EQ(space.Describe(),
            "kp: real [0.1, 100] log, taps: integer [1, 12], mode: categorical {pid, lead-lag}, "
            "rate: integer [250, 250], ki: real [-1, 1]");
  EXPECT_EQ(space.vector_lower(), (Eigen::VectorXd(5) << 0.1, 1, 0, 250, -1).finished());
  EXPECT_EQ(space.vector_upper(), (Eigen::VectorXd(5) << 100, 12, 1, 250, 1).finished());
  EXPECT_TRUE(
      ParameterSpace({Parameter::Real("a", 0, 1), Parameter::Fixed("b", 2.5)}).is_linear_box());
  EXPECT_FALSE(ParameterSpace({Parameter::Fixed("only", std::string("x"))}).has_discrete());
}

TEST(ParameterSpaceTest, NamedValuesAndVectorsConvertExactlyBothWays) {
  const ParameterSpace space = Controller();
  const NamedValues named = {{"kp", 0.1 + 0.2},
                             {"taps", 7LL},
                             {"mode", std::string("lead-lag")},
                             {"rate", 250LL},
                             {"ki", -1.0 / 3.0}};
  const Eigen::VectorXd x = space.ToVector(named, "p");
  EXPECT_EQ(x, (Eigen::VectorXd(5) << 0.1 + 0.2, 7, 1, 250, -1.0 / 3.0).finished());
  EXPECT_EQ(space.ToNamed(x), named);
  // A real may be given an integer; an integer an integral double.
  NamedValues loose = named;
  loose["ki"] = 1LL;
  loose["taps"] = 3.0;
  const Eigen::VectorXd y = space.ToVector(loose, "p");
  EXPECT_EQ(y(4), 1.0);
  EXPECT_EQ(y(1), 3.0);
  EXPECT_EQ(std::get<long long>(space.ToNamed(y).at("taps")), 3);
}

TEST(ParameterSpaceTest, IllegalNamedValuesAreRefusedNamingTheParameter) {
  const ParameterSpace space = Controller();
  const NamedValues good = {
      {"kp", 1.0}, {"taps", 2LL}, {"mode", std::string("pid")}, {"rate", 250LL}, {"ki", 0.0}};
  auto with = [&](const std::string& name, const ParameterValue& v) {
    NamedValues n = good;
    n[name] = v;
    return n;
  };
  ExpectInvalid([&] { space.ToVector(with("kp", 100.5), "p"); },
                "p['kp'] = 100.5 is outside [0.1, 100]");
  ExpectInvalid([&] { space.ToVector(with("taps", 2.5), "p"); },
                "p['taps'] = 2.5 is not an integer");
  ExpectInvalid([&] { space.ToVector(with("mode", std::string("pd")), "p"); },
                "p['mode'] = 'pd' is not one of its labels");
  ExpectInvalid([&] { space.ToVector(with("mode", 1LL), "p"); }, "a label is expected");
  ExpectInvalid([&] { space.ToVector(with("ki", std::string("x")), "p"); }, "a number is expected");
  ExpectInvalid([&] { space.ToVector(with("ki", std::nan("")), "p"); }, "p['ki'] = nan is outside");
  ExpectInvalid([&] { space.ToVector(with("kd", 1.0), "p"); }, "names 'kd' (= 1)");
  NamedValues missing = good;
  missing.erase("taps");
  ExpectInvalid([&] { space.ToVector(missing, "p"); }, "p['taps'] is missing");
}

TEST(ParameterSpaceTest, IllegalVectorsAreRefusedNamingTheParameter) {
  const ParameterSpace space = Controller();
  const Eigen::VectorXd good = (Eigen::VectorXd(5) << 1, 2, 0, 250, 0).finished();
  space.CheckVector(good, "x");
  auto with = [&](int i, double v) {
    Eigen::VectorXd x = good;
    x(i) = v;
    return x;
  };
  ExpectInvalid([&] { space.CheckVector(with(1, 2.5), "x"); },
                "x[1] ('taps') = 2.5 is not an integer");
  ExpectInvalid([&] { space.CheckVector(with(2, 0.5), "x"); },
                "x[2] ('mode') = 0.5 is not the index");
  ExpectInvalid([&] { space.CheckVector(with(2, 2.0), "x"); },
                "x[2] ('mode') = 2 is outside [0, 1]");
  ExpectInvalid([&] { space.CheckVector(with(3, 251.0), "x"); }, "outside [250, 250]");
  ExpectInvalid([&] { space.CheckVector(Eigen::VectorXd::Zero(4), "x"); },
                "x has size 4 but the space has 5 parameters");
  ExpectInvalid([&] { space.ToNamed(with(0, 0.0)); }, "x[0] ('kp') = 0 is outside");
}

TEST(ParameterSpaceTest, ConstructionRefusesEveryBadField) {
  ExpectInvalid([] { ParameterSpace({}); }, "the space has none");
  ExpectInvalid([] { ParameterSpace({Parameter::Real("", 0, 1)}); }, "parameters[0] ''");
  ExpectInvalid([] { ParameterSpace({Parameter::Real("k=p", 0, 1)}); }, "a name starts with");
  ExpectInvalid([] { ParameterSpace({Parameter::Real("9k", 0, 1)}); }, "a name starts with");
  ExpectInvalid(
      [] {
        ParameterSpace({Parameter::Real("a", 0, 1), Parameter::Integer("a", 0, 1)});
      },
      "parameters[1] 'a': the name is repeated");
  ExpectInvalid([] { ParameterSpace({Parameter::Real("a", 1, 0)}); },
                "parameters[0] 'a' bounds [1, 0]: lower is greater than upper");
  ExpectInvalid([] { ParameterSpace({Parameter::Real("a", 0, HUGE_VAL)}); }, "are not finite");
  ExpectInvalid([] { ParameterSpace({Parameter::Real("a", -1e308, 1e308)}); }, "overflows");
  ExpectInvalid([] { ParameterSpace({Parameter::Real("a", 0, 1, ParameterScale::kLog)}); },
                "a log scale needs lower > 0");
  ExpectInvalid([] { ParameterSpace({Parameter::Integer("n", 0, 9, ParameterScale::kLog)}); },
                "a log scale needs lower >= 1");
  Parameter fractional = Parameter::Integer("n", 0, 9);
  fractional.upper = 9.5;
  ExpectInvalid([&] { ParameterSpace({fractional}); }, "of an integer parameter are not integers");
  ExpectInvalid([] { ParameterSpace({Parameter::Integer("n", 0, 1LL << 54)}); }, "exceed +-2^53");
  ExpectInvalid([] { ParameterSpace({Parameter::Categorical("c", {})}); }, "'c' has no labels");
  ExpectInvalid(
      [] {
        ParameterSpace({Parameter::Categorical("c", {"a", ""})});
      },
      "labels[1] is empty");
  ExpectInvalid(
      [] {
        ParameterSpace({Parameter::Categorical("c", {"a", "b", "a"})});
      },
      "labels[2] = 'a' is repeated");
  Parameter log_labels = Parameter::Categorical("c", {"a"});
  log_labels.scale = ParameterScale::kLog;
  ExpectInvalid([&] { ParameterSpace({log_labels}); }, "a categorical parameter has no log scale");
}

}  // namespace
}  // namespace gpbandit
