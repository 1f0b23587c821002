// The state behind an Optimizer (include/gpbandit/optimizer/optimizer.h) and the walk of each call
// through its collaborators: the study journal (records, replay, the shared-study protocol),
// the model keeper (models, outcome chain, refits), the pending book, the initial design and the
// round chooser of the domain's kind. The facade locks its mutex around every call. Internal to
// plugin/.
#ifndef GPBANDIT_OPTIMIZER_OPTIMIZER_IMPL_H_
#define GPBANDIT_OPTIMIZER_OPTIMIZER_IMPL_H_

#include <Eigen/Core>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "gpbandit/acquisition/strategy.h"
#include "gpbandit/space/domain.h"
#include "gpbandit/storage/study_storage.h"
#include "gpbandit/study/log_header.h"
#include "gpbandit/study/optimizer_options.h"
#include "gpbandit/study/optimizer_types.h"
#include "model/model_inputs.h"
#include "model/model_keeper.h"
#include "optimizer/ask_check.h"
#include "optimizer/ask_slots.h"
#include "optimizer/initial_design.h"
#include "optimizer/round_chooser.h"
#include "study/pending_book.h"
#include "study/study_journal.h"

namespace gpbandit {
namespace internal {

// The box maximizer's options from the optimizer's (ask_round.cc).
BoxMaximizerOptions MaximizerOptions(const OptimizerOptions& options);

class OptimizerImpl {
 public:
  // strategy: ready to use; strategy_name and strategy_options: as logged. kernel: the caller's,
  // or nullptr for the default. storage: a ready one, or nullptr for the one the options name.
  OptimizerImpl(const Domain& domain, std::unique_ptr<Strategy> strategy,
                const std::string& strategy_name, const StrategyParams& strategy_options,
                const OptimizerOptions& options, std::unique_ptr<Kernel> kernel,
                std::unique_ptr<StudyStorage> storage);

  // ---- Calls (optimizer.h); ask_round.cc and tell.cc ----
  // trials: when not null, receives the points' trial numbers.
  Eigen::MatrixXd Ask(int q, const Eigen::VectorXd& z, std::vector<long>* trials = nullptr);
  // trial: the trial whose pending point the tell releases, or -1 for the first one equal to
  // (x, z).
  void Tell(const Eigen::VectorXd& x, const Eigen::VectorXd& z, double y,
            const Eigen::VectorXd& constraints, long trial = -1);
  void TellMany(const Eigen::MatrixXd& X, const Eigen::MatrixXd& Z, const Eigen::VectorXd& y);
  void ClearPending();
  bool Release(const Eigen::VectorXd& x, const Eigen::VectorXd& z);
  bool ReleaseTrial(long trial);
  bool CreateStudy();
  void Sync() { journal_.Sync(); }
  // ---- Queries; recommendations.cc, fingerprint.cc ----
  Recommendation Best() const;
  Recommendation BestAt(const Eigen::VectorXd& z) const;
  Prediction Predict(const Eigen::VectorXd& x, const Eigen::VectorXd& z) const;
  // ---- Safe strategies; safe_recommendation.cc ----
  double SafetyMargin(const Eigen::VectorXd& x, const Eigen::VectorXd& z) const;
  Prediction PredictConstraint(int i, const Eigen::VectorXd& x, const Eigen::VectorXd& z) const;
  std::string Fingerprint() const;
  LogHeader MakeHeader() const;

  const Domain& domain() const { return domain_; }
  const std::string& strategy_name() const { return strategy_name_; }
  const StrategyParams& strategy_options() const { return strategy_options_; }
  const OptimizerOptions& options() const { return options_; }
  OptimizerOptions& mutable_options() { return options_; }
  const ModelKeeper& model() const { return *model_; }
  const StudyJournal& journal() const { return journal_; }
  const PendingBook& pending() const { return pending_; }
  const std::vector<Observation>& observations() const { return observations_; }
  long rounds() const { return rounds_; }
  double figure() const { return figure_; }
  const std::string& figure_name() const { return figure_name_; }
  const RoundReport& last_round_report() const { return last_round_report_; }
  std::function<void(const RoundReport&)> round_callback;

