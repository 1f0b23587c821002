// The dashboard's JSON API, apart from HTTP so that the report (report_command.cc) and the
// tests use it directly. Every answer is a status and a JSON body (docs/dashboard.md):
//   /api/studies                       every study: name, strategy, parameters, trials, best,
//                                      last activity, workers (or its error)
//   /api/trials?study=S&since=N        the trials changed by records after N; more than
//                 [&limit=L]           L (default 5000) of them come downsampled (every k-th,
//                                      every new best, the pending ones and the last L/4)
//   /api/model?study=S[&cx=I&cy=J      the model's views (model_views.h) for the contour over
//                 &acq=K&context=z..]  actions I and J and the acquisition along K
// A study that cannot be read answers {"error": ...} (404 for no such study, 503 when its
// storage fails), never a crash; storage URLs appear only through RedactUrl.
//
// Thread safety: Handle may be called from many threads at once. Each study has its own reader
// and model, each behind its own mutex; the model is recomputed at most once per
// kModelRefreshSeconds whatever the number of pages (the workers never wait for a page: every
// read is a read-only session, study_storage.h).
#ifndef GPBANDIT_CLI_DASHBOARD_JSON_API_H_
#define GPBANDIT_CLI_DASHBOARD_JSON_API_H_

#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

namespace gpbandit {
namespace cli {
namespace dashboard {

// Where the studies are: a --log file, or a storage URL with an optional study name (none: every
// study of a directory or database).
struct StudySource {
  std::string log_path, storage, study;
};

struct ApiResponse {
  int status = 200;
  nlohmann::json body;
};

class StudyEntry;

class JsonApi {
 public:
  static constexpr double kModelRefreshSeconds = 2.0;
  static constexpr double kReadRefreshSeconds = 0.5;

  explicit JsonApi(const StudySource& source);
  ~JsonApi();

  // path: "/api/studies", "/api/trials" or "/api/model"; params: the query's parameters.
  ApiResponse Handle(const std::string& path, const std::map<std::string, std::string>& params);
  // Reads every study now (at most kWarmStudies of them) while computing each one's model
  // views for the page's first request on another thread, and returns once the first study's
  // are ready (or after kWarmWaitSeconds), so that a page opened after the server says it
  // listens finds them ready. Errors are kept for the requests to answer.
  void Warm();
  static constexpr int kWarmStudies = 16;
  static constexpr double kWarmWaitSeconds = 120.0;

  // The redacted storage URL or the log's path.
  std::string Describe() const;

 private:
  std::vector<std::string> StudyNames();
  // The entry of `name`; nullptr when the source has no such study (404).
  std::shared_ptr<StudyEntry> Entry(const std::string& name);
  ApiResponse Studies();
  ApiResponse Trials(const std::map<std::string, std::string>& params);
  ApiResponse Model(const std::map<std::string, std::string>& params);

  StudySource source_;
  std::mutex mutex_;  // guards entries_
  std::map<std::string, std::shared_ptr<StudyEntry>> entries_;
  std::thread warm_models_;
};

// Text safe inside HTML (& < > " ' escaped).
std::string HtmlEscape(const std::string& text);
// JSON text safe inside a <script> element ('<' written as \u003c), invalid UTF-8 replaced.
std::string ScriptJson(const nlohmann::json& value);

}  // namespace dashboard
}  // namespace cli
}  // namespace gpbandit

#endif  // GPBANDIT_CLI_DASHBOARD_JSON_API_H_
