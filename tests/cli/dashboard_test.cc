// gpbandit dashboard's JSON API, over HTTP from the real server on a free loopback port: the
// shape of every answer, incremental reads, bad and missing studies, hostile names escaped,
// credentials never shown, and the access rules (a token off loopback, checked on every request).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/cli/cli_fixture.h"

namespace gpbandit {
namespace {

using nlohmann::json;

struct HttpAnswer {
  int status = 0;
  std::string body;
};

// One GET on 127.0.0.1:port, HTTP/1.0 so that the server closes when done.
HttpAnswer Get(int port, const std::string& target) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  HttpAnswer answer;
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
    close(fd);
    return answer;
  }
  const std::string request = "GET " + target + " HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n";
  if (write(fd, request.data(), request.size()) != static_cast<ssize_t>(request.size())) {
    close(fd);
    return answer;
  }
  std::string text;
  char buffer[65536];
  for (ssize_t n; (n = read(fd, buffer, sizeof(buffer))) > 0;) text.append(buffer, n);
  close(fd);
  if (text.size() > 12) answer.status = std::stoi(text.substr(9, 3));
  const std::size_t body = text.find("\r\n\r\n");
  if (body != std::string::npos) answer.body = text.substr(body + 4);
  return answer;
}

class DashboardTest : public CliTest {
 protected:
  void TearDown() override {
    if (server_ > 0) {
      kill(server_, SIGTERM);
      int status = 0;
      waitpid(server_, &status, 0);
    }
    if (out_) fclose(out_);
    CliTest::TearDown();
  }

  // Starts `gpbandit dashboard --port 0 ARGS` in the temp dir; returns its port (0 if it
  // exited instead).
  int Start(const std::vector<std::string>& args) {
    int pipe_fds[2];
    if (pipe(pipe_fds) != 0) return 0;
    server_ = fork();
    if (server_ == 0) {
      dup2(pipe_fds[1], 1);
      close(pipe_fds[0]);
      if (chdir(dir_.c_str()) != 0) _exit(127);
      std::vector<std::string> all = {GPBANDIT_CLI_PATH, "dashboard", "--port", "0"};
      all.insert(all.end(), args.begin(), args.end());
      std::vector<char*> argv;
      for (std::string& a : all) argv.push_back(&a[0]);
      argv.push_back(nullptr);
      execv(argv[0], argv.data());
      _exit(127);
    }
    close(pipe_fds[1]);
    out_ = fdopen(pipe_fds[0], "r");
    char line[512] = {0};
    if (!fgets(line, sizeof(line), out_)) return 0;
    const std::string url(line);  // http://127.0.0.1:PORT/...
    const std::size_t colon = url.rfind(':');
    return std::stoi(url.substr(colon + 1));
  }

  json GetJson(int port, const std::string& target, int expected_status = 200) {
    const HttpAnswer a = Get(port, target);
    EXPECT_EQ(a.status, expected_status) << target << ": " << a.body;
    return json::parse(a.body);
  }

  // A study of three observations and two pending points: the first suggestion (never told:
  // the observations are at other points) and the last one, held by `worker`.
  void MakeStudy(const std::string& worker) {
    ASSERT_EQ(Run("suggest --log runs.jsonl --bounds 0:1,0:2 --strategy ei").status, 0);
    ASSERT_EQ(Run("observe --log runs.jsonl --x 0.5,1 --y 1.5").status, 0);
    ASSERT_EQ(Run("observe --log runs.jsonl --x 0.25,0.5 --y 0.5").status, 0);
    ASSERT_EQ(Run("observe --log runs.jsonl --x 0.75,1.5 --y 2.5").status, 0);
    ASSERT_EQ(Run("suggest --log runs.jsonl --lease 600 --worker-id '" + worker + "'").status, 0);
  }

  pid_t server_ = -1;
  FILE* out_ = nullptr;
};

