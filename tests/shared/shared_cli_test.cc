// Shared studies through the `gpbandit` program, as users run it: the concurrency failures of
// the old single-writer log as regression tests (concurrent observes losing a record,
// concurrent first calls writing two headers, concurrent suggests handing out one point, a
// killed suggest leaving a point pending forever), the bad-connection cases, studies moved
// between a file and a database, and `gpbandit worker` with failures and signals.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <thread>

#include "gpbandit/study/observation_log.h"
#include "tests/shared/shared_study_util.h"
#include "tests/storage/postgres_environment.h"

namespace gpbandit {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::ReadText;

const auto* const environment =
    ::testing::AddGlobalTestEnvironment(new testing::PostgresEnvironment);

struct Result {
  int status = -1;
  std::string out, err;
};

class SharedCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/gpbandit_shared_cli_XXXXXX";
    ASSERT_NE(::mkdtemp(pattern), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { std::system(("rm -rf '" + dir_ + "'").c_str()); }

  // `gpbandit <args>` in the temp dir (args through the shell as written).
  Result Run(const std::string& args) {
    const int raw = Shell("'" GPBANDIT_CLI_PATH "' " + args + " > out.txt 2> err.txt");
    Result r;
    r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    r.out = ReadText(dir_ + "/out.txt");
    r.err = ReadText(dir_ + "/err.txt");
    return r;
  }
  // A shell script in the temp dir, with $G the gpbandit program.
  int Shell(const std::string& script) {
    return std::system(
        ("cd '" + dir_ + "' || exit 1; G='" GPBANDIT_CLI_PATH "'; " + script).c_str());
  }
  std::string Path(const std::string& name) const { return dir_ + "/" + name; }
  void Write(const std::string& name, const std::string& text, bool executable = false) {
    std::ofstream(Path(name)) << text;
    if (executable) ::chmod(Path(name).c_str(), 0755);
  }
  int CountTells(const std::string& log) {
    int n = 0;
    for (const LogRecord& r : ReadLog(Path(log)).records) n += r.type == LogRecordType::kTell;
    return n;
  }

  std::string dir_;
};

// Two (here 12) concurrent observes used to lose a record: the second reopened the log and cut
// off what the first appended meanwhile.
TEST_F(SharedCliTest, ConcurrentObservesLoseNoRecord) {
  ASSERT_EQ(Run("suggest --log r.jsonl --bounds 0:1,0:1 --seed 3").status, 0);
  for (int round = 0; round < 3; ++round) {
    std::string script;
    for (int i = 1; i <= 12; ++i) {
      const std::string x = "0." + std::to_string(round) + std::to_string(i + 10) + ",0.5";
      script += "($G observe --log r.jsonl --x " + x + " --y " + std::to_string(i) +
                " 2>/dev/null; echo $? >> status.txt) & ";
    }
    Shell(script + "wait");
    EXPECT_EQ(CountTells("r.jsonl"), 12 * (round + 1));
  }
  std::string all_zero;
  for (int i = 0; i < 36; ++i) all_zero += "0\n";
  EXPECT_EQ(ReadText(Path("status.txt")), all_zero);  // every observe exited 0
}

// Concurrent first calls on a new log used to write a second or torn header.
TEST_F(SharedCliTest, ConcurrentFirstCallsWriteOneHeader) {
  std::string script;
  for (int log = 0; log < 8; ++log)
    for (int call = 0; call < 5; ++call)
      script += "$G suggest --log new" + std::to_string(log) +
                ".jsonl --bounds 0:1,0:10 --seed 3 > /dev/null 2>&1 & ";
  Shell(script + "wait");
  for (int log = 0; log < 8; ++log) {
    const std::string name = "new" + std::to_string(log) + ".jsonl";
    const std::string text = ReadText(Path(name));
    EXPECT_EQ(text.find("\"header\""), text.rfind("\"header\"")) << name;
    const LogContents contents = ReadLog(Path(name));
    EXPECT_FALSE(contents.dropped_torn_line);
    ASSERT_EQ(contents.records.size(), 6u) << name;  // the header and 5 pending points
    EXPECT_EQ(Run("suggest --log " + name).status, 0) << name;
  }
}

// Concurrent suggests used to hand out the same point with the same round number.
TEST_F(SharedCliTest, ConcurrentSuggestsHandOutDistinctPoints) {
  ASSERT_EQ(Run("suggest --log r.jsonl --bounds 0:1,0:1 --seed 3").status, 0);
  for (int i = 0; i < 5; ++i)
    ASSERT_EQ(Run("observe --log r.jsonl --x 0." + std::to_string(2 * i + 1) + ",0.3 --y " +
                  std::to_string(i % 3))
                  .status,
              0);
  std::string script;
  for (int i = 0; i < 6; ++i) script += "$G suggest --log r.jsonl >> points.txt 2>/dev/null & ";
  for (int repeat = 0; repeat < 3; ++repeat) Shell(script + "wait");
  std::istringstream points(ReadText(Path("points.txt")));
  std::set<std::string> distinct;
  std::string line;
  int n = 0;
  while (std::getline(points, line)) {
    distinct.insert(line);
    ++n;
  }
  EXPECT_EQ(n, 18);
  EXPECT_EQ(distinct.size(), 18u);
  std::set<long> rounds;
  for (const LogRecord& r : ReadLog(Path("r.jsonl")).records) {
    if (r.type == LogRecordType::kPending) {
      EXPECT_TRUE(rounds.insert(r.round).second) << "round " << r.round << " handed out twice";
    }
  }
  EXPECT_EQ(rounds.size(), 19u);
}

// A suggest killed after its pending record was written and before it printed used to leave the
// point pending forever, unseen. Now `pending` shows it with its worker and lease; when the
// lease ends the point stops steering suggestions exactly as if it had been released.
TEST_F(SharedCliTest, AnAbandonedSuggestionExpiresLikeAReleasedOne) {
  ASSERT_EQ(Run("suggest --log r.jsonl --bounds 0:1,0:1 --seed 5").status, 0);
  for (int i = 0; i < 4; ++i)
    ASSERT_EQ(Run("observe --log r.jsonl --x 0." + std::to_string(2 * i + 1) + ",0.6 --y " +
                  std::to_string(i))
                  .status,
              0);
  Result lost = Run("suggest --log r.jsonl --lease 1 --worker-id lost-worker");
  ASSERT_EQ(lost.status, 0);
  const std::string point = lost.out.substr(0, lost.out.find('\n'));
  Result pending = Run("pending --log r.jsonl");
  EXPECT_THAT(pending.out, HasSubstr("lost-worker\texpires in"));
  EXPECT_THAT(pending.out, HasSubstr(point));
  // Three copies of the study: the lease ends; the point is released; the lease lasts.
  Shell("cp r.jsonl live.jsonl && cp r.jsonl released.jsonl");
  ASSERT_EQ(Run("pending --log released.jsonl --release " + point).status, 0);
  EXPECT_THAT(Run("pending --log released.jsonl").out, Not(HasSubstr(point)));
  std::this_thread::sleep_for(std::chrono::milliseconds(1200));
  EXPECT_THAT(Run("pending --log r.jsonl").out, HasSubstr("lost-worker\texpired"));
  const Result after_expiry = Run("suggest --log r.jsonl");
  const Result after_release = Run("suggest --log released.jsonl");
  ASSERT_EQ(after_expiry.status, 0);
  EXPECT_EQ(after_expiry.out, after_release.out);
  // Had the lease lasted, the point would still steer the next suggestion elsewhere.
  std::string rewritten = ReadText(Path("live.jsonl"));
  const std::size_t line = rewritten.rfind('\n', rewritten.find("lost-worker")) + 1;
  const std::size_t at = rewritten.find("\"lease_until\":", line);
  rewritten.replace(at, rewritten.find(',', at) - at + 1, "");  // a lease that never ends
  std::ofstream(Path("live.jsonl"), std::ios::trunc) << rewritten;
  EXPECT_NE(Run("suggest --log live.jsonl").out, after_expiry.out);
}

// Connection refused, wrong credentials, a study that does not exist, bounds that differ: a
// message, exit 2, no password shown, nothing written.
TEST_F(SharedCliTest, BadConnectionsExitTwoAndWriteNothing) {
  REQUIRE_POSTGRES();
  testing::LocalPostgres& server = *testing::PostgresServer();
  const std::string url = server.Url();
  ASSERT_EQ(Run("study create --storage '" + url + "' --study pump --bounds 0:1,0:1").status, 0);
  ASSERT_EQ(Run("observe --storage '" + url + "' --study pump --x 0.5,0.5 --y 1").status, 0);
  const std::string count =
      "SELECT (SELECT count(*) FROM gpbandit_studies) || ' ' || "
      "(SELECT count(*) FROM gpbandit_records)";
  const std::string before = server.Sql(count);
  struct Case {
    std::string args, message;
  };
  const std::string wrong = server.Url(testing::LocalPostgres::kGuardedUser, "hunter2secret");
  const std::vector<Case> cases = {
      {"suggest --storage 'postgresql://u:hunter2secret@127.0.0.1:1/db' --study pump",
       "Connection refused"},
      {"suggest --storage '" + wrong + "' --study pump", "password authentication failed"},
      {"observe --storage '" + wrong + "' --study pump --x 0.1,0.1 --y 1",
       "password authentication failed"},
      {"suggest --storage '" + url + "' --study nope", "no such study"},
      {"worker --storage '" + url + "' --study nope -- true", "no such study"},
      {"suggest --storage '" + url + "' --study pump --bounds 0:2,0:1", "differ"},
      {"observe --storage '" + url + "' --study pump --bounds 0:2,0:1 --x 0.1,0.1 --y 1", "differ"},
      {"study create --storage '" + url + "' --study pump --bounds 0:2,0:1", "domain"}};
  for (const Case& c : cases) {
    const Result r = Run(c.args);
    EXPECT_EQ(r.status, 2) << c.args << "\n" << r.err;
    EXPECT_THAT(r.err, HasSubstr(c.message)) << c.args;
    EXPECT_THAT(r.err + r.out, Not(HasSubstr("hunter2secret"))) << c.args;
    EXPECT_EQ(r.out, "") << c.args;
  }
  EXPECT_EQ(server.Sql(count), before);
}

// A study moves between a file and a database unchanged; names are data.
TEST_F(SharedCliTest, StudiesMoveBetweenFileAndDatabaseByteForByte) {
  REQUIRE_POSTGRES();
  const std::string url = testing::PostgresServer()->Url();
  ASSERT_EQ(Run("study create --storage f.jsonl --bounds 0:1,-5:5 --strategy ei --seed 9").status,
            0);
  for (int i = 0; i < 6; ++i) {
    const Result s = Run("suggest --storage f.jsonl");
    ASSERT_EQ(s.status, 0) << s.err;
    const std::string x = s.out.substr(0, s.out.find('\n'));
    ASSERT_EQ(Run("observe --storage f.jsonl --x " + x + " --y 0." + std::to_string(i)).status, 0);
  }
  ASSERT_EQ(Run("suggest --storage f.jsonl").status, 0);  // one left pending
  ASSERT_EQ(Run("study export --storage f.jsonl --out a.jsonl").status, 0);
  EXPECT_EQ(ReadText(Path("a.jsonl")), ReadText(Path("f.jsonl")));
  const std::string name = "\"x'); DROP TABLE gpbandit_records; --\"";
  Result r = Run("study import --storage '" + url + "' --study " + name + " --in a.jsonl");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(Run("study import --storage '" + url + "' --study " + name + " --in a.jsonl").status,
            2);  // exists
  ASSERT_EQ(Run("study export --storage '" + url + "' --study " + name + " --out b.jsonl").status,
            0);
  EXPECT_EQ(ReadText(Path("b.jsonl")), ReadText(Path("a.jsonl")));
  Shell("mkdir studies");
  ASSERT_EQ(Run("study import --storage studies --study copy --in b.jsonl").status, 0);
  EXPECT_EQ(ReadText(Path("studies/copy.jsonl")), ReadText(Path("a.jsonl")));
  r = Run("study list --storage '" + url + "'");
  EXPECT_THAT(r.out, HasSubstr("x'); DROP TABLE gpbandit_records; --\t"));
  r = Run("study show --storage '" + url + "' --study " + name);
  ASSERT_EQ(r.status, 0) << r.err;
  const nlohmann::json shown = nlohmann::json::parse(r.out);
  EXPECT_EQ(shown.at("told"), 6);
  EXPECT_EQ(shown.at("pending"), 1);
  EXPECT_EQ(shown.at("strategy"), "ei");
  // The suggestions continue identically from the file and from the database.
  EXPECT_EQ(Run("suggest --storage f.jsonl").out,
            Run("suggest --storage '" + url + "' --study " + name).out);
}

// The worker loop: rewards from the command's last line, failures recorded, the point in the
// arguments and the environment; SIGTERM and SIGINT release the pending point and exit 0.
TEST_F(SharedCliTest, WorkerRecordsFailuresAndReleasesItsPointOnSignals) {
  ASSERT_EQ(Run("study create --storage s.jsonl --bounds 0:1,0:1 --seed 4").status, 0);
  Write("evaluate.sh",
        "#!/bin/sh\n"
        "[ \"$GPBANDIT_X\" = \"$1,$2\" ] || exit 9\n"
        "echo \"evaluating $1 $2\"\n"
        "awk -v a=\"$1\" 'BEGIN { if (a < 0.25) exit 3; print -(a - 0.6) ^ 2 }'\n",
        true);
  Result r = Run("worker --storage s.jsonl --evaluations 6 -- ./evaluate.sh");
  ASSERT_EQ(r.status, 0) << r.err;
  std::istringstream lines(r.out);
  std::string line;
  int told = 0, failed = 0;
  while (std::getline(lines, line)) {
    ++told;
    failed += line.find(",nan") != std::string::npos;
  }
  EXPECT_EQ(told, 6);
  int failed_in_study = 0;
  for (const LogRecord& rec : ReadLog(Path("s.jsonl")).records)
    failed_in_study += rec.type == LogRecordType::kTell && !rec.accepted;
  EXPECT_EQ(failed_in_study, failed);
  if (failed > 0) {
    EXPECT_THAT(r.err, HasSubstr("recorded as failed"));
  }

  Write("slow.sh", "#!/bin/sh\nsleep 30\necho 1\n", true);
  for (int signal : {SIGTERM, SIGINT}) {
    const testing::Child worker =
        testing::Spawn({GPBANDIT_CLI_PATH, "worker", "--storage", Path("s.jsonl"), "--worker-id",
                        "slow", "--", Path("slow.sh")},
                       Path("slow.out"), Path("slow.err"));
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (Run("pending --storage s.jsonl").out.find("slow\t") == std::string::npos &&
           std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    const auto start = std::chrono::steady_clock::now();
    ::kill(worker.pid, signal);
    const int status = testing::Wait(worker);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
    EXPECT_TRUE(testing::ExitedZero(status)) << ReadText(Path("slow.err"));
    EXPECT_THAT(ReadText(Path("slow.err")), HasSubstr("released"));
    EXPECT_THAT(Run("pending --storage s.jsonl").out, Not(HasSubstr("slow\t")));
  }
}

// examples/shared_study/start_postgres.sh: a server in a directory of one's choice, a URL and a
// password file that workers use, a restart, a stop.
TEST_F(SharedCliTest, TheLocalDatabaseScriptStartsAServerWorkersCanUse) {
  REQUIRE_POSTGRES();  // the script needs the same server binaries
  char pattern[] = "/tmp/gpbandit_script_XXXXXX";
  ASSERT_NE(::mkdtemp(pattern), nullptr);
  const std::string parent = pattern, db = parent + "/db";
  ::chmod(parent.c_str(), 0755);  // the server's user must reach db/
  const std::string scripts = GPBANDIT_SOURCE_DIR "/examples/shared_study/";
  const std::string port = std::to_string(testing::LocalPostgres::FreePort());
  const std::string start =
      "INITDB_OPTIONS=--no-sync bash '" + scripts + "start_postgres.sh' '" + db + "' " + port;
  ASSERT_EQ(Shell(start + " > start.txt"), 0);
  const std::string printed = ReadText(Path("start.txt"));
  const std::string url = "postgresql://gpbandit@localhost:" + port + "/gpbandit";
  EXPECT_THAT(printed, HasSubstr(url));
  EXPECT_THAT(printed, HasSubstr("export PGPASSFILE=" + db + "/pgpass"));
  const std::string env = "PGPASSFILE='" + db + "/pgpass' ";
  const Result refused = Run("study create --storage " + url + " --study s --bounds 0:1");
  EXPECT_EQ(refused.status, 2) << "connected without the password file";
  EXPECT_THAT(refused.err, HasSubstr("no password supplied"));
  const std::string study = " --storage " + url + " --study s";
  EXPECT_EQ(Shell(env + "$G study create" + study + " --bounds 0:1 2>/dev/null && " + env +
                  "$G suggest" + study + " > point.txt 2>/dev/null"),
            0);
  // A second run of the script starts the same server again, with the study in it.
  EXPECT_EQ(Shell("bash '" + scripts + "stop_postgres.sh' '" + db + "' > /dev/null"), 0);
  ASSERT_EQ(Shell(start + " > /dev/null"), 0);
  const std::string pending = env + "$G pending --storage " + url + " --study s 2>/dev/null";
  EXPECT_EQ(Shell(pending + " | grep -q -f point.txt"), 0);  // the study survived the restart
  EXPECT_EQ(Shell("bash '" + scripts + "stop_postgres.sh' '" + db + "' > /dev/null"), 0);
  std::system(("rm -rf '" + parent + "'").c_str());
}

// Four workers on one database study, as the README shows.
TEST_F(SharedCliTest, FourWorkersOnADatabaseStudy) {
  REQUIRE_POSTGRES();
  const std::string url = testing::PostgresServer()->Url();
  ASSERT_EQ(Run("study create --storage '" + url + "' --study four --bounds 0:1,0:10").status, 0);
  Write("f.sh", "#!/bin/sh\nawk -v a=\"$1\" -v b=\"$2\" 'BEGIN { print -(a-0.3)^2-(b-4)^2 }'\n",
        true);
  std::string script;
  for (int w = 0; w < 4; ++w)
    script += "($G worker --storage '" + url +
              "' --study four --until-told 24 -- ./f.sh >> "
              "told.txt 2>/dev/null; echo $? >> status.txt) & ";
  Shell(script + "wait");
  EXPECT_EQ(ReadText(Path("status.txt")), "0\n0\n0\n0\n");
  const Result shown = Run("study show --storage '" + url + "' --study four");
  const nlohmann::json j = nlohmann::json::parse(shown.out);
  EXPECT_GE(j.at("told").get<int>(), 24);
  EXPECT_EQ(j.at("pending"), 0);
  std::istringstream told(ReadText(Path("told.txt")));
  std::string line;
  int lines = 0;
  while (std::getline(told, line)) ++lines;
  EXPECT_EQ(lines, j.at("told").get<int>());  // every tell printed once, by the worker that made it
}

}  // namespace
}  // namespace gpbandit
