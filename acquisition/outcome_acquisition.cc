#include "gpbandit/acquisition/outcome_acquisition.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

#include "gpbandit/acquisition/ehvi.h"
#include "gpbandit/acquisition/feasibility.h"
#include "gpbandit/acquisition/hypervolume.h"
#include "gpbandit/acquisition/log_expected_improvement.h"

namespace gpbandit {
namespace {

// Where SCBO's infeasible draws start, below every feasible scalarized value of the observed
// range.
constexpr double kInfeasibleFloor = -10.0;
// Posterior variances are clamped at this fraction of the model's output variance, as LogEI's.
constexpr double kRelativeVarianceFloor = 1e-12;

// A GP's posterior mean and standard deviation at x, with their gradients when asked.
struct MeanSd {
  double mean = 0.0, sd = 0.0;
  Eigen::VectorXd d_mean, d_sd;
};

MeanSd PosteriorAt(const GaussianProcess& gp, const ConstVectorRef& x, bool gradient) {
  MeanSd p;
  double variance = 0.0;
  Eigen::VectorXd d_variance;
  gp.MeanAndVariance(x, &p.mean, &variance, gradient ? &p.d_mean : nullptr,
                     gradient ? &d_variance : nullptr);
  const double floor =
      kRelativeVarianceFloor * std::max(gp.output_scale() * gp.output_scale(), 1e-300);
  const bool clamped = variance < floor;
  p.sd = std::sqrt(std::max(variance, floor));
  if (gradient)
    p.d_sd = clamped ? Eigen::VectorXd::Zero(x.size()) : Eigen::VectorXd(d_variance / (2.0 * p.sd));
  return p;
}

// The constraints' posteriors at x: means, standard deviations and their gradients (m x d).
struct ConstraintPosteriors {
  Eigen::VectorXd mean, sd;
  Eigen::MatrixXd d_mean, d_sd;
};

ConstraintPosteriors ConstraintsAt(const std::vector<const GaussianProcess*>& gps,
                                   const ConstVectorRef& x, bool gradient) {
  const int m = static_cast<int>(gps.size());
  ConstraintPosteriors c;
  c.mean.resize(m);
  c.sd.resize(m);
  if (gradient) {
    c.d_mean.resize(m, x.size());
    c.d_sd.resize(m, x.size());
  }
  for (int j = 0; j < m; ++j) {
    const MeanSd p = PosteriorAt(*gps[static_cast<std::size_t>(j)], x, gradient);
    c.mean(j) = p.mean;
    c.sd(j) = p.sd;
    if (gradient) {
      c.d_mean.row(j) = p.d_mean.transpose();
      c.d_sd.row(j) = p.d_sd.transpose();
    }
  }
  return c;
}

// log PoF at x, its gradient added to *gradient.
double AddLogPof(const std::vector<const GaussianProcess*>& gps, const ConstVectorRef& x,
                 Eigen::VectorXd* gradient) {
  if (gps.empty()) return 0.0;
  const ConstraintPosteriors c = ConstraintsAt(gps, x, gradient != nullptr);
  Eigen::VectorXd d_mean, d_sd;
  const double value = LogProbabilityOfFeasibility(c.mean, c.sd, gradient ? &d_mean : nullptr,
                                                   gradient ? &d_sd : nullptr);
  if (gradient) *gradient += c.d_mean.transpose() * d_mean + c.d_sd.transpose() * d_sd;
  return value;
}

class FeasibilitySearch : public ContinuousAcquisition {
 public:
  explicit FeasibilitySearch(const OutcomeRound& round) : round_(round) {}
  double Evaluate(const ConstVectorRef& x, Eigen::VectorXd* gradient) const override {
    if (gradient) gradient->setZero(x.size());
    return AddLogPof(round_.constraints, x, gradient);
  }