TEST_F(DashboardTest, StudiesTrialsAndModelHaveTheirShape) {
  MakeStudy("w1");
  const int port = Start({"--log", "runs.jsonl"});
  ASSERT_GT(port, 0);
  const json studies = GetJson(port, "/api/studies");
  ASSERT_EQ(studies["studies"].size(), 1u);
  const json& s = studies["studies"][0];
  EXPECT_EQ(s["strategy"], "ei");
  EXPECT_EQ(s["parameters"], json({"x0", "x1"}));
  EXPECT_EQ(s["complete"], 3);
  EXPECT_EQ(s["pending"], 2);
  EXPECT_EQ(s["best"], 2.5);
  EXPECT_GT(s["last_activity"].get<double>(), 0);
  ASSERT_EQ(s["workers"].size(), 2u);  // the first suggestion's (host:pid) and w1
  EXPECT_TRUE(s["workers"][0]["name"] == "w1" || s["workers"][1]["name"] == "w1");

  const json trials = GetJson(port, "/api/trials?study=&since=0");
  EXPECT_EQ(trials["total"], 5);  // two suggestions and three observations
  int pending = 0, complete = 0;
  for (const json& row : trials["rows"]) {
    pending += row["state"] == "pending";
    complete += row["state"] == "complete";
  }
  EXPECT_EQ(complete, 3);
  EXPECT_EQ(pending, 2);
  EXPECT_FALSE(trials["downsampled"].get<bool>());

  const long long last = trials["last"];
  EXPECT_TRUE(GetJson(port, "/api/trials?since=" + std::to_string(last))["rows"].empty());
  ASSERT_EQ(Run("observe --log runs.jsonl --x 0.1,0.1 --y 0.1").status, 0);
  usleep(600 * 1000);  // past the reader's refresh interval
  const json fresh = GetJson(port, "/api/trials?since=" + std::to_string(last));
  ASSERT_EQ(fresh["rows"].size(), 1u);
  EXPECT_EQ(fresh["rows"][0]["y"], 0.1);
  EXPECT_GT(fresh["last"].get<long long>(), last);

  const json model = GetJson(port, "/api/model?study=&cx=0&cy=1&acq=1");
  ASSERT_EQ(model["slices"].size(), 2u);
  EXPECT_EQ(model["slices"][0]["x"].size(), 101u);
  EXPECT_EQ(model["slices"][1]["x"].front(), 0.0);
  EXPECT_EQ(model["slices"][1]["x"].back(), 2.0);
  EXPECT_EQ(model["contour"]["mean"].size(), 30u);
  EXPECT_EQ(model["contour"]["mean"][0].size(), 30u);
  EXPECT_EQ(model["acquisition"]["dim"], 1);
  EXPECT_EQ(model["acquisition"]["value"].size(), 101u);
  EXPECT_EQ(model["pending"].size(), 2u);
  // The optimizer's next ask (python/tests/test_dashboard.py: the point suggest hands out next).
  ASSERT_EQ(model["next"]["x"].size(), 2u);
  EXPECT_GE(model["next"]["x"][1].get<double>(), 0.0);
  EXPECT_LE(model["next"]["x"][1].get<double>(), 2.0);
  EXPECT_EQ(model["next"]["round"], 2);  // two asks so far: the next is round 2
  EXPECT_EQ(model["loo"]["points"].size(), 4u);
  EXPECT_EQ(model["importance"].size(), 2u);
  for (const json& slice : model["slices"])
    for (const json& sd : slice["sd"]) EXPECT_GE(sd.get<double>(), 0.0);

  EXPECT_EQ(GetJson(port, "/api/model?cx=0&cy=5", 400)["error"].get<std::string>().find("cy 5"),
            0u);
  EXPECT_EQ(GetJson(port, "/api/trials?since=-1", 400).count("error"), 1u);
}

TEST_F(DashboardTest, AnUnknownStudyIsA404AndTheServerGoesOn) {
  MakeStudy("w1");
  const int port = Start({"--log", "runs.jsonl"});
  ASSERT_GT(port, 0);
  const json error = GetJson(port, "/api/trials?study=nope", 404);
  EXPECT_NE(error["error"].get<std::string>().find("no study 'nope'"), std::string::npos);
  EXPECT_EQ(GetJson(port, "/api/nothing", 404).count("error"), 1u);
  EXPECT_EQ(GetJson(port, "/api/studies")["studies"].size(), 1u);
}

