// The records of a study (an Optimizer's log): one JSON object per record, stored one per line
// in a JSON-Lines file by the file backend (storage/file_storage.h) or one per row by the
// database backend (storage/postgres_storage.h); the text is the same in both.
//
// Why this shape (docs/design.md, "Faults": a crash mid-run): BayesOpt rewrites its file in place
// with 10 digits and loses precision; limbo appends at full precision. We append, write doubles
// round-trip exact (nlohmann-json prints the shortest representation that parses back to the
// same double, i.e. at most 17 significant digits), and make each tell durable (fsync, or a
// database commit) before the call returns (optimizer.h, "Shared studies"). A crash can then
// only tear the LAST line of a file, leaving it without its newline; readers drop such a line
// with a warning (numerics/warning_sink.h), and the next writer cuts it off under the study's lock.
// Only after a valid header: a file that does not start with one is not a study and is never cut or
// appended to.
//
// Records (field "type"):
//   header   first line: format version, domain, strategy name and options, optimizer options,
//            kernel description and initial log-params. Enough to resume from the log alone.
//   pending  a point handed out by ask/ask_batch (round, action, context), written before the
//            call returns, with the worker that holds it ("worker") and the end of its lease
//            ("lease_until", seconds since the Unix epoch on the study's clock; absent: the
//            lease never ends). Older logs have neither field. "trial": its trial number
//            (format version 5; absent before, when points were numbered in order all the same).
//            An ask chosen outside the study's lock that kept its point although other asks
//            took its round meanwhile carries the round whose random numbers it drew
//            ("drawn_round", format version 6; absent: "round").
//   tell     an observation (action, context, reward, accepted or "failed" for a non-finite
//            reward; non-finite rewards are written as the strings "nan", "inf", "-inf" since
//            JSON has no such numbers), and its round ("round": the ask round of the pending
//            point it answers, else the last ask round; older logs have none). A failure that
//            entered the model with an imputed reward (NonFiniteRewardPolicy::kImputeWorst) carries
//            it in "imputed". With a strategy that models constraint signals (SafeOpt-MC), "g"
//            holds their measured values (format version 4; absent otherwise). "trial": the
//            trial it answers (Optimizer::TellTrial; format version 5), whose pending point it
//            releases whatever x is; absent: it releases the first pending point equal to x. A
//            tell after which a refit is due carries "refit_claim" when its worker takes the
//            refit on (format version 6: seconds on the study's clock until which the other
//            workers leave it to that one), and then "worker", the worker that claims it
//            (absent in older logs; study/refit_claims.h says when a claim lasts).
//            In a study with fidelities, pending and tell records carry "fidelity", the index
//            of the fidelity (absent otherwise; no format version: older code refuses such a
//            study by its header's "fidelities").
//   fit      new hyperparameters (kernel log-params, noise variance) and the fit's brief report,
//            written when a refit changed the model, so that replay does not refit; with
//            constraint signals, "constraints" holds each one's log-params and noise variance
//            (format version 4), or, with the models of a safe strategy's declared safety
//            signals (format version 5; model/signal_model.h), "signals" holds each signal
//            model's (the reward's first when it has a threshold, then the constraints').
//   release  Optimizer::Release: one pending point given back without an observation ("trial":
//            that of ReleaseTrial, format version 5).
//   clear_pending   Optimizer::ClearPending.
//
// Thread safety: pure functions. ReadLog reads a file without locking it (for tests and tools;
// the Optimizer reads through its storage).
#ifndef GPBANDIT_STUDY_OBSERVATION_LOG_H_
#define GPBANDIT_STUDY_OBSERVATION_LOG_H_

#include <Eigen/Core>
#include <limits>
#include <string>
#include <vector>

