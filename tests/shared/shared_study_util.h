// Helpers of the shared-study tests: the acknowledged tells of worker processes
// (child_process.h starts them), and checks on a study's records.
#ifndef GPBANDIT_TESTS_SHARED_SHARED_STUDY_UTIL_H_
#define GPBANDIT_TESTS_SHARED_SHARED_STUDY_UTIL_H_

#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "gpbandit/plugin/observation_log.h"
#include "gpbandit/storage/study_storage.h"
#include "tests/shared/child_process.h"

namespace gpbandit {
namespace testing {

// One acknowledged tell: its x as printed (round-trip exact) and y.
struct Told {
  Eigen::VectorXd x;
  double y = 0;
};

inline Eigen::VectorXd ParseCsv(const std::string& text) {
  std::vector<double> v;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) v.push_back(std::strtod(item.c_str(), nullptr));
  return Eigen::Map<Eigen::VectorXd>(v.data(), static_cast<Eigen::Index>(v.size()));
}

// The "TOLD x y" lines of a study_worker's output (a killed worker's complete lines only).
inline std::vector<Told> Acknowledged(const std::string& out_path, std::string* fingerprint) {
  std::vector<Told> told;
  std::istringstream in(ReadText(out_path));
  std::string line;
  while (std::getline(in, line)) {
    if (in.eof()) break;  // an unterminated last line was cut by a kill
    std::istringstream words(line);
    std::string tag, x, y;
    words >> tag >> x;
    if (tag == "TOLD") {
      words >> y;
      told.push_back({ParseCsv(x), std::strtod(y.c_str(), nullptr)});
    } else if (tag == "FINGERPRINT" && fingerprint != nullptr) {
      *fingerprint = line.substr(tag.size() + 1);
    }
  }
  return told;
}

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

inline std::string Key(const Eigen::VectorXd& x, double y) {
  std::ostringstream s;
  s.precision(17);
  for (Eigen::Index i = 0; i < x.size(); ++i) s << x(i) << ",";
  s << y;
  return s.str();
}

// Every acknowledged tell is in the study exactly once; besides them the study holds at most
// `unacknowledged` tells (of workers killed after their tell landed, before they printed it).
inline void ExpectAcknowledgedExactlyOnce(const std::vector<LogRecord>& records,
                                          const std::vector<Told>& acknowledged,
                                          int unacknowledged = 0) {
  std::map<std::string, int> in_study, acked;
  for (const LogRecord& r : records)
    if (r.type == LogRecordType::kTell) ++in_study[Key(r.x, r.y)];
  for (const Told& t : acknowledged) ++acked[Key(t.x, t.y)];
  int extra = 0;
  for (const auto& [key, count] : acked) {
    EXPECT_EQ(in_study[key], count) << "an acknowledged tell is missing or repeated: " << key;
  }
  for (const auto& [key, count] : in_study) {
    EXPECT_LE(count, 1) << "told twice: " << key;
    extra += acked.count(key) == 0 ? count : 0;
  }
  EXPECT_LE(extra, unacknowledged) << "tells in the study that no worker acknowledged";
}

// No pending point was handed out while an equal one was pending with a live lease. Each
// pending record's time is its lease's end less the lease (every worker used `lease`).
inline void ExpectNoEqualActivePending(const std::vector<LogRecord>& records, double lease) {
  std::vector<const LogRecord*> pending;
  int checked = 0;
  for (const LogRecord& r : records) {
    if (r.type == LogRecordType::kPending) {
      const double now = r.lease_until - lease;
      for (const LogRecord* p : pending) {
        if (p->lease_until > now) {
          EXPECT_FALSE(p->x == r.x) << "two equal points pending at once: " << Key(r.x, 0);
        }
      }
      pending.push_back(&r);
      ++checked;
    } else if (r.type == LogRecordType::kTell || r.type == LogRecordType::kRelease) {
      // Told or released: the first equal pending point is no longer pending.
      for (auto it = pending.begin(); it != pending.end(); ++it) {
        if ((*it)->x == r.x) {
          pending.erase(it);
          break;
        }
      }
    }
  }
  EXPECT_GT(checked, 0);
}

}  // namespace testing
}  // namespace gpbandit

#endif  // GPBANDIT_TESTS_SHARED_SHARED_STUDY_UTIL_H_
