#include "storage/study_name.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "tests/test_util.h"

namespace gpbandit {
namespace {

using testing::ExpectInvalid;

TEST(StudyNameTest, PrintableNamesPass) {
  EXPECT_NO_THROW(CheckStudyName(""));
  EXPECT_NO_THROW(CheckStudyName("pendulum gains, run 2 (~/x)"));
  EXPECT_NO_THROW(CheckStudyName("\x7e"));            // '~', the last printable ASCII character
  EXPECT_NO_THROW(CheckStudyName(" "));               // 0x20, the first
  EXPECT_NO_THROW(CheckStudyName("r\xc3\xa9glage"));  // UTF-8 bytes >= 0x80 are text
}

TEST(StudyNameTest, ControlCharactersAreRefusedWithTheirCodeAndPosition) {
  ExpectInvalid([] { CheckStudyName("a\nb"); },
                "study name: control character \\x0a at position 1; a study name is printable");
  ExpectInvalid([] { CheckStudyName("\tx"); }, "\\x09 at position 0");
  ExpectInvalid([] { CheckStudyName("abc\x7f"); }, "\\x7f at position 3");
  ExpectInvalid([] { CheckStudyName("ab\x1f"); }, "\\x1f at position 2");
  ExpectInvalid([] { CheckStudyName(std::string("x\0y", 3)); }, "\\x00 at position 1");
}

TEST(StudyNameTest, TheFirstControlCharacterIsNamed) {
  ExpectInvalid([] { CheckStudyName("ok\r\n"); }, "\\x0d at position 2");
}

}  // namespace
}  // namespace gpbandit