 private:
  void Build(std::unique_ptr<Kernel> kernel);
  void CheckStudyHeader(const std::string& header_json) const;
  void Replay(const LogRecord& record);
  // ---- Queries on the rank-one model (recommendations.cc) ----
  Recommendation BestCandidate(const FiniteSetModel& model) const;
  // ---- Ask (ask_round.cc) ----
  void CheckAsk(int q, const Eigen::VectorXd& z) const;
  AskCall StartCall(int q, const Eigen::VectorXd& z) const;
  // The ask's work under the study's lock (or without a storage).
  void AskUnderLock(int q, const Eigen::VectorXd& z, AskCall* done, bool* refitted);
  void ChooseByModel(AskCall* call, AskPosterior* posterior);
  AskPosterior MakeAskPosterior(const AskCall& call) const;
  ModelRound PrepareModelRound(AskCall* call) const;
  // The safe seeds still vouched for; throws std::runtime_error when none is left.
  std::vector<bool> UsableSeeds(AskCall* call) const;
  // drawn_round: the round whose numbers chose the points, when not call.round.
  std::function<void()> RecordPending(const AskCall& call, long drawn_round = -1);
  void ReportRound(const AskCall& call, bool refitted, double seconds);
  // RoundReport::warnings: the seeds newly found measured unsafe (also handed to the warning sink).
  std::vector<std::string> NewWarnings(const AskCall& call);
  // ---- Asks outside the lock (ask_outside_lock.cc) ----
  // One try: chosen on the replica, checked against what others recorded meanwhile
  // (AskCheck), recorded under the lock if it holds. A refit it made is recorded either way.
  // Returns whether the points were recorded.
  bool AskOutsideLock(int q, const Eigen::VectorXd& z, AskCall* done, bool* refitted);
  // What one try carries from outside the lock to its commit.
  struct OutsideLock {
    AskCall call;
    std::string fit_record;  // this worker's refit ("" none)
    HyperparameterFitReport fit_report;
  };
  std::unique_ptr<AskCheck> ChooseOutsideLock(AskCall* call);
  std::function<void()> RecordChecked(int q, const Eigen::VectorXd& z, const AskCheck& check,
                                      OutsideLock* ask, bool* kept, bool* refitted);
  // Forgets every record replayed (StudyJournal::Hooks::reset).
  void ResetReplica();
  // ---- Safe recommendations (safe_recommendation.cc) ----
  // One safety signal's model as the recommendation checks it.
  struct SafetyCheck {
    const GaussianProcess* gp;
    double threshold;     // model units
    double prior_stddev;  // model units, > 0
    bool reward_input;    // takes the reward model's input (else the unit cube's)
    double max_mean;      // the cap on the lower bound's mean (SafetyModel::max_mean)
  };
  std::vector<SafetyCheck> SafetyChecks() const;
  // The strategy's beta for the next round.
  double SafetyBeta() const;
  // min over the checks of (lower bound - threshold) / prior_stddev at (x, z).
  double Margin(const std::vector<SafetyCheck>& checks, const Eigen::VectorXd& x,
                const Eigen::VectorXd& z, double beta) const;
  std::vector<Eigen::VectorXd> VouchedSeeds() const;
  // Among the observations measured safe that clear the models at *context (each at its own
  // context when null), the highest posterior mean.
  Recommendation SafeBest(const Eigen::VectorXd* context) const;
  // The maximizer of the posterior mean over the safe set at context z.
  Recommendation SafeSetBest(const Eigen::VectorXd& z) const;
  // ---- Tell (tell.cc) ----
  void CheckTell(const Eigen::VectorXd& x, const Eigen::VectorXd& z, double y,
                 const std::string& x_field, const std::string& z_field,
                 const std::string& y_field) const;
  void CheckConstraints(double y, const Eigen::VectorXd& constraints) const;
  // The round of an observation told now (Observation::round).
  long TellRound(const Eigen::VectorXd& x, const Eigen::VectorXd& z) const;
  // The pending point of `trial` (a tell by trial number); std::invalid_argument if none.
  const PendingPoint& PendingTrial(long trial) const;
  std::function<void()> StageTell(const Eigen::VectorXd& x, const Eigen::VectorXd& z, double y,
                                  double imputed, long round, const Eigen::VectorXd& constraints,
                                  long trial, double refit_claim);
  void ApplyTell(const Eigen::VectorXd& x, const Eigen::VectorXd& z, double y, bool accepted,
                 long round, const Eigen::VectorXd& constraints, long trial);

  Domain domain_;
  std::string strategy_name_;
  StrategyParams strategy_options_;
  OptimizerOptions options_;
  std::unique_ptr<Strategy> strategy_;
  bool default_kernel_ = true;
  std::unique_ptr<Kernel> initial_kernel_;  // the caller's kernel (nullptr: the default)
  ModelInputs inputs_;
  std::unique_ptr<ModelKeeper> model_;
  std::unique_ptr<RoundChooser> chooser_;
  bool safe_ = false;
  // The strategy's declared safety signals (Strategy::safety_signals()), and whether each has
  // a model of its own (else the models of log format <= 4).
  std::vector<SafetySignal> safety_;
  bool calibrated_ = false;
  // Per seed: its being measured unsafe was reported (RoundReport::warnings) already.
  std::vector<bool> reported_dropped_seeds_;
  std::unique_ptr<InitialDesign> design_;
  PendingBook pending_;
  StudyJournal journal_;
  std::unique_ptr<AskSlots> ask_slots_;  // made at the first ask outside the lock
  std::vector<Observation> observations_;
  long rounds_ = 0;
  double figure_ = std::numeric_limits<double>::quiet_NaN();
  std::string figure_name_;
  RoundReport last_round_report_;
};

}  // namespace internal
}  // namespace gpbandit

#endif  // GPBANDIT_OPTIMIZER_OPTIMIZER_IMPL_H_