 private:
  OutcomeRound round_;
};

// One objective: constrained log EI, or log PI + log PoF.
class ConstrainedImprovement : public ContinuousAcquisition {
 public:
  ConstrainedImprovement(const OutcomeRound& round, bool probability)
      : round_(round), probability_(probability), best_(round.front.row(0).maxCoeff()) {}

  double Evaluate(const ConstVectorRef& x, Eigen::VectorXd* gradient) const override {
    const MeanSd f = PosteriorAt(*round_.objectives[0], x, gradient != nullptr);
    double d_mean = 0.0, d_sd = 0.0, value = 0.0;
    if (probability_) {
      double d_z = 0.0;
      const double z = (f.mean - best_) / f.sd;
      value = LogNormalCdf(z, &d_z);
      d_mean = d_z / f.sd;
      d_sd = -d_z * z / f.sd;
    } else {
      value = LogExpectedImprovementValue(f.mean, f.sd, best_, &d_mean, &d_sd);
    }
    if (gradient) *gradient = d_mean * f.d_mean + d_sd * f.d_sd;
    return value + AddLogPof(round_.constraints, x, gradient);
  }

 private:
  OutcomeRound round_;
  bool probability_;
  double best_;
};

// 2-3 objectives: log EHVI over the front + log PoF.
class HypervolumeAcquisition : public ContinuousAcquisition {
 public:
  explicit HypervolumeAcquisition(const OutcomeRound& round)
      : round_(round), ehvi_(FrontAboveReference(round), round.reference) {}

  double Evaluate(const ConstVectorRef& x, Eigen::VectorXd* gradient) const override {
    const int k = static_cast<int>(round_.objectives.size());
    Eigen::VectorXd mean(k), sd(k), d_mean, d_sd;
    Eigen::MatrixXd d_means(k, x.size()), d_sds(k, x.size());
    for (int i = 0; i < k; ++i) {
      const MeanSd p =
          PosteriorAt(*round_.objectives[static_cast<std::size_t>(i)], x, gradient != nullptr);
      mean(i) = p.mean;
      sd(i) = p.sd;
      if (gradient) {
        d_means.row(i) = p.d_mean.transpose();
        d_sds.row(i) = p.d_sd.transpose();
      }
    }
    const double value =
        ehvi_.Log(mean, sd, gradient ? &d_mean : nullptr, gradient ? &d_sd : nullptr);
    if (gradient) *gradient = d_means.transpose() * d_mean + d_sds.transpose() * d_sd;
    return value + AddLogPof(round_.constraints, x, gradient);
  }

 private:
  // The front's points that add volume; the reference itself when none does (it adds none).
  static Eigen::MatrixXd FrontAboveReference(const OutcomeRound& round) {
    Eigen::MatrixXd above = PointsDominatingReference(round.front, round.reference);
    if (above.cols() == 0) above = round.reference;
    return above;
  }

  OutcomeRound round_;
  ExpectedHypervolumeImprovement ehvi_;
};

// The strategy's acquisition on each objective, scalarized; constraints by log PoF (index
// strategies) or by SCBO's rule on the strategy's draws of them.
class ScalarizedAcquisition : public ContinuousAcquisition {
 public:
  ScalarizedAcquisition(const Strategy& strategy, const OutcomeRound& round, bool draws, Rng& rng)
      : round_(round), draws_(draws) {
    for (const GaussianProcess* gp : round.objectives)
      objective_.push_back(strategy.MakeContinuous(*gp, rng));
    if (draws)
      for (const GaussianProcess* gp : round.constraints)
        constraint_draw_.push_back(strategy.MakeContinuous(*gp, rng));
    for (const GaussianProcess* gp : round.constraints)
      prior_sd_.push_back(std::max(gp->output_scale(), 1e-12));
  }

