// An ask of a shared study computed outside the study's lock (WorkerOptions::asks_outside_lock;
// docs/shared_studies.md, "Asks outside the lock"): the replica is brought up to date without
// the lock, the refit this worker owes and the choice are made on it (in one of the machine's
// ask slots, AskSlots: at most one such ask per core), and the lock is taken only to check what
// others recorded meanwhile (AskCheck) and to record the points. Several workers' asks thus run
// at once; the lock is held for the check and the commit.
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
// others' records are replayed the refit is undone (Refitter::RestoreFit) and once they are,
// it is applied again exactly as a replay of the study applies it, so that this worker's model
// stays bit-identical to the study's.
#include "gpbandit/study/observation_log.h"
#include "optimizer/ask_check.h"
#include "optimizer/ask_round.h"
#include "optimizer/ask_slots.h"

namespace gpbandit {
namespace internal {

bool AskRound::AskOutsideLock(int q, const Eigen::VectorXd& z, AskCall* done, bool* refitted) {
  // One ask per core at a time on this machine (ask_slots.h), from the replica's update to the
  // commit: an ask that started when another had chosen but not yet recorded would start from
  // the same replica and the same round, and choose the very same point.
  if (!ask_slots_)
    ask_slots_ = std::make_unique<AskSlots>(std::max(60.0, r_.options.worker.lock_lease_seconds));
  AskSlot slot(ask_slots_.get());
  journal_.ReadAhead();
  OutsideLock ask;
  ask.call = StartCall(q, z);
  ask.fit_record =
      ask.call.num_model > 0 ? r_.model->refit().MaybeRefit(ask.call.round) : std::string();
  if (!ask.fit_record.empty()) ask.fit_report = r_.model->refit().last_fit_report();
  std::unique_ptr<AskCheck> check;
  try {
    check = ChooseOutsideLock(&ask.call);
  } catch (...) {
    r_.model->refit().RestoreFit();  // a refused ask changes nothing, its refit included
    throw;
  }
  journal_.Observe(
      [&](const std::vector<LogRecord>& arrived) {
        check->Examine(arrived);
        r_.model->refit()
            .RestoreFit();  // others' records replay onto the model the refit started from
      },
      [&] {
        check->Invalidate("the study was read again from its start");
        ask.fit_record.clear();
      });
  bool kept = false;
  try {
    // What others recorded while this worker chose, without the lock: refused by it, a try
    // with no refit to record ends here.
    journal_.ReadAhead();
    if (check->keeps_points() || !ask.fit_record.empty())
      journal_.Run([&] { return RecordChecked(q, z, *check, &ask, &kept, refitted); },
                   Durability::kVisible);
  } catch (...) {
    journal_.Observe(nullptr, nullptr);
    throw;
  }
  journal_.Observe(nullptr, nullptr);
  if (kept) {
    *done = ask.call;
    done->round = r_.rounds - 1;
  }
  return kept;
}

// The choice of the call's model-driven slots on the replica, and its check.
std::unique_ptr<AskCheck> AskRound::ChooseOutsideLock(AskCall* call) {
  std::unique_ptr<AskPosterior> before_slots;
  if (call->num_model > 0) {
    AskPosterior posterior = MakeAskPosterior(*call);
    if (call->chosen.cols() > 1)
      before_slots = std::make_unique<AskPosterior>(MakeAskPosterior(*call));
    ChooseByModel(call, &posterior);
    if (call->chosen.cols() == 1)
      before_slots = std::make_unique<AskPosterior>(std::move(posterior));
  }
  AskCheck::Inputs inputs;
  inputs.model_input = [this](const Eigen::VectorXd& x, const Eigen::VectorXd& z, long r) {
    return r_.inputs.Input(x, z, r);
  };
  return std::make_unique<AskCheck>(*call, std::move(before_slots), r_.pending.points(),
                                    journal_.now(), r_.options.worker.ask_tolerance,
                                    /*strict=*/r_.safe || r_.inputs.has_time(), inputs);
}

// Under the lock, everything others recorded replayed (and checked): the refit unless another
// one arrived, and the points if the check kept them and the design and round still allow.
std::function<void()> AskRound::RecordChecked(int q, const Eigen::VectorXd& z,
                                              const AskCheck& check, OutsideLock* ask, bool* kept,
                                              bool* refitted) {
  const AskCall now = StartCall(q, z);
  const bool keep_fit = !ask->fit_record.empty() && !check.others_refitted();
  if (keep_fit) journal_.Append(ask->fit_record);
  // Undone (others' records arrived, or a failed attempt rolled it back): applied again after
  // the commit, as the records' order says.
  const bool apply_fit = keep_fit && !r_.model->refit().fit_uncommitted();
  *kept = check.keeps_points() && now.design_index == ask->call.design_index &&
          now.design_next == ask->call.design_next &&
          (!r_.inputs.has_time() || now.round == ask->call.round);
  std::function<void()> record_points;
  if (*kept) {
    AskCall recorded = ask->call;
    recorded.round = now.round;
    record_points = RecordPending(recorded, ask->call.round);
  }
  const LogRecord fit = apply_fit ? ParseLogRecord(ask->fit_record) : LogRecord();
  *refitted = *refitted || keep_fit;
  return [this, apply_fit, fit, report = ask->fit_report, record_points] {
    if (apply_fit) r_.model->refit().ApplyOwnFit(fit, report);
    if (record_points) record_points();
  };
}

}  // namespace internal
}  // namespace gpbandit
