// The number of tells in a study, counted incrementally (one storage object, reading only what
// was appended since the last count): how the shared-study tests and benchmark follow a run.
#ifndef GPBANDIT_TESTS_SHARED_TELL_COUNTER_H_
#define GPBANDIT_TESTS_SHARED_TELL_COUNTER_H_

#include <memory>
#include <string>
#include <vector>

#include "gpbandit/storage/study_storage.h"

namespace gpbandit {
namespace testing {

class TellCounter {
 public:
  TellCounter(const std::string& url, const std::string& study)
      : storage_(OpenStudyStorage(url, study)) {}
  // A crash of the database that forgot records this counter had read (StudyRewound) makes it
  // count again from the start.
  long Count() {
    std::vector<StudyRecord> records;
    auto session = storage_->Begin(LockMode::kShared);
    try {
      records = session->ReadAfter(last_);
    } catch (const StudyRewound&) {
      last_ = 0;
      tells_ = 0;
      records = session->ReadAfter(0);
    }
    for (const StudyRecord& r : records) {
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
