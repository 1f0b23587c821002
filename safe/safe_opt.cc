#include "gpbandit/safe/safe_opt.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>

#include "acquisition/option_checks.h"
#include "acquisition/options_json.h"
#include "gpbandit/maximizer/box_maximizer.h"
#include "gpbandit/safe/safe_set.h"

namespace gpbandit {
namespace {

using internal::Fail;

// The radii (unit cube) of the perturbations around seeds and observed actions, in turn: from
// below a typical fitted lengthscale (0.1-0.3) to about it, so that the cloud holds both points
// just across the safe set's edge and points one lengthscale out.
constexpr double kCloudRadii[] = {0.02, 0.05, 0.1, 0.2};
// The refinement's points around the first choice and their radii.
constexpr int kRefinePoints = 32;
// With calibrated models, the cloud surrounds the seeds and the last this many observed actions
// (where the safe set's edge has been explored lately); the Sobol points cover the rest.
constexpr int kAnchors = 32;
constexpr double kRefineRadii[] = {0.03, 0.01};

// Clamps the columns of X into [lower, upper].
void ClampColumns(const Eigen::VectorXd& lower, const Eigen::VectorXd& upper, Eigen::MatrixXd* X) {
  for (Eigen::Index j = 0; j < X->cols(); ++j)
    X->col(j) = X->col(j).cwiseMax(lower).cwiseMin(upper);
}

// `per_anchor` Gaussian perturbations of each column of `anchors`, radii from `radii` in turn,
// in the action coordinates only, clamped into the box.
template <std::size_t N>
Eigen::MatrixXd Cloud(const Eigen::MatrixXd& anchors, int per_anchor, const double (&radii)[N],
                      int action_dim, const Eigen::VectorXd& lower, const Eigen::VectorXd& upper,
                      Rng& rng) {
  std::normal_distribution<double> normal(0.0, 1.0);
  Eigen::MatrixXd cloud(anchors.rows(), anchors.cols() * per_anchor);
  Eigen::Index c = 0;
  for (Eigen::Index a = 0; a < anchors.cols(); ++a) {
    for (int k = 0; k < per_anchor; ++k, ++c) {
      const double r = radii[static_cast<std::size_t>(k) % N];
      cloud.col(c) = anchors.col(a);
      for (int d = 0; d < action_dim; ++d) cloud(d, c) += r * normal(rng);
    }
  }
  ClampColumns(lower, upper, &cloud);
  return cloud;
}

Eigen::MatrixXd Concat(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B) {
  if (A.cols() == 0) return B;
  if (B.cols() == 0) return A;
  Eigen::MatrixXd out(A.rows(), A.cols() + B.cols());
  out << A, B;
  return out;
}

// The observed actions of `gp` under the round's context (the tail of the box's lower bound):
// the last `count` of them (all when count < 0).
Eigen::MatrixXd ObservedUnderContext(const GaussianProcess& gp, const SafeRound& round, int count) {
  Eigen::MatrixXd X = gp.inputs();
  if (count >= 0 && X.cols() > count) X = Eigen::MatrixXd(X.rightCols(count));
  const Eigen::Index context_dim = X.rows() - round.action_dim;
  for (Eigen::Index j = 0; j < X.cols(); ++j)
    X.col(j).tail(context_dim) = round.lower.tail(context_dim);
  return X;
}

// True where a column of X equals a seed column exactly.
std::vector<bool> DeclaredSafe(const Eigen::MatrixXd& X, const Eigen::MatrixXd& seeds) {
  std::vector<bool> declared(static_cast<std::size_t>(X.cols()), false);
  for (Eigen::Index j = 0; j < X.cols(); ++j)
    for (Eigen::Index s = 0; s < seeds.cols(); ++s)
      if (X.col(j) == seeds.col(s)) declared[static_cast<std::size_t>(j)] = true;
  return declared;
}

// The first seed whose action is not among the model's inputs (pending points included), or -1.
int UnevaluatedSeed(const SafeRound& round) {
  const Eigen::MatrixXd inputs = round.reward_for_widths->inputs();
  for (Eigen::Index s = 0; s < round.seeds.cols(); ++s) {
    bool seen = false;
    for (Eigen::Index j = 0; j < inputs.cols() && !seen; ++j)
      seen = inputs.col(j).head(round.action_dim) == round.seeds.col(s).head(round.action_dim);
    if (!seen) return static_cast<int>(s);
  }
  return -1;
}

// The round's signals from calibrated models: the reward as the objective (no threshold), then
// each safety model with its threshold in its own units, widths in prior standard deviations.
std::vector<SafeSignal> CalibratedSignals(const SafeRound& round) {
  std::vector<SafeSignal> signals;
  SafeSignal reward;
  reward.gp = round.reward;
  reward.gp_for_widths = round.reward_for_widths;
  reward.width_scale = round.reward_prior_stddev;
  signals.push_back(reward);
  for (const SafetyModel& model : round.safety) {
    SafeSignal s;
    s.gp = model.gp;
    s.threshold = model.threshold;
    s.width_scale = model.prior_stddev;
    s.max_mean = model.max_mean;
    signals.push_back(s);
  }
  return signals;
}

std::vector<SafeSignal> Signals(const SafeOptOptions& options, const SafeRound& round) {
  if (!round.safety.empty()) return CalibratedSignals(round);
  std::vector<SafeSignal> signals;
  SafeSignal reward;
  reward.gp = round.reward;
  reward.gp_for_widths = round.reward_for_widths;
  // NaN stays NaN.
  reward.threshold = round.reward_sign * options.threshold / round.reward_unit;
  // Widths are compared in each model's standardized units.
  reward.width_scale = round.reward->output_scale();
  signals.push_back(reward);
  for (std::size_t i = 0; i < round.constraints.size(); ++i) {
    SafeSignal constraint;
    constraint.gp = round.constraints[i];
    constraint.threshold = options.constraint_thresholds[i];
    constraint.width_scale = round.constraints[i]->output_scale();
    signals.push_back(constraint);
  }
  return signals;
}

}  // namespace

std::string SafeRecommendationName(SafeRecommendation r) {
  return r == SafeRecommendation::kSafeSet ? "safe-set" : "observed";
}

std::string SafeRuleName(SafeRule r) { return r == SafeRule::kSafeOpt ? "safeopt" : "ucb"; }

namespace {
nlohmann::json NumberOrNull(double v) {
  return std::isnan(v) ? nlohmann::json(nullptr) : nlohmann::json(v);
}
}  // namespace

void to_json(nlohmann::json& j, const SafeOptOptions& o) {
  j = {{"threshold", NumberOrNull(o.threshold)},
       {"constraint_thresholds", o.constraint_thresholds},
       {"seeds", o.seeds},
       {"beta", o.beta},
       {"delta", NumberOrNull(o.delta)},
       {"box_samples", o.box_samples},
       {"local_samples", o.local_samples},
       {"calibrated", o.calibrated},
       {"signal_models", o.signal_models},
       {"rule", SafeRuleName(o.rule)},
       {"recommendation", SafeRecommendationName(o.recommendation)}};
}

void from_json(const nlohmann::json& j, SafeOptOptions& o) {
  internal::OptionsReader reader(j);
  reader.ReadNumberOrNull("threshold", &o.threshold);
  reader.Read("constraint_thresholds", &o.constraint_thresholds);
  reader.Read("seeds", &o.seeds);
  reader.Read("beta", &o.beta);
  reader.ReadNumberOrNull("delta", &o.delta);
  reader.Read("box_samples", &o.box_samples);
  reader.Read("local_samples", &o.local_samples);
  reader.Read("calibrated", &o.calibrated);
  reader.ReadObjects("signal_models", &o.signal_models);
  reader.ReadEnum("rule", &o.rule, SafeRuleName, {SafeRule::kSafeOpt, SafeRule::kUcb});
  reader.ReadEnum("recommendation", &o.recommendation, SafeRecommendationName,
                  {SafeRecommendation::kObserved, SafeRecommendation::kSafeSet});
  reader.Finish();
}

bool SafeOptOptions::IsValid(std::string* error) const {
  if (std::isinf(threshold)) return Fail(error, "threshold", threshold, "must be finite or null");
  if (std::isnan(threshold) && constraint_thresholds.empty())
    return Fail(error, "threshold", "null",
                "a safety threshold is required: set threshold (on the reward) or "
                "constraint_thresholds");
  for (std::size_t i = 0; i < constraint_thresholds.size(); ++i)
    if (!std::isfinite(constraint_thresholds[i]))
      return Fail(error, "constraint_thresholds[" + std::to_string(i) + "]",
                  constraint_thresholds[i], "must be finite");
  if (seeds.empty())
    return Fail(error, "seeds", "[]",
                "at least one safe seed (an action known to be safe) is required");
  for (std::size_t s = 0; s < seeds.size(); ++s) {
    const std::string field = "seeds[" + std::to_string(s) + "]";
    if (seeds[s].empty() || seeds[s].size() != seeds[0].size())
      return Fail(error, field + " size", seeds[s].size(),
                  "every seed needs the same, non-zero number of coordinates (seeds[0] has " +
                      std::to_string(seeds[0].size()) + ")");
    for (double v : seeds[s])
      if (!std::isfinite(v)) return Fail(error, field, v, "coordinates must be finite");
  }
  if (!(beta > 0.0) || !std::isfinite(beta))
    return Fail(error, "beta", beta, "must be finite and > 0");
  if (box_samples < 1) return Fail(error, "box_samples", box_samples, "must be >= 1");
  if (local_samples < 0) return Fail(error, "local_samples", local_samples, "must be >= 0");
  if (!std::isnan(delta) && !(delta > 0.0 && delta < 1.0))
    return Fail(error, "delta", delta, "must be in (0, 1), or null for the constant beta");
  const std::size_t signals = 1 + constraint_thresholds.size();
  if (!signal_models.empty() && signal_models.size() != signals)
    return Fail(error, "signal_models size", signal_models.size(),
                "must be 0 or " + std::to_string(signals) +
                    " (the reward's, then one per constraint signal)");
  for (std::size_t i = 0; i < signal_models.size(); ++i)
    if (!signal_models[i].IsValid(error, "signal_models[" + std::to_string(i) + "].")) return false;
  if (!calibrated && !signal_models.empty())
    return Fail(error, "calibrated", "false",
                "signal_models need calibrated models (calibrated = true)");
  return true;
}

SafeOpt::SafeOpt(const SafeOptOptions& options) : options_(options), beta_(options.beta) {
  internal::ThrowIfInvalid(options_, "safe-opt options");
}

std::unique_ptr<Strategy> SafeOpt::Create(const StrategyParams& params) {
  return std::make_unique<SafeOpt>(internal::ReadOptions<SafeOptOptions>(params, "safe-opt"));
}

std::string SafeOpt::DefaultOptionsJson() { return internal::WriteOptions(SafeOptOptions()); }

std::string SafeOpt::OptionsJson() const { return internal::WriteOptions(options_); }

std::unique_ptr<Strategy> SafeOpt::Clone() const { return std::make_unique<SafeOpt>(*this); }

void SafeOpt::BeginRound(const RoundState& state) {
  ValidateRoundState(state);
  beta_ = safety_beta(state.t, state.num_candidates);
}

double SafeOpt::safety_beta(int t, int num_candidates) const {
  if (std::isnan(options_.delta) || num_candidates < 1) return options_.beta;
  // Sui et al. 2015, Theorem 1 (Srinivas et al.'s finite-set beta_t): the multiplier of sigma is
  // its square root.
  const double tt = std::max(t, 1);
  return std::sqrt(2.0 * std::log(num_candidates * tt * tt * M_PI * M_PI / (6.0 * options_.delta)));
}

void SafeOpt::CheckSupports(const Kernel& /*kernel*/, const SearchSpace& space) const {
  if (!space.finite_set && !std::isnan(options_.delta))
    throw std::invalid_argument(
        internal::FieldValue("delta", options_.delta) +
        ": Sui et al.'s beta_t needs a finite set of candidates; on a box set beta");
}

std::vector<SafetySignal> SafeOpt::safety_signals() const {
  std::vector<SafetySignal> signals(1 + options_.constraint_thresholds.size());
  signals[0].threshold = options_.threshold;
  for (std::size_t i = 0; i < options_.constraint_thresholds.size(); ++i)
    signals[i + 1].threshold = options_.constraint_thresholds[i];
  for (std::size_t i = 0; i < options_.signal_models.size(); ++i)
    signals[i].model = options_.signal_models[i];
  return signals;
}

Eigen::VectorXd SafeOpt::ScoreCandidates(const CandidatePosterior&, Rng&) const {
  throw std::logic_error("safe-opt chooses its points through ChooseSafe, not by scores");
}

std::unique_ptr<ContinuousAcquisition> SafeOpt::MakeContinuous(const GaussianProcess&, Rng&) const {
  throw std::logic_error("safe-opt chooses its points through ChooseSafe, not by an acquisition");
}

Eigen::MatrixXd SafeOpt::safe_seeds() const {
  const auto dim = static_cast<Eigen::Index>(options_.seeds[0].size());
  Eigen::MatrixXd seeds(dim, static_cast<Eigen::Index>(options_.seeds.size()));
  for (std::size_t s = 0; s < options_.seeds.size(); ++s)
    for (Eigen::Index d = 0; d < dim; ++d)
      seeds(d, static_cast<Eigen::Index>(s)) = options_.seeds[s][static_cast<std::size_t>(d)];
  return seeds;
}

Eigen::VectorXd SafeOpt::ChooseSafe(const SafeRound& round, Rng& rng) const {
  if (round.reward == nullptr || round.reward_for_widths == nullptr)
    throw std::invalid_argument("SafeRound: reward model missing");
  if (round.constraints.size() != options_.constraint_thresholds.size())
    throw std::invalid_argument(
        "SafeRound: " + std::to_string(round.constraints.size()) + " constraint models for " +
        std::to_string(options_.constraint_thresholds.size()) + " constraint thresholds");
  if (round.seeds.cols() < 1 ||
      round.seeds.cols() > static_cast<Eigen::Index>(options_.seeds.size()))
    throw std::invalid_argument("SafeRound: " + std::to_string(round.seeds.cols()) +
                                " seed columns for " + std::to_string(options_.seeds.size()) +
                                " seeds");
  const int unevaluated = UnevaluatedSeed(round);
  if (unevaluated >= 0) return round.seeds.col(unevaluated);
  const std::vector<SafeSignal> signals = Signals(options_, round);
  const bool calibrated = !round.safety.empty();
  Eigen::MatrixXd X = round.candidates;
  if (X.cols() == 0) {
    const Eigen::MatrixXd anchors =
        Concat(round.seeds, ObservedUnderContext(*round.reward, round, calibrated ? kAnchors : -1));
    X = ScrambledSobol(round.lower, round.upper, options_.box_samples, rng);
    X = Concat(Concat(X, anchors), Cloud(anchors, options_.local_samples, kCloudRadii,
                                         round.action_dim, round.lower, round.upper, rng));
  }
  SafeBounds bounds = ComputeSafeBounds(signals, X, beta_);
  SafeChoice choice = Choose(signals, X, bounds, round.seeds);
  if (choice.index < 0) return round.seeds.col(0);
  if (round.candidates.cols() > 0) return X.col(choice.index);
  // Refinement: the rule again with a finer cloud around the first choice.
  const Eigen::MatrixXd fine = Cloud(Eigen::MatrixXd(X.col(choice.index)), kRefinePoints,
                                     kRefineRadii, round.action_dim, round.lower, round.upper, rng);
  if (calibrated) {
    AppendPoints(signals, fine, beta_, &X, &bounds);
  } else {
    // Format <= 4: the whole set predicted again, as the studies of that format ran.
    X = Concat(X, fine);
    bounds = ComputeSafeBounds(signals, X, beta_);
  }
  return X.col(Choose(signals, X, bounds, round.seeds).index);
}

SafeChoice SafeOpt::Choose(const std::vector<SafeSignal>& signals, const Eigen::MatrixXd& X,
                           const SafeBounds& bounds, const Eigen::MatrixXd& seeds) const {
  const std::vector<bool> declared = DeclaredSafe(X, seeds);
  if (options_.rule == SafeRule::kUcb)
    return ChooseOptimistic(signals, bounds, OptimisticObjective(signals, X, bounds, beta_),
                            declared);
  return ChooseAmong(signals, X, bounds, ScaledWidths(signals, X, bounds, beta_), declared, beta_);
}

}  // namespace gpbandit
