// The file readers: every malformed input names the file, the line and the column.
#include "examples/io/csv.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "examples/io/finite_problem.h"
#include "gp/math.h"

namespace gpbandit {
namespace io {
namespace {

using ::testing::HasSubstr;

class CsvTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/gpbandit_csv_test_XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { std::system(("rm -rf '" + dir_ + "'").c_str()); }

  std::string Write(const std::string& name, const std::string& text) {
    const std::string path = dir_ + "/" + name;
    std::ofstream(path) << text;
    return path;
  }

  // The FileFormatError of f, or fails the test.
  template <typename F>
  FileFormatError ErrorOf(F f) {
    try {
      f();
    } catch (const FileFormatError& e) {
      return e;
    }
    ADD_FAILURE() << "no FileFormatError";
    return FileFormatError("", 0, 0, "");
  }

  std::string dir_;
};

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
  values << 0.1, 1.0 / 3.0, -2.5e-300, 1e300, kPi, 7;
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

class FiniteProblemTest : public CsvTest {
 protected:
  FiniteProblemFiles Files(const std::string& candidates, const std::string& kernel,
                           const std::string& functions, const std::string& contexts = "") {
    FiniteProblemFiles f;
    f.candidates = Write("cand.csv", candidates);
    if (!kernel.empty()) f.kernel_matrix = Write("kernel.csv", kernel);
    f.functions = Write("func.csv", functions);
    if (!contexts.empty()) f.contexts = Write("ctx.csv", contexts);
    return f;
  }
};

TEST_F(FiniteProblemTest, LoadsAContextualProblem) {
  const FiniteProblem p = LoadFiniteProblem(
      Files("x1,z1\n0,0\n1,0\n0,1\n1,1\n", "2,1\n1,2\n", "1,2,3,4\n", "z1\n1\n0\n"));
  EXPECT_EQ(p.action_dim, 1);
  EXPECT_EQ(p.context_dim, 1);
  EXPECT_EQ(p.num_actions(), 2);
  EXPECT_EQ(p.action_index, (std::vector<int>{0, 1, 0, 1}));
  EXPECT_EQ(p.CandidatesWithContext(Eigen::VectorXd::Constant(1, 1.0)), (std::vector<int>{2, 3}));
  EXPECT_EQ(p.functions.col(0), Eigen::Vector4d(1, 2, 3, 4));
  EXPECT_EQ(p.contexts(0, 0), 1.0);
}

TEST_F(FiniteProblemTest, BadCandidateHeaderNamesTheColumn) {
  const FileFormatError e = ErrorOf([&] { LoadFiniteProblem(Files("x1,x3\n0,0\n", "", "1\n")); });
  EXPECT_EQ(e.line(), 1);
  EXPECT_EQ(e.column(), 2);
  EXPECT_THAT(e.what(), HasSubstr("unexpected column name 'x3'"));
}

TEST_F(FiniteProblemTest, KernelMatrixOfTheWrongSizeOrAsymmetric) {
  EXPECT_THAT(ErrorOf([&] {
                LoadFiniteProblem(Files("x1\n0\n1\n", "1,0,0\n0,1,0\n0,0,1\n", "1,2\n"));
              }).what(),
              HasSubstr("kernel matrix is 3 x 3, expected 2 x 2"));
  const FileFormatError e =
      ErrorOf([&] { LoadFiniteProblem(Files("x1\n0\n1\n", "1,0.5\n0.4,1\n", "1,2\n")); });
  EXPECT_EQ(e.line(), 2);
  EXPECT_EQ(e.column(), 1);
  EXPECT_THAT(e.what(), HasSubstr("not symmetric"));
}

TEST_F(FiniteProblemTest, FunctionsOfTheWrongWidth) {
  EXPECT_THAT(ErrorOf([&] { LoadFiniteProblem(Files("x1\n0\n1\n", "", "1,2,3\n")); }).what(),
              HasSubstr("func.csv:1: each row needs one payoff per candidate: 2 fields expected"));
}

TEST_F(FiniteProblemTest, ContextsMustExistAndBeGiven) {
  EXPECT_THAT(ErrorOf([&] {
                LoadFiniteProblem(Files("x1,z1\n0,0\n1,1\n", "", "1,2\n", "z1\n0\n5\n"));
              }).what(),
              HasSubstr("ctx.csv:3:1: no candidate"));
  EXPECT_THAT(ErrorOf([&] { LoadFiniteProblem(Files("x1,z1\n0,0\n1,1\n", "", "1,2\n")); }).what(),
              HasSubstr("--contexts is required"));
}

TEST_F(FiniteProblemTest, DuplicateCandidateWithoutContext) {
  const FileFormatError e =
      ErrorOf([&] { LoadFiniteProblem(Files("x1\n0\n1\n0\n", "", "1,2,3\n")); });
  EXPECT_EQ(e.line(), 4);
  EXPECT_THAT(e.what(), HasSubstr("duplicate candidate"));
}

TEST_F(FiniteProblemTest, WriteLoadRoundTrip) {
  const FiniteProblem p =
      LoadFiniteProblem(Files("x1,x2,z1\n0.1,0.2,0\n0.3,0.4,0\n0.1,0.2,1\n", "2,0.5\n0.5,1\n",
                              "1,2,3\n4,5,6\n", "z1\n0\n1\n1\n"));
  FiniteProblemFiles out{dir_ + "/c2.csv", dir_ + "/k2.csv", dir_ + "/f2.csv", dir_ + "/z2.csv"};
  WriteFiniteProblem(p, out);
  const FiniteProblem q = LoadFiniteProblem(out);
  EXPECT_EQ(q.candidates, p.candidates);
  EXPECT_EQ(q.kernel_matrix, p.kernel_matrix);
  EXPECT_EQ(q.functions, p.functions);
  EXPECT_EQ(q.contexts, p.contexts);
}

TEST_F(FiniteProblemTest, ObservationsNeedYLast) {
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
