#include "cli/dashboard/json_api.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <future>
#include <set>
#include <stdexcept>

#include "cli/dashboard/model_views.h"
#include "cli/dashboard/study_reader.h"
#include "gpbandit/optimizer/optimizer.h"
#include "gpbandit/storage/study_storage.h"

namespace gpbandit {
namespace cli {
namespace dashboard {

using nlohmann::json;

namespace {

double Seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double WallClock() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

json RowJson(const TrialRow& r) {
  json row = {{"id", r.id},           {"trial", r.trial}, {"state", TrialStateName(r.state)},
              {"x", VectorJson(r.x)}, {"y", r.y},         {"best", r.best},
              {"n", r.tell_index},    {"round", r.round}, {"worker", r.worker}};
  if (r.z.size() > 0) row["z"] = VectorJson(r.z);
  if (r.constraints.size() > 0) row["g"] = VectorJson(r.constraints);
  if (r.state == TrialState::kPending) row["lease_until"] = r.lease_until;  // inf: null
  return row;
}

ApiResponse Error(int status, const std::string& message) { return {status, {{"error", message}}}; }

std::string Param(const std::map<std::string, std::string>& params, const std::string& key,
                  const std::string& fallback = "") {
  const auto it = params.find(key);
  return it == params.end() ? fallback : it->second;
}

long long IntParam(const std::map<std::string, std::string>& params, const std::string& key,
                   long long fallback, long long min) {
  const std::string text = Param(params, key);
  if (text.empty()) return fallback;
  std::size_t used = 0;
  long long value = 0;
  try {
    value = std::stoll(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || value < min)
    throw std::invalid_argument(key + " '" + text +
                                "' must be an integer >= " + std::to_string(min));
  return value;
}

}  // namespace

// One study: its reader (guarded by read_mutex) and its model (guarded by model_mutex), each
// opened on first use; an error opening either is kept and answered until a later try succeeds.
class StudyEntry {
 public:
  StudyEntry(std::string url, std::string study) : url_(std::move(url)), study_(std::move(study)) {}

  // Runs f(reader) on a fresh enough reader; throws the reader's error.
  template <typename F>
  auto WithReader(F f) {
    std::lock_guard<std::mutex> lock(read_mutex_);
    const double now = Seconds();
    if (!reader_) {
      reader_ = std::make_unique<StudyReader>(url_, study_);
      last_read_ = now;
    } else if (now - last_read_ >= JsonApi::kReadRefreshSeconds) {
      reader_->Refresh();
      last_read_ = now;
    }
    return f(*reader_);
  }

  json Model(const ModelRequest& request, const std::string& key) {
    std::lock_guard<std::mutex> lock(model_mutex_);
    // Opened before the reader is asked, so that at the start the optimizer's replay and the
    // reader's first read (JsonApi::Warm) run at once, on two cores.
    bool opened = false;
    if (!optimizer_) {
      WorkerOptions worker;  // a database gone away: 503 now, not after the workers' 300 s
      worker.reconnect_timeout_seconds = kDashboardReconnectSeconds;
      optimizer_ = Optimizer::Open(url_, study_, nullptr, worker);
      opened = true;
    }
    std::vector<std::string> names;
    std::vector<FitRow> fits;
    long long sequence = 0;
    WithReader([&](const StudyReader& r) {
      names = r.parameter_names();
      fits = r.fits();
      sequence = r.last_sequence();
      return 0;
    });
    const double now = Seconds();
    if (key == key_ && (sequence == sequence_ || now - computed_ < JsonApi::kModelRefreshSeconds))
      return views_;
    // After the reader: the model holds at least the records the views are labelled with.
    if (!opened) optimizer_->Sync();
    const double start = Seconds();
    views_ = ModelViews(*optimizer_, names, fits, request);
    views_["seconds"] = Seconds() - start;
    views_["sequence"] = sequence;
    key_ = key;
    sequence_ = sequence;
    computed_ = now;
    return views_;
  }

