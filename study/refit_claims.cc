#include "study/refit_claims.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <map>
#include <mutex>
#include <string>
#include <utility>

namespace gpbandit {
namespace {

std::string HostName() {
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
  return host[0] ? host : "localhost";
}

// The observations between refits where `rows` falls (RefitSchedule).
int RefitPeriod(const RefitSchedule& schedule, int rows) {
  return rows < schedule.small_until ? schedule.every_while_small : schedule.every;
}

// The live claim books of this process under its default name, per study
// (RefitClaims::ClaimantGone), and their lock.
std::map<std::string, int>& LiveDefaultNamedBooks() {
  static std::map<std::string, int> live;
  return live;
}
std::mutex& LiveBooksMutex() {
  static std::mutex mutex;
  return mutex;
}

}  // namespace

std::string DefaultWorkerId() { return HostName() + ":" + std::to_string(::getpid()); }

bool WorkerProcessGone(const std::string& worker) {
  const std::size_t colon = worker.rfind(':');
  if (colon == std::string::npos || colon + 1 == worker.size()) return false;
  if (worker.compare(0, colon, HostName()) != 0) return false;
  long long pid = 0;
  for (std::size_t i = colon + 1; i < worker.size(); ++i) {
    if (worker[i] < '0' || worker[i] > '9' || pid > (1LL << 31)) return false;
    pid = pid * 10 + (worker[i] - '0');
  }
  // A process that runs, or one this user may not signal (EPERM), is not gone.
  return pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH;
}

RefitClaims::RefitClaims(const RefitSchedule& schedule, std::string self, bool named,
                         GoneCheck gone, std::string study)
    : schedule_(schedule),
      self_(std::move(self)),
      named_(named),
      gone_(std::move(gone)),
      study_(std::move(study)) {
  if (named_) return;
  std::lock_guard<std::mutex> lock(LiveBooksMutex());
  ++LiveDefaultNamedBooks()[study_];
}

RefitClaims::~RefitClaims() {
  if (named_) return;
  std::lock_guard<std::mutex> lock(LiveBooksMutex());
  if (--LiveDefaultNamedBooks()[study_] == 0) LiveDefaultNamedBooks().erase(study_);
}

bool RefitClaims::OnlyBookOfItsStudy() const {
  std::lock_guard<std::mutex> lock(LiveBooksMutex());
  const auto it = LiveDefaultNamedBooks().find(study_);
  return it != LiveDefaultNamedBooks().end() && it->second == 1;
}

double RefitClaims::ClaimFor(bool due, int rows_after, double now) const {
  if (owed_ || !due || Lasts(rows_after, now)) return std::nan("");
  return now + 4.0 * last_refit_seconds_;
}

void RefitClaims::NoteOwn(double until, int rows) {
  until_ = until;
  rows_ = rows;
  claimant_ = self_;
  owed_ = true;
}

void RefitClaims::NoteReplayed(double until, int rows, const std::string& claimant) {
  until_ = until;
  rows_ = rows;
  claimant_ = claimant;
  if (named_ && claimant == self_) owed_ = true;
}

bool RefitClaims::ClaimantGone() const {
  if (claimant_.empty()) return false;
  // Our own default name while ours is the process's only book of this study: an earlier
  // optimizer of this process claimed it and is gone; with another alive, it may be the one.
  if (claimant_ == self_) return !named_ && OnlyBookOfItsStudy();
  return gone_ && gone_(claimant_);
}

// Counted in model rows: failures with imputed rewards are data the fit must explain too.
bool RefitClaims::Lasts(int rows, double now) const {
  if (ClaimantGone()) return false;
  return until_ > now || rows < rows_ + RefitPeriod(schedule_, rows_);
}

void RefitClaims::OweIfDue(bool due, bool resumes, int rows, double now) {
  if (due && (resumes || !Lasts(rows, now))) owed_ = true;
}

bool RefitClaims::OwedByNextAsk(bool due, int rows, double now) const {
  return owed_ || (due && !Lasts(rows, now));
}

void RefitClaims::Forget() {
  until_ = -std::numeric_limits<double>::infinity();
  rows_ = std::numeric_limits<int>::min() / 2;
  claimant_.clear();
}

void RefitClaims::Settle() {
  owed_ = false;
  Forget();
}

void RefitClaims::BeginFit(std::function<void()> restore) { restore_ = std::move(restore); }

void RefitClaims::RollBack() {
  if (!restore_) return;
  std::function<void()> restore = std::move(restore_);
  restore_ = nullptr;
  restore();
}

void RefitClaims::Commit() {
  if (restore_) Settle();
  restore_ = nullptr;
}

}  // namespace gpbandit
