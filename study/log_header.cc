#include "gpbandit/study/log_header.h"

#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <utility>
#include <vector>

#include "space/parameter_space_json.h"
#include "study/json_vector.h"
#include "study/optimizer_options_json.h"
#include "study/options_json_legacy.h"

namespace gpbandit {
namespace {

using internal::JsonToVector;
using internal::VectorField;
using internal::VectorToJson;
using nlohmann::json;

const char* DomainKindName(DomainKind kind) {
  switch (kind) {
    case DomainKind::kBox:
      return "box";
    case DomainKind::kFiniteSet:
      return "finite";
    case DomainKind::kSpace:
      return "space";
  }
  return "?";
}

json DomainToJson(const Domain& d) {
  json j;
  j["kind"] = DomainKindName(d.kind());
  if (d.kind() == DomainKind::kSpace) {
    j["parameters"] = internal::ParametersToJson(*d.action_space());
  } else if (d.kind() == DomainKind::kBox) {
    j["lower"] = VectorToJson(d.lower());
    j["upper"] = VectorToJson(d.upper());
  } else {
    json columns = json::array();
    for (int c = 0; c < d.num_candidates(); ++c)
      columns.push_back(VectorToJson(d.candidates().col(c)));
    j["candidates"] = columns;
  }
  j["context_dim"] = d.context_dim();
  j["context_lower"] = VectorToJson(d.context_lower());
  j["context_upper"] = VectorToJson(d.context_upper());
  if (d.context_space() != nullptr)
    j["context_parameters"] = internal::ParametersToJson(*d.context_space());
  return j;
}

Domain DomainFromJson(const json& j) {
  const std::string kind = j.at("kind").get<std::string>();
  Domain d = Domain::Box(Eigen::VectorXd::Zero(1), Eigen::VectorXd::Zero(1));
  if (kind == "box") {
    d = Domain::Box(VectorField(j, "lower"), VectorField(j, "upper"));
  } else if (kind == "space") {
    d = Domain::Space(internal::ParametersFromJson(j.at("parameters"), "domain.parameters"));
  } else if (kind == "finite") {
    const json& columns = j.at("candidates");
    if (columns.empty()) throw std::runtime_error("domain.candidates is empty");
    const Eigen::Index dim = static_cast<Eigen::Index>(columns.at(0).size());
    Eigen::MatrixXd c(dim, static_cast<Eigen::Index>(columns.size()));
    for (std::size_t k = 0; k < columns.size(); ++k) {
      const Eigen::VectorXd col =
          JsonToVector(columns[k], "domain.candidates[" + std::to_string(k) + "]");
      if (col.size() != dim) throw std::runtime_error("domain.candidates: ragged columns");
      c.col(static_cast<Eigen::Index>(k)) = col;
    }
    d = Domain::FiniteSet(c);
  } else {
    throw std::runtime_error("domain.kind \"" + kind +
                             "\" is not \"box\", \"finite\" or \"space\"");
  }
  if (j.contains("context_parameters"))
    return d.WithContext(
        internal::ParametersFromJson(j.at("context_parameters"), "domain.context_parameters"));
  const int context_dim = j.at("context_dim").get<int>();
  if (context_dim > 0)
    d = d.WithContext(context_dim, VectorField(j, "context_lower"),
                      VectorField(j, "context_upper"));
  return d;
}

// ---- Meaning rewrites -----------------------------------------------------------------------

// The version-1 fields each built-in strategy read (every other field of the flat object was
// ignored by it). GP-TS's ts_fixed_scale and ts_num_features are fixed_scale and num_features in
// its own options.
json V1StrategyOptions(const std::string& strategy, const json& flat) {
  const std::vector<std::string> ucb = {"beta_schedule",
                                        "delta",
                                        "a",
                                        "b",
                                        "r",
                                        "rkhs_bound",
                                        "constant_beta",
                                        "beta_scale",
                                        "gamma_source",
                                        "gamma_dim",
                                        "gamma_nu",
                                        "gamma_scale"};
  const std::vector<std::string> igp = {"rkhs_bound", "noise_bound", "delta",      "gamma_source",
                                        "gamma_dim",  "gamma_nu",    "gamma_scale"};
  std::vector<std::string> ts = igp;
  ts.insert(ts.end(), {"ts_fixed_scale", "ts_num_features"});
  const std::map<std::string, std::vector<std::string>> read_by = {
      {"gp-ucb", ucb}, {"cgp-ucb", ucb}, {"igp-ucb", igp}, {"gp-ts", ts},
      {"ei", {"xi"}},  {"pi", {"xi"}},   {"mean", {}},     {"variance", {}}};
  const auto keys = read_by.find(strategy);
  // A user strategy read the numbers of `extra`: they are its options.
  if (keys == read_by.end()) return flat.at("extra");
  json options = json::object();
  for (const std::string& key : keys->second) {
    const std::string renamed = key.rfind("ts_", 0) == 0 ? key.substr(3) : key;
    options[renamed] = flat.at(key);
  }
  return options;
}

// Version 1 kept every built-in strategy's fields in one flat object (and the numbers user
// strategies read in "extra"); since version 2 "strategy_options" holds the strategy's own.
void OwnStrategyOptions(json* header) {
  (*header)["strategy_options"] =
      V1StrategyOptions(header->at("strategy").get<std::string>(), header->at("strategy_options"));
}

// Version 3 changed what GP-UCB's beta_schedule "auto" means on a box: Theorem 2's compact-set
// schedule before, 0.2 d log(2t) since (acquisition/gp_ucb.h). Older logs keep the schedule
// they ran with.
void AutoOnABoxMeansCompact(json* header) {
  const std::string strategy = header->at("strategy").get<std::string>();
  json& options = header->at("strategy_options");
  if ((strategy == "gp-ucb" || strategy == "cgp-ucb") &&
      header->at("domain").at("kind").get<std::string>() == "box" &&
      options.value("beta_schedule", std::string("auto")) == "auto") {
    options["beta_schedule"] = "compact";
  }
}

// The format changes that changed what a header's fields mean, in order: a header of version
// `through` or older is rewritten by `rewrite` to say what it meant in the current format. The
// other versions changed the records (observation_log.h) or added options, whose values for
// older headers are rows of options_json_legacy.h (docs/log_format.md lists both).
struct MeaningRewrite {
  int through;
  void (*rewrite)(json* header);
};
constexpr MeaningRewrite kMeaningRewrites[] = {{1, OwnStrategyOptions},
                                               {2, AutoOnABoxMeansCompact}};

LogHeader HeaderFromJson(const json& j) {
  LogHeader h;
  h.domain = DomainFromJson(j.at("domain"));
  h.strategy = j.at("strategy").get<std::string>();
  h.strategy_options = StrategyParams(j.at("strategy_options").dump());
  h.options = internal::OptimizerOptionsFromJson(j.at("options"), "options");
  const json& k = j.at("kernel");
  h.default_kernel = k.at("default").get<bool>();
  h.kernel_description = k.at("description").get<std::string>();
  h.kernel_log_params = VectorField(k, "log_params");
  return h;
}

}  // namespace

std::string FormatSettings(const std::string& strategy, const StrategyParams& strategy_options,
                           const OptimizerOptions& options) {
  json j = {{"strategy", strategy},
            {"strategy_options", json::parse(strategy_options.json())},
            {"options", internal::OptimizerOptionsToJson(options)}};
  j["options"]["log_path"] = options.log_path;
  return j.dump();
}

void ParseSettings(const std::string& json_text, std::string* strategy,
                   StrategyParams* strategy_options, OptimizerOptions* options) {
  try {
    const json j = json::parse(json_text);
    *strategy = j.at("strategy").get<std::string>();
    *strategy_options = StrategyParams(j.at("strategy_options").dump());
    json own = j.at("options");
    const std::string log_path = internal::Field<std::string>(own, "log_path");
    own.erase("log_path");
    // Settings are not versioned: they hold what the current format's header would, and options
    // added since some were saved take their legacy values. Their strategy options are the
    // caller's or resolved ones, whose missing keys take the strategy's defaults.
    json fill = {{"strategy", ""}, {"strategy_options", json::object()}, {"options", own}};
    internal::FillLegacyValues(kLogFormatVersion, &fill);
    *options = internal::OptimizerOptionsFromJson(fill.at("options"), "options");
    options->log_path = log_path;
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string("malformed settings: ") + e.what());
  }
}

