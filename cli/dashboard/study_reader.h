// The dashboard's view of one study's records: the trials (every point handed out or told, with
// its state, worker and lease), the best value so far and the hyperparameter fits, read
// incrementally through the storage's read-only sessions (Begin(kShared): no lock, so the
// workers never wait for a page), and kept in memory as compact rows.
//
// A trial is a row: a pending record starts one (state "pending"); the tell of its trial number,
// or for a tell without one (older logs, TellMany) the first pending point exactly equal to its
// (x, z), completes it ("complete", or "failed" for a non-finite reward); a tell that answers no
// pending point is a row of its own; a release gives one back ("released"), a clear_pending
// every open one ("cleared"). Every row remembers the sequence number of the last record that
// changed it, so that a page asks only for what changed since the last record it saw.
//
// Thread safety: none; the server guards each reader with a mutex (server.h).
#ifndef GPBANDIT_CLI_DASHBOARD_STUDY_READER_H_
#define GPBANDIT_CLI_DASHBOARD_STUDY_READER_H_

#include <Eigen/Core>
#include <limits>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "gpbandit/storage/study_storage.h"
#include "gpbandit/study/log_header.h"
#include "gpbandit/study/observation_log.h"

namespace gpbandit {
namespace cli {
namespace dashboard {

enum class TrialState { kPending, kComplete, kFailed, kReleased, kCleared };
const char* TrialStateName(TrialState state);

struct TrialRow {
  long id = 0;      // 0, 1, ... in the order the rows appeared
  long trial = -1;  // the study's trial number; -1 for a tell that answered no pending point
  TrialState state = TrialState::kPending;
  Eigen::VectorXd x, z, constraints;
  double y = std::numeric_limits<double>::quiet_NaN();  // the told value, the study's units
  // Completed rows: their place among the tells (0, 1, ...) and the best value told up to them
  // (highest reward, or lowest cost under --sense minimize); -1 and NaN otherwise.
  long tell_index = -1;
  double best = std::numeric_limits<double>::quiet_NaN();
  long round = -1;
  std::string worker;
  double lease_until = std::numeric_limits<double>::infinity();
  long long changed = 0;  // the sequence number of the last record that changed the row
};

struct FitRow {
  long round = 0;
  Eigen::VectorXd log_params;
  double noise_variance = 0;
};

class StudyReader {
 public:
  // Opens the study (OpenStudyStorage) and reads every record. Throws std::runtime_error (no
  // such study, storage unreachable, a corrupt record) or std::invalid_argument (a bad name).
  StudyReader(const std::string& url, const std::string& study);

  // Reads the records appended since the last call; true when there were any. Throws
  // std::runtime_error when the storage fails (the rows read so far stay as they were).
  bool Refresh();

  const LogHeader& header() const { return header_; }
  bool minimize() const;
  // The action parameters' names: the space's, or x0, x1, ... for a box or a finite set.
  const std::vector<std::string>& parameter_names() const { return names_; }
  const std::vector<TrialRow>& rows() const { return rows_; }
  const std::vector<FitRow>& fits() const { return fits_; }
  long long last_sequence() const { return last_sequence_; }
  long num_complete() const { return num_complete_; }
  long num_failed() const { return num_failed_; }
  long num_pending() const { return static_cast<long>(open_.size()); }
  // The best value told, NaN before the first accepted tell.
  double best() const { return best_; }
  // This machine's clock (seconds since the Unix epoch) when the last new record was read.
  double last_activity() const { return last_activity_; }
  std::string Describe() const { return storage_->Describe(); }

 private:
  void Apply(const StudyRecord& record);
  void ApplyTell(const LogRecord& r, long long sequence);
  long FindOpen(const LogRecord& r) const;
  void Close(long id);

  std::unique_ptr<StudyStorage> storage_;
  LogHeader header_;
  std::vector<std::string> names_;
  std::vector<TrialRow> rows_;
  std::vector<FitRow> fits_;
  std::vector<long> open_;                     // ids of pending rows, in the order handed out
  std::unordered_map<long, long> open_trial_;  // trial number -> id of its pending row
  long long last_sequence_ = 0;
  long num_complete_ = 0, num_failed_ = 0, num_tells_ = 0;
  double best_ = std::numeric_limits<double>::quiet_NaN();
  double last_activity_ = 0;
};

}  // namespace dashboard
}  // namespace cli
}  // namespace gpbandit

#endif  // GPBANDIT_CLI_DASHBOARD_STUDY_READER_H_
