#include "gpbandit/numerics/warning_sink.h"

#include <iostream>
#include <memory>
#include <mutex>
#include <utility>

namespace gpbandit {
namespace {

// The sink is shared, not copied under the lock and called there: a slow sink (a logger that
// takes a lock of its own, Python's GIL) then never holds up SetWarningSink or another thread's
// warning, and a sink that warns does not deadlock.
struct SinkSlot {
  std::mutex mutex;
  std::shared_ptr<const WarningSink> sink;  // null: the default
};

SinkSlot& Slot() {
  static SinkSlot* slot = new SinkSlot();  // never destroyed: warnings may come at exit
  return *slot;
}

}  // namespace

WarningSink SetWarningSink(WarningSink sink) {
  std::shared_ptr<const WarningSink> next;
  if (sink) next = std::make_shared<const WarningSink>(std::move(sink));
  SinkSlot& slot = Slot();
  std::shared_ptr<const WarningSink> previous;
  {
    std::lock_guard<std::mutex> lock(slot.mutex);
    previous = std::exchange(slot.sink, std::move(next));
  }
  return previous ? *previous : WarningSink();
}

void Warn(const std::string& message) {
  std::shared_ptr<const WarningSink> sink;
  {
    SinkSlot& slot = Slot();
    std::lock_guard<std::mutex> lock(slot.mutex);
    sink = slot.sink;
  }
  if (!sink) {
    WriteWarningToStderr(message);
    return;
  }
  try {
    (*sink)(message);
  } catch (...) {
    WriteWarningToStderr(message);
  }
}

void WriteWarningToStderr(const std::string& message) {
  // One string, one write: lines of threads warning at once do not interleave.
  std::cerr << ("gpbandit: warning: " + message + "\n") << std::flush;
}

}  // namespace gpbandit
