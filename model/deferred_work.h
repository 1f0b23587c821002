// The models' work a study's replay puts off: while deferring, an observation's O(t^2) update
// or a refit's O(t^3) refactorization is queued instead of done, and CatchUp does the queue in
// order. The records others appended are replayed under the study's lock, and the models catch
// up with them after it (StudyJournal), so the lock is held for the reading, not the algebra.
// What decides a call (the counts, the refit's bookkeeping) does not wait: only the models lag.
// Internal to model/; not thread-safe.
#ifndef GPBANDIT_MODEL_DEFERRED_WORK_H_
#define GPBANDIT_MODEL_DEFERRED_WORK_H_

#include <functional>
#include <vector>

namespace gpbandit {

class DeferredWork {
 public:
  // From now on, Queue keeps the work for CatchUp.
  void Defer() { deferring_ = true; }
  bool deferring() const { return deferring_; }
  // Not deferring, and nothing queued: the models hold everything they were given.
  bool caught_up() const { return !deferring_ && queued_.empty(); }
  // Keeps `work` for CatchUp; only while deferring (else std::logic_error: do it at once).
  void Queue(std::function<void()> work);
  // Stops deferring and does the queued work in the order queued. Work that throws ends the
  // catch-up: the exception propagates, and the work queued after it is dropped.
  void CatchUp();

 private:
  bool deferring_ = false;
  std::vector<std::function<void()>> queued_;
};

}  // namespace gpbandit

#endif  // GPBANDIT_MODEL_DEFERRED_WORK_H_