  double Evaluate(const ConstVectorRef& x, Eigen::VectorXd* gradient) const override {
    const int k = static_cast<int>(objective_.size());
    Eigen::VectorXd a(k), d_a;
    Eigen::MatrixXd d_as(k, x.size());
    Eigen::VectorXd g;
    for (int i = 0; i < k; ++i) {
      a(i) = objective_[static_cast<std::size_t>(i)]->Evaluate(x, gradient ? &g : nullptr);
      if (gradient) d_as.row(i) = g.transpose();
    }
    double value = Scalarize(round_.scalarization, round_.weights, round_.normalization, a,
                             gradient ? &d_a : nullptr);
    if (gradient) *gradient = d_as.transpose() * d_a;
    if (round_.constraints.empty()) return value;
    // Index strategies: log PoF in the scalarized index's normalized units, so that a point
    // whose feasibility is unlikely loses what the index gains there.
    return draws_ ? DrawnFeasibility(x, value, gradient)
                  : value + AddLogPof(round_.constraints, x, gradient);
  }

 private:
  double DrawnFeasibility(const ConstVectorRef& x, double value, Eigen::VectorXd* gradient) const {
    double violation = 0.0;
    Eigen::VectorXd d_violation = Eigen::VectorXd::Zero(x.size()), g;
    for (std::size_t j = 0; j < constraint_draw_.size(); ++j) {
      const double c = constraint_draw_[j]->Evaluate(x, gradient ? &g : nullptr);
      if (c <= 0.0) continue;
      violation += c / prior_sd_[j];
      if (gradient) d_violation += g / prior_sd_[j];
    }
    if (violation == 0.0) return value;
    if (gradient) *gradient = -d_violation;
    return kInfeasibleFloor - violation;
  }

  OutcomeRound round_;
  bool draws_;
  std::vector<std::unique_ptr<ContinuousAcquisition>> objective_, constraint_draw_;
  std::vector<double> prior_sd_;
};

void CheckRound(const OutcomeRound& round) {
  const Eigen::Index k = static_cast<Eigen::Index>(round.objectives.size());
  if (k < 1) throw std::invalid_argument("OutcomeRound.objectives is empty");
  if (round.front.cols() > 0 && round.front.rows() != k)
    throw std::invalid_argument("OutcomeRound.front has " + std::to_string(round.front.rows()) +
                                " rows for " + std::to_string(k) + " objectives");
  if (round.reference.size() != k || round.weights.size() != k ||
      round.normalization.lower.size() != k || round.normalization.upper.size() != k)
    throw std::invalid_argument(
        "OutcomeRound: reference, weights and normalization need one entry per objective (" +
        std::to_string(k) + ")");
}

}  // namespace

OutcomeRule OutcomeRuleOf(const Strategy& strategy) {
  const std::string name = strategy.name();
  if (name == "ei" || name == "log-ei" || name == "ehvi") return OutcomeRule::kImprovement;
  if (name == "pi") return OutcomeRule::kProbabilityOfImprovement;
  if (dynamic_cast<const IndexStrategy*>(&strategy) != nullptr) return OutcomeRule::kIndex;
  return OutcomeRule::kDraws;
}

std::unique_ptr<ContinuousAcquisition> MakeOutcomeAcquisition(const Strategy& strategy,
                                                              const OutcomeRound& round, Rng& rng) {
  CheckRound(round);
  if (round.front.cols() == 0 && !round.constraints.empty())
    return std::make_unique<FeasibilitySearch>(round);
  const OutcomeRule rule = OutcomeRuleOf(strategy);
  const std::size_t k = round.objectives.size();
  const bool improvement =
      rule == OutcomeRule::kImprovement || rule == OutcomeRule::kProbabilityOfImprovement;
  if (improvement && k == 1 && round.front.cols() > 0)
    return std::make_unique<ConstrainedImprovement>(round,
                                                    rule == OutcomeRule::kProbabilityOfImprovement);
  if (improvement && k >= 2 && k <= 3) return std::make_unique<HypervolumeAcquisition>(round);
  return std::make_unique<ScalarizedAcquisition>(strategy, round, rule == OutcomeRule::kDraws, rng);
}

}  // namespace gpbandit
