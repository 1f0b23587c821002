// The `gpbandit` program as a new user meets it: help texts, bad values and unusable files on
// every command, each refused in one grammar that names the flag the user typed (command.h),
// before any work and with exit status 2.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "cli/io/csv.h"
#include "tests/cli/cli_fixture.h"

namespace gpbandit {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

// 12 observations of a smooth function of x1 in [0, 1] and x2 in [0, 10].
std::string Observations() {
  std::string csv = "x1,x2,y\n";
  for (int i = 0; i < 12; ++i) {
    const double a = i / 11.0, b = 10.0 * (i * 7 % 12) / 11.0;
    csv += FormatDouble(a) + "," + FormatDouble(b) + "," +
           FormatDouble(std::sin(6 * a) + 0.05 * b) + "\n";
  }
  return csv;
}

std::vector<std::string> SplitNames(const std::string& text) {
  std::vector<std::string> names;
  std::stringstream in(text);
  std::string name;
  while (std::getline(in, name, ',')) names.push_back(name.substr(name.find_first_not_of(' ')));
  return names;
}

TEST_F(CliTest, HelpShowsDefaultsInTheirShortestForm) {
  const std::regex long_number("[0-9]{12,}");
  for (const std::string command :
       {"run", "fit", "suggest", "observe", "worker", "pending", "demo", "sensor-data",
        "strategies", "study create", "study show", "study export", "study import"}) {
    const Result r = Run(command + " --help");
    ASSERT_EQ(r.status, 0) << command << ": " << r.err;
    EXPECT_FALSE(std::regex_search(r.out, long_number)) << command << ":\n" << r.out;
  }
  EXPECT_THAT(Run("run --help").out, HasSubstr("--lengthscale arg (=0.2) "));
  EXPECT_THAT(Run("demo --help").out, HasSubstr("--beta-scale arg (=0.2)"));
  EXPECT_THAT(Run("sensor-data --help").out, HasSubstr("--noise-sd arg (=0.3)"));
}

// One default seed: every command that takes --seed starts from 1, and a study created without
// --seed (by suggest, observe or study create) records 1.
TEST_F(CliTest, EveryCommandSharesOneDefaultSeed) {
  for (const std::string command :
       {"run", "fit", "suggest", "observe", "demo", "sensor-data", "study create"}) {
    const Result r = Run(command + " --help");
    EXPECT_THAT(r.out, HasSubstr("--seed arg (=1) ")) << command;
  }
  ASSERT_EQ(Run("suggest --log a.jsonl --bounds 0:1").status, 0);
  ASSERT_EQ(Run("observe --log b.jsonl --bounds 0:1 --x 0.5 --y 1").status, 0);
  ASSERT_EQ(Run("study create --storage c.jsonl --bounds 0:1").status, 0);
  for (const char* log : {"a.jsonl", "b.jsonl", "c.jsonl"}) {
    const std::string text = ReadAll(dir_ + "/" + log);
    const nlohmann::json header = nlohmann::json::parse(text.substr(0, text.find('\n')));
    EXPECT_EQ(header.at("options").at("seed"), 1) << log;
  }
  // A later call may repeat the study's seed but not change it.
  EXPECT_EQ(Run("suggest --log a.jsonl --seed 1").status, 0);
  const Result r = Run("suggest --log a.jsonl --seed 2");
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("--seed 2 differs from the log's seed 1"));
}

