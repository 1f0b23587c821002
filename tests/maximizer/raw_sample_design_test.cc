#include "gpbandit/maximizer/raw_sample_design.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace gpbandit {
namespace {

TEST(RawSampleDesignTest, NamesAreTheDocumentedOnes) {
  EXPECT_EQ(RawSampleDesignName(RawSampleDesign::kLatinHypercube), "latin-hypercube");
  EXPECT_EQ(RawSampleDesignName(RawSampleDesign::kSobol), "sobol");
}

TEST(RawSampleDesignTest, ParseInvertsName) {
  for (RawSampleDesign design : {RawSampleDesign::kLatinHypercube, RawSampleDesign::kSobol})
    EXPECT_EQ(ParseRawSampleDesign(RawSampleDesignName(design)), design);
}

TEST(RawSampleDesignTest, UnknownNameIsRefusedWithTheValueAndTheKnownNames) {
  try {
    ParseRawSampleDesign("halton");
    FAIL() << "an unknown design was accepted";
  } catch (const std::invalid_argument& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("raw sample design = 'halton'"), std::string::npos) << message;
    EXPECT_NE(message.find("latin-hypercube, sobol"), std::string::npos) << message;
  }
  EXPECT_THROW(ParseRawSampleDesign(" sobol"), std::invalid_argument);
  EXPECT_THROW(ParseRawSampleDesign(""), std::invalid_argument);
}

}  // namespace
}  // namespace gpbandit
