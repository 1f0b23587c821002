// Helpers of the tests that resume logs written by older code (log_format_v*_test.cc): the
// fixtures under tests/optimizer/fixtures/, the suggestions each fixture's writer made next
// (<name>.expected.txt, "suggestion" lines, 17 significant digits), and their re-recording.
//
// The expected suggestions pin the numerics of the commit that wrote them (maximizer, kernels,
// fits): a deliberate change of those changes them too. Then the state checks of the tests must
// still pass unchanged, and the suggestions are re-recorded by running the test once with
// GPBANDIT_RERECORD_V1_SUGGESTIONS=1 (it rewrites the suggestion lines, keeping the comments,
// and fails on purpose so that a re-recording never passes unnoticed). The suggestions depend on
// the dense kernels too (numerics/dense_kernels.h: OpenBLAS chooses its kernels for the CPU), so
// each file records which ones made them ("kernels ..."), and the comparison is skipped under
// others.
#ifndef GPBANDIT_TESTS_OPTIMIZER_LOG_FIXTURE_UTIL_H_
#define GPBANDIT_TESTS_OPTIMIZER_LOG_FIXTURE_UTIL_H_

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "gpbandit/optimizer/optimizer.h"
#include "numerics/dense_kernels.h"
#include "tests/optimizer/plugin_test_util.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace testing {

inline std::string FixturePath(const std::string& name) {
  const std::string here = __FILE__;
  return here.substr(0, here.find_last_of('/')) + "/fixtures/" + name;
}

// The fixture copied to a temporary path: resuming appends to the log.
inline std::string CopyOfFixture(const std::string& name) {
  const std::string path = TempLogPath(name);
  std::ofstream(path, std::ios::binary) << ReadFile(FixturePath(name + ".jsonl"));
  return path;
}

// The suggestions of fixtures/<name>.expected.txt, and the dense kernels that made them in
// *kernels.
inline std::vector<Eigen::VectorXd> ExpectedSuggestions(const std::string& name,
                                                        std::string* kernels) {
  std::ifstream in(FixturePath(name + ".expected.txt"));
  std::vector<Eigen::VectorXd> expected;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string tag;
    words >> tag;
    if (tag == "kernels") std::getline(words >> std::ws, *kernels);
    if (tag != "suggestion") continue;
    std::vector<double> x;
    std::string number;
    while (words >> number) x.push_back(std::strtod(number.c_str(), nullptr));
    expected.push_back(Eigen::Map<Eigen::VectorXd>(x.data(), static_cast<Eigen::Index>(x.size())));
  }
  return expected;
}

// Rewrites the suggestion lines of fixtures/<name>.expected.txt (17 significant digits, which
// round-trip doubles), keeping its other lines.
inline void RerecordSuggestions(const std::string& name,
                                const std::vector<Eigen::VectorXd>& asked) {
  std::ifstream in(FixturePath(name + ".expected.txt"));
  std::ostringstream out;
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("suggestion", 0) != 0 && line.rfind("kernels", 0) != 0) out << line << "\n";
  out << "kernels " << DenseKernelsDescription() << "\n";
  out.precision(17);
  for (const Eigen::VectorXd& x : asked) {
    out << "suggestion";
    for (Eigen::Index i = 0; i < x.size(); ++i) out << " " << x(i);
    out << "\n";
  }
  in.close();
  std::ofstream(FixturePath(name + ".expected.txt"), std::ios::binary) << out.str();
}

// Runs `resume_protocol` (the fixture writer's continuation: it returns the suggestions made)
// and compares them with the recorded ones, bit for bit.
inline void ExpectSuggestions(const std::string& name,
                              const std::function<std::vector<Eigen::VectorXd>()>& continuation) {
  std::string kernels;
  const std::vector<Eigen::VectorXd> expected = ExpectedSuggestions(name, &kernels);
  const std::vector<Eigen::VectorXd> asked = continuation();
  ASSERT_EQ(asked.size(), expected.size()) << name;
  if (std::getenv("GPBANDIT_RERECORD_V1_SUGGESTIONS") != nullptr) {
    RerecordSuggestions(name, asked);
    FAIL() << name << ": suggestions re-recorded; run again without "
           << "GPBANDIT_RERECORD_V1_SUGGESTIONS";
  }
  ASSERT_EQ(kernels, DenseKernelsDescription())
      << name << ": recorded under other dense kernels than the test runs; a test that compares "
      << "holds a ScopedPortableDenseKernelsForTesting from before it resumes the log";
  GPBANDIT_SKIP_UNLESS_BIT_REPRODUCIBLE();
  for (std::size_t k = 0; k < asked.size(); ++k) {
    ASSERT_EQ(asked[k].size(), expected[k].size());
    for (Eigen::Index i = 0; i < asked[k].size(); ++i)
      EXPECT_EQ(asked[k](i), expected[k](i)) << name << " suggestion " << k << " coordinate " << i;
  }
}

}  // namespace testing
}  // namespace gpbandit

#endif  // GPBANDIT_TESTS_OPTIMIZER_LOG_FIXTURE_UTIL_H_