TEST_F(CliTest, EveryCommandRefusesBadValuesNamingTheFlag) {
  Write("o.csv", Observations());
  ASSERT_EQ(Run("study create --storage s.jsonl --bounds 0:1").status, 0);
  struct Case {
    std::string args, message;
  };
  const std::vector<Case> cases = {
      {"fit --data o.csv --restarts -1", "gpbandit fit: --restarts -1 must be >= 0\n"},
      {"fit --data o.csv --kernel cubic", "gpbandit fit: --kernel 'cubic' is unknown; known: se"},
      {"fit --data o.csv --lengthscale -1", "gpbandit fit: --lengthscale -1 must be > 0"},
      {"fit --data o.csv --noise-sd -1", "gpbandit fit: --noise-sd -1 must be >= 0 and finite\n"},
      {"fit --data o.csv --restarts abc", "gpbandit fit: --restarts 'abc' is not an integer\n"},
      {"fit --data o.csv --seed -1", "gpbandit fit: --seed -1 must be >= 0\n"},
      {"fit --data o.csv o.csv", "gpbandit fit: unexpected argument 'o.csv'"},
      {"fit --data", "gpbandit fit: --data needs a value\n"},
      {"fit --data o.csv --data o.csv", "gpbandit fit: --data is given more than once\n"},
      {"fit --dta o.csv", "gpbandit fit: unknown option --dta\n"},
      {"run --lengthscale 0", "gpbandit run: --lengthscale 0 must be > 0\n"},
      {"run --rounds 5x", "gpbandit run: --rounds '5x' is not an integer\n"},
      {"observe --log l.jsonl --bounds 0:1 --x 0.5 --y 1e999",
       "gpbandit observe: --y '1e999' is not a number"},
      {"suggest --log l.jsonl --bounds 0:1 --lease 0",
       "gpbandit suggest: --lease 0 must be > 0 (inf: forever)\n"},
      {"suggest --log l.jsonl --bounds 0:1 --strategy ei --option xi=-1",
       "gpbandit suggest: --option: ei options: xi = -1"},
      {"suggest --log l.jsonl --bounds 0:1 --strategy nope",
       "gpbandit suggest: --strategy 'nope' is not registered; known: cgp-ucb"},
      {"worker --storage s.jsonl --evaluations -1 -- true",
       "gpbandit worker: --evaluations -1 must be >= 0\n"},
      {"worker --storage s.jsonl --lease -5 -- true",
       "gpbandit worker: --lease -5 must be > 0 (inf: forever)\n"},
      {"pending --log s.jsonl --context 1", "gpbandit pending: --context goes with --release\n"},
      {"study create --storage t.jsonl --bounds 0:1 --context-dim -2",
       "gpbandit study create: --context-dim -2 must be >= 0\n"},
      {"study create --storage t.jsonl --bounds 0:1 --context-dim 2 --context-bounds 0:1",
       "gpbandit study create: --context-bounds gives 1 range but --context-dim is 2\n"},
      {"study create --storage t.jsonl --bounds 0:1 --strategy nope",
       "gpbandit study create: --strategy 'nope' is not registered"},
      {"study create --storage t.jsonl --bounds 0:1 --failures x",
       "gpbandit study create: --failures 'x' is unknown; known: skip, impute-worst, throw\n"},
      {"demo --noise-sd -1", "gpbandit demo: --noise-sd -1 must be >= 0 and finite\n"},
      {"demo --option nope=1", "gpbandit demo: --option: cgp-ucb options: unknown key 'nope'"},
      {"sensor-data --sensors 1", "gpbandit sensor-data: --sensors 1 must be >= 2\n"},
      {"sensor-data --noise-sd -0.5",
       "gpbandit sensor-data: --noise-sd -0.5 must be >= 0 and finite\n"},
      {"strategies extra", "gpbandit strategies: unexpected argument 'extra'"},
  };
  for (const Case& c : cases) {
    const Result r = Run(c.args);
    EXPECT_EQ(r.status, 2) << c.args << "\n" << r.err;
    EXPECT_THAT(r.err, StartsWith(c.message)) << c.args;
    EXPECT_THAT(r.err, HasSubstr("(see gpbandit ")) << c.args;  // a flag error: see --help
    EXPECT_EQ(r.out, "") << c.args;
    // No internal names: option structs, library functions, Boost's or nlohmann's wording.
    for (const char* internal : {"Options", "MakeKernel", "FitHyperparameters", "GaussianProcess",
                                 "json.exception", "the argument ('", "unrecognised"})
      EXPECT_THAT(r.err, Not(HasSubstr(internal))) << c.args;
  }
}