TEST_F(DashboardTest, AMissingOrCorruptFileIsAnErrorNotACrash) {
  const int port = Start({"--log", "missing.jsonl"});
  ASSERT_GT(port, 0);
  const json studies = GetJson(port, "/api/studies");
  EXPECT_NE(studies["studies"][0]["error"].get<std::string>().find("no such study"),
            std::string::npos);
  EXPECT_EQ(GetJson(port, "/api/trials?study=", 503).count("error"), 1u);
  // A corrupt file now, in the folder the server reads.
  std::ofstream(dir_ + "/missing.jsonl") << "not json\n";
  EXPECT_EQ(GetJson(port, "/api/model?study=", 503).count("error"), 1u);
  EXPECT_EQ(Get(port, "/").status, 200);
}

TEST_F(DashboardTest, HostileNamesAreEscapedInEveryAnswer) {
  MakeStudy("<script>alert(1)</script>");
  const int port = Start({"--log", "runs.jsonl"});
  ASSERT_GT(port, 0);
  const HttpAnswer studies = Get(port, "/api/studies");
  EXPECT_EQ(studies.body.find('<'), std::string::npos);  // written \u003c
  EXPECT_NE(studies.body.find("\\u003cscript>alert(1)\\u003c/script>"), std::string::npos);
  EXPECT_EQ(Get(port, "/api/trials?since=0").body.find('<'), std::string::npos);
  EXPECT_EQ(Get(port, "/no/such/<b>page").body.find("<b>"), std::string::npos);
}

TEST_F(DashboardTest, CredentialsOfTheStorageNeverReachAnAnswer) {
  const int port = Start({"--storage", "postgresql://alice:s3cr3t@127.0.0.1:1/lab?password=s3cr3t",
                          "--study", "pump"});
  ASSERT_GT(port, 0);
  for (const std::string target :
       {"/api/studies", "/api/trials?study=pump", "/api/model?study=pump", "/"}) {
    const HttpAnswer a = Get(port, target);
    EXPECT_GT(a.status, 0) << target;
    EXPECT_EQ(a.body.find("s3cr3t"), std::string::npos) << target << ": " << a.body;
  }
}

TEST_F(DashboardTest, AnotherAddressNeedsATokenCheckedOnEveryRequest) {
  MakeStudy("w1");
  const Result refused = Run("dashboard --log runs.jsonl --bind 0.0.0.0 --port 0");
  EXPECT_EQ(refused.status, 2);
  EXPECT_NE(refused.err.find("--token"), std::string::npos) << refused.err;

  const int port = Start({"--log", "runs.jsonl", "--token", "t0k3n"});
  ASSERT_GT(port, 0);
  EXPECT_EQ(Get(port, "/").status, 401);
  EXPECT_EQ(Get(port, "/api/studies").status, 401);
  EXPECT_EQ(Get(port, "/api/studies?token=wrong").status, 401);
  EXPECT_EQ(Get(port, "/api/studies?token=t0k3n").status, 200);
  EXPECT_EQ(Get(port, "/chart.js?token=t0k3n").status, 200);
}

TEST_F(DashboardTest, TheReportIsOneFileWithTheDataInlined) {
  MakeStudy("<b>w</b>");
  const Result r = Run("report --log runs.jsonl --out report.html");
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string html = ReadAll(dir_ + "/report.html");
  EXPECT_EQ(html.find("<script src="), std::string::npos);
  EXPECT_NE(html.find("Chart.js v"), std::string::npos);
  EXPECT_NE(html.find("GPBANDIT_REPORT"), std::string::npos);
  EXPECT_EQ(html.find("<b>w</b>"), std::string::npos);
  EXPECT_EQ(Run("report --log runs.jsonl").status, 2);  // --out is required
}

}  // namespace
}  // namespace gpbandit
