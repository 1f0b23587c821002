// What an Optimizer under a safe strategy (SafeOpt) answers about safety: the recommendation
// (Best, Best(context)), which is never a point outside the safe set, the safety margin of a
// point, and a constraint signal's posterior in its told units (optimizer.h).
//
// A point (x, z) clears the models when, for every safety signal i (the reward's, if it has a
// threshold, and every constraint), mu_i - beta sigma_i >= h_i, h_i in model i's units and beta
// the strategy's for the next round. By default Best recommends, among the evaluated points
// measured safe (every told signal within its threshold) that clear the models (or are declared
// seeds), the one with the highest posterior mean of the reward; with
// Strategy::recommend_from_safe_set, Best(context) takes the maximizer of the posterior mean
// over the models' safe set (the candidates of a finite set, or on a box the observed actions,
// the seeds, scrambled Sobol points and a cloud around the observed actions).
#include <cmath>
#include <limits>
#include <random>

#include "gpbandit/maximizer/box_maximizer.h"
#include "model/signal_model.h"
#include "optimizer/optimizer_impl.h"
#include "optimizer/seed_audit.h"
#include "study/round_rng.h"

namespace gpbandit {
namespace internal {
namespace {

// The points of the safe-set recommendation on a box, besides the observed actions and seeds.
constexpr int kSafeSetSobolPoints = 512;
constexpr int kSafeSetCloudPerAction = 8;
constexpr double kSafeSetCloudRadius = 0.03;
constexpr double kNoCap = std::numeric_limits<double>::infinity();

// The reward last told at (x, z) among the accepted observations, or NaN.
double ObservedReward(const std::vector<Observation>& observations, const Eigen::VectorXd& x,
                      const Eigen::VectorXd& z) {
  double reward = std::nan("");
  for (const Observation& o : observations)
    if (o.accepted && SameVector(o.x, x) && SameVector(o.z, z)) reward = o.y;
  return reward;
}

}  // namespace

std::vector<OptimizerImpl::SafetyCheck> OptimizerImpl::SafetyChecks() const {
  std::vector<SafetyCheck> checks;
  if (calibrated_) {
    for (const SignalModel& m : model_->safety_models())
      checks.push_back({&m.gp(), m.threshold(), m.prior_stddev(), false, m.max_observed()});
    return checks;
  }
  // The raw models: thresholds in the caller's units, the reward's through its outcome chain.
  const double h = safety_.empty() ? std::nan("") : safety_[0].threshold;
  if (!std::isnan(h))
    checks.push_back({&model_->gp(), model_->chain().sense().sign() * h / model_->reward_unit(),
                      PriorStddev(model_->gp()), true, kNoCap});
  for (int i = 0; i < model_->num_constraints() && i + 1 < static_cast<int>(safety_.size()); ++i)
    checks.push_back({&model_->constraint(i), safety_[static_cast<std::size_t>(i) + 1].threshold,
                      PriorStddev(model_->constraint(i)), false, kNoCap});
  return checks;
}

double OptimizerImpl::SafetyBeta() const {
  const int candidates = domain_.num_decision_points();
  return strategy_->safety_beta(model_->gp().num_observations() + 1, candidates);
}

double OptimizerImpl::Margin(const std::vector<SafetyCheck>& checks, const Eigen::VectorXd& x,
                             const Eigen::VectorXd& z, double beta) const {
  double margin = std::numeric_limits<double>::infinity();
  const Eigen::VectorXd unit = domain_.ToUnit(x, z);
  for (const SafetyCheck& c : checks) {
    double mean = 0, variance = 0;
    c.gp->MeanAndVariance(c.reward_input ? inputs_.Input(x, z, rounds_) : unit, &mean, &variance);
    const double lower = std::min(mean, c.max_mean) - beta * std::sqrt(std::max(variance, 0.0));
    margin = std::min(margin, (lower - c.threshold) / c.prior_stddev);
  }
  return margin;
}

double OptimizerImpl::SafetyMargin(const Eigen::VectorXd& x, const Eigen::VectorXd& z) const {
  domain_.CheckAction(x, "x");
  domain_.CheckContext(z, "context");
  if (!safe_ || safety_.empty()) return std::numeric_limits<double>::quiet_NaN();
  return Margin(SafetyChecks(), x, z, SafetyBeta());
}

Prediction OptimizerImpl::PredictConstraint(int i, const Eigen::VectorXd& x,
                                            const Eigen::VectorXd& z) const {
  domain_.CheckAction(x, "x");
  domain_.CheckContext(z, "context");
  const GaussianProcess& gp = model_->constraint(i);  // throws std::out_of_range for a bad i
  double mean = 0, variance = 0;
  gp.MeanAndVariance(domain_.ToUnit(x, z), &mean, &variance);
  Prediction p;
  p.mean = mean;
  p.stddev = std::sqrt(std::max(variance, 0.0));
  if (calibrated_) {
    const SignalModel& m =
        model_->safety_models()[static_cast<std::size_t>(model_->constraint_safety_model(i))];
    p.mean = m.MeanToTold(p.mean);
    p.stddev = m.StddevToTold(p.stddev);
  }
  return p;
}

// The usable seeds' actions (original units): declared safe at every context.
std::vector<Eigen::VectorXd> OptimizerImpl::VouchedSeeds() const {
  const Eigen::MatrixXd seeds = strategy_->safe_seeds();
  const SeedAudit audit =
      AuditSeeds(seeds, observations_, safety_, options_.sense == ObjectiveSense::kMinimize);
  std::vector<Eigen::VectorXd> vouched;
  for (Eigen::Index s = 0; s < seeds.cols(); ++s)
    if (audit.usable[static_cast<std::size_t>(s)]) vouched.push_back(seeds.col(s));
  return vouched;
}

Recommendation OptimizerImpl::SafeBest(const Eigen::VectorXd* context) const {
  const std::vector<SafetyCheck> checks = SafetyChecks();
  const std::vector<Eigen::VectorXd> seeds = VouchedSeeds();
  const double beta = SafetyBeta();
  const bool minimize = options_.sense == ObjectiveSense::kMinimize;
  auto is_seed = [&](const Eigen::VectorXd& x) {
    for (const Eigen::VectorXd& s : seeds)
      if (SameVector(s, x)) return true;
    return false;
  };
  Recommendation best;
  double best_mean = -std::numeric_limits<double>::infinity();
  for (const Observation& o : observations_) {
    if (!MeasuredSafe(o, safety_, minimize)) continue;
    const Eigen::VectorXd& z = context != nullptr ? *context : o.z;
    if (!is_seed(o.x) && !(Margin(checks, o.x, z, beta) >= 0.0)) continue;
    const double mean = model_->gp().Mean(inputs_.Input(o.x, z, rounds_));
    if (!(mean > best_mean)) continue;  // the first of equal means
    best_mean = mean;
    best.x = o.x;
    best.z = z;
  }
  if (!std::isfinite(best_mean))
    throw std::logic_error(
        "Best: no evaluated point is measured safe and inside the safe set yet (strategy '" +
        strategy_name_ + "')");
  best.posterior_mean = model_->chain().MeanToTold(best_mean);
  best.observed_reward = ObservedReward(observations_, best.x, best.z);
  return best;
}

// The maximizer of the reward's posterior mean over the safe set at context z.
Recommendation OptimizerImpl::SafeSetBest(const Eigen::VectorXd& z) const {
  const std::vector<SafetyCheck> checks = SafetyChecks();
  const double beta = SafetyBeta();
  std::vector<Eigen::VectorXd> points = VouchedSeeds();
  const std::size_t num_seeds = points.size();
  if (domain_.kind() == DomainKind::kFiniteSet) {
    for (int c = 0; c < domain_.num_candidates(); ++c)
      points.push_back(domain_.candidates().col(c));
  } else {
    Rng rng = RoundRng(options_.seed, rounds_, kStreamBest);
    const Eigen::VectorXd lo = Eigen::VectorXd::Zero(domain_.action_dim());
    const Eigen::VectorXd hi = Eigen::VectorXd::Ones(domain_.action_dim());
    std::normal_distribution<double> normal(0.0, kSafeSetCloudRadius);
    for (const Observation& o : observations_) {
      points.push_back(o.x);
      const Eigen::VectorXd u = domain_.ToUnit(o.x, z).head(domain_.action_dim());
      for (int k = 0; k < kSafeSetCloudPerAction; ++k) {
        Eigen::VectorXd v = u;
        for (Eigen::Index d = 0; d < v.size(); ++d) v(d) += normal(rng);
        points.push_back(domain_.ActionFromUnit(v.cwiseMax(lo).cwiseMin(hi)));
      }
    }
    const Eigen::MatrixXd sobol = ScrambledSobol(lo, hi, kSafeSetSobolPoints, rng);
    for (Eigen::Index j = 0; j < sobol.cols(); ++j)
      points.push_back(domain_.ActionFromUnit(sobol.col(j)));
  }
  Recommendation best;
  double best_mean = -std::numeric_limits<double>::infinity();
  for (std::size_t j = 0; j < points.size(); ++j) {
    if (j >= num_seeds && !(Margin(checks, points[j], z, beta) >= 0.0)) continue;
    const double mean = model_->gp().Mean(inputs_.Input(points[j], z, rounds_));
    if (!(mean > best_mean)) continue;
    best_mean = mean;
    best.x = points[j];
  }
  if (!std::isfinite(best_mean))
    throw std::logic_error("Best: the safe set is empty (no seed left; strategy '" +
                           strategy_name_ + "')");
  best.z = z;
  best.posterior_mean = model_->chain().MeanToTold(best_mean);
  best.observed_reward = ObservedReward(observations_, best.x, z);
  return best;
}

}  // namespace internal
}  // namespace gpbandit
