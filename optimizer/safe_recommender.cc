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
// With fidelities every answer is at the target: the models are read there, and Best takes only
// the observations measured at the target (a simulator's measurement vouches for nothing on
// the robot; docs/fidelities.md, "Safety across fidelities").
#include "optimizer/safe_recommender.h"

#include <cmath>
#include <limits>
#include <random>

#include "gpbandit/maximizer/box_maximizer.h"
#include "model/signal_model.h"
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

// The reward last told at (x, z) among the accepted observations at `fidelity` (-1: any), or
// NaN.
double ObservedReward(const std::vector<Observation>& observations, const Eigen::VectorXd& x,
                      const Eigen::VectorXd& z, int fidelity) {
  double reward = std::nan("");
  for (const Observation& o : observations)
    if (o.accepted && (fidelity < 0 || o.fidelity == fidelity) && SameVector(o.x, x) &&
        SameVector(o.z, z))
      reward = o.y;
  return reward;
}

}  // namespace

std::vector<SafeRecommender::SafetyCheck> SafeRecommender::SafetyChecks() const {
  std::vector<SafetyCheck> checks;
  if (r_.calibrated) {
    for (const SignalModel& m : r_.model->constraints().safety_models())
      checks.push_back(
          {&m.decision_gp(), m.threshold(), m.prior_stddev(), false, m.max_observed()});
    return checks;
  }
  // The raw models: thresholds in the caller's units, the reward's through its outcome chain.
  const double h = r_.safety.empty() ? std::nan("") : r_.safety[0].threshold;
  if (!std::isnan(h))
    checks.push_back({&r_.model->gp(),
                      r_.model->chain().sense().sign() * h / r_.model->reward_unit(),
                      PriorStddev(r_.model->gp()), true, kNoCap});
  const ConstraintModels& constraints = r_.model->constraints();
  for (int i = 0; i < constraints.num_constraints() && i + 1 < static_cast<int>(r_.safety.size());
       ++i)
    checks.push_back({&constraints.constraint(i),
                      r_.safety[static_cast<std::size_t>(i) + 1].threshold,
                      PriorStddev(constraints.constraint(i)), false, kNoCap});
  return checks;
}

Eigen::VectorXd SafeRecommender::SignalInput(const Eigen::VectorXd& x,
                                             const Eigen::VectorXd& z) const {
  const Eigen::VectorXd unit = r_.domain.ToUnit(x, z);
  if (!r_.options.fidelities.active()) return unit;
  Eigen::VectorXd input(unit.size() + 1);
  input << unit, static_cast<double>(r_.options.fidelities.target());
  return input;
}

double SafeRecommender::SafetyBeta() const {
  const int candidates = r_.domain.num_decision_points();
  return r_.strategy->safety_beta(r_.model->gp().num_observations() + 1, candidates);
}

double SafeRecommender::Margin(const std::vector<SafetyCheck>& checks, const Eigen::VectorXd& x,
                               const Eigen::VectorXd& z, double beta) const {
  double margin = std::numeric_limits<double>::infinity();
  const Eigen::VectorXd unit = SignalInput(x, z);
  for (const SafetyCheck& c : checks) {
    double mean = 0, variance = 0;
    c.gp->MeanAndVariance(c.reward_input ? r_.inputs.Input(x, z, r_.rounds) : unit, &mean,
                          &variance);
    const double lower = std::min(mean, c.max_mean) - beta * std::sqrt(std::max(variance, 0.0));
    margin = std::min(margin, (lower - c.threshold) / c.prior_stddev);
  }
  return margin;
}

Recommendation SafeRecommender::Best() const {
  if (r_.strategy->recommend_from_safe_set() && r_.domain.context_dim() == 0)
    return SafeSetBest(Eigen::VectorXd());
  return SafeBest(nullptr);
}

Recommendation SafeRecommender::BestAt(const Eigen::VectorXd& z) const {
  return r_.strategy->recommend_from_safe_set() ? SafeSetBest(z) : SafeBest(&z);
}

double SafeRecommender::SafetyMargin(const Eigen::VectorXd& x, const Eigen::VectorXd& z) const {
  r_.domain.CheckAction(x, "x");
  r_.domain.CheckContext(z, "context");
  if (!applies()) return std::numeric_limits<double>::quiet_NaN();
  return Margin(SafetyChecks(), x, z, SafetyBeta());
}

Prediction SafeRecommender::PredictConstraint(int i, const Eigen::VectorXd& x,
                                              const Eigen::VectorXd& z) const {
  r_.domain.CheckAction(x, "x");
  r_.domain.CheckContext(z, "context");
  const ConstraintModels& constraints = r_.model->constraints();
  const GaussianProcess& gp = constraints.constraint(i);  // throws std::out_of_range for a bad i
  double mean = 0, variance = 0;
  const GaussianProcess* model = &gp;
  if (r_.calibrated)
    model = &constraints
                 .safety_models()[static_cast<std::size_t>(constraints.constraint_safety_model(i))]
                 .decision_gp();
  model->MeanAndVariance(SignalInput(x, z), &mean, &variance);
  Prediction p;
  p.mean = mean;
  p.stddev = std::sqrt(std::max(variance, 0.0));
  if (r_.calibrated) {
    const SignalModel& m =
        constraints
            .safety_models()[static_cast<std::size_t>(constraints.constraint_safety_model(i))];
    p.mean = m.MeanToTold(p.mean);
    p.stddev = m.StddevToTold(p.stddev);
  }
  return p;
}