// Files and directories that cannot be used are reported with the flag and the path, exit 2,
// without a pointer to --help (the flags were fine).
TEST_F(CliTest, EveryCommandRefusesUnusableFilesNamingTheFlagAndPath) {
  ASSERT_EQ(Run("study create --storage s.jsonl --bounds 0:1").status, 0);
  struct Case {
    std::string args, message;
  };
  const std::vector<Case> cases = {
      {"study list --storage nothere", "gpbandit study list: --storage nothere: no such file"},
      {"study import --storage s2.jsonl --in nothere.jsonl",
       "gpbandit study import: --in nothere.jsonl: cannot read it: No such file or directory\n"},
      {"study export --storage s.jsonl --out nodir/x.jsonl",
       "gpbandit study export: --out nodir/x.jsonl: cannot create it: the directory nodir does "
       "not exist"},
      {"sensor-data --out-dir nodir/sub",
       "gpbandit sensor-data: --out-dir nodir/sub: cannot create the directory: No such file"},
      {"run --out s.jsonl/r.csv", "gpbandit run: --out s.jsonl/r.csv: cannot reach it: Not a "},
      {"fit --data nothere.csv", "gpbandit fit: nothere.csv: cannot open file for reading\n"},
      {"pending --log nothere.jsonl", "gpbandit pending: cannot open the study nothere.jsonl"},
  };
  for (const Case& c : cases) {
    const Result r = Run(c.args);
    EXPECT_EQ(r.status, 2) << c.args << "\n" << r.err;
    EXPECT_THAT(r.err, StartsWith(c.message)) << c.args;
    EXPECT_THAT(r.err, Not(HasSubstr("--help"))) << c.args;
    EXPECT_EQ(r.out, "") << c.args;
  }
}

// fit lists exactly the kernels it accepts (constant included), in its help and its error.
TEST_F(CliTest, FitAcceptsEveryKernelItLists) {
  Write("o.csv", Observations());
  const Result refused = Run("fit --data o.csv --kernel cubic");
  ASSERT_EQ(refused.status, 2);
  const std::string known = "known: ";
  const std::size_t from = refused.err.find(known) + known.size();
  const std::string list = refused.err.substr(from, refused.err.find('\n', from) - from);
  const std::vector<std::string> kernels = SplitNames(list);
  EXPECT_THAT(kernels, ::testing::Contains("constant"));
  const std::string help = Run("fit --help").out;
  for (const std::string& kernel : kernels) {
    EXPECT_THAT(help, HasSubstr(kernel)) << kernel;
    const Result r = Run("fit --data o.csv --restarts 0 --kernel " + kernel);
    ASSERT_EQ(r.status, 0) << kernel << ": " << r.err;
    EXPECT_THAT(nlohmann::json::parse(r.out).at("kernel").get<std::string>(),
                StartsWith(kernel + "("));
  }
}

// The lengthscales and periods of the JSON's original units are the fitted unit-cube values
// times the range of the input each acts on (x1 spans 1, x2 spans 10).
TEST_F(CliTest, FitGivesLengthscalesAndPeriodsInOriginalUnits) {
  Write("o.csv", Observations());
  auto fit = [&](const std::string& flags) {
    const Result r = Run("fit --data o.csv --restarts 0 " + flags);
    EXPECT_EQ(r.status, 0) << r.err;
    return nlohmann::json::parse(r.out);
  };
  const nlohmann::json ard = fit("--kernel se");
  const double range[2] = {1.0, 10.0};
  for (int k = 0; k < 2; ++k) {
    const std::string i = "[" + std::to_string(k) + "]";
    EXPECT_DOUBLE_EQ(
        ard["lengthscales_original_units"]["se.lengthscale" + i].get<double>(),
        std::exp(ard["log_params"]["se.log_lengthscale" + i].get<double>()) * range[k]);
  }
  const nlohmann::json shared = fit("--kernel se --no-ard");
  const double l = std::exp(shared["log_params"]["se.log_lengthscale"].get<double>());
  EXPECT_DOUBLE_EQ(shared["lengthscales_original_units"]["se.lengthscale[0]"].get<double>(), l);
  EXPECT_DOUBLE_EQ(shared["lengthscales_original_units"]["se.lengthscale[1]"].get<double>(),
                   10.0 * l);
  const nlohmann::json periodic = fit("--kernel periodic");
  EXPECT_DOUBLE_EQ(periodic["lengthscales_original_units"]["periodic.period[1]"].get<double>(),
                   10.0 * std::exp(periodic["log_params"]["periodic.log_period[1]"].get<double>()));
}

