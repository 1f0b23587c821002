// An Optimizer's tells (optimizer.h), checked in full first, recorded durably, then applied to
// the models; the calls that give pending points back; and the replay of a tell record with
// exactly the model operations the live tell performed. Changes the study's replica
// (optimizer/study_replica.h) through the journal's calls and keeps no state of its own.
// Internal to the library; not thread-safe.
#ifndef GPBANDIT_OPTIMIZER_TELL_STEP_H_
#define GPBANDIT_OPTIMIZER_TELL_STEP_H_

#include <Eigen/Core>
#include <functional>
#include <string>

#include "gpbandit/study/observation_log.h"
#include "gpbandit/study/optimizer_types.h"
#include "optimizer/study_replica.h"
#include "study/study_journal.h"

namespace gpbandit {
namespace internal {

class TellStep {
 public:
  // replica and journal: must outlive the step.
  TellStep(StudyReplica* replica, StudyJournal* journal) : r_(*replica), journal_(*journal) {}

  // trial: the trial whose pending point the tell releases, or -1 for the first one equal to
  // (x, z). fidelity: the fidelity it was evaluated at; -1 = none given: in a study with
  // fidelities the one of the pending point it releases, else the target.
  void Tell(const Eigen::VectorXd& x, const Eigen::VectorXd& z, double y,
            const Eigen::VectorXd& constraints, long trial = -1, int fidelity = -1);
  void TellMany(const Eigen::MatrixXd& X, const Eigen::MatrixXd& Z, const Eigen::VectorXd& y);
  void ClearPending();
  bool Release(const Eigen::VectorXd& x, const Eigen::VectorXd& z);
  bool ReleaseTrial(long trial);
  bool CreateStudy();
  // A tell record read from the study: checked and applied; std::runtime_error when its
  // imputed reward is not the one the replay imputes.
  void Replay(const LogRecord& record);
  // `fidelity` if the study takes it (-1 without fidelities; an index in [0, F) with them);
  // std::invalid_argument naming `field` and the value otherwise. given: a caller named a
  // fidelity, so that none is taken without fidelities.
  int CheckFidelity(int fidelity, const std::string& field, bool given = false) const;

 private:
  void CheckTell(const Eigen::VectorXd& x, const Eigen::VectorXd& z, double y,
                 const std::string& x_field, const std::string& z_field,
                 const std::string& y_field) const;
  void CheckConstraints(double y, const Eigen::VectorXd& constraints) const;
  // The round of an observation told now (Observation::round).
  long TellRound(const Eigen::VectorXd& x, const Eigen::VectorXd& z) const;
  // The fidelity of a tell that names none (Tell's `fidelity`).
  int ImpliedFidelity(const Eigen::VectorXd& x, const Eigen::VectorXd& z, long trial) const;
  // The pending point of `trial` (a tell by trial number); std::invalid_argument if none.
  const PendingPoint& PendingTrial(long trial) const;
  std::function<void()> StageTell(const Eigen::VectorXd& x, const Eigen::VectorXd& z, double y,
                                  double imputed, long round, const Eigen::VectorXd& constraints,
                                  long trial, double refit_claim, int fidelity);
  void ApplyTell(const Eigen::VectorXd& x, const Eigen::VectorXd& z, double y, bool accepted,
                 long round, const Eigen::VectorXd& constraints, long trial, int fidelity);

  StudyReplica& r_;
  StudyJournal& journal_;
};

}  // namespace internal
}  // namespace gpbandit

#endif  // GPBANDIT_OPTIMIZER_TELL_STEP_H_