std::string FormatLogHeader(const LogHeader& h) {
  json j = {{"type", "header"},
            {"format", "gpbandit-observation-log"},
            {"version", kLogFormatVersion},
            {"domain", DomainToJson(h.domain)},
            {"strategy", h.strategy},
            {"strategy_options", json::parse(h.strategy_options.json())},
            {"options", internal::OptimizerOptionsToJson(h.options)},
            {"kernel",
             {{"default", h.default_kernel},
              {"description", h.kernel_description},
              {"log_params", VectorToJson(h.kernel_log_params)}}}};
  return j.dump();
}

LogHeader ParseLogHeader(const std::string& json_text) {
  try {
    json j = json::parse(json_text);
    if (j.at("type").get<std::string>() != "header") throw std::runtime_error("not a header");
    const int version = j.at("version").get<int>();
    if (version < 1 || version > kLogFormatVersion)
      throw std::runtime_error("unsupported version " + std::to_string(version) +
                               " (this code reads versions 1 to " +
                               std::to_string(kLogFormatVersion) + ")");
    for (const MeaningRewrite& change : kMeaningRewrites)
      if (version <= change.through) change.rewrite(&j);
    internal::FillLegacyValues(version, &j);
    LogHeader h = HeaderFromJson(j);
    h.format_version = version;
    return h;
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string("malformed log header: ") + e.what());
  }
}

}  // namespace gpbandit
