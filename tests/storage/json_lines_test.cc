// The JSON-Lines reading shared by the file backend and the observation log: complete lines,
// torn last lines, corruption, and the record-type checks.
#include "storage/json_lines.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "tests/test_util.h"

namespace gpbandit {
namespace {

using testing::ExpectInvalid;
using ::testing::HasSubstr;

using Taken = std::vector<std::pair<std::string, int>>;

ScannedLines Scan(const std::string& text, Taken* taken, int first = 1) {
  return ScanJsonLines(text, "f.jsonl", first, [&](const std::string& line, int n) {
    taken->push_back({line, n});
  });
}

std::string RuntimeError(const std::function<void()>& call) {
  try {
    call();
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

TEST(JsonLinesTest, CompleteLinesAreTakenInOrderWithTheirNumbers) {
  Taken taken;
  const std::string text = "{\"a\":1}\n\n  \t\n{\"b\":2}\n";
  const ScannedLines scanned = Scan(text, &taken, 10);
  EXPECT_EQ(taken, (Taken{{"{\"a\":1}", 10}, {"{\"b\":2}", 13}}));  // blank lines counted
  EXPECT_EQ(scanned.lines, 4);
  EXPECT_EQ(scanned.intact_bytes, text.size());
  EXPECT_FALSE(scanned.torn);
  EXPECT_EQ(scanned.torn_problem, "");
}

TEST(JsonLinesTest, ALastLineWithoutNewlineIsTornAndLeftOut) {
  Taken taken;
  const ScannedLines scanned = Scan("{\"a\":1}\n{\"b\":", &taken);
  EXPECT_EQ(taken, (Taken{{"{\"a\":1}", 1}}));
  EXPECT_TRUE(scanned.torn);
  EXPECT_EQ(scanned.torn_problem, "no terminating newline");
  EXPECT_EQ(scanned.intact_bytes, 8u);  // up to and including the first newline
  EXPECT_EQ(scanned.lines, 1);
}

TEST(JsonLinesTest, EmptyTextHasNothing) {
  Taken taken;
  const ScannedLines scanned = Scan("", &taken);
  EXPECT_TRUE(taken.empty());
  EXPECT_EQ(scanned.lines, 0);
  EXPECT_EQ(scanned.intact_bytes, 0u);
  EXPECT_FALSE(scanned.torn);
}

TEST(JsonLinesTest, ARejectedCompleteLineIsCorruptionWithItsPlace) {
  const auto reject_second = [](const std::string&, int n) {
    if (n == 2) throw std::invalid_argument("bad value");
  };
  EXPECT_EQ(RuntimeError([&] { ScanJsonLines("a\nb\nc\n", "f.jsonl", 1, reject_second); }),
            "f.jsonl:2: malformed log record: bad value");
  // A misplaced record is named as such, not as malformed.
  const auto misplaced = [](const std::string&, int) { throw MisplacedRecord("a second header"); };
  EXPECT_EQ(RuntimeError([&] { ScanJsonLines("x\n", "g", 5, misplaced); }), "g:5: a second header");
}

TEST(JsonLinesTest, StudyRecordTypeChecksTheHeadersPlace) {
  EXPECT_EQ(StudyRecordType(R"({"type":"header","format":9})", true), "header");
  EXPECT_EQ(StudyRecordType(R"({"type":"tell"})", false), "tell");
  EXPECT_THROW(StudyRecordType(R"({"type":"tell"})", true), MisplacedRecord);
  EXPECT_THROW(StudyRecordType("plain text, not JSON", true), MisplacedRecord);
  try {
    StudyRecordType("plain text", true);
  } catch (const MisplacedRecord& e) {
    EXPECT_THAT(e.what(), HasSubstr("not a gpbandit study: its first line is not a header"));
  }
  EXPECT_THROW(StudyRecordType(R"({"type":"header"})", false), MisplacedRecord);
  // A later line that is not a record is malformed (a runtime_error, but not misplaced).
  try {
    StudyRecordType("[1, 2]", false);
    FAIL() << "an array was taken for a record";
  } catch (const MisplacedRecord&) {
    FAIL() << "a malformed line was called misplaced";
  } catch (const std::runtime_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("string field \"type\""));
  }
}

TEST(JsonLinesTest, HeaderlessTextIsRefusedUnlessEmpty) {
  ScannedLines empty;
  EXPECT_NO_THROW(RefuseHeaderlessText(empty, false, "f"));
  ScannedLines blank;
  blank.lines = 2;
  blank.intact_bytes = 2;
  EXPECT_EQ(RuntimeError([&] { RefuseHeaderlessText(blank, false, "f"); }),
            "f: not a gpbandit study: it holds only blank lines; it is left untouched (delete it, "
            "or give another path)");
  ScannedLines torn;
  torn.torn = true;
  torn.torn_problem = "no terminating newline";
  EXPECT_THAT(RuntimeError([&] { RefuseHeaderlessText(torn, false, "f"); }),
              HasSubstr("f: not a gpbandit study: its first line is incomplete (no terminating "
                        "newline)"));
  EXPECT_NO_THROW(RefuseHeaderlessText(torn, true, "f"));
}

TEST(JsonLinesTest, RecordTypeNeedsAnObjectWithAStringType) {
  EXPECT_EQ(RecordType(R"({"type":"ask","x":[1]})"), "ask");
  EXPECT_THROW(RecordType(R"({"type":3})"), std::runtime_error);
  EXPECT_THROW(RecordType(R"({"kind":"ask"})"), std::runtime_error);
  EXPECT_THROW(RecordType(R"("ask")"), std::runtime_error);
  EXPECT_THROW(RecordType("{"), std::runtime_error);
}

TEST(JsonLinesTest, AppendableAndHeaderRecordsAreCheckedWithTheCallersName) {
  EXPECT_EQ(AppendableRecordType(R"({"type":"tell"})", "Append"), "tell");
  ExpectInvalid([] { AppendableRecordType(R"({"type":"header"})", "Append"); },
                "Append: a header record");
  ExpectInvalid([] { AppendableRecordType("{\"type\":\n\"tell\"}", "Append"); },
                "Append: a record spans several lines");
  ExpectInvalid([] { AppendableRecordType("nope", "Append"); }, "Append: ");
  EXPECT_NO_THROW(CheckHeaderRecord(R"({"type":"header"})", "CreateStudy"));
  ExpectInvalid([] { CheckHeaderRecord(R"({"type":"tell"})", "CreateStudy"); },
                "CreateStudy: not a one-line header record");
  ExpectInvalid([] { CheckHeaderRecord("{\"type\":\n\"header\"}", "CreateStudy"); },
                "CreateStudy: not a one-line header record");
  ExpectInvalid([] { CheckHeaderRecord("[]", "CreateStudy"); }, "CreateStudy: not an object");
}

}  // namespace
}  // namespace gpbandit
