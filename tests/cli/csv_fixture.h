// The fixture of the file-reader tests: a fresh temporary directory to write files into, and
// the FileFormatError a reader throws.
#ifndef GPBANDIT_TESTS_CLI_CSV_FIXTURE_H_
#define GPBANDIT_TESTS_CLI_CSV_FIXTURE_H_

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "cli/io/csv.h"

namespace gpbandit {
namespace io {

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

}  // namespace io
}  // namespace gpbandit

#endif  // GPBANDIT_TESTS_CLI_CSV_FIXTURE_H_
