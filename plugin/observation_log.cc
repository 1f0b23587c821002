#include "gpbandit/plugin/observation_log.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace gpbandit {
namespace {

using nlohmann::json;

json VectorToJson(const Eigen::VectorXd& v) {
  json a = json::array();
  for (Eigen::Index i = 0; i < v.size(); ++i) a.push_back(v(i));
  return a;
}

Eigen::VectorXd JsonToVector(const json& a) {
  if (!a.is_array()) throw std::runtime_error("expected an array of numbers");
  Eigen::VectorXd v(static_cast<Eigen::Index>(a.size()));
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!a[i].is_number()) throw std::runtime_error("expected a number in an array");
    v(static_cast<Eigen::Index>(i)) = a[i].get<double>();
  }
  return v;
}

// JSON has no NaN or infinities; a skipped reward keeps its kind as a string.
json RewardToJson(double y) {
  if (std::isnan(y)) return "nan";
  if (std::isinf(y)) return y > 0 ? "inf" : "-inf";
  return y;
}

double JsonToReward(const json& j) {
  if (j.is_number()) return j.get<double>();
  if (j.is_string()) {
    const std::string s = j.get<std::string>();
    if (s == "nan") return std::nan("");
    if (s == "inf") return HUGE_VAL;
    if (s == "-inf") return -HUGE_VAL;
  }
  throw std::runtime_error("field y is neither a number nor one of \"nan\", \"inf\", \"-inf\"");
}

LogRecord ParseRecord(const std::string& line) {
  const json j = json::parse(line);  // throws json::parse_error
  if (!j.is_object() || !j.contains("type") || !j["type"].is_string())
    throw std::runtime_error("not an object with a string field \"type\"");
  LogRecord r;
  r.json = line;
  const std::string type = j["type"].get<std::string>();
  if (type == "header") {
    r.type = LogRecordType::kHeader;
  } else if (type == "pending") {
    r.type = LogRecordType::kPending;
    r.round = j.at("round").get<long>();
    r.design_index = j.at("design_index").get<long>();
    r.x = JsonToVector(j.at("x"));
    r.z = JsonToVector(j.at("z"));
  } else if (type == "tell") {
    r.type = LogRecordType::kTell;
    r.x = JsonToVector(j.at("x"));
    r.z = JsonToVector(j.at("z"));
    r.y = JsonToReward(j.at("y"));
    r.accepted = j.at("accepted").get<bool>();
    if (j.contains("imputed")) r.imputed = j.at("imputed").get<double>();
  } else if (type == "fit") {
    r.type = LogRecordType::kFit;
    r.round = j.at("round").get<long>();
    r.log_params = JsonToVector(j.at("log_params"));
    r.noise_variance = j.at("noise_variance").get<double>();
  } else if (type == "clear_pending") {
    r.type = LogRecordType::kClearPending;
  } else {
    throw std::runtime_error("unknown record type \"" + type + "\"");
  }
  return r;
}

std::string ErrnoText(const std::string& what, const std::string& path) {
  return what + " '" + path + "': " + std::strerror(errno);
}

}  // namespace

