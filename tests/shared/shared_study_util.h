// Helpers of the shared-study tests: a study's records, and the audit of study_audit.h (the
// acknowledged tells of worker processes against the study) as expectations.
#ifndef GPBANDIT_TESTS_SHARED_SHARED_STUDY_UTIL_H_
#define GPBANDIT_TESTS_SHARED_SHARED_STUDY_UTIL_H_

#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "gpbandit/storage/study_storage.h"
#include "gpbandit/study/observation_log.h"
#include "tests/shared/child_process.h"
#include "tests/shared/study_audit.h"

namespace gpbandit {
namespace testing {

// The header and every record of a study, parsed, in order; sequences checked contiguous.
inline std::vector<LogRecord> StudyRecords(const std::string& url, const std::string& study,
                                           std::string* header = nullptr) {
  auto storage = OpenStudyStorage(url, study);
  auto session = storage->Begin(LockMode::kShared);
  if (header != nullptr) *header = session->header();
  std::vector<LogRecord> records;
  long long expected = 1;
  for (const StudyRecord& r : session->ReadAfter(0)) {
    EXPECT_EQ(r.sequence, expected++) << "a gap or a repeat in the study's sequence";
    records.push_back(ParseLogRecord(r.json));
  }
  return records;
}

// Every acknowledged tell is in the study exactly once; besides them the study holds at most
// `unacknowledged` tells (of workers killed after their tell landed, before they printed it).
inline void ExpectAcknowledgedExactlyOnce(const std::vector<LogRecord>& records,
                                          const std::vector<Told>& acknowledged,
                                          int unacknowledged = 0) {
  const TellAudit audit = AuditTells(records, acknowledged);
  EXPECT_EQ(audit.lost, 0) << "acknowledged tells missing";
  EXPECT_EQ(audit.repeated, 0) << "tells repeated";
  for (const std::string& problem : audit.problems) ADD_FAILURE() << problem;
  EXPECT_LE(audit.unacknowledged, unacknowledged)
      << "tells in the study that no worker acknowledged";
}

// No pending point was handed out while an equal one was pending with a live lease (every
// worker used `lease`), and some were handed out.
inline void ExpectNoEqualActivePending(const std::vector<LogRecord>& records, double lease) {
  EXPECT_EQ(EqualActivePending(records, lease), 0) << "two equal points pending at once";
  int pending = 0;
  for (const LogRecord& r : records) pending += r.type == LogRecordType::kPending;
  EXPECT_GT(pending, 0);
}

}  // namespace testing
}  // namespace gpbandit

#endif  // GPBANDIT_TESTS_SHARED_SHARED_STUDY_UTIL_H_