// An output file that cannot be written fails at once, before the run: no CSV, no progress.
TEST_F(CliTest, PlotOrOutputToAnUnwritablePathFailsBeforeTheRun) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"run --problem gp-sample --grid 20 --rounds 30 --trials 3 --out r.csv --plot nodir/r.png",
       "gpbandit run: --plot nodir/r.png: cannot create it: the directory nodir does not exist"},
      {"run --problem gp-sample --grid 20 --rounds 30 --trials 3 --out nodir/r.csv",
       "gpbandit run: --out nodir/r.csv: cannot create it: the directory nodir does not exist"},
      {"demo --rounds 5 --brute-force-points 3 --out r.csv --plot nodir/d.png",
       "gpbandit demo: --plot nodir/d.png: cannot create it: the directory nodir does not exist"},
  };
  for (const auto& [args, message] : cases) {
    const Result r = Run(args);
    EXPECT_EQ(r.status, 2) << args;
    EXPECT_THAT(r.err, StartsWith(message)) << args;
    EXPECT_THAT(r.err, Not(HasSubstr("[demo]"))) << args;  // the demo never started
    struct stat info;
    EXPECT_NE(stat((dir_ + "/r.csv").c_str(), &info), 0) << args;
  }
}

// A read-only directory: a new log and an existing (read-only) one are refused alike, exit 2,
// naming the path; a writable log in it is used as usual. Permissions bind a user other than
// root, so as root the program runs as `nobody` (a copy in the test directory, which nobody may
// enter).
TEST_F(CliTest, ReadOnlyDirectoryRefusesNewAndExistingLogsAlike) {
  std::string as_user, program = GPBANDIT_CLI_PATH;
  std::string setup = "cd '" + dir_ + "' && mkdir ro";
  if (geteuid() == 0) {
    as_user = "runuser -u nobody --";
    program = dir_ + "/gpbandit";
    setup += " && chown nobody ro && chmod 0755 . && cp '" GPBANDIT_CLI_PATH "' gpbandit";
  }
  ASSERT_EQ(std::system(setup.c_str()), 0);
  ASSERT_EQ(Run("suggest --log ro/old.jsonl --bounds 0:1", as_user, program).status, 0);
  ASSERT_EQ(std::system(
                ("chmod 0444 '" + dir_ + "/ro/old.jsonl' && chmod 0555 '" + dir_ + "/ro'").c_str()),
            0);
  const std::string before = ReadAll(dir_ + "/ro/old.jsonl");
  const Result fresh = Run("suggest --log ro/new.jsonl --bounds 0:1", as_user, program);
  EXPECT_EQ(fresh.status, 2);
  EXPECT_EQ(fresh.err,
            "gpbandit suggest: --log ro/new.jsonl: cannot create it: the directory ro is not "
            "writable (Permission denied)\n");
  for (const std::string args : {"suggest --log ro/old.jsonl",
                                 "observe --log ro/old.jsonl "
                                 "--x 0.5 --y 1"}) {
    const Result old = Run(args, as_user, program);
    EXPECT_EQ(old.status, 2) << args;
    EXPECT_THAT(old.err, HasSubstr(": --log ro/old.jsonl: cannot write to it: Permission denied"))
        << args;
  }
  EXPECT_EQ(ReadAll(dir_ + "/ro/old.jsonl"), before);
  struct stat info;
  EXPECT_NE(stat((dir_ + "/ro/new.jsonl").c_str(), &info), 0);
  // Reading needs no write access. A writable log in a read-only directory cannot be written
  // either: its writer's lock file (<log>.lock, there only while it is held) cannot be created.
  EXPECT_EQ(Run("pending --log ro/old.jsonl", as_user, program).status, 0);
  ASSERT_EQ(std::system(("chmod 0644 '" + dir_ + "/ro/old.jsonl'").c_str()), 0);
  const Result writable = Run("observe --log ro/old.jsonl --x 0.5 --y 1", as_user, program);
  EXPECT_EQ(writable.status, 2);
  EXPECT_EQ(writable.err,
            "gpbandit observe: --log ro/old.jsonl: cannot write to it: its lock file "
            "ro/old.jsonl.lock cannot be created: the directory ro is not writable "
            "(Permission denied)\n");
  EXPECT_EQ(ReadAll(dir_ + "/ro/old.jsonl"), before);
  ASSERT_EQ(std::system(("chmod 0755 '" + dir_ + "/ro'").c_str()), 0);
  const Result in_writable_folder =
      Run("observe --log ro/old.jsonl --x 0.5 --y 1", as_user, program);
  EXPECT_EQ(in_writable_folder.status, 0) << in_writable_folder.err;
}

