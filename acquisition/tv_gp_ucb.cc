#include "gpbandit/acquisition/tv_gp_ucb.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "acquisition/option_checks.h"
#include "acquisition/options_json.h"

namespace gpbandit {
namespace {

bool InOpenUnitInterval(double v) { return v > 0.0 && v < 1.0; }

// Settled (tv_gp_ucb.h): at least W residuals; over the last W, mean z^2 <= h (no abrupt change)
// and sum z / sqrt(W) >= -g (the rewards are not sinking below the model's predictions).
bool IsSettled(const Eigen::VectorXd& residuals, const TvGpUcbOptions& o) {
  const int window = o.surprise_window;
  if (residuals.size() < window) return false;
  const auto last = residuals.tail(window);
  return last.squaredNorm() / window <= o.surprise_threshold &&
         last.sum() / std::sqrt(static_cast<double>(window)) >= -o.decline_threshold;
}

}  // namespace

bool TvGpUcbOptions::IsValid(std::string* error) const {
  using internal::Fail;
  if (!InOpenUnitInterval(epsilon)) return Fail(error, "epsilon", epsilon, "must be in (0, 1)");
  if (!InOpenUnitInterval(min_epsilon))
    return Fail(error, "min_epsilon", min_epsilon, "must be in (0, 1)");
  if (!InOpenUnitInterval(max_epsilon) || !(max_epsilon > min_epsilon))
    return Fail(error, "max_epsilon", max_epsilon, "must be in (min_epsilon, 1)");
  if (!(variance_cap > 0.0 && variance_cap <= 1.0))
    return Fail(error, "variance_cap", variance_cap, "must be in (0, 1]");
  if (!(settled_variance_cap > 0.0 && settled_variance_cap <= 1.0))
    return Fail(error, "settled_variance_cap", settled_variance_cap, "must be in (0, 1]");
  if (surprise_window < 1) return Fail(error, "surprise_window", surprise_window, "must be >= 1");
  if (!(surprise_threshold > 0.0) || !std::isfinite(surprise_threshold))
    return Fail(error, "surprise_threshold", surprise_threshold, "must be finite and > 0");
  if (!(decline_threshold > 0.0) || !std::isfinite(decline_threshold))
    return Fail(error, "decline_threshold", decline_threshold, "must be finite and > 0");
  if (fit_epsilon && !(epsilon >= min_epsilon && epsilon <= max_epsilon))
    return Fail(error, "epsilon", epsilon,
                "must lie in [min_epsilon, max_epsilon] when fit_epsilon (it starts the fit)");
  return ucb.IsValid(error);
}

TvGpUcb::TvGpUcb(const TvGpUcbOptions& options) : GpUcb(options.ucb), tv_options_(options) {
  internal::ThrowIfInvalid(tv_options_, "TvGpUcbOptions");
}

std::unique_ptr<Strategy> TvGpUcb::Create(const StrategyParams& params) {
  const std::string who = "tv-gp-ucb";
  StrategyParams ucb_params = params;
  const nlohmann::json own = internal::TakeOwnKeys(
      &ucb_params,
      {"epsilon", "fit_epsilon", "min_epsilon", "max_epsilon", "variance_cap", "prior_mean",
       "settled_variance_cap", "surprise_window", "surprise_threshold", "decline_threshold"});
  TvGpUcbOptions options;
  options.ucb = ReadOptions(ucb_params, who);
  internal::ReadOwnKeys(own, who, &options, [&](internal::OptionsReader& reader) {
    reader.Read("epsilon", &options.epsilon);
    reader.Read("fit_epsilon", &options.fit_epsilon);
    reader.Read("min_epsilon", &options.min_epsilon);
    reader.Read("max_epsilon", &options.max_epsilon);
    reader.Read("variance_cap", &options.variance_cap);
    reader.Read("settled_variance_cap", &options.settled_variance_cap);
    reader.Read("surprise_window", &options.surprise_window);
    reader.Read("surprise_threshold", &options.surprise_threshold);
    reader.Read("decline_threshold", &options.decline_threshold);
    reader.ReadEnum("prior_mean", &options.prior_mean, PriorMeanEstimateName,
                    {PriorMeanEstimate::kGeneralizedLeastSquares, PriorMeanEstimate::kSampleMean});
  });
  return std::make_unique<TvGpUcb>(options);
}

void TvGpUcb::BeginRound(const RoundState& state) {
  GpUcb::BeginRound(state);
  settled_ = IsSettled(state.one_step_residuals, tv_options_);
  const double cap = settled_ ? std::min(tv_options_.variance_cap, tv_options_.settled_variance_cap)
                              : tv_options_.variance_cap;
  // c = 1 leaves the paper's rule exactly (no comparison against the prior variance at all).
  variance_limit_ =
      cap < 1.0 ? cap * state.signal_variance : std::numeric_limits<double>::infinity();
}

double TvGpUcb::Score(double mean, double variance, double* d_mean, double* d_variance) const {
  if (variance <= variance_limit_) return GpUcb::Score(mean, variance, d_mean, d_variance);
  const double score = GpUcb::Score(mean, variance_limit_, d_mean, nullptr);
  if (d_variance != nullptr) *d_variance = 0.0;
  return score;
}

std::unique_ptr<Strategy> TvGpUcb::Clone() const { return std::make_unique<TvGpUcb>(*this); }

std::string TvGpUcb::OptionsJson() const {
  nlohmann::json j = nlohmann::json::parse(GpUcb::OptionsJson());
  j["epsilon"] = tv_options_.epsilon;
  j["fit_epsilon"] = tv_options_.fit_epsilon;
  j["min_epsilon"] = tv_options_.min_epsilon;
  j["max_epsilon"] = tv_options_.max_epsilon;
  j["variance_cap"] = tv_options_.variance_cap;
  j["settled_variance_cap"] = tv_options_.settled_variance_cap;
  j["surprise_window"] = tv_options_.surprise_window;
  j["surprise_threshold"] = tv_options_.surprise_threshold;
  j["decline_threshold"] = tv_options_.decline_threshold;
  j["prior_mean"] = PriorMeanEstimateName(tv_options_.prior_mean);
  return j.dump();
}

TimeModel TvGpUcb::time_model() const {
  TimeModel m;
  m.kind = TimeModelKind::kForgetting;
  m.epsilon = tv_options_.epsilon;
  m.fit_epsilon = tv_options_.fit_epsilon;
  m.min_epsilon = tv_options_.min_epsilon;
  m.max_epsilon = tv_options_.max_epsilon;
  m.prior_mean = tv_options_.prior_mean;
  return m;
}

}  // namespace gpbandit
