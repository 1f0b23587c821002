#include "cli/safe_set_slice.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

namespace gpbandit {
namespace cli {
namespace {

// An option's value; the command line may have stored a JSON array as its text.
nlohmann::json OptionValue(const nlohmann::json& options, const std::string& key) {
  if (!options.contains(key)) return nlohmann::json();
  const nlohmann::json& v = options.at(key);
  if (v.is_string()) return nlohmann::json::parse(v.get<std::string>(), nullptr, false);
  return v;
}

}  // namespace

SafetyRule SafetyRuleOf(const Optimizer& opt) {
  SafetyRule rule;
  if (opt.strategy_name() != "safe-opt") return rule;
  rule.active = true;
  const nlohmann::json options = nlohmann::json::parse(opt.strategy_options().json());
  const nlohmann::json beta = OptionValue(options, "beta");
  if (beta.is_number()) rule.beta = beta.get<double>();
  const nlohmann::json threshold = OptionValue(options, "threshold");
  if (threshold.is_number()) rule.reward_threshold = threshold.get<double>();
  const nlohmann::json constraints = OptionValue(options, "constraint_thresholds");
  if (constraints.is_array())
    for (const nlohmann::json& h : constraints)
      if (h.is_number()) rule.constraint_thresholds.push_back(h.get<double>());
  return rule;
}

double SafetyMargin(const Optimizer& opt, const SafetyRule& rule, const Eigen::VectorXd& x,
                    const Eigen::VectorXd& z) {
  if (!rule.active) return std::numeric_limits<double>::quiet_NaN();
  double margin = std::numeric_limits<double>::infinity();
  if (!std::isnan(rule.reward_threshold)) {
    const Prediction p = opt.Predict(x, z);
    const bool costs = opt.options().sense == ObjectiveSense::kMinimize;
    margin = costs ? rule.reward_threshold - (p.mean + rule.beta * p.stddev)
                   : p.mean - rule.beta * p.stddev - rule.reward_threshold;
  }
  const Eigen::VectorXd unit = opt.domain().ToUnit(x, z);
  const int m =
      std::min(opt.num_constraints(), static_cast<int>(rule.constraint_thresholds.size()));
  for (int i = 0; i < m; ++i) {
    double mean = 0, variance = 0;
    opt.constraint_model(i).MeanAndVariance(unit, &mean, &variance);
    const double lower = mean - rule.beta * std::sqrt(std::max(variance, 0.0));
    margin = std::min(margin, lower - rule.constraint_thresholds[static_cast<std::size_t>(i)]);
  }
  return margin;
}

}  // namespace cli
}  // namespace gpbandit
