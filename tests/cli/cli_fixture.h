// The fixture of the command-line tests: the built `gpbandit` program (GPBANDIT_CLI_PATH) run
// through the shell in a fresh temporary directory, as a person runs it.
#ifndef GPBANDIT_TESTS_CLI_CLI_FIXTURE_H_
#define GPBANDIT_TESTS_CLI_CLI_FIXTURE_H_

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace gpbandit {

struct Result {
  int status = -1;
  std::string out, err;
};

inline std::string ReadAll(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A program's output up to its first line break.
inline std::string FirstLine(const std::string& out) { return out.substr(0, out.find('\n')); }

// `s` without its last line break.
inline std::string Chomp(const std::string& s) {
  return !s.empty() && s.back() == '\n' ? s.substr(0, s.size() - 1) : s;
}

// True if gnuplot is on the PATH (the commands that draw need it).
inline bool GnuplotInstalled() { return std::system("command -v gnuplot > /dev/null 2>&1") == 0; }

// The numbers of one CSV line ("0.3,4.2" -> {0.3, 4.2}), as commands print points.
inline std::vector<double> Numbers(const std::string& csv_line) {
  std::vector<double> v;
  std::stringstream s(csv_line);
  std::string item;
  while (std::getline(s, item, ',')) v.push_back(std::stod(item));
  return v;
}

class CliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/gpbandit_cli_test_XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    std::system(("chmod -R u+rwx '" + dir_ + "' 2>/dev/null; rm -rf '" + dir_ + "'").c_str());
  }

  // Runs `<prefix> gpbandit <args>` in the temp dir; args are passed through the shell as
  // written. `program` replaces the built binary (a copy elsewhere), `prefix` runs it under
  // another command (runuser).
  Result Run(const std::string& args, const std::string& prefix = "",
             const std::string& program = GPBANDIT_CLI_PATH) {
    const std::string command = "cd '" + dir_ + "' && GLOG_minloglevel=3 " + prefix + " '" +
                                program + "' " + args + " > out.txt 2> err.txt";
    Result r;
    const int raw = std::system(command.c_str());
    r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    r.out = ReadAll(dir_ + "/out.txt");
    r.err = ReadAll(dir_ + "/err.txt");
    return r;
  }

  std::string Write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ + "/" + name) << text;
    return name;
  }

  std::string dir_;
};

}  // namespace gpbandit

#endif  // GPBANDIT_TESTS_CLI_CLI_FIXTURE_H_