// A UTF-8 byte-order mark (as spreadsheets write) is skipped: the file means what it says.
TEST_F(CliTest, ByteOrderMarkIsSkipped) {
  Write("plain.csv", Observations());
  Write("bom.csv", "\xEF\xBB\xBF" + Observations());
  const Result plain = Run("fit --data plain.csv --restarts 1");
  const Result bom = Run("fit --data bom.csv --restarts 1");
  ASSERT_EQ(bom.status, 0) << bom.err;
  EXPECT_EQ(bom.out, plain.out);
  Write("utf16.csv", std::string("\xFF\xFEx\0"
                                 "1\0",
                                 6));
  const Result utf16 = Run("fit --data utf16.csv");
  EXPECT_EQ(utf16.status, 2);
  EXPECT_THAT(utf16.err, HasSubstr("utf16.csv:1: the file is UTF-16 text; save it as UTF-8"));
}

// A 100 MB observations file ends in a clear error naming the file, the line and the limit,
// not in an allocation failure; so does a candidates file over its limit.
TEST_F(CliTest, HugeCsvEndsInAClearError) {
  {
    std::ofstream big(dir_ + "/big.csv");
    big << "x1,y\n";
    const std::string line = "0.123456789,0.987654321\n";
    std::string block;
    for (int i = 0; i < 10000; ++i) block += line;
    for (std::size_t written = 0; written < 100u << 20; written += block.size()) big << block;
  }
  const Result fit = Run("fit --data big.csv");
  EXPECT_EQ(fit.status, 2);
  EXPECT_EQ(fit.err,
            "gpbandit fit: big.csv:10002: more than 10000 data rows (gpbandit fit takes at most "
            "10000 observations: an exact GP stores n x n matrices)\n");
  std::string candidates = "x1\n";
  for (int i = 0; i <= 20000; ++i) candidates += std::to_string(i) + "\n";
  Write("cand.csv", candidates);
  Write("func.csv", "1\n");
  const Result run = Run("run --problem file --candidates cand.csv --functions func.csv");
  EXPECT_EQ(run.status, 2);
  EXPECT_THAT(run.err, HasSubstr("cand.csv:20002: more than 20000 data rows (the model holds an "
                                 "N x N covariance over the candidates)"));
}

// A log whose records are valid JSON but wrong is refused naming the file, the line and the
// record, and is left as it was.
TEST_F(CliTest, WrongLogRecordsAreNamedByFileAndLine) {
  ASSERT_EQ(Run("observe --log a.jsonl --bounds 0:1 --x 0.2 --y 1").status, 0);
  ASSERT_EQ(Run("observe --log a.jsonl --x 0.7 --y 2").status, 0);
  const std::string log = ReadAll(dir_ + "/a.jsonl");
  const std::size_t second_line = log.find('\n') + 1;
  struct Case {
    std::string record, message;
  };
  const std::vector<Case> cases = {
      {R"({"type":"fit","round":1,"log_params":[0.1],"noise_variance":0.01,"report":""})",
       "gpbandit suggest: bad.jsonl:2: fit record: matern52(dims=0; ard): log_params has size 1, "
       "expected 2\n"},
      {R"({"type":"fit","round":1,"log_params":[0.1,0.2],"noise_variance":"small"})",
       "gpbandit suggest: bad.jsonl:2: fit record: field \"noise_variance\" has the wrong type: "
       "\"small\"\n"},
      {R"({"type":"tell","x":[2.5],"z":[],"y":1,"accepted":true})",
       "gpbandit suggest: bad.jsonl:2: tell record: log tell x[0] = 2.5 is outside [0, 1]\n"},
      {R"({"type":"tell","x":["a"],"z":[],"y":1,"accepted":true})",
       "gpbandit suggest: bad.jsonl:2: tell record: field \"x\"[0] is not a number: \"a\"\n"},
  };
  for (const Case& c : cases) {
    const std::string bad = log.substr(0, second_line) + c.record + "\n" + log.substr(second_line);
    Write("bad.jsonl", bad);
    const Result r = Run("suggest --log bad.jsonl");
    EXPECT_EQ(r.status, 2) << c.record;
    EXPECT_EQ(r.err, c.message) << c.record;
    EXPECT_EQ(ReadAll(dir_ + "/bad.jsonl"), bad);
  }
}

}  // namespace
}  // namespace gpbandit