// The usable seeds' actions (original units): declared safe at every context.
std::vector<Eigen::VectorXd> SafeRecommender::VouchedSeeds() const {
  const Eigen::MatrixXd seeds = r_.strategy->safe_seeds();
  const SeedAudit audit =
      AuditSeeds(seeds, r_.observations, r_.safety, r_.options.sense == ObjectiveSense::kMinimize,
                 r_.options.fidelities.target());
  std::vector<Eigen::VectorXd> vouched;
  for (Eigen::Index s = 0; s < seeds.cols(); ++s)
    if (audit.usable[static_cast<std::size_t>(s)]) vouched.push_back(seeds.col(s));
  return vouched;
}

Recommendation SafeRecommender::SafeBest(const Eigen::VectorXd* context) const {
  const std::vector<SafetyCheck> checks = SafetyChecks();
  const std::vector<Eigen::VectorXd> seeds = VouchedSeeds();
  const double beta = SafetyBeta();
  const bool minimize = r_.options.sense == ObjectiveSense::kMinimize;
  auto is_seed = [&](const Eigen::VectorXd& x) {
    for (const Eigen::VectorXd& s : seeds)
      if (SameVector(s, x)) return true;
    return false;
  };
  Recommendation best;
  double best_mean = -std::numeric_limits<double>::infinity();
  const int target = r_.options.fidelities.target();
  for (const Observation& o : r_.observations) {
    if (target >= 0 && o.fidelity != target) continue;
    if (!MeasuredSafe(o, r_.safety, minimize)) continue;
    const Eigen::VectorXd& z = context != nullptr ? *context : o.z;
    if (!is_seed(o.x) && !(Margin(checks, o.x, z, beta) >= 0.0)) continue;
    const double mean = r_.model->gp().Mean(r_.inputs.Input(o.x, z, r_.rounds));
    if (!(mean > best_mean)) continue;  // the first of equal means
    best_mean = mean;
    best.x = o.x;
    best.z = z;
  }
  if (!std::isfinite(best_mean))
    throw std::logic_error(
        "Best: no evaluated point is measured safe and inside the safe set yet (strategy '" +
        r_.strategy_name + "')");
  best.posterior_mean = r_.model->chain().MeanToTold(best_mean);
  best.observed_reward = ObservedReward(r_.observations, best.x, best.z, target);
  return best;
}

// The maximizer of the reward's posterior mean over the safe set at context z.
Recommendation SafeRecommender::SafeSetBest(const Eigen::VectorXd& z) const {
  const std::vector<SafetyCheck> checks = SafetyChecks();
  const double beta = SafetyBeta();
  std::vector<Eigen::VectorXd> points = VouchedSeeds();
  const std::size_t num_seeds = points.size();
  if (r_.domain.kind() == DomainKind::kFiniteSet) {
    for (int c = 0; c < r_.domain.num_candidates(); ++c)
      points.push_back(r_.domain.candidates().col(c));
  } else {
    Rng rng = RoundRng(r_.options.seed, r_.rounds, kStreamBest);
    const Eigen::VectorXd lo = Eigen::VectorXd::Zero(r_.domain.action_dim());
    const Eigen::VectorXd hi = Eigen::VectorXd::Ones(r_.domain.action_dim());
    std::normal_distribution<double> normal(0.0, kSafeSetCloudRadius);
    for (const Observation& o : r_.observations) {
      points.push_back(o.x);
      const Eigen::VectorXd u = r_.domain.ToUnit(o.x, z).head(r_.domain.action_dim());
      for (int k = 0; k < kSafeSetCloudPerAction; ++k) {
        Eigen::VectorXd v = u;
        for (Eigen::Index d = 0; d < v.size(); ++d) v(d) += normal(rng);
        points.push_back(r_.domain.ActionFromUnit(v.cwiseMax(lo).cwiseMin(hi)));
      }
    }
    const Eigen::MatrixXd sobol = ScrambledSobol(lo, hi, kSafeSetSobolPoints, rng);
    for (Eigen::Index j = 0; j < sobol.cols(); ++j)
      points.push_back(r_.domain.ActionFromUnit(sobol.col(j)));
  }
  Recommendation best;
  double best_mean = -std::numeric_limits<double>::infinity();
  for (std::size_t j = 0; j < points.size(); ++j) {
    if (j >= num_seeds && !(Margin(checks, points[j], z, beta) >= 0.0)) continue;
    const double mean = r_.model->gp().Mean(r_.inputs.Input(points[j], z, r_.rounds));
    if (!(mean > best_mean)) continue;
    best_mean = mean;
    best.x = points[j];
  }
  if (!std::isfinite(best_mean))
    throw std::logic_error("Best: the safe set is empty (no seed left; strategy '" +
                           r_.strategy_name + "')");
  best.z = z;
  best.posterior_mean = r_.model->chain().MeanToTold(best_mean);
  best.observed_reward = ObservedReward(r_.observations, best.x, z, r_.options.fidelities.target());
  return best;
}

}  // namespace internal
}  // namespace gpbandit
