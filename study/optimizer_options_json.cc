#include "study/optimizer_options_json.h"

#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace gpbandit {
namespace internal {
namespace {

using nlohmann::json;

// JSON has no infinity: an infinite real is written as a string.
json Real(double v) {
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return v;
}

// Reads the fields of one JSON object, each of which must be present (see the header).
// Messages name a field by its path from the options' root.
class FieldReader {
 public:
  FieldReader(const json& object, std::string where) : object_(object), where_(std::move(where)) {
    if (!object_.is_object())
      throw std::invalid_argument(where_ + " = " + object_.dump() + ": expected a JSON object");
  }

  // The value at key; remembers key as valid. Throws if it is missing.
  const json& At(const char* key) {
    known_.emplace_back(key);
    const auto it = object_.find(key);
    if (it == object_.end()) throw std::invalid_argument(Path(key) + " is missing");
    return *it;
  }

  std::string Path(const char* key) const { return where_ + "." + key; }

  [[noreturn]] void Reject(const char* key, const json& value, const std::string& expected) const {
    throw std::invalid_argument(Path(key) + " = " + value.dump() + ": " + expected);
  }

  void Read(const char* key, bool* field) {
    const json& v = At(key);
    if (!v.is_boolean()) Reject(key, v, "expected true or false");
    *field = v.get<bool>();
  }

  // Any JSON number with an integer value in int's range (64 and 64.0 alike).
  void Read(const char* key, int* field) {
    const json& v = At(key);
    const double number = v.is_number() ? v.get<double>() : 0.5;
    if (!(number == std::floor(number) && number >= -2147483648.0 && number <= 2147483647.0))
      Reject(key, v, "expected an integer in [-2147483648, 2147483647]");
    *field = static_cast<int>(number);
  }

  void Read(const char* key, std::uint64_t* field) {
    const json& v = At(key);
    if (!v.is_number_unsigned()) Reject(key, v, "expected an integer in [0, 2^64)");
    *field = v.get<std::uint64_t>();
  }

  // A number, or "inf" / "-inf".
  void Read(const char* key, double* field) { *field = ToReal(key, At(key)); }

  double ToReal(const char* key, const json& v) const {
    if (v.is_number()) return v.get<double>();
    if (v == "inf") return HUGE_VAL;
    if (v == "-inf") return -HUGE_VAL;
    Reject(key, v, "expected a number, \"inf\" or \"-inf\"");
  }

  void Read(const char* key, std::vector<double>* field) {
    const json& v = At(key);
    if (!v.is_array()) Reject(key, v, "expected an array of numbers");
    field->clear();
    for (const json& item : v) field->push_back(ToReal(key, item));
  }

  // An enum written by name(value); `values` lists every value of the enum.
  template <typename Enum>
  void ReadEnum(const char* key, Enum* field, std::string (*name)(Enum),
                std::initializer_list<Enum> values) {
    const json& v = At(key);
    std::string names;
    std::size_t k = 0;
    for (Enum e : values) {
      if (v.is_string() && v.get<std::string>() == name(e)) {
        *field = e;
        return;
      }
      names += (k == 0 ? "" : k + 1 == values.size() ? " or " : ", ") + name(e);
      ++k;
    }
    throw std::invalid_argument(Path(key) + " " + v.dump() + " is not " + names);
  }

  void Read(const char* key, std::string* field) {
    const json& v = At(key);
    if (!v.is_string()) Reject(key, v, "expected a string");
    *field = v.get<std::string>();
  }

  // The array at key.
  const json& Array(const char* key) {
    const json& v = At(key);
    if (!v.is_array()) Reject(key, v, "expected an array");
    return v;
  }

  // The object at key, to be read by its own FieldReader.
  FieldReader Object(const char* key) { return FieldReader(At(key), Path(key)); }

