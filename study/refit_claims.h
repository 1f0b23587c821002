// Who makes a shared study's refits, and the transaction of a refit not yet committed.
// Internal to the library; not thread-safe (the Optimizer serializes calls).
//
// A refit falls due at the observation counts the schedule names (RefitSchedule). Several
// workers whose asks run at once outside the study's lock must not all refit, so a refit due is
// claimed: the tell that finds it due and no claim lasting carries a claim
// (LogRecord::refit_claim, the end of its time on the study's clock, and "worker", the worker
// that made it). The claimant owes the refit: it makes it before its next model-driven ask and
// records it for the others to replay. The others leave it alone while the claim lasts.
//
// A claim lasts until the first of:
// - a fit record (whoever made it: the study is refitted);
// - its time and a schedule's period of tells have both passed: its time is four times the
//   claimant's last refit (a guess at how long this one takes), and the period keeps a second
//   refit from starting while the first is likely still under way; a claim that ends so
//   without a refit (its worker stopped asking, or died elsewhere) passes to the next tell;
// - its claimant is gone: a worker with the default name "host:pid" (WorkerOptions::id empty)
//   on this host whose process no longer runs made its claim and finished (a process per
//   evaluation, `gpbandit observe`, a script's run). Nobody else would make that refit, so the
//   next worker to ask owes it, as the claimant's own next ask would have: a loop of one
//   process per evaluation refits exactly as one process does. Likewise a claim under this
//   process's own default name while this is the process's only claim book of the study: an
//   earlier optimizer of this process made it and is gone (a study closed and opened again in
//   one script or notebook).
// A claim made under this worker's own explicit name (WorkerOptions::id) is this worker's, made
// by an earlier process under that name: this worker owes it. A name therefore belongs to one
// worker at a time; two live processes under one name may both make a refit (harmless, twice
// the work). Claims in logs written before claims named their worker ("worker" absent) last by
// time and tells only.
//
// A worker that joins a study owes the refit due if no claim lasts; one that resumes a log as
// its only writer (Optimizer::Resume) owes it whoever claimed it.
#ifndef GPBANDIT_STUDY_REFIT_CLAIMS_H_
#define GPBANDIT_STUDY_REFIT_CLAIMS_H_

#include <functional>
#include <limits>
#include <string>

#include "gpbandit/hyperparams/refit_schedule.h"

namespace gpbandit {

// This process's default worker name, "host:pid" (WorkerOptions::id empty).
std::string DefaultWorkerId();

// Whether the worker named `worker` is known to be gone: a default name (DefaultWorkerId) of
// this host whose process no longer runs. false for any other name (nothing is known of it).
bool WorkerProcessGone(const std::string& worker);

class RefitClaims {
 public:
  // Whether the worker of a name is known to be gone (WorkerProcessGone; tests pass their own).
  using GoneCheck = std::function<bool(const std::string& worker)>;

  // self: this worker's name; named: whether it was given (WorkerOptions::id), not the default.
  // schedule must outlive the claims. study: what names the study in this process (its log or
  // storage and study name), under which the books of the default name are counted.
  RefitClaims(const RefitSchedule& schedule, std::string self, bool named,
              GoneCheck gone = WorkerProcessGone, std::string study = "");
  // Counted: one claim book per optimizer of this process (ClaimantGone).
  RefitClaims(const RefitClaims&) = delete;
  RefitClaims& operator=(const RefitClaims&) = delete;
  ~RefitClaims();

  // Whether this worker owes the refit due.
  bool owed() const { return owed_; }
  // The claim a tell that leaves `rows_after` rows makes at study time `now` when a refit is
  // `due` then: the end of its time, or NaN when nothing is due, this worker owes the refit
  // already (alone, a worker's log holds one claim per refit), or another claim lasts.
  double ClaimFor(bool due, int rows_after, double now) const;
  // This worker's tell made claim `until`, leaving `rows` rows: it owes the refit.
  void NoteOwn(double until, int rows);
  // A replayed tell's claim, made by `claimant` ("" in older logs), leaving `rows` rows.
  void NoteReplayed(double until, int rows, const std::string& claimant);
  // Whether the last claim lasts with `rows` rows at study time `now` (above).
  bool Lasts(int rows, double now) const;
  // A worker that joins (!resumes) or resumes a study with `rows` rows at time `now` owes the
  // refit that is `due` (above).
  void OweIfDue(bool due, bool resumes, int rows, double now);
  // Whether an ask made now would refit (an ask previewed, Optimizer::PreviewAskBatch): this
  // worker owes the refit, or a refit is `due` with `rows` rows and no claim lasts at study time
  // `now`, so that a worker joining now would owe it (OweIfDue). Changes nothing.
  bool OwedByNextAsk(bool due, int rows, double now) const;
  // A fit record was replayed: the study is refitted, nothing is owed or claimed.
  void Settle();
  // The duration of this worker's last refit, in seconds (its claims' time).
  void set_last_refit_seconds(double seconds) { last_refit_seconds_ = seconds; }

  // ---- The transaction of this worker's refit ----
  // A refit changes the models before its call's records commit. Begin takes the way back
  // (restoring the models as they were); RollBack takes it (the call failed, or others'
  // records are replayed first), Commit drops it and settles the claim: the refit stands.
  void BeginFit(std::function<void()> restore);
  void RollBack();
  void Commit();
  bool fit_uncommitted() const { return static_cast<bool>(restore_); }

 private:
  bool ClaimantGone() const;
  bool OnlyBookOfItsStudy() const;
  void Forget();

  const RefitSchedule& schedule_;
  std::string self_;
  bool named_ = false;
  GoneCheck gone_;
  std::string study_;
  bool owed_ = false;
  double until_ = -std::numeric_limits<double>::infinity();
  int rows_ = std::numeric_limits<int>::min() / 2;  // rows at the claim
  std::string claimant_;
  double last_refit_seconds_ = 0.0;
  std::function<void()> restore_;
};

}  // namespace gpbandit

#endif  // GPBANDIT_STUDY_REFIT_CLAIMS_H_
