// The audit of a shared study after a run of worker processes (study_worker.cc), without a test
// framework, for the tests (shared_study_util.h turns it into expectations) and the chaos
// benchmark: the tells each worker acknowledged (printed after Tell returned) against those in
// the study; points pending twice at once; and whether each worker's model after its last tell
// was a replay of the study up to that tell.
#ifndef GPBANDIT_TESTS_SHARED_STUDY_AUDIT_H_
#define GPBANDIT_TESTS_SHARED_STUDY_AUDIT_H_

#include <Eigen/Core>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "gpbandit/optimizer/optimizer.h"
#include "gpbandit/study/observation_log.h"
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

inline std::string Key(const Eigen::VectorXd& x, double y) {
  std::ostringstream s;
  s.precision(17);
  for (Eigen::Index i = 0; i < x.size(); ++i) s << x(i) << ",";
  s << y;
  return s.str();
}

struct TellAudit {
  int lost = 0;            // acknowledged, not in the study (or fewer times than acknowledged)
  int repeated = 0;        // in the study more often than acknowledged, or twice
  int unacknowledged = 0;  // in the study, acknowledged by nobody (a worker killed after it)
  std::vector<std::string> problems;  // the keys of lost or repeated tells
};

inline TellAudit AuditTells(const std::vector<LogRecord>& records,
                            const std::vector<Told>& acknowledged) {
  std::map<std::string, int> in_study, acked;
  for (const LogRecord& r : records)
    if (r.type == LogRecordType::kTell) ++in_study[Key(r.x, r.y)];
  for (const Told& t : acknowledged) ++acked[Key(t.x, t.y)];
  TellAudit audit;
  for (const auto& [key, count] : acked) {
    const int found = in_study.count(key) ? in_study.at(key) : 0;
    if (found < count) ++audit.lost, audit.problems.push_back("missing: " + key);
    if (found > count) ++audit.repeated, audit.problems.push_back("repeated: " + key);
  }
  for (const auto& [key, count] : in_study) {
    if (acked.count(key) == 0) {
      audit.unacknowledged += count;
      if (count > 1) ++audit.repeated, audit.problems.push_back("told twice: " + key);
    }
  }
  return audit;
}

// Pending points handed out while an equal one was pending with a live lease. Each pending
// record's time is its lease's end less the lease (every worker used `lease`).
inline int EqualActivePending(const std::vector<LogRecord>& records, double lease) {
  std::vector<const LogRecord*> pending;
  int equal = 0;
  for (const LogRecord& r : records) {
    if (r.type == LogRecordType::kPending) {
      const double now = r.lease_until - lease;
      for (const LogRecord* p : pending) equal += p->lease_until > now && p->x == r.x;
      pending.push_back(&r);
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
  return equal;
}

// Writes the study's header and its records up to and including index `last` as a log file.
inline void WritePrefixLog(const std::string& path, const std::string& header,
                           const std::vector<LogRecord>& records, std::size_t last) {
  std::ofstream out(path, std::ios::trunc);
  out << header << "\n";
  for (std::size_t i = 0; i <= last; ++i) out << records[i].json << "\n";
}

// The workers (their output files) whose model after their last tell (FINGERPRINT) differs from
// a replay of the study up to that tell; the prefix logs are written under `dir`.
inline std::vector<std::string> ReplayMismatches(const std::string& header,
                                                 const std::vector<LogRecord>& records,
                                                 const std::vector<Child>& workers,
                                                 const std::string& dir) {
  std::vector<std::string> mismatches;
  for (const Child& w : workers) {
    std::string fingerprint;
    const std::vector<Told> told = Acknowledged(w.out, &fingerprint);
    if (told.empty() || fingerprint.empty()) continue;
    std::size_t last = records.size();
    for (std::size_t i = 0; i < records.size(); ++i)
      if (records[i].type == LogRecordType::kTell && records[i].x == told.back().x &&
          records[i].y == told.back().y)
        last = i;
    if (last == records.size()) {
      mismatches.push_back(w.out + ": its last tell is not in the study");
      continue;
    }
    const std::string path = dir + "/prefix.jsonl";
    WritePrefixLog(path, header, records, last);
    if (Optimizer::Resume(path)->Fingerprint() != fingerprint) mismatches.push_back(w.out);
  }
  return mismatches;
}

}  // namespace testing
}  // namespace gpbandit

#endif  // GPBANDIT_TESTS_SHARED_STUDY_AUDIT_H_