  // Throws naming the first key no read asked for, and listing the valid ones.
  void Finish() const {
    for (const auto& item : object_.items()) {
      bool known = false;
      for (const std::string& k : known_) known = known || k == item.key();
      if (known) continue;
      std::string valid;
      for (const std::string& k : known_) valid += (valid.empty() ? "" : ", ") + k;
      throw std::invalid_argument(where_ + ": unknown key '" + item.key() +
                                  "'; valid keys: " + (valid.empty() ? "none" : valid));
    }
  }

 private:
  const json& object_;
  std::string where_;
  std::vector<std::string> known_;
};

std::string PolicyName(NonFiniteRewardPolicy policy) {
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

std::string LocalAnchorName(LocalAnchor anchor) {
  return anchor == LocalAnchor::kHighestMean ? "highest-mean" : "highest-output";
}

json PriorToJson(const LogNormalPrior& p) {
  return {{"mean_log", p.mean_log}, {"stddev_log", Real(p.stddev_log)}};
}

LogNormalPrior PriorFromJson(FieldReader r) {
  LogNormalPrior p;
  r.Read("mean_log", &p.mean_log);
  r.Read("stddev_log", &p.stddev_log);
  r.Finish();
  return p;
}

json RangeToJson(const ParamRange& r) {
  return {{"min", r.min}, {"max", r.max}, {"start_min", r.start_min}, {"start_max", r.start_max}};
}

ParamRange RangeFromJson(FieldReader r) {
  ParamRange range;
  r.Read("min", &range.min);
  r.Read("max", &range.max);
  r.Read("start_min", &range.start_min);
  r.Read("start_max", &range.start_max);
  r.Finish();
  return range;
}

// The scalar fields of HyperparameterFitOptions, in the order written.
template <typename Fit, typename Visit>
void FitScalars(Fit& f, Visit visit) {
  visit("num_restarts", f.num_restarts);
  visit("max_iterations", f.max_iterations);
  visit("function_tolerance", f.function_tolerance);
  visit("gradient_tolerance", f.gradient_tolerance);
  visit("parameter_tolerance", f.parameter_tolerance);
  visit("max_seconds", f.max_seconds);
  visit("fit_noise", f.fit_noise);
  visit("min_noise_variance", f.min_noise_variance);
  visit("max_noise_variance", f.max_noise_variance);
  visit("min_lengthscale", f.min_lengthscale);
  visit("max_lengthscale", f.max_lengthscale);
  visit("min_period", f.min_period);
  visit("max_period", f.max_period);
  visit("min_signal_variance", f.min_signal_variance);
  visit("max_signal_variance", f.max_signal_variance);
  visit("start_min_lengthscale", f.start_min_lengthscale);
  visit("start_max_lengthscale", f.start_max_lengthscale);
  visit("start_min_period", f.start_min_period);
  visit("start_max_period", f.start_max_period);
  visit("start_min_signal_variance", f.start_min_signal_variance);
  visit("start_max_signal_variance", f.start_max_signal_variance);
  visit("start_min_noise_variance", f.start_min_noise_variance);
  visit("start_max_noise_variance", f.start_max_noise_variance);
}

json RealOrValue(double v) { return Real(v); }
json RealOrValue(int v) { return v; }
json RealOrValue(bool v) { return v; }

HyperparameterFitOptions FitOptionsFromJson(FieldReader r) {
  HyperparameterFitOptions f;
  FitScalars(f, [&r](const char* key, auto& field) { r.Read(key, &field); });
  const json& ranges = r.At("kind_ranges");
  if (!ranges.is_object()) r.Reject("kind_ranges", ranges, "expected an object of ranges");
  FieldReader kinds(ranges, r.Path("kind_ranges"));
  for (const auto& item : ranges.items())
    f.kind_ranges[item.key()] = RangeFromJson(kinds.Object(item.key().c_str()));
  r.Read("lower_log_bounds", &f.lower_log_bounds);
  r.Read("upper_log_bounds", &f.upper_log_bounds);
  const json& priors = r.At("kernel_priors");
  if (!priors.is_array()) r.Reject("kernel_priors", priors, "expected an array of priors");
  for (std::size_t i = 0; i < priors.size(); ++i)
    f.kernel_priors.push_back(PriorFromJson(
        FieldReader(priors[i], r.Path("kernel_priors") + "[" + std::to_string(i) + "]")));
  f.noise_prior = PriorFromJson(r.Object("noise_prior"));
  r.Finish();
  return f;
}

RefitSchedule RefitFromJson(FieldReader r) {
  RefitSchedule s;
  r.Read("enabled", &s.enabled);
  r.Read("every_while_small", &s.every_while_small);
  r.Read("small_until", &s.small_until);
  r.Read("every", &s.every);
  r.Finish();
  return s;
}

GaussianProcessOptions GpFromJson(FieldReader r) {
  GaussianProcessOptions g;
  r.Read("noise_variance", &g.noise_variance);
  r.Read("standardize_outputs", &g.standardize_outputs);
  r.ReadEnum("prior_mean", &g.prior_mean, PriorMeanEstimateName,
             {PriorMeanEstimate::kSampleMean, PriorMeanEstimate::kGeneralizedLeastSquares});
  r.Read("max_relative_jitter", &g.max_relative_jitter);
  r.Finish();
  return g;
}

LocalModelOptions LocalModelFromJson(FieldReader r) {
  LocalModelOptions l;
  r.Read("exact_until", &l.exact_until);
  r.Read("size", &l.size);
  r.Read("regions", &l.regions);
  r.ReadEnum("anchor", &l.anchor, LocalAnchorName,
             {LocalAnchor::kHighestOutput, LocalAnchor::kHighestMean});
  r.Read("trust_box_scale", &l.trust_box_scale);
  r.Finish();
  return l;
}

}  // namespace

json FitOptionsToJson(const HyperparameterFitOptions& f) {
  json j = json::object();
  FitScalars(f, [&j](const char* key, const auto& field) { j[key] = RealOrValue(field); });
  json kind_ranges = json::object();
  for (const auto& [kind, range] : f.kind_ranges) kind_ranges[kind] = RangeToJson(range);
  json priors = json::array();
  for (const auto& p : f.kernel_priors) priors.push_back(PriorToJson(p));
  json lower = json::array(), upper = json::array();
  for (double v : f.lower_log_bounds) lower.push_back(Real(v));
  for (double v : f.upper_log_bounds) upper.push_back(Real(v));
  j["kind_ranges"] = kind_ranges;
  j["lower_log_bounds"] = lower;
  j["upper_log_bounds"] = upper;
  j["kernel_priors"] = priors;
  j["noise_prior"] = PriorToJson(f.noise_prior);
  return j;
}

json LocalModelToJson(const LocalModelOptions& l) {
  return {{"exact_until", l.exact_until},
          {"size", l.size},
          {"regions", l.regions},
          {"anchor", LocalAnchorName(l.anchor)},
          {"trust_box_scale", l.trust_box_scale}};
}

json OutcomesToJson(const OutcomeOptions& o) {
  json objectives = json::array(), constraints = json::array(), reference = json::array();
  for (const ObjectiveSpec& objective : o.objectives)
    objectives.push_back(
        {{"name", objective.name}, {"sense", objective.minimize ? "minimize" : "maximize"}});
  for (const ConstraintSpec& c : o.constraints)
    constraints.push_back(
        {{"name", c.name}, {"sense", ConstraintSenseSymbol(c.sense)}, {"bound", Real(c.bound)}});
  for (const double r : o.reference_point) reference.push_back(Real(r));
  return {{"objectives", objectives},
          {"constraints", constraints},
          {"reference_point", reference},
          {"feasibility_confidence", o.feasibility_confidence},
          {"scalarization", ScalarizationRuleName(o.scalarization)}};
}

OutcomeOptions OutcomesFromJson(FieldReader r) {
  OutcomeOptions o;
  const json& objectives = r.Array("objectives");
  for (std::size_t i = 0; i < objectives.size(); ++i) {
    FieldReader item(objectives[i], r.Path("objectives") + "[" + std::to_string(i) + "]");
    ObjectiveSpec spec;
    item.Read("name", &spec.name);
    ObjectiveSense sense = ObjectiveSense::kMaximize;
    item.ReadEnum("sense", &sense, ObjectiveSenseName,
                  {ObjectiveSense::kMaximize, ObjectiveSense::kMinimize});
    spec.minimize = sense == ObjectiveSense::kMinimize;
    item.Finish();
    o.objectives.push_back(spec);
  }
  const json& constraints = r.Array("constraints");
  for (std::size_t j = 0; j < constraints.size(); ++j) {
    FieldReader item(constraints[j], r.Path("constraints") + "[" + std::to_string(j) + "]");
    ConstraintSpec spec;
    item.Read("name", &spec.name);
    item.ReadEnum("sense", &spec.sense, ConstraintSenseSymbol,
                  {ConstraintSense::kLessEqual, ConstraintSense::kGreaterEqual});
    item.Read("bound", &spec.bound);
    item.Finish();
    o.constraints.push_back(spec);
  }
  r.Read("reference_point", &o.reference_point);
  r.Read("feasibility_confidence", &o.feasibility_confidence);
  r.ReadEnum("scalarization", &o.scalarization, ScalarizationRuleName,
             {ScalarizationRule::kChebyshev, ScalarizationRule::kLinear});
  r.Finish();
  return o;
}

json FidelitiesToJson(const FidelityOptions& f) {
  json levels = json::array();
  for (const FidelitySpec& level : f.levels) {
    json item = {{"name", level.name}, {"cost", Real(level.cost)}};
    // Only on a source, so that the headers of studies without sources are unchanged; its
    // observations are the study's own tell records, not the header's.
    if (level.source) item["source"] = true;
    levels.push_back(item);
  }
  return {{"levels", levels},
          {"model", FidelityModelName(f.model)},
          {"rule", FidelityRuleName(f.rule)},
          {"min_correlation", f.min_correlation},
          {"fit_function_tolerance", Real(f.fit_function_tolerance)}};
}

FidelityOptions FidelitiesFromJson(FieldReader r) {
  FidelityOptions f;
  const json& levels = r.Array("levels");
  for (std::size_t i = 0; i < levels.size(); ++i) {
    FieldReader item(levels[i], r.Path("levels") + "[" + std::to_string(i) + "]");
    FidelitySpec spec;
    item.Read("name", &spec.name);
    item.Read("cost", &spec.cost);
    if (levels[i].contains("source")) item.Read("source", &spec.source);
    item.Finish();
    f.levels.push_back(spec);
  }
  r.ReadEnum("model", &f.model, FidelityModelName,
             {FidelityModel::kAutoregressive, FidelityModel::kIcm});
  r.ReadEnum("rule", &f.rule, FidelityRuleName,
             {FidelityRule::kInformation, FidelityRule::kThreshold});
  r.Read("min_correlation", &f.min_correlation);
  r.Read("fit_function_tolerance", &f.fit_function_tolerance);
  r.Finish();
  return f;
}

json OptimizerOptionsToJson(const OptimizerOptions& o) {
  json j = {{"seed", o.seed},
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
              {"prior_mean", PriorMeanEstimateName(o.gp.prior_mean)},
              {"max_relative_jitter", o.gp.max_relative_jitter}}},
            {"non_finite_rewards", PolicyName(o.non_finite_rewards)},
            {"sense", ObjectiveSenseName(o.sense)},
            {"outcomes", OutcomesToJson(o.outcomes)},
            {"fidelities", FidelitiesToJson(o.fidelities)},
            {"maximizer_raw_samples", o.maximizer_raw_samples},
            {"maximizer_starts", o.maximizer_starts},
            {"maximizer_observed_starts", o.maximizer_observed_starts},
            {"maximizer_iterations", o.maximizer_iterations},
            {"maximizer_function_tolerance", Real(o.maximizer_function_tolerance)},
            {"maximizer_raw_sample_design", RawSampleDesignName(o.maximizer_raw_sample_design)},
            {"maximizer_integer_search", IntegerSearchName(o.maximizer_integer_search)},
            {"label_probes", o.label_probes},
            {"num_threads", o.num_threads},
            {"finite_set_rank_one_updates", o.finite_set_rank_one_updates},
            {"sync_log", o.sync_log}};
  // Only with a prior mean, so that the headers of studies without one are unchanged.
  const PriorMeanFunction& m = o.prior_mean_function;
  if (m.declared())
    j["prior_mean_function"] = {
        {"name", m.name}, {"mean", Real(m.mean)}, {"stddev", Real(m.stddev)}};
  return j;
}

