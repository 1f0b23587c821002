// Retrying storage work that a lost connection interrupted (StorageInterrupted: a server that
// restarted or crashed after the first connection). Each attempt begins its own session, so
// the storage reconnects first (with backoff, up to WorkerOptions::reconnect_timeout_seconds);
// what an interrupted attempt did is not kept, so it can simply run again.
#ifndef GPBANDIT_STUDY_INTERRUPTED_RETRY_H_
#define GPBANDIT_STUDY_INTERRUPTED_RETRY_H_

#include <stdexcept>
#include <string>

#include "gpbandit/numerics/warning_sink.h"
#include "gpbandit/storage/study_storage.h"

namespace gpbandit {

// Attempts before giving up.
constexpr int kMaxInterruptedAttempts = 20;

// Runs `attempt` until it ends without StorageInterrupted, telling the warning sink what it
// does again (`again`, e.g. "retrying the call"); after kMaxInterruptedAttempts interrupted
// ones throws std::runtime_error naming the storage and the last interruption.
template <typename F>
auto RetryInterrupted(const StudyStorage& storage, const char* again, F attempt)
    -> decltype(attempt()) {
  for (int n = 1;; ++n) {
    try {
      return attempt();
    } catch (const StorageInterrupted& e) {
      if (n >= kMaxInterruptedAttempts)
        throw std::runtime_error(storage.Describe() + ": gave up after " + std::to_string(n) +
                                 " interrupted attempts: " + e.what());
      Warn(std::string(e.what()) + "; " + again);
    }
  }
}

}  // namespace gpbandit

#endif  // GPBANDIT_STUDY_INTERRUPTED_RETRY_H_
