#include "study/json_vector.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

namespace gpbandit {
namespace internal {
namespace {

std::string MessageOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

TEST(VectorToJson, WritesEveryEntryInOrder) {
  Eigen::VectorXd v(3);
  v << 0.1, -2.0, 1e300;
  const nlohmann::json a = VectorToJson(v);
  ASSERT_TRUE(a.is_array());
  ASSERT_EQ(a.size(), 3u);
  EXPECT_EQ(a[0].get<double>(), 0.1);
  EXPECT_EQ(a[1].get<double>(), -2.0);
  EXPECT_EQ(a[2].get<double>(), 1e300);
}

TEST(VectorToJson, AnEmptyVectorIsAnEmptyArray) {
  const nlohmann::json a = VectorToJson(Eigen::VectorXd());
  EXPECT_TRUE(a.is_array());
  EXPECT_TRUE(a.empty());
  EXPECT_EQ(a.dump(), "[]");
}

TEST(VectorToJson, RoundTripsThroughTextBitForBit) {
  Eigen::VectorXd v(3);
  v << 1.0 / 3.0, std::nextafter(1.0, 2.0), -0.0;
  const Eigen::VectorXd back =
      JsonToVector(nlohmann::json::parse(VectorToJson(v).dump()), "round trip");
  ASSERT_EQ(back.size(), 3);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(back(i), v(i)) << i;
  EXPECT_TRUE(std::signbit(back(2)));
}

TEST(JsonToVector, ReadsIntegersAndFloats) {
  const Eigen::VectorXd v = JsonToVector(nlohmann::json::parse("[1, 2.5, -3]"), "x");
  ASSERT_EQ(v.size(), 3);
  EXPECT_EQ(v(0), 1.0);
  EXPECT_EQ(v(1), 2.5);
  EXPECT_EQ(v(2), -3.0);
}

TEST(JsonToVector, RefusesANonArrayNamingIt) {
  EXPECT_EQ(MessageOf([] { JsonToVector(nlohmann::json::parse("{\"a\": 1}"), "field \"x\""); }),
            "field \"x\" is not an array of numbers");
  EXPECT_EQ(MessageOf([] { JsonToVector(nlohmann::json(3.0), "z"); }),
            "z is not an array of numbers");
}

TEST(JsonToVector, RefusesAnItemThatIsNotANumberNamingItsIndexAndValue) {
  EXPECT_EQ(MessageOf([] { JsonToVector(nlohmann::json::parse("[1, \"two\", 3]"), "x"); }),
            "x[1] is not a number: \"two\"");
  EXPECT_EQ(MessageOf([] { JsonToVector(nlohmann::json::parse("[null]"), "x"); }),
            "x[0] is not a number: null");
  EXPECT_EQ(MessageOf([] { JsonToVector(nlohmann::json::parse("[[1]]"), "x"); }),
            "x[0] is not a number: [1]");
}

TEST(Field, ReadsAPresentFieldAsItsType) {
  const nlohmann::json j = nlohmann::json::parse(R"({"round": 7, "worker": "h:1", "y": 0.5})");
  EXPECT_EQ(Field<long>(j, "round"), 7);
  EXPECT_EQ(Field<std::string>(j, "worker"), "h:1");
  EXPECT_EQ(Field<double>(j, "y"), 0.5);
}

TEST(Field, NamesAMissingField) {
  const nlohmann::json j = nlohmann::json::parse(R"({"round": 7})");
  EXPECT_EQ(MessageOf([&] { Field<double>(j, "y"); }), "field \"y\" is missing");
}

TEST(Field, NamesAFieldOfTheWrongTypeAndItsValue) {
  const nlohmann::json j = nlohmann::json::parse(R"({"round": "seven", "x": [1]})");
  EXPECT_EQ(MessageOf([&] { Field<long>(j, "round"); }),
            "field \"round\" has the wrong type: \"seven\"");
  EXPECT_EQ(MessageOf([&] { Field<std::string>(j, "x"); }), "field \"x\" has the wrong type: [1]");
}

TEST(VectorField, ReadsTheFieldsArray) {
  const nlohmann::json j = nlohmann::json::parse(R"({"x": [0.25, 4]})");
  const Eigen::VectorXd x = VectorField(j, "x");
  ASSERT_EQ(x.size(), 2);
  EXPECT_EQ(x(0), 0.25);
  EXPECT_EQ(x(1), 4.0);
}

TEST(VectorField, NamesTheFieldOfAMissingOrBadArray) {
  const nlohmann::json j = nlohmann::json::parse(R"({"x": [0.25, true], "z": 1})");
  EXPECT_EQ(MessageOf([&] { VectorField(j, "x"); }), "field \"x\"[1] is not a number: true");
  EXPECT_EQ(MessageOf([&] { VectorField(j, "z"); }), "field \"z\" is not an array of numbers");
  EXPECT_EQ(MessageOf([&] { VectorField(j, "w"); }), "field \"w\" is missing");
}

}  // namespace
}  // namespace internal
}  // namespace gpbandit
