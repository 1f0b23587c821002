// How many asks of shared studies this machine computes at once outside the studies' locks:
// at most one per core this process may run on (its CPU affinity), across every process of this
// user on the machine. N workers on C cores then compute C asks at a time, each at full speed,
// instead of N at a time each slowed N/C-fold: during a slowed ask about N others would record
// their points, bear on it and send it back to be chosen again (the "multiprogramming level"
// of optimistic concurrency control: too many transactions at once and most of them abort).
// Workers on other machines have their own cores and slots, so more machines mean more asks
// at once.
//
// A slot is a LeaseLock (storage/lease_lock.h) on a file in "$TMPDIR/gpbandit-<uid>/" (or /tmp):
// a worker that dies lets go at once; one stopped while it holds a slot loses it after the
// lease (WorkerOptions::lock_lease_seconds). When the directory cannot be used, asks go
// without slots. Internal to optimizer/; one thread at a time per object.
#ifndef GPBANDIT_OPTIMIZER_ASK_SLOTS_H_
#define GPBANDIT_OPTIMIZER_ASK_SLOTS_H_

#include <memory>
#include <string>
#include <vector>

namespace gpbandit {

class LeaseLock;

class AskSlots {
 public:
  explicit AskSlots(double lease_seconds);
  ~AskSlots();

  // Blocks until this process holds a slot (or returns at once when slots are unusable).
  void Take();
  // Gives the slot back (no-op without one).
  void Give();

  // The number of slots: the cores this process may run on (at least 1).
  static int CoresAvailable();

 private:
  bool Prepare();

  double lease_seconds_;
  std::string dir_;
  int mutex_fd_ = -1;
  bool usable_ = true;
  std::vector<std::unique_ptr<LeaseLock>> slots_;
  int held_ = -1;
};

// Holds a slot for its scope.
class AskSlot {
 public:
  explicit AskSlot(AskSlots* slots) : slots_(slots) {
    if (slots_ != nullptr) slots_->Take();
  }
  ~AskSlot() {
    if (slots_ != nullptr) slots_->Give();
  }
  AskSlot(const AskSlot&) = delete;
  AskSlot& operator=(const AskSlot&) = delete;

 private:
  AskSlots* slots_;
};

}  // namespace gpbandit

#endif  // GPBANDIT_OPTIMIZER_ASK_SLOTS_H_
