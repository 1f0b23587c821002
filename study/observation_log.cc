#include "gpbandit/study/observation_log.h"

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "gpbandit/numerics/warning_sink.h"
#include "storage/json_lines.h"
#include "study/json_vector.h"

namespace gpbandit {
namespace {

using internal::Field;
using internal::VectorField;
using internal::VectorToJson;
using nlohmann::json;

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

// A fit record's list of further models' hyperparameters under `key`, if present.
void ReadModels(const json& j, const char* key, std::vector<Eigen::VectorXd>* log_params,
                std::vector<double>* noise_variances) {
  if (!j.contains(key)) return;
  for (const json& c : Field<json>(j, key)) {
    log_params->push_back(VectorField(c, "log_params"));
    noise_variances->push_back(Field<double>(c, "noise_variance"));
  }
}

json ModelsToJson(const std::vector<Eigen::VectorXd>& log_params,
                  const std::vector<double>& noise_variances) {
  json models = json::array();
  for (std::size_t i = 0; i < log_params.size(); ++i)
    models.push_back(
        {{"log_params", VectorToJson(log_params[i])}, {"noise_variance", noise_variances.at(i)}});
  return models;
}

}  // namespace

LogRecord ParseLogRecord(const std::string& line) {
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
    r.round = Field<long>(j, "round");
    r.design_index = Field<long>(j, "design_index");
    r.x = VectorField(j, "x");
    r.z = VectorField(j, "z");
    if (j.contains("worker")) r.worker = Field<std::string>(j, "worker");
    if (j.contains("lease_until")) r.lease_until = Field<double>(j, "lease_until");
    if (j.contains("trial")) r.trial = Field<long>(j, "trial");
    if (j.contains("drawn_round")) r.drawn_round = Field<long>(j, "drawn_round");
    if (j.contains("fidelity")) r.fidelity = Field<int>(j, "fidelity");
  } else if (type == "tell") {
    r.type = LogRecordType::kTell;
    r.x = VectorField(j, "x");
    r.z = VectorField(j, "z");
    r.y = JsonToReward(Field<json>(j, "y"));
    r.accepted = Field<bool>(j, "accepted");
    if (j.contains("imputed")) r.imputed = Field<double>(j, "imputed");
    r.round = j.contains("round") ? Field<long>(j, "round") : -1;
    if (j.contains("g")) r.constraints = VectorField(j, "g");
    if (j.contains("trial")) r.trial = Field<long>(j, "trial");
    if (j.contains("refit_claim")) r.refit_claim = Field<double>(j, "refit_claim");
    if (j.contains("worker")) r.worker = Field<std::string>(j, "worker");
    if (j.contains("fidelity")) r.fidelity = Field<int>(j, "fidelity");
  } else if (type == "fit") {
    r.type = LogRecordType::kFit;
    r.round = Field<long>(j, "round");
    r.log_params = VectorField(j, "log_params");
    r.noise_variance = Field<double>(j, "noise_variance");
    ReadModels(j, "constraints", &r.constraint_log_params, &r.constraint_noise_variances);
    ReadModels(j, "signals", &r.signal_log_params, &r.signal_noise_variances);
  } else if (type == "release") {
    r.type = LogRecordType::kRelease;
    r.x = VectorField(j, "x");
    r.z = VectorField(j, "z");
    if (j.contains("trial")) r.trial = Field<long>(j, "trial");
  } else if (type == "clear_pending") {
    r.type = LogRecordType::kClearPending;
  } else {
    throw std::runtime_error("unknown record type \"" + type + "\"");
  }
  return r;
}

LogContents ReadLog(const std::string& path) {
  LogContents contents;
  std::ifstream in(path, std::ios::binary);
  if (!in) return contents;
  std::stringstream buffer;
  buffer << in.rdbuf();
  auto take = [&](const std::string& line, int) {
    StudyRecordType(line, contents.records.empty());
    contents.records.push_back(ParseLogRecord(line));
  };
  const ScannedLines scanned = ScanJsonLines(buffer.str(), path, 1, take);
  RefuseHeaderlessText(scanned, !contents.records.empty(), path);
  contents.intact_bytes = static_cast<long long>(scanned.intact_bytes);
  if (scanned.torn) {
    Warn(path + ": dropping a torn last line " + std::to_string(scanned.lines + 1) + " (" +
         scanned.torn_problem + "); the records before it are intact");
    contents.dropped_torn_line = true;
  }
  return contents;
}

std::string FormatPendingRecord(long round, long design_index, const Eigen::VectorXd& x,
                                const Eigen::VectorXd& z, const std::string& worker,
                                double lease_until, long trial, long drawn_round, int fidelity) {
  json j = {{"type", "pending"},    {"round", round},       {"design_index", design_index},
            {"x", VectorToJson(x)}, {"z", VectorToJson(z)}, {"worker", worker}};
  if (std::isfinite(lease_until)) j["lease_until"] = lease_until;
  if (trial >= 0) j["trial"] = trial;
  if (drawn_round >= 0 && drawn_round != round) j["drawn_round"] = drawn_round;
  if (fidelity >= 0) j["fidelity"] = fidelity;
  return j.dump();
}

std::string FormatTellRecord(const Eigen::VectorXd& x, const Eigen::VectorXd& z, double y,
                             bool accepted, double imputed, long round,
                             const Eigen::VectorXd& constraints, long trial, double refit_claim,
                             const std::string& claimant, int fidelity) {
  json j = {{"type", "tell"},
            {"x", VectorToJson(x)},
            {"z", VectorToJson(z)},
            {"y", RewardToJson(y)},
            {"accepted", accepted}};
  if (std::isfinite(imputed)) j["imputed"] = imputed;
  if (round >= 0) j["round"] = round;
  if (constraints.size() > 0) j["g"] = VectorToJson(constraints);
  if (trial >= 0) j["trial"] = trial;
  if (std::isfinite(refit_claim)) {
    j["refit_claim"] = refit_claim;
    j["worker"] = claimant;
  }
  if (fidelity >= 0) j["fidelity"] = fidelity;
  return j.dump();
}

std::string FormatFitRecord(long round, const Eigen::VectorXd& log_params, double noise_variance,
                            const std::string& report,
                            const std::vector<Eigen::VectorXd>& constraint_log_params,
                            const std::vector<double>& constraint_noise_variances,
                            const std::vector<Eigen::VectorXd>& signal_log_params,
                            const std::vector<double>& signal_noise_variances) {
  json j = {{"type", "fit"},
            {"round", round},
            {"log_params", VectorToJson(log_params)},
            {"noise_variance", noise_variance},
            {"report", report}};
  if (!constraint_log_params.empty())
    j["constraints"] = ModelsToJson(constraint_log_params, constraint_noise_variances);
  if (!signal_log_params.empty())
    j["signals"] = ModelsToJson(signal_log_params, signal_noise_variances);
  return j.dump();
}

std::string FormatReleaseRecord(const Eigen::VectorXd& x, const Eigen::VectorXd& z, long trial) {
  json j = {{"type", "release"}, {"x", VectorToJson(x)}, {"z", VectorToJson(z)}};
  if (trial >= 0) j["trial"] = trial;
  return j.dump();
}

std::string FormatClearPendingRecord() { return json{{"type", "clear_pending"}}.dump(); }

}  // namespace gpbandit