 private:
  const std::string url_, study_;
  std::mutex read_mutex_;
  std::unique_ptr<StudyReader> reader_;
  double last_read_ = 0;
  std::mutex model_mutex_;
  std::unique_ptr<Optimizer> optimizer_;
  json views_;
  std::string key_;
  long long sequence_ = -1;
  double computed_ = 0;
};

JsonApi::JsonApi(const StudySource& source) : source_(source) {}
JsonApi::~JsonApi() {
  if (warm_models_.joinable()) warm_models_.join();
}

void JsonApi::Warm() {
  std::vector<std::string> names;
  try {
    names = StudyNames();
  } catch (const std::exception&) {
    return;  // the storage's error is answered by /api/studies
  }
  if (names.size() > static_cast<std::size_t>(kWarmStudies)) names.resize(kWarmStudies);
  // The page's first model request (the contour over the first two parameters, the
  // acquisition along the first), computed while the readers read: the optimizer's replay is
  // the longer part (docs/dashboard.md, "Measured").
  std::promise<void> first_model;
  std::future<void> first_ready = first_model.get_future();
  warm_models_ = std::thread([this, names, first = std::move(first_model)]() mutable {
    for (std::size_t i = 0; i < names.size(); ++i) {
      Handle("/api/model", {{"study", names[i]}, {"cx", "0"}, {"cy", "1"}});
      if (i == 0) first.set_value();
    }
    if (names.empty()) first.set_value();
  });
  for (const std::string& name : names) Handle("/api/trials", {{"study", name}, {"limit", "8"}});
  first_ready.wait_for(std::chrono::duration<double>(kWarmWaitSeconds));
}

std::string JsonApi::Describe() const {
  return source_.log_path.empty() ? RedactUrl(source_.storage) : source_.log_path;
}

std::vector<std::string> JsonApi::StudyNames() {
  if (!source_.log_path.empty() || !source_.study.empty())
    return {source_.log_path.empty() ? source_.study : ""};
  std::vector<std::string> names;
  for (const StudySummary& s : ListStudies(source_.storage)) names.push_back(s.name);
  return names;
}

std::shared_ptr<StudyEntry> JsonApi::Entry(const std::string& name) {
  const std::vector<std::string> names = StudyNames();
  if (std::find(names.begin(), names.end(), name) == names.end()) return nullptr;
  std::lock_guard<std::mutex> lock(mutex_);
  std::shared_ptr<StudyEntry>& entry = entries_[name];
  if (!entry) {
    const std::string url = source_.log_path.empty() ? source_.storage : source_.log_path;
    entry = std::make_shared<StudyEntry>(url, name);
  }
  return entry;
}

ApiResponse JsonApi::Handle(const std::string& path,
                            const std::map<std::string, std::string>& params) {
  try {
    if (path == "/api/studies") return Studies();
    if (path == "/api/trials") return Trials(params);
    if (path == "/api/model") return Model(params);
    return Error(404, "no such endpoint: " + path);
  } catch (const std::invalid_argument& e) {
    return Error(400, e.what());
  } catch (const std::logic_error& e) {  // e.g. no accepted observation yet
    return Error(409, e.what());
  } catch (const std::exception& e) {  // storage failures: messages are redacted (RedactUrl)
    return Error(503, e.what());
  }
}

ApiResponse JsonApi::Studies() {
  json studies = json::array();
  for (const std::string& name : StudyNames()) {
    json s = {{"name", name}};
    try {
      Entry(name)->WithReader([&](const StudyReader& r) {
        std::map<std::string, json> workers;
        const double now = WallClock();
        for (const TrialRow& row : r.rows()) {
          if (row.worker.empty()) continue;
          json& w = workers[row.worker];
          if (w.is_null()) w = {{"name", row.worker}, {"trials", 0}, {"pending", 0}};
          w["trials"] = w["trials"].get<long>() + 1;
          if (row.state == TrialState::kPending) {
            w["pending"] = w["pending"].get<long>() + 1;
            w["lease_until"] = row.lease_until;
            w["expired"] = row.lease_until < now;
          }
        }
        json worker_list = json::array();
        for (auto& [id, w] : workers) worker_list.push_back(w);
        s.update({{"strategy", r.header().strategy},
                  {"sense", r.minimize() ? "minimize" : "maximize"},
                  {"parameters", r.parameter_names()},
                  {"context_dim", r.header().domain.context_dim()},
                  {"trials", r.rows().size()},
                  {"complete", r.num_complete()},
                  {"failed", r.num_failed()},
                  {"pending", r.num_pending()},
                  {"best", r.best()},
                  {"last_activity", r.last_activity()},
                  {"last_sequence", r.last_sequence()},
                  {"workers", worker_list}});
        return 0;
      });
    } catch (const std::exception& e) {
      s["error"] = e.what();
    }
    studies.push_back(s);
  }
  return {200, {{"source", Describe()}, {"now", WallClock()}, {"studies", studies}}};
}

ApiResponse JsonApi::Trials(const std::map<std::string, std::string>& params) {
  const std::string name = Param(params, "study");
  const long long since = IntParam(params, "since", 0, 0);
  const long long limit = IntParam(params, "limit", 5000, 8);
  const std::shared_ptr<StudyEntry> entry = Entry(name);
  if (!entry) return Error(404, "no study '" + name + "' in " + Describe());
  return entry->WithReader([&](const StudyReader& r) {
    std::vector<const TrialRow*> changed;
    for (const TrialRow& row : r.rows())
      if (row.changed > since) changed.push_back(&row);
    const bool downsample = static_cast<long long>(changed.size()) > limit;
    json rows = json::array();
    const std::size_t stride = downsample ? (changed.size() + limit / 2 - 1) / (limit / 2) : 1;
    const std::size_t tail = downsample ? changed.size() - limit / 4 : 0;
    double last_best = std::nan("");
    for (std::size_t i = 0; i < changed.size(); ++i) {
      const TrialRow& row = *changed[i];
      const bool improved = !std::isnan(row.best) && !(row.best == last_best);
      if (!std::isnan(row.best)) last_best = row.best;
      if (downsample && i % stride != 0 && i < tail && !improved &&
          row.state != TrialState::kPending)
        continue;
      rows.push_back(RowJson(row));
    }
    json out = {{"study", name},
                {"since", since},
                {"last", r.last_sequence()},
                {"total", r.rows().size()},
                {"changed", changed.size()},
                {"downsampled", downsample},
                {"best", r.best()},
                {"parameters", r.parameter_names()},
                {"sense", r.minimize() ? "minimize" : "maximize"},
                {"now", WallClock()},
                {"rows", rows}};
    if (downsample) out["stride"] = stride;
    return ApiResponse{200, out};
  });
}

ApiResponse JsonApi::Model(const std::map<std::string, std::string>& params) {
  const std::string name = Param(params, "study");
  const std::shared_ptr<StudyEntry> entry = Entry(name);
  if (!entry) return Error(404, "no study '" + name + "' in " + Describe());
  ModelRequest request;
  request.contour_x = static_cast<int>(IntParam(params, "cx", 0, 0));
  request.contour_y = static_cast<int>(IntParam(params, "cy", 1, 0));
  request.acquisition_dim = static_cast<int>(IntParam(params, "acq", 0, 0));
  const std::string context = Param(params, "context");
  if (!context.empty()) {
    std::vector<double> z;
    std::size_t start = 0;
    while (start <= context.size()) {
      const std::size_t end = std::min(context.find(',', start), context.size());
      const std::string item = context.substr(start, end - start);
      std::size_t used = 0;
      double v = 0;
      try {
        v = std::stod(item, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (item.empty() || used != item.size())
        throw std::invalid_argument("context '" + context + "': '" + item + "' is not a number");
      z.push_back(v);
      start = end + 1;
    }
    request.context = Eigen::Map<Eigen::VectorXd>(z.data(), static_cast<Eigen::Index>(z.size()));
  }
  const std::string key = std::to_string(request.contour_x) + "," +
                          std::to_string(request.contour_y) + "," +
                          std::to_string(request.acquisition_dim) + "," + context;
  return {200, entry->Model(request, key)};
}

std::string HtmlEscape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string ScriptJson(const json& value) {
  const std::string text = value.dump(-1, ' ', false, json::error_handler_t::replace);
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == '<') {
      out += "\\u003c";
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace dashboard
}  // namespace cli
}  // namespace gpbandit
