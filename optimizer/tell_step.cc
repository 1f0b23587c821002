// An Optimizer's tells (optimizer/tell_step.h): checked in full first, recorded durably, then
// applied to the models; their replay; and the calls that give pending points back.
#include "optimizer/tell_step.h"

#include <cmath>
#include <sstream>
#include <stdexcept>

#include "gpbandit/numerics/format.h"
#include "gpbandit/study/observation_log.h"
#include "study/named_records.h"

namespace gpbandit {
namespace internal {
namespace {

// Whether a told value enters the model: an accepted reward, or a failure with an imputed one.
bool AddsRow(double y, double imputed) { return std::isfinite(y) || !std::isnan(imputed); }

// Equal, or both NaN.
bool SameReward(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

}  // namespace

void TellStep::Tell(const Eigen::VectorXd& x, const Eigen::VectorXd& z, double y,
                    const Eigen::VectorXd& constraints, long trial, int fidelity) {
  CheckTell(x, z, y, "x", "context", "y");
  CheckConstraints(y, constraints);
  if (fidelity != -1 || !r_.inputs.has_fidelity()) CheckFidelity(fidelity, "fidelity");
  journal_.Run([&] {
    // Looked up under the study's lock, after the replay: another worker may have told it.
    const long round = trial >= 0 ? PendingTrial(trial).round : TellRound(x, z);
    const int at = fidelity != -1 ? fidelity : ImpliedFidelity(x, z, trial);
    const double imputed = r_.model->counts().ImputedReward();
    const int rows = r_.model->counts().rows() + (AddsRow(y, imputed) ? 1 : 0);
    return StageTell(x, z, y, imputed, round, constraints, trial,
                     r_.model->refit().Claim(rows, journal_.now()), at);
  });
}

int TellStep::CheckFidelity(int fidelity, const std::string& field, bool given) const {
  const FidelityOptions& f = r_.options.fidelities;
  if (!f.active()) {
    if (given || fidelity != -1)
      throw std::invalid_argument(field + " = " + std::to_string(fidelity) +
                                  ": the study declares no fidelities "
                                  "(OptimizerOptions.fidelities is empty)");
    return fidelity;
  }
  if (fidelity < 0 || fidelity >= f.num_fidelities()) {
    std::string names;
    for (const FidelitySpec& level : f.levels) names += (names.empty() ? "" : ", ") + level.name;
    throw std::invalid_argument(field + " = " + std::to_string(fidelity) +
                                ": expected a fidelity index in [0, " +
                                std::to_string(f.num_fidelities()) + ") (" + names + ")");
  }
  return fidelity;
}

int TellStep::ImpliedFidelity(const Eigen::VectorXd& x, const Eigen::VectorXd& z,
                              long trial) const {
  if (!r_.inputs.has_fidelity()) return -1;
  if (trial >= 0) return PendingTrial(trial).fidelity;
  const int j = r_.pending.IndexOf(x, z);
  if (j >= 0) return r_.pending.points()[static_cast<std::size_t>(j)].fidelity;
  return r_.options.fidelities.target();
}

// With exactly the model operations of the live tell (ApplyTell), so that the rebuilt state is
// bit-for-bit the same.
void TellStep::Replay(const LogRecord& record) {
  r_.domain.CheckAction(record.x, "log tell x");
  r_.domain.CheckContext(record.z, "log tell z");
  CheckConstraints(record.y, record.constraints);
  const int fidelity = CheckFidelity(record.fidelity, "log tell fidelity");
  ApplyTell(record.x, record.z, record.y, record.accepted,
            record.round >= 0 ? record.round : TellRound(record.x, record.z), record.constraints,
            record.trial, fidelity);
  if (!SameReward(r_.observations.back().imputed, record.imputed))
    throw std::runtime_error("a failed tell imputed " + FormatDouble(record.imputed) +
                             " in the log, but " + FormatDouble(r_.observations.back().imputed) +
                             " on replay");
  if (!std::isnan(record.refit_claim))
    r_.model->refit().NoteClaim(record.refit_claim, /*mine=*/false, record.worker);
}

const PendingPoint& TellStep::PendingTrial(long trial) const {
  const int j = r_.pending.IndexOfTrial(trial);
  if (j < 0)
    throw std::invalid_argument(
        "trial " + std::to_string(trial) + " is not pending (" +
        (trial >= 0 && trial < r_.pending.next_trial()
             ? "it was told, released or cleared already"
             : "no such trial: " + std::to_string(r_.pending.next_trial()) + " handed out so far") +
        ")");
  return r_.pending.points()[static_cast<std::size_t>(j)];
}

void TellStep::CheckConstraints(double y, const Eigen::VectorXd& constraints) const {
  const int m = r_.model->constraints().num_constraints();
  const bool may_be_empty = m == 0 || !std::isfinite(y);
  if (constraints.size() != m && !(constraints.size() == 0 && may_be_empty))
    throw std::invalid_argument("constraints has " + std::to_string(constraints.size()) +
                                " values, but strategy '" + r_.strategy_name + "' models " +
                                std::to_string(m) + " constraint signals" +
                                (m > 0 ? " (Tell(x, context, y, constraints))" : ""));
  for (Eigen::Index i = 0; i < constraints.size(); ++i)
    if (!std::isfinite(constraints(i)))
      throw std::invalid_argument("constraints[" + std::to_string(i) +
                                  "] is not finite: " + FormatDouble(constraints(i)));
}

void TellStep::CheckTell(const Eigen::VectorXd& x, const Eigen::VectorXd& z, double y,
                         const std::string& x_field, const std::string& z_field,
                         const std::string& y_field) const {
  r_.domain.CheckAction(x, x_field);
  r_.domain.CheckContext(z, z_field);
  if (!std::isfinite(y) && r_.options.non_finite_rewards == NonFiniteRewardPolicy::kThrow) {
    std::ostringstream s;
    // Worded in the option's names of the log, Python and the command line, not in C++'s.
    s << y_field << " is not finite: " << y
      << " (the option non_finite_rewards is \"throw\"; set it to \"skip\" or "
         "\"impute-worst\" to record the evaluation as failed)";
    throw std::invalid_argument(s.str());
  }
}

// The ask round of the pending point it answers (exactly equal x and z), else the last ask
// round (0 before any).
long TellStep::TellRound(const Eigen::VectorXd& x, const Eigen::VectorXd& z) const {
  const int j = r_.pending.IndexOf(x, z);
  if (j >= 0) return r_.pending.points()[static_cast<std::size_t>(j)].round;
  return std::max(0L, r_.rounds - 1);
}

// imputed: what ApplyTell will impute for a failure (the model's sense), logged in the caller's
// sense (as Observation::imputed) so that a replay can check it.
// refit_claim: the refit this tell claims (Refitter::Claim), or NaN.
std::function<void()> TellStep::StageTell(const Eigen::VectorXd& x, const Eigen::VectorXd& z,
                                          double y, double imputed, long round,
                                          const Eigen::VectorXd& constraints, long trial,
                                          double refit_claim, int fidelity) {
  const bool accepted = std::isfinite(y);
  journal_.Append(WithNamedValues(
      FormatTellRecord(x, z, y, accepted,
                       accepted ? std::nan("") : r_.model->chain().FromReward(imputed), round,
                       constraints, trial, refit_claim, journal_.worker_id(), fidelity),
      r_.domain, x, z));
  return [this, x = Eigen::VectorXd(x), z = Eigen::VectorXd(z), y, accepted, round,
          g = Eigen::VectorXd(constraints), trial, refit_claim, fidelity] {
    ApplyTell(x, z, y, accepted, round, g, trial, fidelity);
    if (!std::isnan(refit_claim)) r_.model->refit().NoteClaim(refit_claim, /*mine=*/true);
  };
}

void TellStep::ApplyTell(const Eigen::VectorXd& x, const Eigen::VectorXd& z, double y,
                         bool accepted, long round, const Eigen::VectorXd& constraints, long trial,
                         int fidelity) {
  Observation observation{x, z, y, accepted, std::nan(""), constraints};
  observation.round = round;
  observation.fidelity = fidelity;
  const double imputed = r_.model->Add(r_.inputs.Input(x, z, round, fidelity),
                                       r_.domain.ToUnit(x, z), y, accepted, constraints);
  if (!std::isnan(imputed)) observation.imputed = r_.model->chain().FromReward(imputed);
  r_.observations.push_back(std::move(observation));
  if (trial >= 0)
    r_.pending.RemoveTrial(trial);
  else
    r_.pending.Remove(x, z);
}

void TellStep::TellMany(const Eigen::MatrixXd& X, const Eigen::MatrixXd& Z,
                        const Eigen::VectorXd& y) {
  if (X.cols() != y.size())
    throw std::invalid_argument("X has " + std::to_string(X.cols()) + " columns but y has " +
                                std::to_string(y.size()) + " entries");
  if (X.rows() != r_.domain.action_dim() && X.cols() > 0)
    throw std::invalid_argument("X has " + std::to_string(X.rows()) +
                                " rows but the action dimension is " +
                                std::to_string(r_.domain.action_dim()));
  if (r_.model->constraints().num_constraints() > 0)
    throw std::invalid_argument("TellMany carries no constraint signals, but strategy '" +
                                r_.strategy_name + "' models " +
                                std::to_string(r_.model->constraints().num_constraints()) +
                                "; tell each observation with Tell(x, context, y, constraints)");
  const bool no_z = Z.size() == 0;
  if (!no_z && (Z.cols() != X.cols() || Z.rows() != r_.domain.context_dim()))
    throw std::invalid_argument(
        "Z is " + std::to_string(Z.rows()) + " x " + std::to_string(Z.cols()) + " but must be " +
        std::to_string(r_.domain.context_dim()) + " x " + std::to_string(X.cols()));
  auto column_z = [&](Eigen::Index j) {
    return no_z ? Eigen::VectorXd() : Eigen::VectorXd(Z.col(j));
  };
  for (Eigen::Index j = 0; j < X.cols(); ++j) {
    const std::string at = "[" + std::to_string(j) + "]";
    CheckTell(X.col(j), column_z(j), y(j), "X.col" + at, "Z.col" + at, "y" + at);
  }
  journal_.Run([&] {
    // Every column is staged before the first is applied: the imputed rewards follow the worst
    // accepted reward column by column, as ApplyTell will.
    double worst = r_.model->counts().worst_reward();
    int accepted = r_.model->counts().num_accepted();
    int rows = r_.model->counts().rows();
    bool claimed = false;  // one claim per call: the first column after which a refit is due
    std::vector<std::function<void()>> applies;
    for (Eigen::Index j = 0; j < X.cols(); ++j) {
      const double imputed = r_.model->counts().ImputedReward(worst, accepted);
      rows += AddsRow(y(j), imputed) ? 1 : 0;
      const double claim = claimed ? std::nan("") : r_.model->refit().Claim(rows, journal_.now());
      claimed = claimed || !std::isnan(claim);
      applies.push_back(StageTell(X.col(j), column_z(j), y(j), imputed,
                                  TellRound(X.col(j), column_z(j)), Eigen::VectorXd(), -1, claim,
                                  ImpliedFidelity(X.col(j), column_z(j), -1)));
      if (std::isfinite(y(j))) {
        worst = std::min(worst, r_.model->chain().ToReward(y(j)));
        ++accepted;
      }
    }
    return [applies] {
      for (const auto& apply : applies) apply();
    };
  });
}

void TellStep::ClearPending() {
  journal_.Run([&] {
    journal_.Append(FormatClearPendingRecord());
    return [this] { r_.pending.Clear(); };
  });
}

bool TellStep::Release(const Eigen::VectorXd& x, const Eigen::VectorXd& z) {
  r_.domain.CheckAction(x, "x");
  r_.domain.CheckContext(z, "context");
  bool released = false;
  journal_.Run([&] {
    released = r_.pending.IndexOf(x, z) >= 0;
    if (released) journal_.Append(FormatReleaseRecord(x, z));
    return std::function<void()>([&] {
      if (released) r_.pending.Remove(x, z);
    });
  });
  return released;
}

bool TellStep::ReleaseTrial(long trial) {
  bool released = false;
  journal_.Run([&] {
    const int j = r_.pending.IndexOfTrial(trial);
    released = j >= 0;
    if (released) {
      const PendingPoint& p = r_.pending.points()[static_cast<std::size_t>(j)];
      journal_.Append(FormatReleaseRecord(p.x, p.z, trial));
    }
    return std::function<void()>([&] {
      if (released) r_.pending.RemoveTrial(trial);
    });
  });
  return released;
}

bool TellStep::CreateStudy() {
  if (!journal_.has_storage()) throw std::logic_error("CreateStudy: the optimizer has no storage");
  bool created = false;
  journal_.Run([&] {
    created = journal_.CreateStudyInCall();
    return std::function<void()>([] {});
  });
  return created;
}

}  // namespace internal
}  // namespace gpbandit
