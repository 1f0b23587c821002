// The command line's file readers (cli/io/): every malformed input names the file, the line
// and the column.
#include "cli/io/csv.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "cli/io/observations.h"
#include "tests/cli/csv_fixture.h"

namespace gpbandit {
namespace io {
namespace {

using ::testing::HasSubstr;

TEST_F(CsvTest, ReadsHeaderCommentsBlankLinesAndSpaces) {
  const std::string path = Write("a.csv", "# made by hand\nx1, x2\n\n1, 2.5\n-3e-1,4\n");
  const CsvTable t = ReadNumericCsv(path, true);
  ASSERT_EQ(t.header, (std::vector<std::string>{"x1", "x2"}));
  EXPECT_EQ(t.header_line, 2);
  ASSERT_EQ(t.rows(), 2);
  EXPECT_EQ(t.values(0, 1), 2.5);
  EXPECT_EQ(t.values(1, 0), -0.3);
  EXPECT_EQ(t.lines, (std::vector<int>{4, 5}));
}

TEST_F(CsvTest, NotANumberNamesLineAndColumn) {
  const std::string path = Write("b.csv", "x1,x2,x3\n1,2,3\n4,abc,6\n");
  const FileFormatError e = ErrorOf([&] { ReadNumericCsv(path, true); });
  EXPECT_EQ(e.line(), 3);
  EXPECT_EQ(e.column(), 2);
  EXPECT_THAT(e.what(), HasSubstr(path + ":3:2:"));
  EXPECT_THAT(e.what(), HasSubstr("'abc' is not a number (x2)"));
}

TEST_F(CsvTest, WrongFieldCountNamesLine) {
  const std::string path = Write("c.csv", "1,2\n3,4\n5\n");
  const FileFormatError e = ErrorOf([&] { ReadNumericCsv(path, false); });
  EXPECT_EQ(e.line(), 3);
  EXPECT_EQ(e.column(), 2);
  EXPECT_THAT(e.what(), HasSubstr("expected 2 fields, found 1"));
}

TEST_F(CsvTest, EmptyFieldAndNonFiniteAndTrailingComma) {
  EXPECT_THAT(ErrorOf([&] { ReadNumericCsv(Write("d.csv", "1,,3\n"), false); }).what(),
              HasSubstr("d.csv:1:2: empty field"));
  EXPECT_THAT(ErrorOf([&] { ReadNumericCsv(Write("e.csv", "1,2\n3,nan\n"), false); }).what(),
              HasSubstr("e.csv:2:2: 'nan' is not a finite number"));
  EXPECT_THAT(ErrorOf([&] { ReadNumericCsv(Write("f.csv", "1,2,\n"), false); }).what(),
              HasSubstr("f.csv:1:3: empty field"));
}

TEST_F(CsvTest, HeaderProblems) {
  EXPECT_THAT(ErrorOf([&] { ReadNumericCsv(Write("g.csv", "x1,x1\n1,2\n"), true); }).what(),
              HasSubstr("g.csv:1:2: duplicate column name 'x1'"));
  EXPECT_THAT(ErrorOf([&] { ReadNumericCsv(Write("h.csv", "x1,x2\n"), true); }).what(),
              HasSubstr("no data rows"));
  EXPECT_THAT(ErrorOf([&] { ReadNumericCsv(dir_ + "/missing.csv", true); }).what(),
              HasSubstr("missing.csv: cannot open"));
}

TEST_F(CsvTest, WriteReadRoundTripIsExact) {
  Eigen::MatrixXd values(2, 3);
  values << 0.1, 1.0 / 3.0, -2.5e-300, 1e300, 3.141592653589793, 7;
  const std::string path = dir_ + "/round.csv";
  WriteNumericCsv(path, {"a", "b", "c"}, values);
  const CsvTable t = ReadNumericCsv(path, true);
  EXPECT_EQ(t.values, values);  // bit-exact, not approximately
}

TEST_F(CsvTest, ByteOrderMarkIsSkippedAndUtf16Refused) {
  const CsvTable t = ReadNumericCsv(Write("bom.csv", "\xEF\xBB\xBFx1,x2\n1,2\n"), true);
  EXPECT_EQ(t.header, (std::vector<std::string>{"x1", "x2"}));
  EXPECT_EQ(t.values(0, 0), 1.0);
  // Without a header the mark precedes the first number.
  EXPECT_EQ(ReadNumericCsv(Write("bom2.csv",
                                 "\xEF\xBB\xBF"
                                 "7,8\n"),
                           false)
                .values(0, 0),
            7.0);
  const FileFormatError e =
      ErrorOf([&] { ReadNumericCsv(Write("u16.csv", std::string("\xFF\xFEx\0", 4)), true); });
  EXPECT_EQ(e.line(), 1);
  EXPECT_THAT(e.what(), HasSubstr("UTF-16"));
  // A mark anywhere but at the start of the file is not skipped.
  EXPECT_THAT(ErrorOf([&] {
                ReadNumericCsv(Write("late.csv",
                                     "x1\n\xEF\xBB\xBF"
                                     "1\n"),
                               true);
              }).what(),
              HasSubstr("late.csv:2:1: '\xEF\xBB\xBF"
                        "1' is not a number (x1)"));
}

TEST_F(CsvTest, RowLimitStopsAtTheFirstRowOverIt) {
  const std::string path = Write("rows.csv", "x1\n1\n2\n# a comment\n3\n4\n");
  EXPECT_EQ(ReadNumericCsv(path, true, true, {4, "four"}).rows(), 4);
  const FileFormatError e = ErrorOf([&] { ReadNumericCsv(path, true, true, {2, "why not"}); });
  EXPECT_EQ(e.line(), 5);
  EXPECT_THAT(e.what(), HasSubstr("rows.csv:5: more than 2 data rows (why not)"));
}

TEST_F(CsvTest, ObservationsNeedYLast) {
  const Observations o = ReadObservations(Write("obs.csv", "x1,x2,z1,y\n1,2,3,4\n5,6,7,8\n"));
  EXPECT_EQ(o.action_dim, 2);
  EXPECT_EQ(o.context_dim, 1);
  EXPECT_EQ(o.y, Eigen::Vector2d(4, 8));
  EXPECT_EQ(o.X.col(1), Eigen::Vector3d(5, 6, 7));
  const FileFormatError e = ErrorOf([&] { ReadObservations(Write("o2.csv", "x1,y,x2\n1,2,3\n")); });
  EXPECT_EQ(e.column(), 3);
  EXPECT_THAT(e.what(), HasSubstr("the last column must be 'y'"));
}

}  // namespace
}  // namespace io
}  // namespace gpbandit
