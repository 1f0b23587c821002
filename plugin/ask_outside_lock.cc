// An ask of a shared study computed outside the study's lock (WorkerOptions::asks_outside_lock;
// docs/shared_studies.md, "Asks outside the lock"): the replica is brought up to date without
// the lock, the refit this worker owes and the choice are made on it, and the lock is taken only
// to check what others recorded meanwhile (AskCheck) and to record the points. Several workers'
// asks thus run at once; the lock is held for the check and the commit.
//
// Rounds: the points are chosen with the random numbers of the study's next round as the replica
// saw it (RoundRng), and recorded under the study's next round at the commit. The two differ only
// when others' asks took rounds meanwhile and the check kept the points: the pending records then
// carry the round they drew ("drawn_round"). Replay reads rounds from the records, never
// recomputes a choice, so a study replays to the same state whichever way its asks were made; a
// worker alone always records the round it drew.
//
// A refit: made outside the lock on the replica, recorded with the points or, when they are
// refused, alone, unless another worker recorded one meanwhile (then it is dropped). Before
// others' records are replayed the refit is undone (ModelKeeper::RestoreFit) and once they are,
// it is applied again exactly as a replay of the study applies it, so that this worker's model
// stays bit-identical to the study's.
#include "gpbandit/plugin/observation_log.h"
#include "plugin/ask_check.h"
#include "plugin/optimizer_impl.h"

namespace gpbandit {
namespace internal {

bool OptimizerImpl::AskOutsideLock(int q, const Eigen::VectorXd& z, AskCall* done, bool* refitted) {
  journal_.ReadAhead();
  AskCall call = StartCall(q, z);
  std::string fit_record = call.num_model > 0 ? model_->MaybeRefit(call.round) : std::string();
  const HyperparameterFitReport fit_report =
      fit_record.empty() ? HyperparameterFitReport() : model_->last_fit_report();
  std::unique_ptr<AskPosterior> before_slots;
  if (call.num_model > 0) {
    AskPosterior posterior = MakeAskPosterior(call);
    if (q > 1) before_slots = std::make_unique<AskPosterior>(MakeAskPosterior(call));
    ChooseByModel(&call, &posterior);
    if (q == 1) before_slots = std::make_unique<AskPosterior>(std::move(posterior));
  }
  AskCheck::Inputs inputs;
  inputs.model_input = [this](const Eigen::VectorXd& x, const Eigen::VectorXd& cz, long round) {
    return inputs_.Input(x, cz, round);
  };
  if (finite_model_ != nullptr)
    inputs.candidate = [this](const Eigen::VectorXd& u) {
      return finite_model_->CandidateIndex(u);
    };
  AskCheck check(call, std::move(before_slots), pending_.points(), journal_.now(),
                 /*strict=*/safe_ || inputs_.has_time(), inputs);
  journal_.Observe(
      [&](const std::vector<LogRecord>& arrived) {
        check.Examine(arrived);
        model_->RestoreFit();  // others' records replay onto the model the refit started from
      },
      [&] {
        check.Invalidate("the study was read again from its start");
        fit_record.clear();
      });
  bool kept = false;
  try {
    journal_.Run(
        [&] {
          const AskCall now = StartCall(q, z);  // the study as it is, everything replayed
          const bool keep_fit = !fit_record.empty() && !check.others_refitted();
          if (keep_fit) journal_.Append(fit_record);
          // Undone (others' records arrived, or a failed attempt rolled it back): applied again
          // after the commit, as the records' order says.
          const bool apply_fit = keep_fit && !model_->fit_uncommitted();
          kept = check.keeps_points() && now.design_index == call.design_index &&
                 now.design_next == call.design_next &&
                 (!inputs_.has_time() || now.round == call.round);
          std::function<void()> record_points;
          if (kept) {
            AskCall recorded = call;
            recorded.round = now.round;
            record_points = RecordPending(recorded, call.round);
          }
          const LogRecord fit = apply_fit ? ParseLogRecord(fit_record) : LogRecord();
          *refitted = *refitted || keep_fit;
          return std::function<void()>([this, apply_fit, fit, fit_report, record_points] {
            if (apply_fit) model_->ApplyOwnFit(fit, fit_report);
            if (record_points) record_points();
          });
        },
        Durability::kVisible);
  } catch (...) {
    journal_.Observe(nullptr, nullptr);
    throw;
  }
  journal_.Observe(nullptr, nullptr);
  if (kept) {
    *done = call;
    done->round = rounds_ - 1;
  }
  return kept;
}

}  // namespace internal
}  // namespace gpbandit