OptimizerOptions OptimizerOptionsFromJson(const json& object, const std::string& where) {
  FieldReader r(object, where);
  OptimizerOptions o;
  r.Read("seed", &o.seed);
  r.Read("initial_design_size", &o.initial_design_size);
  o.refit = RefitFromJson(r.Object("refit"));
  o.fit = FitOptionsFromJson(r.Object("fit"));
  r.Read("fit_restarts_until", &o.fit_restarts_until);
  r.Read("fit_max_observations", &o.fit_max_observations);
  o.local_model = LocalModelFromJson(r.Object("local_model"));
  o.gp = GpFromJson(r.Object("gp"));
  r.ReadEnum("non_finite_rewards", &o.non_finite_rewards, PolicyName,
             {NonFiniteRewardPolicy::kThrow, NonFiniteRewardPolicy::kSkip,
              NonFiniteRewardPolicy::kImputeWorst});
  r.ReadEnum("sense", &o.sense, ObjectiveSenseName,
             {ObjectiveSense::kMaximize, ObjectiveSense::kMinimize});
  o.outcomes = OutcomesFromJson(r.Object("outcomes"));
  o.fidelities = FidelitiesFromJson(r.Object("fidelities"));
  r.Read("maximizer_raw_samples", &o.maximizer_raw_samples);
  r.Read("maximizer_starts", &o.maximizer_starts);
  r.Read("maximizer_observed_starts", &o.maximizer_observed_starts);
  r.Read("maximizer_iterations", &o.maximizer_iterations);
  r.Read("maximizer_function_tolerance", &o.maximizer_function_tolerance);
  r.ReadEnum("maximizer_raw_sample_design", &o.maximizer_raw_sample_design, RawSampleDesignName,
             {RawSampleDesign::kLatinHypercube, RawSampleDesign::kSobol});
  r.ReadEnum("maximizer_integer_search", &o.maximizer_integer_search, IntegerSearchName,
             {IntegerSearch::kRelaxThenSearch, IntegerSearch::kLocalSearch,
              IntegerSearch::kRelaxAndRound});
  r.Read("label_probes", &o.label_probes);
  r.Read("num_threads", &o.num_threads);
  r.Read("finite_set_rank_one_updates", &o.finite_set_rank_one_updates);
  r.Read("sync_log", &o.sync_log);
  if (object.contains("prior_mean_function")) {
    FieldReader m = r.Object("prior_mean_function");
    m.Read("name", &o.prior_mean_function.name);
    m.Read("mean", &o.prior_mean_function.mean);
    m.Read("stddev", &o.prior_mean_function.stddev);
    m.Finish();
  }
  r.Finish();
  std::string error;
  if (!o.IsValid(&error)) throw std::invalid_argument(where + "." + error);
  return o;
}

}  // namespace internal
}  // namespace gpbandit
