#include "gpbandit/acquisition/strategy.h"

#include <cmath>
#include <stdexcept>

#include "acquisition/option_checks.h"

namespace gpbandit {

using internal::FieldValue;

void ValidateRoundState(const RoundState& state) {
  if (state.t < 1)
    throw std::invalid_argument(FieldValue("RoundState.t", state.t) + ": rounds start at 1");
  if (state.action_dim < 1)
    throw std::invalid_argument(FieldValue("RoundState.action_dim", state.action_dim) +
                                ": must be >= 1");
  if (state.num_candidates < 0)
    throw std::invalid_argument(FieldValue("RoundState.num_candidates", state.num_candidates) +
                                ": must be >= 0");
  if (!std::isfinite(state.information_gain) || state.information_gain < 0.0)
    throw std::invalid_argument(FieldValue("RoundState.information_gain", state.information_gain) +
                                ": must be finite and >= 0");
  if (std::isnan(state.incumbent) || state.incumbent == std::numeric_limits<double>::infinity())
    throw std::invalid_argument(FieldValue("RoundState.incumbent", state.incumbent) +
                                ": must be finite or -infinity");
  if (std::isnan(state.best_observed) ||
      state.best_observed == std::numeric_limits<double>::infinity())
    throw std::invalid_argument(FieldValue("RoundState.best_observed", state.best_observed) +
                                ": must be finite or -infinity");
  if (!std::isfinite(state.noise_variance) || state.noise_variance < 0.0)
    throw std::invalid_argument(FieldValue("RoundState.noise_variance", state.noise_variance) +
                                ": must be finite and >= 0");
  if (!std::isfinite(state.signal_variance) || !(state.signal_variance > 0.0))
    throw std::invalid_argument(FieldValue("RoundState.signal_variance", state.signal_variance) +
                                ": must be finite and > 0");
  if (!state.sequential_variances.allFinite() || (state.sequential_variances.array() < 0.0).any())
    throw std::invalid_argument(
        "RoundState.sequential_variances: every entry must be finite and >= 0");
  if (!state.one_step_residuals.allFinite())
    throw std::invalid_argument("RoundState.one_step_residuals: every entry must be finite");
}

void Strategy::CheckSupports(const Kernel& /*kernel*/, const SearchSpace& /*space*/) const {}
double Strategy::safety_beta(int /*t*/, int /*num_candidates*/) const { return 2.0; }
Eigen::VectorXd Strategy::ChooseSafe(const SafeRound&, Rng&) const {
  throw std::logic_error("strategy '" + name() +
                         "' declares no safe seeds and does not choose points itself");
}

Eigen::VectorXd ContinuousAcquisition::EvaluateMany(const Eigen::MatrixXd& X) const {
  Eigen::VectorXd values(X.cols());
  for (Eigen::Index j = 0; j < X.cols(); ++j) values(j) = Evaluate(X.col(j), nullptr);
  return values;
}

Eigen::VectorXd IndexStrategy::ScoreCandidates(const CandidatePosterior& posterior,
                                               Rng& /*rng*/) const {
  const Eigen::VectorXd& means = posterior.means();
  const Eigen::VectorXd& variances = posterior.variances();
  const int n = posterior.size();
  Eigen::VectorXd scores(n);
  for (int i = 0; i < n; ++i)
    scores(i) = Score(means(i), std::max(variances(i), 0.0), nullptr, nullptr);
  return scores;
}

namespace {

// score(x) = Score(mu(x), sigma^2(x)); the gradient by the chain rule through the GP's mean
// and variance gradients. Holds its own copy of the strategy so that it outlives the caller's.
class IndexAcquisition : public ContinuousAcquisition {
 public:
  IndexAcquisition(const GaussianProcess& gp, std::unique_ptr<Strategy> strategy)
      : gp_(gp),
        owner_(std::move(strategy)),
        strategy_(static_cast<const IndexStrategy&>(*owner_)) {}

  double Evaluate(const ConstVectorRef& x, Eigen::VectorXd* gradient) const override {
    double mean = 0.0, variance = 0.0;
    if (gradient == nullptr) {
      gp_.MeanAndVariance(x, &mean, &variance);
      return strategy_.Score(mean, std::max(variance, 0.0), nullptr, nullptr);
    }
    // Per-thread: the maximizer calls this thousands of times per round.
    thread_local Eigen::VectorXd mean_gradient, variance_gradient;
    gp_.MeanAndVariance(x, &mean, &variance, &mean_gradient, &variance_gradient);
    double d_mean = 0.0, d_variance = 0.0;
    const double value = strategy_.Score(mean, std::max(variance, 0.0), &d_mean, &d_variance);
    *gradient = d_mean * mean_gradient;
    // d_variance may be large where the variance is tiny; the GP's variance gradient is exactly
    // 0 where it clamped, and 0 * large must not become NaN.
    if (d_variance != 0.0) *gradient += d_variance * variance_gradient;
    return value;
  }

  Eigen::VectorXd EvaluateMany(const Eigen::MatrixXd& X) const override {
    Eigen::VectorXd means, variances;
    gp_.Predict(X, &means, &variances);
    Eigen::VectorXd values(X.cols());
    for (Eigen::Index j = 0; j < X.cols(); ++j)
      values(j) = strategy_.Score(means(j), std::max(variances(j), 0.0), nullptr, nullptr);
    return values;
  }

 private:
  const GaussianProcess& gp_;
  std::unique_ptr<Strategy> owner_;
  const IndexStrategy& strategy_;
};

}  // namespace

std::unique_ptr<ContinuousAcquisition> IndexStrategy::MakeContinuous(const GaussianProcess& gp,
                                                                     Rng& /*rng*/) const {
  std::unique_ptr<Strategy> copy = Clone();
  if (dynamic_cast<const IndexStrategy*>(copy.get()) == nullptr)
    throw std::logic_error(name() + ": Clone() did not return an IndexStrategy");
  return std::make_unique<IndexAcquisition>(gp, std::move(copy));
}

}  // namespace gpbandit
