// The append-only observation log of an Optimizer: one JSON object per line (JSON Lines).
//
// Why this shape (RELIABILITY.md, "a crash mid-run"): BayesOpt rewrites its file in place with
// 10 digits and loses precision; limbo appends at full precision. We append, write doubles
// round-trip exact (nlohmann-json prints the shortest representation that parses back to the
// same double, i.e. at most 17 significant digits), and fsync each record before the call that
// produced it returns. A crash can then only tear the LAST line; ReadLog drops a torn last line
// with a warning on stderr, and reopening for append truncates it away.
//
// Records (field "type"):
//   header   first line: format version, domain, strategy name and options, optimizer options,
//            kernel description and initial log-params. Enough to resume from the log alone.
//   pending  a point handed out by ask/ask_batch (round, action, context), written before the
//            call returns.
//   tell     an observation (action, context, reward, accepted or "failed" for a non-finite
//            reward; non-finite rewards are written as the strings "nan", "inf", "-inf" since
//            JSON has no such numbers). A failure that entered the model with an imputed
//            reward (NonFiniteRewardPolicy::kImputeWorst) carries it in "imputed".
//   fit      new hyperparameters (kernel log-params, noise variance) and the fit's brief report,
//            written when a refit changed the model, so that replay does not refit.
//   clear_pending   Optimizer::ClearPending.
//
// Thread safety: an ObservationLogWriter is not internally locked (the Optimizer serializes
// its calls). ReadLog is a pure function of the file.
#ifndef GPBANDIT_PLUGIN_OBSERVATION_LOG_H_
#define GPBANDIT_PLUGIN_OBSERVATION_LOG_H_

#include <limits>
#include <string>
#include <vector>

#include <Eigen/Core>

namespace gpbandit {

enum class LogRecordType { kHeader, kPending, kTell, kFit, kClearPending };

// One parsed line. Only the fields of its type are meaningful.
struct LogRecord {
  LogRecordType type = LogRecordType::kTell;
  // kPending: the 0-based ask round that produced the point; kFit: the round that refitted.
  long round = 0;
  // kPending: the index of the initial-design point handed out, or -1 for a model-driven one.
  long design_index = -1;
  // kPending, kTell: the action and the context (empty without context), original units.
  Eigen::VectorXd x, z;
  // kTell: the reward (may be non-finite when accepted == false).
  double y = 0.0;
  // kTell: false when the reward was non-finite (skipped or imputed).
  bool accepted = true;
  // kTell: the reward the model was told in place of a non-finite one; NaN when none.
  double imputed = std::numeric_limits<double>::quiet_NaN();
  // kFit: kernel log-params and noise variance.
  Eigen::VectorXd log_params;
  double noise_variance = 0.0;
  // The raw JSON text of the line (kHeader: parsed further by the optimizer).
  std::string json;
};

struct LogContents {
  std::vector<LogRecord> records;  // header first, if the file is not empty
  // Byte length of the intact prefix (everything up to and including the last good newline).
  long long intact_bytes = 0;
  // True when a torn last line was dropped (a warning was printed to stderr).
  bool dropped_torn_line = false;
};

// Reads a log. A file that does not exist gives empty contents. A last line that is not
// newline-terminated or does not parse is dropped with a warning; any other malformed line
// throws std::runtime_error naming the file, the line number and the problem (that is
// corruption, not a crash).
LogContents ReadLog(const std::string& path);

// Appends records; each Append* writes one line with a single write() and fsyncs (when
// sync is true) before returning. Throws std::runtime_error naming the path and errno text
// when the file cannot be opened or written.
class ObservationLogWriter {
 public:
  // Opens path for appending (creating it). truncate_to >= 0 first cuts the file to that many
  // bytes (drops a torn last line found by ReadLog).
  ObservationLogWriter(const std::string& path, bool sync, long long truncate_to = -1);
  ~ObservationLogWriter();
  ObservationLogWriter(const ObservationLogWriter&) = delete;
  ObservationLogWriter& operator=(const ObservationLogWriter&) = delete;

  const std::string& path() const { return path_; }

  // header_json: a complete JSON object (the optimizer builds it).
  void AppendRaw(const std::string& json_object_text);
  void AppendPending(long round, long design_index, const Eigen::VectorXd& x,
                     const Eigen::VectorXd& z);
  // imputed: written when finite (see LogRecord::imputed).
  void AppendTell(const Eigen::VectorXd& x, const Eigen::VectorXd& z, double y, bool accepted,
                  double imputed = std::numeric_limits<double>::quiet_NaN());
  void AppendFit(long round, const Eigen::VectorXd& log_params, double noise_variance,
                 const std::string& report);
  void AppendClearPending();

 private:
  void WriteLine(const std::string& line);

  std::string path_;
  bool sync_;
  int fd_ = -1;
};

}  // namespace gpbandit

#endif  // GPBANDIT_PLUGIN_OBSERVATION_LOG_H_
