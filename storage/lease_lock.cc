#include "storage/lease_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "gpbandit/numerics/warning_sink.h"

namespace gpbandit {
namespace {

// The token's fixed width: one pwrite replaces the previous holder's whole token.
constexpr std::size_t kTokenWidth = 128;
// How often a waiter reads the holder's token.
constexpr auto kLookEvery = std::chrono::milliseconds(20);
// How long a holder that is a stopped process of this host (ProcessStopped) keeps the lock
// before a waiter breaks it, whatever its lease: a stopped process cannot let go, and the
// PostgreSQL backend waits as long (postgres_storage.cc, kLockWait).
constexpr double kStoppedHolderSeconds = 0.25;
// A waiter's polls back off from 50 us to 2 ms (flock cannot wait with a timeout).
constexpr auto kFirstPause = std::chrono::microseconds(50);
constexpr auto kLongestPause = std::chrono::microseconds(2000);

std::string LockErrnoText(const std::string& what, const std::string& path) {
  return what + " '" + path + "': " + std::strerror(errno);
}

int FlockRetrying(int fd, int operation) {
  int status;
  do {
    status = ::flock(fd, operation);
  } while (status != 0 && errno == EINTR);
  return status;
}

// "gpbandit-lock <host:pid> <nonce> <lease seconds>", padded with spaces to kTokenWidth - 1,
// then a newline.
std::string MakeToken(double lease_seconds) {
  std::random_device device;
  char nonce[17];
  std::snprintf(nonce, sizeof nonce, "%08x%08x", device(), device());
  std::ostringstream out;
  out << "gpbandit-lock " << HostAndPid() << " " << nonce << " ";
  if (std::isinf(lease_seconds))
    out << "inf";
  else
    out << lease_seconds;
  std::string token = out.str().substr(0, kTokenWidth - 1);
  token.resize(kTokenWidth - 1, ' ');
  return token + "\n";
}

// The holder and the lease of a token; lease <= 0 when the token names none.
void ParseToken(const std::string& token, std::string* holder, double* lease) {
  std::istringstream in(token);
  std::string tag, nonce, lease_text;
  in >> tag >> *holder >> nonce >> lease_text;
  *lease = 0;
  if (tag != "gpbandit-lock") {
    holder->clear();
    return;
  }
  *lease = lease_text == "inf" ? HUGE_VAL : std::strtod(lease_text.c_str(), nullptr);
}

double SecondsSince(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace

std::string HostAndPid() {
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
  return std::string(host[0] ? host : "localhost") + ":" + std::to_string(::getpid());
}

bool ProcessStopped(const std::string& worker) {
  const std::size_t colon = worker.rfind(':');
  if (colon == std::string::npos || colon + 1 == worker.size()) return false;
  const std::string host_pid = HostAndPid();
  if (worker.compare(0, colon, host_pid, 0, host_pid.rfind(':')) != 0) return false;
  const std::string pid = worker.substr(colon + 1);
  if (pid.size() > 9 || pid.find_first_not_of("0123456789") != std::string::npos) return false;
  std::ifstream stat("/proc/" + pid + "/stat");
  const std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  // "pid (command) state ...": the command may hold spaces and parentheses.
  const std::size_t close = text.rfind(')');
  if (close == std::string::npos || close + 2 >= text.size()) return false;
  const char state = text[close + 2];
  return state == 'T' || state == 't';
}

LeaseLock::LeaseLock(std::string lock_path, double lease_seconds, std::string what)
    : path_(std::move(lock_path)), lease_seconds_(lease_seconds), what_(std::move(what)) {}

LeaseLock::~LeaseLock() {
  if (held_) Release();
  if (fd_ >= 0) ::close(fd_);
}

void LeaseLock::Open() {
  struct stat at_path;
  const bool exists = ::stat(path_.c_str(), &at_path) == 0;
  if (fd_ >= 0 && exists && at_path.st_ino == ino_ && at_path.st_dev == dev_) return;
  if (fd_ >= 0) ::close(fd_);
  fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) throw std::runtime_error(LockErrnoText("cannot open the lock file", path_));
  struct stat opened;
  if (::fstat(fd_, &opened) != 0) throw std::runtime_error(LockErrnoText("cannot stat", path_));
  ino_ = opened.st_ino;
  dev_ = opened.st_dev;
}

std::string LeaseLock::ReadToken() const {
  char buffer[kTokenWidth];
  const ssize_t n = ::pread(fd_, buffer, sizeof buffer, 0);
  return n > 0 ? std::string(buffer, static_cast<std::size_t>(n)) : std::string();
}

void LeaseLock::Acquire(int mutex_fd, const std::string& mutex_path) {
  watch_ = Watch();
  auto pause = kFirstPause;
  while (!TryAcquire(mutex_fd, mutex_path)) {
    std::this_thread::sleep_for(pause);
    pause = std::min(kLongestPause, pause * 2);
  }
}

bool LeaseLock::TryAcquire(int mutex_fd, const std::string& mutex_path) {
  mutex_fd_ = mutex_fd;
  for (;;) {
    Open();
    if (FlockRetrying(fd_, LOCK_EX | LOCK_NB) == 0) {
      struct stat at_path;
      // A breaker may have unlinked the file between our open and our flock.
      if (::stat(path_.c_str(), &at_path) == 0 && at_path.st_ino == ino_ &&
          at_path.st_dev == dev_) {
        held_ = true;
        acquired_ = Clock::now();
        watch_ = Watch();
        const std::string token = MakeToken(lease_seconds_);
        // The token only informs waiters; a failed write leaves them a blank one, which they
        // time with their own lease.
        (void)!::pwrite(fd_, token.data(), token.size(), 0);
        return true;
      }
      FlockRetrying(fd_, LOCK_UN);
      continue;
    }
    if (errno != EWOULDBLOCK) throw std::runtime_error(LockErrnoText("cannot lock", path_));
    if (!WatchHolder(mutex_fd, mutex_path)) return false;
  }
}

// Notes the holder's token (every kLookEvery at most); true when it has held the lock under one
// token for its lease and the lock was broken (the caller tries again).
bool LeaseLock::WatchHolder(int mutex_fd, const std::string& mutex_path) {
  const Clock::time_point now = Clock::now();
  if (watch_.looked && now - watch_.last_look < kLookEvery) return false;
  watch_.last_look = now;
  const std::string token = ReadToken();
  if (!watch_.looked || token != watch_.token || ino_ != watch_.ino) {
    watch_ = {true, token, ino_, now, now};
    return false;
  }
  std::string holder;
  double lease = 0;
  ParseToken(token, &holder, &lease);
  if (lease <= 0) lease = lease_seconds_;
  const double held_for = SecondsSince(watch_.since);
  const bool stopped = held_for >= kStoppedHolderSeconds && ProcessStopped(holder);
  if (held_for < lease && !stopped) return false;
  Break(mutex_fd, mutex_path, watch_.ino, watch_.token, held_for);
  watch_ = Watch();
  return true;
}

void LeaseLock::Break(int mutex_fd, const std::string& mutex_path, ino_t ino,
                      const std::string& token, double seconds) {
  if (FlockRetrying(mutex_fd, LOCK_EX) != 0)
    throw std::runtime_error(LockErrnoText("cannot lock", mutex_path));
  struct stat at_path;
  if (::stat(path_.c_str(), &at_path) == 0 && at_path.st_ino == ino && ReadToken() == token) {
    if (FlockRetrying(fd_, LOCK_EX | LOCK_NB) == 0) {
      FlockRetrying(fd_, LOCK_UN);  // let go meanwhile: nothing to break
    } else if (::unlink(path_.c_str()) == 0) {
      std::string holder;
      double lease = 0;
      ParseToken(token, &holder, &lease);
      std::ostringstream message;
      message << mutex_path << ": " << what_ << " was held by "
              << (holder.empty() ? std::string("an unknown process") : holder) << " for " << seconds
              << " s, beyond its lease or stopped: breaking it (it will write nothing, and retry "
                 "when it resumes)";
      Warn(message.str());
    }
  }
  FlockRetrying(mutex_fd, LOCK_UN);
}

bool LeaseLock::StillHeld() const {
  if (!held_) return false;
  if (!std::isinf(lease_seconds_) && SecondsSince(acquired_) >= 0.75 * lease_seconds_) return false;
  struct stat at_path;
  return ::stat(path_.c_str(), &at_path) == 0 && at_path.st_ino == ino_ && at_path.st_dev == dev_;
}

void LeaseLock::Release() {
  if (!held_) return;
  const std::string blank(kTokenWidth - 1, ' ');
  (void)!::pwrite(fd_, (blank + "\n").data(), kTokenWidth, 0);
  RemoveFile();
  FlockRetrying(fd_, LOCK_UN);
  held_ = false;
}

// Still holding it, unlinks the lock file if it is still this holder's (a broken holder's file
// is another's by now). Under the breakers' mutex, so that a breaker that has checked the file
// never unlinks the next holder's instead; when a breaker holds the mutex, the file is left to
// the next holder's release.
void LeaseLock::RemoveFile() {
  if (mutex_fd_ < 0 || FlockRetrying(mutex_fd_, LOCK_EX | LOCK_NB) != 0) return;
  struct stat at_path;
  if (::stat(path_.c_str(), &at_path) == 0 && at_path.st_ino == ino_ && at_path.st_dev == dev_)
    (void)::unlink(path_.c_str());
  FlockRetrying(mutex_fd_, LOCK_UN);
}

bool LeaseLock::Free(const std::string& lock_path) {
  const int fd = ::open(lock_path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return true;  // never locked
  const bool free = FlockRetrying(fd, LOCK_SH | LOCK_NB) == 0;
  ::close(fd);  // drops the shared lock
  return free;
}

}  // namespace gpbandit