namespace gpbandit {

enum class LogRecordType { kHeader, kPending, kTell, kFit, kRelease, kClearPending };

// One parsed line. Only the fields of its type are meaningful.
struct LogRecord {
  LogRecordType type = LogRecordType::kTell;
  // kPending: the 0-based ask round that produced the point; kFit: the round that refitted;
  // kTell: the observation's round (Observation::round), -1 in logs written before it was.
  long round = 0;
  // kPending: the index of the initial-design point handed out, or -1 for a model-driven one.
  long design_index = -1;
  // kPending: the round whose random numbers chose the point when it is not `round` (an ask
  // chosen outside the lock while other asks took its round), else -1.
  long drawn_round = -1;
  // kPending, kTell, kRelease: the action and the context (empty without context), original
  // units.
  Eigen::VectorXd x, z;
  // kPending: the point's trial number (PendingPoint::trial; -1 in older logs, numbered in
  // order then). kTell, kRelease: the trial whose pending point they release, -1 when they
  // release the first pending point equal to (x, z) instead.
  long trial = -1;
  // kPending, kTell: the fidelity (OptimizerOptions::fidelities) to evaluate the point at or it
  // was evaluated at; -1 when the record has none (a study without fidelities).
  int fidelity = -1;
  // kPending: the worker holding the point ("" in older logs) and the end of its lease
  // (infinity when it never ends). kTell with a refit_claim: the worker that claims the refit
  // ("" in older logs).
  std::string worker;
  double lease_until = std::numeric_limits<double>::infinity();
  // kTell: the reward (may be non-finite when accepted == false).
  double y = 0.0;
  // kTell: false when the reward was non-finite (skipped or imputed).
  bool accepted = true;
  // kTell: the reward the model was told in place of a non-finite one; NaN when none.
  double imputed = std::numeric_limits<double>::quiet_NaN();
  // kTell: the measured constraint signals g_i (empty when the strategy models none).
  Eigen::VectorXd constraints;
  // kTell: until when (the study's clock) the refit due after it is left to its worker; NaN
  // when the tell claimed none.
  double refit_claim = std::numeric_limits<double>::quiet_NaN();
  // kFit: kernel log-params and noise variance.
  Eigen::VectorXd log_params;
  double noise_variance = 0.0;
  // kFit: the constraint models' kernel log-params and noise variances (empty when none).
  std::vector<Eigen::VectorXd> constraint_log_params;
  std::vector<double> constraint_noise_variances;
  // kFit: the safety signals' models' kernel log-params and noise variances (empty when none).
  std::vector<Eigen::VectorXd> signal_log_params;
  std::vector<double> signal_noise_variances;
  // The raw JSON text of the line (kHeader: parsed further by the optimizer).
  std::string json;
};

struct LogContents {
  std::vector<LogRecord> records;  // header first, if the file is not empty
  // Byte length of the intact prefix (everything up to and including the last good newline).
  long long intact_bytes = 0;
  // True when a torn last line was dropped (and a warning handed to the warning sink).
  bool dropped_torn_line = false;
};

// Reads a log. A file that does not exist, or is empty, gives empty contents. A last line
// without its newline (a write torn by a crash) is dropped with a warning when a header comes
// before it. Any other malformed line (a complete last line included), and a file that does not
// start with a header, throw std::runtime_error naming the file, the line number and the
// problem (that is corruption or not a study, not a crash).
LogContents ReadLog(const std::string& path);

// Parses one record (any type but the header's fields). Throws std::runtime_error or
// nlohmann::json's exceptions (std::exception) naming the problem.
LogRecord ParseLogRecord(const std::string& json);

// The JSON text of each record kind (one line, no newline). imputed: written when finite (see
// LogRecord::imputed). constraints, constraint_log_params / _noise_variances and
// signal_log_params / _noise_variances: written when non-empty, so records without them read
// the same as in format version 3. trial (LogRecord::trial): written when >= 0. drawn_round:
// written when >= 0 and not `round`. fidelity: written when >= 0.
std::string FormatPendingRecord(long round, long design_index, const Eigen::VectorXd& x,
                                const Eigen::VectorXd& z, const std::string& worker,
                                double lease_until, long trial = -1, long drawn_round = -1,
                                int fidelity = -1);
// round: the observation's round (Observation::round), written when >= 0. refit_claim: written
// when finite, with the claimant's name as "worker".
std::string FormatTellRecord(const Eigen::VectorXd& x, const Eigen::VectorXd& z, double y,
                             bool accepted,
                             double imputed = std::numeric_limits<double>::quiet_NaN(),
                             long round = -1,
                             const Eigen::VectorXd& constraints = Eigen::VectorXd(),
                             long trial = -1,
                             double refit_claim = std::numeric_limits<double>::quiet_NaN(),
                             const std::string& claimant = "", int fidelity = -1);
std::string FormatFitRecord(long round, const Eigen::VectorXd& log_params, double noise_variance,
                            const std::string& report,
                            const std::vector<Eigen::VectorXd>& constraint_log_params = {},
                            const std::vector<double>& constraint_noise_variances = {},
                            const std::vector<Eigen::VectorXd>& signal_log_params = {},
                            const std::vector<double>& signal_noise_variances = {});
std::string FormatReleaseRecord(const Eigen::VectorXd& x, const Eigen::VectorXd& z,
                                long trial = -1);
std::string FormatClearPendingRecord();

}  // namespace gpbandit

#endif  // GPBANDIT_STUDY_OBSERVATION_LOG_H_
