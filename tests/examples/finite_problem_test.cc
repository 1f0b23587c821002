// The finite-problem file format of `gpbandit run --problem file` (examples/io/finite_problem.h):
// every inconsistency between the files names the file, the line and the column.
#include "examples/io/finite_problem.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/cli/csv_fixture.h"

namespace gpbandit {
namespace io {
namespace {

using ::testing::HasSubstr;

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

}  // namespace
}  // namespace io
}  // namespace gpbandit
