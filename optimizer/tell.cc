// An Optimizer's tells (optimizer.h): checked in full first, recorded durably, then applied to
// the models; and the calls that give pending points back.
#include <sstream>

#include "gpbandit/numerics/format.h"
#include "gpbandit/study/observation_log.h"
#include "optimizer/optimizer_impl.h"
#include "study/named_records.h"

namespace gpbandit {
namespace internal {
namespace {

// Whether a told value enters the model: an accepted reward, or a failure with an imputed one.
bool AddsRow(double y, double imputed) { return std::isfinite(y) || !std::isnan(imputed); }

}  // namespace

void OptimizerImpl::Tell(const Eigen::VectorXd& x, const Eigen::VectorXd& z, double y,
                         const Eigen::VectorXd& constraints, long trial) {
  CheckTell(x, z, y, "x", "context", "y");
  CheckConstraints(y, constraints);
  journal_.Run([&] {
    // Looked up under the study's lock, after the replay: another worker may have told it.
    const long round = trial >= 0 ? PendingTrial(trial).round : TellRound(x, z);
    const double imputed = replica_.model->ImputedReward();
    const int rows = replica_.model->rows() + (AddsRow(y, imputed) ? 1 : 0);
    return StageTell(x, z, y, imputed, round, constraints, trial,
                     replica_.model->RefitClaim(rows, journal_.now()));
  });
}

const PendingPoint& OptimizerImpl::PendingTrial(long trial) const {
  const int j = replica_.pending.IndexOfTrial(trial);
  if (j < 0)
    throw std::invalid_argument(
        "trial " + std::to_string(trial) + " is not pending (" +
        (trial >= 0 && trial < replica_.pending.next_trial()
             ? "it was told, released or cleared already"
             : "no such trial: " + std::to_string(replica_.pending.next_trial()) +
                   " handed out so far") +
        ")");
  return replica_.pending.points()[static_cast<std::size_t>(j)];
}

void OptimizerImpl::CheckConstraints(double y, const Eigen::VectorXd& constraints) const {
  const int m = replica_.model->num_constraints();
  const bool may_be_empty = m == 0 || !std::isfinite(y);
  if (constraints.size() != m && !(constraints.size() == 0 && may_be_empty))
    throw std::invalid_argument("constraints has " + std::to_string(constraints.size()) +
                                " values, but strategy '" + replica_.strategy_name + "' models " +
                                std::to_string(m) + " constraint signals" +
                                (m > 0 ? " (Tell(x, context, y, constraints))" : ""));
  for (Eigen::Index i = 0; i < constraints.size(); ++i)
    if (!std::isfinite(constraints(i)))
      throw std::invalid_argument("constraints[" + std::to_string(i) +
                                  "] is not finite: " + FormatDouble(constraints(i)));
}

void OptimizerImpl::CheckTell(const Eigen::VectorXd& x, const Eigen::VectorXd& z, double y,
                              const std::string& x_field, const std::string& z_field,
                              const std::string& y_field) const {
  replica_.domain.CheckAction(x, x_field);
  replica_.domain.CheckContext(z, z_field);
  if (!std::isfinite(y) && replica_.options.non_finite_rewards == NonFiniteRewardPolicy::kThrow) {
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
long OptimizerImpl::TellRound(const Eigen::VectorXd& x, const Eigen::VectorXd& z) const {
  const int j = replica_.pending.IndexOf(x, z);
  if (j >= 0) return replica_.pending.points()[static_cast<std::size_t>(j)].round;
  return std::max(0L, replica_.rounds - 1);
}

// imputed: what ApplyTell will impute for a failure (the model's sense), logged in the caller's
// sense (as Observation::imputed) so that a replay can check it.
// refit_claim: the refit this tell claims (ModelKeeper::RefitClaim), or NaN.
std::function<void()> OptimizerImpl::StageTell(const Eigen::VectorXd& x, const Eigen::VectorXd& z,
                                               double y, double imputed, long round,
                                               const Eigen::VectorXd& constraints, long trial,
                                               double refit_claim) {
  const bool accepted = std::isfinite(y);
  journal_.Append(WithNamedValues(
      FormatTellRecord(x, z, y, accepted,
                       accepted ? std::nan("") : replica_.model->chain().FromReward(imputed), round,
                       constraints, trial, refit_claim, journal_.worker_id()),
      replica_.domain, x, z));
  return [this, x = Eigen::VectorXd(x), z = Eigen::VectorXd(z), y, accepted, round,
          g = Eigen::VectorXd(constraints), trial, refit_claim] {
    ApplyTell(x, z, y, accepted, round, g, trial);
    if (!std::isnan(refit_claim)) replica_.model->NoteRefitClaim(refit_claim, /*mine=*/true);
  };
}

void OptimizerImpl::ApplyTell(const Eigen::VectorXd& x, const Eigen::VectorXd& z, double y,
                              bool accepted, long round, const Eigen::VectorXd& constraints,
                              long trial) {
  Observation observation{x, z, y, accepted, std::nan(""), constraints};
  observation.round = round;
  const double imputed = replica_.model->Add(
      replica_.inputs.Input(x, z, round), replica_.domain.ToUnit(x, z), y, accepted, constraints);
  if (!std::isnan(imputed)) observation.imputed = replica_.model->chain().FromReward(imputed);
  replica_.observations.push_back(std::move(observation));
  if (trial >= 0)
    replica_.pending.RemoveTrial(trial);
  else
    replica_.pending.Remove(x, z);
}

void OptimizerImpl::TellMany(const Eigen::MatrixXd& X, const Eigen::MatrixXd& Z,
                             const Eigen::VectorXd& y) {
  if (X.cols() != y.size())
    throw std::invalid_argument("X has " + std::to_string(X.cols()) + " columns but y has " +
                                std::to_string(y.size()) + " entries");
  if (X.rows() != replica_.domain.action_dim() && X.cols() > 0)
    throw std::invalid_argument("X has " + std::to_string(X.rows()) +
                                " rows but the action dimension is " +
                                std::to_string(replica_.domain.action_dim()));
  if (replica_.model->num_constraints() > 0)
    throw std::invalid_argument("TellMany carries no constraint signals, but strategy '" +
                                replica_.strategy_name + "' models " +
                                std::to_string(replica_.model->num_constraints()) +
                                "; tell each observation with Tell(x, context, y, constraints)");
  const bool no_z = Z.size() == 0;
  if (!no_z && (Z.cols() != X.cols() || Z.rows() != replica_.domain.context_dim()))
    throw std::invalid_argument(
        "Z is " + std::to_string(Z.rows()) + " x " + std::to_string(Z.cols()) + " but must be " +
        std::to_string(replica_.domain.context_dim()) + " x " + std::to_string(X.cols()));
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
    double worst = replica_.model->worst_reward();
    int accepted = replica_.model->num_accepted();
    int rows = replica_.model->rows();
    bool claimed = false;  // one claim per call: the first column after which a refit is due
    std::vector<std::function<void()>> applies;
    for (Eigen::Index j = 0; j < X.cols(); ++j) {
      const double imputed = replica_.model->ImputedReward(worst, accepted);
      rows += AddsRow(y(j), imputed) ? 1 : 0;
      const double claim =
          claimed ? std::nan("") : replica_.model->RefitClaim(rows, journal_.now());
      claimed = claimed || !std::isnan(claim);
      applies.push_back(StageTell(X.col(j), column_z(j), y(j), imputed,
                                  TellRound(X.col(j), column_z(j)), Eigen::VectorXd(), -1, claim));
      if (std::isfinite(y(j))) {
        worst = std::min(worst, replica_.model->chain().ToReward(y(j)));
        ++accepted;
      }
    }
    return [applies] {
      for (const auto& apply : applies) apply();
    };
  });
}

void OptimizerImpl::ClearPending() {
  journal_.Run([&] {
    journal_.Append(FormatClearPendingRecord());
    return [this] { replica_.pending.Clear(); };
  });
}

bool OptimizerImpl::Release(const Eigen::VectorXd& x, const Eigen::VectorXd& z) {
  replica_.domain.CheckAction(x, "x");
  replica_.domain.CheckContext(z, "context");
  bool released = false;
  journal_.Run([&] {
    released = replica_.pending.IndexOf(x, z) >= 0;
    if (released) journal_.Append(FormatReleaseRecord(x, z));
    return std::function<void()>([&] {
      if (released) replica_.pending.Remove(x, z);
    });
  });
  return released;
}

bool OptimizerImpl::ReleaseTrial(long trial) {
  bool released = false;
  journal_.Run([&] {
    const int j = replica_.pending.IndexOfTrial(trial);
    released = j >= 0;
    if (released) {
      const PendingPoint& p = replica_.pending.points()[static_cast<std::size_t>(j)];
      journal_.Append(FormatReleaseRecord(p.x, p.z, trial));
    }
    return std::function<void()>([&] {
      if (released) replica_.pending.RemoveTrial(trial);
    });
  });
  return released;
}

bool OptimizerImpl::CreateStudy() {
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
