#include "gpbandit/maximizer/integer_search.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace gpbandit {
namespace {

TEST(IntegerSearchTest, NamesAreTheDocumentedOnes) {
  EXPECT_EQ(IntegerSearchName(IntegerSearch::kLocalSearch), "local-search");
  EXPECT_EQ(IntegerSearchName(IntegerSearch::kRelaxAndRound), "relax-and-round");
  EXPECT_EQ(IntegerSearchName(IntegerSearch::kRelaxThenSearch), "relax-then-search");
}

TEST(IntegerSearchTest, ParseInvertsName) {
  for (IntegerSearch search : {IntegerSearch::kLocalSearch, IntegerSearch::kRelaxAndRound,
                               IntegerSearch::kRelaxThenSearch})
    EXPECT_EQ(ParseIntegerSearch(IntegerSearchName(search)), search);
}

TEST(IntegerSearchTest, UnknownNameIsRefusedWithTheValueAndTheKnownNames) {
  try {
    ParseIntegerSearch("Local-Search");
    FAIL() << "a name in another case was accepted";
  } catch (const std::invalid_argument& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("integer search = 'Local-Search'"), std::string::npos) << message;
    EXPECT_NE(message.find("relax-then-search"), std::string::npos) << message;
  }
  EXPECT_THROW(ParseIntegerSearch(""), std::invalid_argument);
  EXPECT_THROW(ParseIntegerSearch("unknown"), std::invalid_argument);
}

}  // namespace
}  // namespace gpbandit
