#include "gpbandit/study/log_header.h"

#include <cmath>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <utility>
#include <vector>

#include "study/json_vector.h"
#include "space/parameter_space_json.h"

namespace gpbandit {
namespace {

using internal::JsonToVector;
using internal::VectorField;
using internal::VectorToJson;
using nlohmann::json;

// JSON has no infinity; the flat prior's stddev_log is +inf, written as a string.
json Real(double v) {
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return v;
}

double ToReal(const json& j) {
  if (j.is_string()) {
    if (j.get<std::string>() == "inf") return HUGE_VAL;
    if (j.get<std::string>() == "-inf") return -HUGE_VAL;
    throw std::runtime_error("expected a number, got \"" + j.get<std::string>() + "\"");
  }
  return j.get<double>();
}

json PriorToJson(const LogNormalPrior& p) {
  return {{"mean_log", p.mean_log}, {"stddev_log", Real(p.stddev_log)}};
}

LogNormalPrior PriorFromJson(const json& j) {
  LogNormalPrior p;
  p.mean_log = j.at("mean_log").get<double>();
  p.stddev_log = ToReal(j.at("stddev_log"));
  return p;
}

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

json RangeToJson(const ParamRange& r) {
  return {{"min", r.min}, {"max", r.max}, {"start_min", r.start_min}, {"start_max", r.start_max}};
}

ParamRange RangeFromJson(const json& j) {
  return {j.at("min").get<double>(), j.at("max").get<double>(), j.at("start_min").get<double>(),
          j.at("start_max").get<double>()};
}

json FitOptionsToJson(const HyperparameterFitOptions& f) {
  json kind_ranges = json::object();
  for (const auto& [kind, range] : f.kind_ranges) kind_ranges[kind] = RangeToJson(range);
  json priors = json::array();
  for (const auto& p : f.kernel_priors) priors.push_back(PriorToJson(p));
  json lower = json::array(), upper = json::array();
  for (double v : f.lower_log_bounds) lower.push_back(Real(v));
  for (double v : f.upper_log_bounds) upper.push_back(Real(v));
  return {{"num_restarts", f.num_restarts},
          {"max_iterations", f.max_iterations},
          {"function_tolerance", f.function_tolerance},
          {"gradient_tolerance", f.gradient_tolerance},
          {"parameter_tolerance", f.parameter_tolerance},
          {"max_seconds", Real(f.max_seconds)},
          {"fit_noise", f.fit_noise},
          {"min_noise_variance", f.min_noise_variance},
          {"max_noise_variance", f.max_noise_variance},
          {"min_lengthscale", f.min_lengthscale},
          {"max_lengthscale", f.max_lengthscale},
          {"min_period", f.min_period},
          {"max_period", f.max_period},
          {"min_signal_variance", f.min_signal_variance},
          {"max_signal_variance", f.max_signal_variance},
          {"start_min_lengthscale", f.start_min_lengthscale},
          {"start_max_lengthscale", f.start_max_lengthscale},
          {"start_min_period", f.start_min_period},
          {"start_max_period", f.start_max_period},
          {"start_min_signal_variance", f.start_min_signal_variance},
          {"start_max_signal_variance", f.start_max_signal_variance},
          {"start_min_noise_variance", f.start_min_noise_variance},
          {"start_max_noise_variance", f.start_max_noise_variance},
          {"kind_ranges", kind_ranges},
          {"lower_log_bounds", lower},
          {"upper_log_bounds", upper},
          {"kernel_priors", priors},
          {"noise_prior", PriorToJson(f.noise_prior)}};
}

HyperparameterFitOptions FitOptionsFromJson(const json& j) {
  HyperparameterFitOptions f;
  f.num_restarts = j.at("num_restarts").get<int>();
  f.max_iterations = j.at("max_iterations").get<int>();
  f.function_tolerance = j.at("function_tolerance").get<double>();
  f.gradient_tolerance = j.at("gradient_tolerance").get<double>();
  f.parameter_tolerance = j.at("parameter_tolerance").get<double>();
  if (j.contains("max_seconds")) f.max_seconds = ToReal(j.at("max_seconds"));  // newer logs
  f.fit_noise = j.at("fit_noise").get<bool>();
  f.min_noise_variance = j.at("min_noise_variance").get<double>();
  f.max_noise_variance = j.at("max_noise_variance").get<double>();
  f.min_lengthscale = j.at("min_lengthscale").get<double>();
  f.max_lengthscale = j.at("max_lengthscale").get<double>();
  f.min_signal_variance = j.at("min_signal_variance").get<double>();
  f.max_signal_variance = j.at("max_signal_variance").get<double>();
  f.start_min_lengthscale = j.at("start_min_lengthscale").get<double>();
  f.start_max_lengthscale = j.at("start_max_lengthscale").get<double>();
  f.min_period = j.at("min_period").get<double>();
  f.max_period = j.at("max_period").get<double>();
  f.start_min_period = j.at("start_min_period").get<double>();
  f.start_max_period = j.at("start_max_period").get<double>();
  f.start_min_signal_variance = j.at("start_min_signal_variance").get<double>();
  f.start_max_signal_variance = j.at("start_max_signal_variance").get<double>();
  f.start_min_noise_variance = j.at("start_min_noise_variance").get<double>();
  f.start_max_noise_variance = j.at("start_max_noise_variance").get<double>();
  // Absent from studies written before parameter kinds could be registered (none had one).
  if (j.contains("kind_ranges")) {
    for (const auto& [kind, range] : j.at("kind_ranges").items())
      f.kind_ranges[kind] = RangeFromJson(range);
  }
  for (const auto& v : j.at("lower_log_bounds")) f.lower_log_bounds.push_back(ToReal(v));
  for (const auto& v : j.at("upper_log_bounds")) f.upper_log_bounds.push_back(ToReal(v));
  for (const auto& p : j.at("kernel_priors")) f.kernel_priors.push_back(PriorFromJson(p));
  f.noise_prior = PriorFromJson(j.at("noise_prior"));
  return f;
}

const char* PolicyName(NonFiniteRewardPolicy policy) {
  switch (policy) {
    case NonFiniteRewardPolicy::kThrow:
      return "throw";
    case NonFiniteRewardPolicy::kSkip:
      return "skip";
    case NonFiniteRewardPolicy::kImputeWorst:
      return "impute-worst";
  }
  return "?";
}

NonFiniteRewardPolicy PolicyFromName(const std::string& name) {
  for (NonFiniteRewardPolicy p : {NonFiniteRewardPolicy::kThrow, NonFiniteRewardPolicy::kSkip,
                                  NonFiniteRewardPolicy::kImputeWorst})
    if (name == PolicyName(p)) return p;
  throw std::runtime_error("options.non_finite_rewards \"" + name +
                           "\" is not throw, skip or impute-worst");
}

ObjectiveSense SenseFromName(const std::string& name) {
  for (ObjectiveSense s : {ObjectiveSense::kMaximize, ObjectiveSense::kMinimize})
    if (name == ObjectiveSenseName(s)) return s;
  throw std::runtime_error("options.sense \"" + name + "\" is not maximize or minimize");
}

const char* LocalAnchorName(LocalAnchor anchor) {
  return anchor == LocalAnchor::kHighestMean ? "highest-mean" : "highest-output";
}

LocalAnchor LocalAnchorFromName(const std::string& name) {
  for (LocalAnchor a : {LocalAnchor::kHighestOutput, LocalAnchor::kHighestMean})
    if (name == LocalAnchorName(a)) return a;
  throw std::runtime_error("options.local_model.anchor \"" + name +
                           "\" is not highest-output or highest-mean");
}

json LocalModelToJson(const LocalModelOptions& l) {
  return {{"exact_until", l.exact_until},
          {"size", l.size},
          {"regions", l.regions},
          {"anchor", LocalAnchorName(l.anchor)},
          {"trust_box_scale", l.trust_box_scale}};
}

json OptionsToJson(const OptimizerOptions& o) {
  return {{"seed", o.seed},
          {"initial_design_size", o.initial_design_size},
          {"refit",
           {{"enabled", o.refit.enabled},
            {"every_while_small", o.refit.every_while_small},
            {"small_until", o.refit.small_until},
            {"every", o.refit.every}}},
          {"fit", FitOptionsToJson(o.fit)},
          {"fit_restarts_until", o.fit_restarts_until},
          {"fit_max_observations", o.fit_max_observations},
          {"local_model", LocalModelToJson(o.local_model)},
          {"gp",
           {{"noise_variance", o.gp.noise_variance},
            {"standardize_outputs", o.gp.standardize_outputs},
            {"max_relative_jitter", o.gp.max_relative_jitter}}},
          {"non_finite_rewards", PolicyName(o.non_finite_rewards)},
          {"sense", ObjectiveSenseName(o.sense)},
          {"maximizer_raw_samples", o.maximizer_raw_samples},
          {"maximizer_starts", o.maximizer_starts},
          {"maximizer_observed_starts", o.maximizer_observed_starts},
          {"maximizer_iterations", o.maximizer_iterations},
          {"maximizer_function_tolerance", o.maximizer_function_tolerance},
          {"maximizer_raw_sample_design", RawSampleDesignName(o.maximizer_raw_sample_design)},
          {"maximizer_integer_search", IntegerSearchName(o.maximizer_integer_search)},
          {"num_threads", o.num_threads},
          {"finite_set_rank_one_updates", o.finite_set_rank_one_updates},
          {"sync_log", o.sync_log}};
}

OptimizerOptions OptionsFromJson(const json& j) {
  OptimizerOptions o;
  o.seed = j.at("seed").get<std::uint64_t>();
  o.initial_design_size = j.at("initial_design_size").get<int>();
  const json& r = j.at("refit");
  o.refit.enabled = r.at("enabled").get<bool>();
  o.refit.every_while_small = r.at("every_while_small").get<int>();
  o.refit.small_until = r.at("small_until").get<int>();
  o.refit.every = r.at("every").get<int>();
  o.fit = FitOptionsFromJson(j.at("fit"));
  o.fit_restarts_until = j.at("fit_restarts_until").get<int>();
  // Absent from studies written before long studies were modelled: those fitted to every
  // observation and kept the exact GP throughout.
  o.fit_max_observations = j.value("fit_max_observations", std::numeric_limits<int>::max());
  o.local_model.exact_until = std::numeric_limits<int>::max();
  if (j.contains("local_model")) {
    o.local_model.exact_until = j.at("local_model").at("exact_until").get<int>();
    o.local_model.size = j.at("local_model").at("size").get<int>();
    o.local_model.regions = j.at("local_model").at("regions").get<int>();
    // Absent from studies written before the anchor was an option: the highest output.
    o.local_model.anchor = LocalAnchorFromName(
        j.at("local_model")
            .value("anchor", std::string(LocalAnchorName(LocalAnchor::kHighestOutput))));
    // Absent from studies written before the trust box was scaled: the whole box.
    o.local_model.trust_box_scale = j.at("local_model").value("trust_box_scale", 1.0);
  }
  const json& g = j.at("gp");
  o.gp.noise_variance = g.at("noise_variance").get<double>();
  o.gp.standardize_outputs = g.at("standardize_outputs").get<bool>();
  o.gp.max_relative_jitter = g.at("max_relative_jitter").get<double>();
  o.non_finite_rewards = PolicyFromName(j.at("non_finite_rewards").get<std::string>());
  if (j.contains("sense")) o.sense = SenseFromName(j.at("sense").get<std::string>());
  o.maximizer_raw_samples = j.at("maximizer_raw_samples").get<int>();
  o.maximizer_starts = j.at("maximizer_starts").get<int>();
  o.maximizer_observed_starts = j.at("maximizer_observed_starts").get<int>();
  o.maximizer_iterations = j.at("maximizer_iterations").get<int>();
  o.maximizer_function_tolerance = ToReal(j.at("maximizer_function_tolerance"));
  o.maximizer_raw_sample_design =
      ParseRawSampleDesign(j.at("maximizer_raw_sample_design").get<std::string>());
  // Absent from studies written before parameter spaces (format version 6), which had no
  // integers to search: the default.
  if (j.contains("maximizer_integer_search"))
    o.maximizer_integer_search =
        ParseIntegerSearch(j.at("maximizer_integer_search").get<std::string>());
  o.num_threads = j.at("num_threads").get<int>();
  // Absent from studies written before the option existed; those used the exact GP.
  o.finite_set_rank_one_updates = j.value("finite_set_rank_one_updates", false);
  o.sync_log = j.at("sync_log").get<bool>();
  return o;
}

// ---- Version 1 -> 2 ---------------------------------------------------------------------------

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

// Version-1 logs written before these fields were logged ran with these values.
void FillV1Defaults(json* options) {
  const std::pair<const char*, json> optimizer_fields[] = {
      {"fit_restarts_until", std::numeric_limits<int>::max()},  // every fit restarted
      {"maximizer_observed_starts", 3},
      {"maximizer_function_tolerance", 1e-10}};  // the box maximizer's own
  const std::pair<const char*, json> fit_fields[] = {
      {"start_min_lengthscale", 0.03},
      {"start_max_lengthscale", 3.0},
      {"start_min_signal_variance", 0.1},
      {"start_max_signal_variance", 10.0},
      {"start_min_noise_variance", 1e-4},
      {"start_max_noise_variance", 0.3},
      // No version-1 kernel had a period: these ranges were never used.
      {"min_period", 1e-2},
      {"max_period", 10.0},
      {"start_min_period", 0.1},
      {"start_max_period", 1.0}};
  for (const auto& [key, value] : optimizer_fields)
    if (!options->contains(key)) (*options)[key] = value;
  json& fit = options->at("fit");
  for (const auto& [key, value] : fit_fields)
    if (!fit.contains(key)) fit[key] = value;
}

json UpgradeV1(json header) {
  header["strategy_options"] =
      V1StrategyOptions(header.at("strategy").get<std::string>(), header.at("strategy_options"));
  FillV1Defaults(&header.at("options"));
  header["version"] = 2;
  return header;
}

// ---- Version 2 -> 3 ---------------------------------------------------------------------------

// Version 3 changed what GP-UCB's beta_schedule "auto" means on a box: Theorem 2's compact-set
// schedule before, 0.2 d log(2t) since (acquisition/gp_ucb.h). Older logs keep the schedule
// they ran with. The strategies' options only gained fields, whose defaults keep the old
// behaviour; the optimizer's gained maximizer_raw_sample_design, a Latin hypercube before.
json UpgradeV2(json header) {
  const std::string strategy = header.at("strategy").get<std::string>();
  json& options = header.at("strategy_options");
  if ((strategy == "gp-ucb" || strategy == "cgp-ucb") &&
      header.at("domain").at("kind").get<std::string>() == "box" &&
      options.value("beta_schedule", std::string("auto")) == "auto") {
    options["beta_schedule"] = "compact";
  }
  header.at("options")["maximizer_raw_sample_design"] = "latin-hypercube";  // the only one
  header["version"] = 3;
  return header;
}

// ---- Version 3 -> 4 ---------------------------------------------------------------------------

// Version 4 added optional record fields (constraint signals, log_header.h); a version-3 header
// means the same under version 4.
json UpgradeV3(json header) {
  header["version"] = 4;
  return header;
}

// ---- Version 4 -> 5 ---------------------------------------------------------------------------

// Version 5 added optional record fields (trial numbers, log_header.h), gave PI a default
// margin, relative_xi = 0.01 prior standard deviations of f
// (acquisition/probability_of_improvement.h), and gave safe-opt models of each safety signal in
// its own units and the goal-directed rule by default. A version-4 PI header without the key ran
// with no margin, and keeps none; a version-4 safe-opt study ran with every signal modelled in
// the caller's units and Sui et al.'s rule, and keeps them.
json UpgradeV4(json header) {
  json& options = header.at("strategy_options");
  const std::string strategy = header.at("strategy").get<std::string>();
  if (strategy == "pi" && !options.contains("relative_xi")) options["relative_xi"] = 0.0;
  if (strategy == "safe-opt") {
    options["calibrated"] = false;
    options["rule"] = "safeopt";
  }
  header["version"] = 5;
  return header;
}

// ---- Version 5 -> 6 ---------------------------------------------------------------------------

// Version 6 added parameter spaces: domain.kind "space" with "parameters", contexts given as
// "context_parameters", the optimizer's maximizer_integer_search, and named values on the
// records of such studies (observation_log.h). A version-5 header means the same under
// version 6.
json UpgradeV5(json header) {
  header["version"] = 6;
  return header;
}

// ---- Version 6 -> 7 ---------------------------------------------------------------------------

// Sets key to value in every signal model of a calibrated safe-opt header's options
// (signal_models gets one entry per signal when it had none: every default but that key).
void SetInEverySafeOptSignalModel(json* header, const char* key, const json& value) {
  json& options = header->at("strategy_options");
  if (header->at("strategy").get<std::string>() != "safe-opt" || !options.value("calibrated", true))
    return;
  json& models = options["signal_models"];
  if (!models.is_array() || models.empty()) {
    const std::size_t constraints =
        options.contains("constraint_thresholds") ? options["constraint_thresholds"].size() : 0;
    models = json::array();
    for (std::size_t i = 0; i < 1 + constraints; ++i) models.push_back(json::object());
  }
  for (json& model : models) model[key] = value;
}

// Version 7 lets a refit lengthen a safe-opt signal model's context lengthscales up to
// context_lengthscale_cap (safety_signal.h; default the context's whole range), and makes
// r-gp-ucb restart where its residual test says the model is stale (r_gp_ucb.h). A version-6
// safe-opt study ran with them at most their initial values, cap 0 for every signal model, and
// keeps it; a version-6 r-gp-ucb header without "restart" ran with the paper's fixed epochs, and
// keeps them.
json UpgradeV6(json header) {
  SetInEverySafeOptSignalModel(&header, "context_lengthscale_cap", 0.0);
  json& options = header.at("strategy_options");
  if (header.at("strategy").get<std::string>() == "r-gp-ucb" && !options.contains("restart"))
    options["restart"] = "epochs";
  header["version"] = 7;
  return header;
}

// ---- Version 7 -> 8 ---------------------------------------------------------------------------

// Version 8 keeps a safe-opt signal model's prior standard deviation at least the largest
// distance from its prior mean measured (stddev_covers_measured, safety_signal.h; default
// true). A version-7 (or older) calibrated safe-opt study ran without that floor and keeps it.
json UpgradeV7(json header) {
  SetInEverySafeOptSignalModel(&header, "stddev_covers_measured", false);
  header["version"] = 8;
  return header;
}

// ---- Version 8 -> 9 ---------------------------------------------------------------------------

// Version 9 gave the improvement strategies relative_xi_per_dim (improvement_strategy.h), and PI
// a default of 0.005 of it with relative_xi 0. A version-8 PI header (written with every option,
// relative_xi 0.01 by default) ran without the per-dimension margin and keeps none.
json UpgradeV8(json header) {
  json& options = header.at("strategy_options");
  if (header.at("strategy").get<std::string>() == "pi" && !options.contains("relative_xi_per_dim"))
    options["relative_xi_per_dim"] = 0.0;
  header["version"] = 9;
  return header;
}

// The rewrites in order: kUpgrades[v - 1] takes a version-v header to version v + 1.
using Upgrade = json (*)(json);
constexpr Upgrade kUpgrades[] = {UpgradeV1, UpgradeV2, UpgradeV3, UpgradeV4,
                                 UpgradeV5, UpgradeV6, UpgradeV7, UpgradeV8};
static_assert(sizeof(kUpgrades) / sizeof(kUpgrades[0]) == kLogFormatVersion - 1,
              "one rewrite per format version");

LogHeader HeaderFromJson(const json& j) {
  LogHeader h;
  h.domain = DomainFromJson(j.at("domain"));
  h.strategy = j.at("strategy").get<std::string>();
  h.strategy_options = StrategyParams(j.at("strategy_options").dump());
  h.options = OptionsFromJson(j.at("options"));
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
            {"options", OptionsToJson(options)}};
  j["options"]["log_path"] = options.log_path;
  return j.dump();
}

void ParseSettings(const std::string& json_text, std::string* strategy,
                   StrategyParams* strategy_options, OptimizerOptions* options) {
  try {
    const json j = json::parse(json_text);
    *strategy = j.at("strategy").get<std::string>();
    *strategy_options = StrategyParams(j.at("strategy_options").dump());
    *options = OptionsFromJson(j.at("options"));
    options->log_path = j.at("options").at("log_path").get<std::string>();
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
            {"options", OptionsToJson(h.options)},
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
    for (int v = version; v < kLogFormatVersion; ++v) j = kUpgrades[v - 1](std::move(j));
    LogHeader h = HeaderFromJson(j);
    h.format_version = version;
    return h;
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string("malformed log header: ") + e.what());
  }
}

}  // namespace gpbandit
