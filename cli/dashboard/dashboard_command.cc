// gpbandit dashboard and gpbandit report (commands.h): the flags, the study source, and the
// report's assembly from the same JSON the server answers.
#include <csignal>
#include <fstream>
#include <ostream>

#include "cli/dashboard/commands.h"
#include "cli/dashboard/json_api.h"
#include "cli/dashboard/page_assets.h"
#include "cli/dashboard/server.h"
#include "cli/study_flags.h"

namespace gpbandit {
namespace cli {
namespace {

volatile std::sig_atomic_t interrupted = 0;
extern "C" void OnSignal(int) { interrupted = 1; }

dashboard::StudySource SourceOf(const StudyFlags& f) {
  CheckStudyFlags(f, /*with_log=*/true);
  CheckStudyAccess(f, /*writes=*/false);
  return {f.log_path, f.storage, f.study};
}

}  // namespace

int DashboardCommand(const std::vector<std::string>& args, Streams streams) {
  return RunReportingErrors(
      "dashboard",
      [&] {
        StudyFlags f;
        dashboard::ServerOptions server;
        po::options_description desc("options");
        AddStudyFlags(&desc, &f, /*with_log=*/true, /*with_worker=*/false);
        desc.add_options()("port", ValueWithDefault(&server.port), "the port (0: any free one)")(
            "bind", ValueWithDefault(&server.bind),
            "the address to listen on; another than 127.0.0.1 needs --token")(
            "token", po::value(&server.token),
            "the access token every request must carry (?token=T or Authorization: Bearer T)");
        po::variables_map vm;
        if (!ParseArguments("dashboard",
                            "(--log runs.jsonl | --storage URL [--study NAME]) [--port 8080] "
                            "[--bind 127.0.0.1] [--token T]",
                            args, desc, &vm, streams.out))
          return kExitOk;
        if (server.port < 0 || server.port > 65535)
          throw UsageError("--port " + std::to_string(server.port) + " must be in [0, 65535]");
        if (!dashboard::IsLoopback(server.bind) && server.token.empty())
          throw UsageError("--bind " + server.bind +
                           " reaches beyond this machine: give --token TOKEN too");
        dashboard::JsonApi api(SourceOf(f));
        api.Warm();
        std::signal(SIGINT, OnSignal);
        std::signal(SIGTERM, OnSignal);
        streams.err << "[dashboard] " << api.Describe() << ", read-only; Ctrl-C stops\n";
        dashboard::Serve(api, server, streams.out, [] { return interrupted != 0; });
        return kExitOk;
      },
      streams);
}

int ReportCommand(const std::vector<std::string>& args, Streams streams) {
  return RunReportingErrors(
      "report",
      [&] {
        StudyFlags f;
        std::string out_path;
        po::options_description desc("options");
        AddStudyFlags(&desc, &f, /*with_log=*/true, /*with_worker=*/false);
        desc.add_options()("out", po::value(&out_path)->required(), "the HTML file to write");
        po::variables_map vm;
        if (!ParseArguments("report",
                            "(--log runs.jsonl | --storage URL [--study NAME]) --out report.html",
                            args, desc, &vm, streams.out))
          return kExitOk;
        RequireWritableFile("--out", out_path);
        dashboard::JsonApi api(SourceOf(f));
        const dashboard::ApiResponse studies = api.Handle("/api/studies", {});
        if (studies.status != 200) throw InputError(studies.body.value("error", "?"));
        nlohmann::json data = {{"studies", studies.body},
                               {"trials", nlohmann::json::object()},
                               {"models", nlohmann::json::object()}};
        for (const nlohmann::json& s : studies.body["studies"]) {
          if (s.contains("error")) throw InputError(s["error"].get<std::string>());
          const std::string name = s["name"];
          data["trials"][name] = api.Handle("/api/trials", {{"study", name}}).body;
          data["models"][name] = api.Handle("/api/model", {{"study", name}}).body;
        }
        std::ofstream out(out_path, std::ios::binary | std::ios::trunc);
        out << dashboard::ReportHtml(dashboard::ScriptJson(data));
        out.close();
        if (!out) throw InputError("--out " + out_path + ": cannot write it");
        streams.err << "[report] " << out_path << "\n";
        return kExitOk;
      },
      streams);
}

}  // namespace cli
}  // namespace gpbandit
