#include "model/deferred_work.h"

#include <stdexcept>
#include <utility>

namespace gpbandit {

void DeferredWork::Queue(std::function<void()> work) {
  if (!deferring_) throw std::logic_error("DeferredWork::Queue while not deferring");
  queued_.push_back(std::move(work));
}

void DeferredWork::CatchUp() {
  deferring_ = false;
  std::vector<std::function<void()>> queued;
  queued.swap(queued_);
  for (const std::function<void()>& work : queued) work();
}

}  // namespace gpbandit