LogContents ReadLog(const std::string& path) {
  LogContents contents;
  std::ifstream in(path, std::ios::binary);
  if (!in) return contents;
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();

  std::size_t start = 0;
  int line_number = 0;
  while (start < text.size()) {
    ++line_number;
    const std::size_t newline = text.find('\n', start);
    const bool terminated = newline != std::string::npos;
    const std::size_t end = terminated ? newline : text.size();
    const std::string line = text.substr(start, end - start);
    const std::size_t next = terminated ? newline + 1 : text.size();
    const bool is_last = next >= text.size();
    if (line.find_first_not_of(" \t\r") == std::string::npos) {
      if (terminated) contents.intact_bytes = static_cast<long long>(next);
      start = next;
      continue;
    }
    // A crash can only tear the last line (each record is one write); its newline is written
    // last, so an unterminated or unparsable last line is the torn one.
    std::string problem;
    LogRecord record;
    try {
      record = ParseRecord(line);
    } catch (const std::exception& e) {
      problem = e.what();
    }
    if (!terminated || (!problem.empty() && is_last)) {
      std::cerr << "gpbandit: warning: " << path << ": dropping a torn last line " << line_number
                << " (" << (problem.empty() ? "no terminating newline" : problem)
                << "); the records before it are intact\n";
      contents.dropped_torn_line = true;
      break;
    }
    if (!problem.empty()) {
      throw std::runtime_error(path + ":" + std::to_string(line_number) +
                               ": malformed log record: " + problem);
    }
    if ((record.type == LogRecordType::kHeader) != contents.records.empty()) {
      throw std::runtime_error(path + ":" + std::to_string(line_number) +
                               (record.type == LogRecordType::kHeader
                                    ? ": a second header record"
                                    : ": the first record is not a header"));
    }
    contents.records.push_back(std::move(record));
    contents.intact_bytes = static_cast<long long>(next);
    start = next;
  }
  return contents;
}

ObservationLogWriter::ObservationLogWriter(const std::string& path, bool sync,
                                           long long truncate_to)
    : path_(path), sync_(sync) {
  fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd_ < 0) throw std::runtime_error(ErrnoText("cannot open the log", path));
  if (truncate_to >= 0) {
    struct stat st;
    if (::fstat(fd_, &st) == 0 && st.st_size > truncate_to) {
      if (::ftruncate(fd_, static_cast<off_t>(truncate_to)) != 0 || ::fsync(fd_) != 0) {
        const std::string message = ErrnoText("cannot truncate the torn last line of", path);
        ::close(fd_);
        throw std::runtime_error(message);
      }
    }
  }
}

ObservationLogWriter::~ObservationLogWriter() {
  if (fd_ >= 0) ::close(fd_);
}

void ObservationLogWriter::WriteLine(const std::string& line) {
  const std::string data = line + "\n";
  std::size_t written = 0;
  while (written < data.size()) {
    const ssize_t n = ::write(fd_, data.data() + written, data.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(ErrnoText("cannot write to the log", path_));
    }
    written += static_cast<std::size_t>(n);
  }
  if (sync_ && ::fsync(fd_) != 0) throw std::runtime_error(ErrnoText("cannot fsync the log", path_));
}

void ObservationLogWriter::AppendRaw(const std::string& json_object_text) {
  WriteLine(json_object_text);
}

void ObservationLogWriter::AppendPending(long round, long design_index, const Eigen::VectorXd& x,
                                         const Eigen::VectorXd& z) {
  json j = {{"type", "pending"},
            {"round", round},
            {"design_index", design_index},
            {"x", VectorToJson(x)},
            {"z", VectorToJson(z)}};
  WriteLine(j.dump());
}

void ObservationLogWriter::AppendTell(const Eigen::VectorXd& x, const Eigen::VectorXd& z,
                                      double y, bool accepted, double imputed) {
  json j = {{"type", "tell"},
            {"x", VectorToJson(x)},
            {"z", VectorToJson(z)},
            {"y", RewardToJson(y)},
            {"accepted", accepted}};
  if (std::isfinite(imputed)) j["imputed"] = imputed;
  WriteLine(j.dump());
}

void ObservationLogWriter::AppendFit(long round, const Eigen::VectorXd& log_params,
                                     double noise_variance, const std::string& report) {
  json j = {{"type", "fit"},
            {"round", round},
            {"log_params", VectorToJson(log_params)},
            {"noise_variance", noise_variance},
            {"report", report}};
  WriteLine(j.dump());
}

void ObservationLogWriter::AppendClearPending() {
  WriteLine(json{{"type", "clear_pending"}}.dump());
}

}  // namespace gpbandit
