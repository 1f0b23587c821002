#include "gpbandit/optimizer/source_study.h"

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "gpbandit/study/log_header.h"
#include "gpbandit/study/observation_log.h"

namespace gpbandit {
namespace {

using nlohmann::json;

// The first path at which two JSON values differ ("" when none), with both values.
std::string SourceDifference(const json& a, const json& b, const std::string& path, std::string* va,
                             std::string* vb) {
  if (a.is_object() && b.is_object()) {
    for (const auto& item : a.items()) {
      const std::string at = path + "." + item.key();
      if (!b.contains(item.key())) {
        *va = item.value().dump();
        *vb = "(absent)";
        return at;
      }
      const std::string found = SourceDifference(item.value(), b.at(item.key()), at, va, vb);
      if (!found.empty()) return found;
    }
    for (const auto& item : b.items())
      if (!a.contains(item.key())) {
        *va = "(absent)";
        *vb = item.value().dump();
        return path + "." + item.key();
      }
    return "";
  }
  if (a.is_array() && b.is_array() && a.size() == b.size()) {
    for (std::size_t i = 0; i < a.size(); ++i) {
      const std::string found =
          SourceDifference(a[i], b[i], path + "[" + std::to_string(i) + "]", va, vb);
      if (!found.empty()) return found;
    }
    return "";
  }
  if (a == b) return "";
  *va = a.dump();
  *vb = b.dump();
  return path;
}

// The source level from a study's header and records; `where` names the study in messages.
FidelitySpec SourceFromRecords(const std::string& header_json,
                               const std::vector<std::string>& records, const Domain& domain,
                               ObjectiveSense sense, const std::string& name,
                               const std::string& where) {
  LogHeader old;
  try {
    old = ParseLogHeader(header_json);
  } catch (const std::exception& e) {
    throw std::invalid_argument(where + ": not a study header: " + e.what());
  }
  LogHeader mine = old;
  mine.domain = domain;
  const json a = json::parse(FormatLogHeader(old)).at("domain");
  const json b = json::parse(FormatLogHeader(mine)).at("domain");
  std::string va, vb;
  const std::string field = SourceDifference(a, b, "domain", &va, &vb);
  if (!field.empty())
    throw std::invalid_argument(where + ": its " + field + " = " + va + ", not " + vb +
                                " as in this study (a source must have the same domain)");
  if (old.options.sense != sense)
    throw std::invalid_argument(
        where + ": it " +
        (old.options.sense == ObjectiveSense::kMinimize ? "minimizes" : "maximizes") +
        " and this study does not (a source must have the same sense)");
  const int target = old.options.fidelities.target();
  FidelitySpec spec;
  spec.name = name;
  spec.cost = 0.0;
  spec.source = true;
  for (std::size_t i = 0; i < records.size(); ++i) {
    LogRecord r;
    try {
      r = ParseLogRecord(records[i]);
    } catch (const std::exception& e) {
      throw std::invalid_argument(where + ": record " + std::to_string(i + 1) + ": " + e.what());
    }
    if (r.type != LogRecordType::kTell || !r.accepted || !std::isfinite(r.y) ||
        r.fidelity != target)
      continue;
    spec.observations.push_back({r.x, r.z, r.y});
  }
  if (spec.observations.empty())
    throw std::invalid_argument(where + ": no accepted observation at its target to take");
  return spec;
}

}  // namespace

FidelitySpec ReadSourceStudy(const std::string& log_path, const Domain& domain,
                             ObjectiveSense sense, const std::string& name) {
  const std::string where = "source '" + name + "' (" + log_path + ")";
  if (!std::ifstream(log_path).good())
    throw std::invalid_argument(where + ": no such file, or it cannot be read");
  LogContents contents;
  try {
    contents = ReadLog(log_path);
  } catch (const std::exception& e) {
    throw std::invalid_argument(where + ": " + e.what());
  }
  if (contents.records.empty())
    throw std::invalid_argument(where + ": the file is empty (no study header)");
  std::vector<std::string> records;
  for (std::size_t i = 1; i < contents.records.size(); ++i)
    records.push_back(contents.records[i].json);
  return SourceFromRecords(contents.records.front().json, records, domain, sense, name, where);
}

FidelitySpec ReadSourceStudy(StudyStorage& storage, const Domain& domain, ObjectiveSense sense,
                             const std::string& name) {
  const std::string where = "source '" + name + "' (" + storage.Describe() + ")";
  std::unique_ptr<StudySession> session = storage.Begin(LockMode::kShared);
  const std::string header = session->header();
  if (header.empty()) throw std::invalid_argument(where + ": no such study");
  std::vector<std::string> records;
  for (const StudyRecord& r : session->ReadAfter(0)) records.push_back(r.json);
  return SourceFromRecords(header, records, domain, sense, name, where);
}

void AddSources(OptimizerOptions* options, const std::vector<FidelitySpec>& sources,
                const std::string& target_name) {
  FidelityOptions f = options->fidelities;
  // Sources alone: the ICM, which measured lower regrets than the autoregressive model at 10
  // and 20 target evaluations with related and unrelated sources (docs/fidelities.md).
  if (!f.active()) {
    f.levels.push_back({target_name, 1.0});
    f.model = FidelityModel::kIcm;
  }
  f.levels.insert(f.levels.begin(), sources.begin(), sources.end());
  std::string error;
  if (!f.IsValid(&error)) throw std::invalid_argument("fidelities." + error);
  options->fidelities = f;
}

}  // namespace gpbandit
