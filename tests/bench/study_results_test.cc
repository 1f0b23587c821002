#include "bench/study_results.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <stdexcept>

namespace gpbandit {
namespace bench {
namespace {

// Two problems, three methods, four seeds: "a" is lowest on every seed of p1, "b" on three of
// four seeds of p2.
StudyResults Example() {
  StudyResults r;
  const double p1[3][4] = {{1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 0.5}};
  const double p2[3][4] = {{5, 5, 5, 5}, {4, 4, 4, 6}, {5, 5, 5, 5}};
  const char* methods[3] = {"a", "b", "c"};
  for (int m = 0; m < 3; ++m)
    for (unsigned s = 0; s < 4; ++s) {
      EXPECT_TRUE(r.Add("p1 " + std::string(methods[m]) + " " + std::to_string(s) + " " +
                        std::to_string(p1[m][s]) + " 100 0.1"));
      EXPECT_TRUE(r.Add("p2 " + std::string(methods[m]) + " " + std::to_string(s) + " " +
                        std::to_string(p2[m][s])));
    }
  return r;
}

double KnownMinimum(const std::string& problem) {
  return problem == "p1" ? 0.0 : std::numeric_limits<double>::quiet_NaN();
}

// The numbers after the score, by position; a run without field k is named.
TEST(StudyResultsTest, FieldsAfterTheScoreAreKeptByPosition) {
  const StudyResults r = Example();
  EXPECT_EQ(r.Fields("p1", "a", {0, 3}, 0), (std::vector<double>{100, 100}));
  EXPECT_EQ(r.Fields("p1", "c", {1}, 1), (std::vector<double>{0.1}));
  try {
    r.Fields("p2", "a", {0}, 0);
    ADD_FAILURE() << "p2 lines have no fields";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("p2 a seed 0"), std::string::npos) << e.what();
  }
}

TEST(StudyResultsTest, LinesThatAreNotRunsAreIgnored) {
  StudyResults r;
  EXPECT_FALSE(r.Add("wall time 3 s"));
  EXPECT_FALSE(r.Add("W20261126 polynomial.cc:203] Trying"));
  EXPECT_TRUE(r.Add("p m 3 1.5"));
  EXPECT_EQ(r.Scores("p", "m", {3}), std::vector<double>{1.5});
  EXPECT_THROW(r.Scores("p", "m", {3, 4}), std::invalid_argument);
  EXPECT_THROW(r.Scores("p", "other", {3}), std::invalid_argument);
}

TEST(StudyResultsTest, ReferencesAreKnownMinimaOrTheBestRun) {
  const StudyTable t =
      MakeStudyTable(Example(), {"p1", "p2"}, {"a", "b", "c"}, {0, 1, 2, 3}, KnownMinimum);
  EXPECT_EQ(t.reference[0], 0.0);
  EXPECT_FALSE(t.estimated[0]);
  EXPECT_EQ(t.reference[1], 4.0);  // the lowest score of p2
  EXPECT_TRUE(t.estimated[1]);
  EXPECT_DOUBLE_EQ(t.Median(0, 2), 3.0);
  EXPECT_DOUBLE_EQ(t.Median(1, 1), 4.0);
}

TEST(StudyResultsTest, HeadToHeadCountsMedianAndSignTestWins) {
  const StudyTable t =
      MakeStudyTable(Example(), {"p1", "p2"}, {"a", "b", "c"}, {0, 1, 2, 3}, KnownMinimum);
  // a vs b: a's median is lower on p1 (1 < 2), higher on p2 (5 > 4). Four seeds can never be
  // significant at 0.05 (the smallest two-sided p is 2 / 16).
  const HeadToHead ab = Compare(t, 0, 1);
  EXPECT_EQ(ab.median_wins, 1);
  EXPECT_EQ(ab.significant_wins, 0);
  EXPECT_EQ(ab.significant_losses, 0);
  // a vs c: p1 median 1 < 3; p2 all tied.
  EXPECT_EQ(Compare(t, 0, 2).median_wins, 1);
  EXPECT_EQ(BeatsAll(t, 0, {"b", "c"}), 1);
  EXPECT_EQ(BeatsAll(t, 1, {"a", "c"}), 1);  // p2
  EXPECT_EQ(BeatsAll(t, 0, {"absent"}), 2);  // absent methods are not compared
}

TEST(StudyResultsTest, SignificanceNeedsEnoughSeeds) {
  StudyResults r;
  for (unsigned s = 0; s < 10; ++s) {
    r.Add("p x " + std::to_string(s) + " 1");
    r.Add("p y " + std::to_string(s) + " 2");
  }
  std::vector<unsigned> seeds;
  for (unsigned s = 0; s < 10; ++s) seeds.push_back(s);
  const StudyTable t =
      MakeStudyTable(r, {"p"}, {"x", "y"}, seeds, [](const std::string&) { return 0.0; });
  const HeadToHead h = Compare(t, 0, 1);  // 10 wins of 10: p = 2 / 1024
  EXPECT_EQ(h.significant_wins, 1);
  EXPECT_EQ(Compare(t, 1, 0).significant_losses, 1);
}

TEST(StudyResultsTest, FilesAreReadLineByLine) {
  const std::string path = ::testing::TempDir() + "study_results_test.lines";
  {
    std::ofstream out(path);
    out << "p m 0 2.5 100 0.3\nnoise\np m 1 1.5 100 0.2\n";
  }
  StudyResults r;
  r.AddFiles({path});
  EXPECT_EQ(r.Scores("p", "m", {0, 1}), (std::vector<double>{2.5, 1.5}));
  std::remove(path.c_str());
  EXPECT_THROW(r.AddFiles({path}), std::invalid_argument);
}

}  // namespace
}  // namespace bench
}  // namespace gpbandit
