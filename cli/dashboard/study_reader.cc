#include "cli/dashboard/study_reader.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "gpbandit/space/parameter_space.h"
#include "gpbandit/study/observation_log.h"

namespace gpbandit {
namespace cli {
namespace dashboard {
namespace {

double Now() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::vector<std::string> ParameterNames(const Domain& domain) {
  std::vector<std::string> names;
  if (const ParameterSpace* space = domain.action_space()) {
    for (const Parameter& p : space->parameters()) names.push_back(p.name);
  } else {
    for (int i = 0; i < domain.action_dim(); ++i) names.push_back("x" + std::to_string(i));
  }
  return names;
}

}  // namespace

const char* TrialStateName(TrialState state) {
  switch (state) {
    case TrialState::kPending:
      return "pending";
    case TrialState::kComplete:
      return "complete";
    case TrialState::kFailed:
      return "failed";
    case TrialState::kReleased:
      return "released";
    case TrialState::kCleared:
      return "cleared";
  }
  return "?";
}

StudyReader::StudyReader(const std::string& url, const std::string& study)
    : storage_(OpenStudyStorage(url, study)) {
  std::unique_ptr<StudySession> session = storage_->Begin(LockMode::kShared);
  if (session->header().empty())
    throw std::runtime_error(storage_->Describe() + ": no such study (or it has no header yet)");
  header_ = ParseLogHeader(session->header());
  names_ = ParameterNames(header_.domain);
  for (const StudyRecord& record : session->ReadAfter(0)) Apply(record);
  last_activity_ = Now();
}

bool StudyReader::minimize() const { return header_.options.sense == ObjectiveSense::kMinimize; }

bool StudyReader::Refresh() {
  std::unique_ptr<StudySession> session = storage_->Begin(LockMode::kShared);
  const std::vector<StudyRecord> records = session->ReadAfter(last_sequence_);
  for (const StudyRecord& record : records) Apply(record);
  if (!records.empty()) last_activity_ = Now();
  return !records.empty();
}

void StudyReader::Apply(const StudyRecord& record) {
  last_sequence_ = std::max(last_sequence_, record.sequence);
  if (record.type != "pending" && record.type != "tell" && record.type != "fit" &&
      record.type != "release" && record.type != "clear_pending")
    return;  // a kind this dashboard does not know flows past (study_storage.h)
  const LogRecord r = ParseLogRecord(record.json);
  switch (r.type) {
    case LogRecordType::kPending: {
      TrialRow row;
      row.id = static_cast<long>(rows_.size());
      // Older logs number trials in the order handed out (optimizer_types.h).
      row.trial = r.trial >= 0 ? r.trial : row.id;
      row.x = r.x;
      row.z = r.z;
      row.round = r.round;
      row.worker = r.worker;
      row.lease_until = r.lease_until;
      row.changed = record.sequence;
      open_.push_back(row.id);
      open_trial_[row.trial] = row.id;
      rows_.push_back(std::move(row));
      break;
    }
    case LogRecordType::kTell:
      ApplyTell(r, record.sequence);
      break;
    case LogRecordType::kFit:
      fits_.push_back({r.round, r.log_params, r.noise_variance});
      break;
    case LogRecordType::kRelease: {
      const long id = FindOpen(r);
      if (id >= 0) {
        rows_[id].state = TrialState::kReleased;
        rows_[id].changed = record.sequence;
        Close(id);
      }
      break;
    }
    case LogRecordType::kClearPending:
      for (long id : open_) {
        rows_[id].state = TrialState::kCleared;
        rows_[id].changed = record.sequence;
      }
      open_.clear();
      open_trial_.clear();
      break;
    case LogRecordType::kHeader:
      break;
  }
}

long StudyReader::FindOpen(const LogRecord& r) const {
  if (r.trial >= 0) {
    const auto it = open_trial_.find(r.trial);
    return it == open_trial_.end() ? -1 : it->second;
  }
  for (long id : open_)
    if (rows_[id].x == r.x && rows_[id].z == r.z) return id;
  return -1;
}

void StudyReader::Close(long id) {
  open_.erase(std::find(open_.begin(), open_.end(), id));
  open_trial_.erase(rows_[id].trial);
}

void StudyReader::ApplyTell(const LogRecord& r, long long sequence) {
  long id = FindOpen(r);
  if (id >= 0) {
    Close(id);
  } else {
    TrialRow row;
    row.id = static_cast<long>(rows_.size());
    row.trial = r.trial;
    row.round = r.round;
    rows_.push_back(std::move(row));
    id = rows_.back().id;
  }
  TrialRow& row = rows_[id];
  row.x = r.x;
  row.z = r.z;
  row.y = r.y;
  row.constraints = r.constraints;
  row.changed = sequence;
  row.tell_index = num_tells_++;
  const bool ok = r.accepted && std::isfinite(r.y);
  row.state = ok ? TrialState::kComplete : TrialState::kFailed;
  if (ok) {
    ++num_complete_;
    if (std::isnan(best_) || (minimize() ? r.y < best_ : r.y > best_)) best_ = r.y;
  } else {
    ++num_failed_;
  }
  row.best = best_;
}

}  // namespace dashboard
}  // namespace cli
}  // namespace gpbandit
