// The number of tells in a study, counted incrementally (one storage object, reading only what
// was appended since the last count): how the shared-study tests and benchmark follow a run.
#ifndef GPBANDIT_TESTS_SHARED_TELL_COUNTER_H_
#define GPBANDIT_TESTS_SHARED_TELL_COUNTER_H_

#include <memory>
#include <string>

#include "gpbandit/storage/study_storage.h"

namespace gpbandit {
namespace testing {

class TellCounter {
 public:
  TellCounter(const std::string& url, const std::string& study)
      : storage_(OpenStudyStorage(url, study)) {}
  long Count() {
    for (const StudyRecord& r : storage_->Begin(LockMode::kShared)->ReadAfter(last_)) {
      last_ = r.sequence;
      tells_ += r.type == "tell";
    }
    return tells_;
  }

 private:
  std::unique_ptr<StudyStorage> storage_;
  long long last_ = 0;
  long tells_ = 0;
};

}  // namespace testing
}  // namespace gpbandit

#endif  // GPBANDIT_TESTS_SHARED_TELL_COUNTER_H_
