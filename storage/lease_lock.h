// The exclusive lock of a file study (file_storage.h), with a lease: flock(2) on a lock file
// beside the study ("<study>.lock"), so that a worker that dies lets go at once (the kernel drops
// its lock), and that a worker that is alive but does not move (stopped with SIGSTOP, held in a
// debugger) loses the lock once it has held it for the lease, so that the others go on.
//
// - The holder writes a token (host:pid, a random number, its lease) into the lock file when it
//   takes the lock and blanks it when it lets go.
// - The lock file exists only while the lock is held: the holder unlinks it as it lets go (under
//   the breakers' mutex, below, and only while the file at the path is still its own), and the
//   next holder creates a new one. A waiter that locked the unlinked file sees that it is no
//   longer at the path and tries again, as after a break. So nothing is left beside the study
//   once its processes end, except the file of a holder killed while it held the lock, which
//   the next holder removes (and when a breaker holds the mutex at the release, a rare race,
//   the file is left to the next holder's release).
// - A waiter that has seen the lock held under one and the same token for the holder's lease
//   breaks it: under a short flock of the study file itself (so that two waiters never break
//   twice), it checks again and unlinks the lock file; the next lock is taken on a new file. The
//   waiter measures the time itself (no clocks are compared), from when it first saw the token.
//   A holder that is a stopped process of this host (ProcessStopped: SIGSTOP, ^Z, a debugger)
//   is broken after 0.25 s instead of its lease, as the PostgreSQL backend does.
// - Fencing: before it writes, the holder checks that the lock file at the path is still the one
//   it locked and that it has held the lock for less than three quarters of its lease
//   (StillHeld). A broken holder therefore writes nothing, unless it is frozen for a quarter
//   lease exactly between that check and its write(2); its write then lands after other
//   workers' records, and it says so (warning_sink.h; a residual race, as in every lease lock).
//
// Every process on the study must use this lock (gpbandit since lock leases); older versions
// locked the study file itself. Internal to storage/; one thread at a time per object.
#ifndef GPBANDIT_STORAGE_LEASE_LOCK_H_
#define GPBANDIT_STORAGE_LEASE_LOCK_H_

#include <sys/types.h>

#include <chrono>
#include <string>

namespace gpbandit {

// Whether `worker` ("host:pid", as lock tokens and database sessions name their process) is a
// process of this host that is stopped: SIGSTOP, a terminal's ^Z or a debugger's stop (state T
// or t in /proc/<pid>/stat). false for another host, a process that runs or is gone, or when
// it cannot be told (no /proc).
bool ProcessStopped(const std::string& worker);

// This process as lock tokens and database sessions name it: "host:pid" ("localhost" when the
// host name cannot be read).
std::string HostAndPid();

class LeaseLock {
 public:
  // lock_path: the lock file (created when needed). lease_seconds: > 0, or infinity (never
  // broken). what: the lock, for messages.
  LeaseLock(std::string lock_path, double lease_seconds, std::string what = "the study's lock");
  ~LeaseLock();
  LeaseLock(const LeaseLock&) = delete;
  LeaseLock& operator=(const LeaseLock&) = delete;

  // Blocks until this object holds the lock; breaks a lock whose holder has not let go within
  // its lease. mutex_fd: an open descriptor of a file whose flock serializes the breakers (the
  // study file's, for a study's lock). Throws std::runtime_error when the lock file cannot be
  // created or locked.
  void Acquire(int mutex_fd, const std::string& mutex_path);
  // Takes the lock if it is free (or its holder's lease has run out, as seen over repeated
  // calls), without waiting; returns whether it holds it.
  bool TryAcquire(int mutex_fd, const std::string& mutex_path);
  // Whether the lock is still this object's for long enough to write (see Fencing above).
  bool StillHeld() const;
  void Release();
  bool held() const { return fd_ >= 0 && held_; }

  // True when nobody holds the lock at `lock_path` (a reader's check that a torn last line is
  // not a write in progress). Takes and drops a shared lock without waiting.
  static bool Free(const std::string& lock_path);

 private:
  using Clock = std::chrono::steady_clock;
  // Opens the lock file at the path (reusing an open descriptor of the same file).
  void Open();
  // The token in the lock file ("" when blank or unreadable).
  std::string ReadToken() const;
  // Unlinks the lock file if it is still the file `ino` with token `token`, held.
  void Break(int mutex_fd, const std::string& mutex_path, ino_t ino, const std::string& token,
             double seconds);
  bool WatchHolder(int mutex_fd, const std::string& mutex_path);
  void RemoveFile();

  // What a waiter saw of the holder: one token, since when (the waiter's own clock).
  struct Watch {
    bool looked = false;
    std::string token;
    ino_t ino = 0;
    Clock::time_point since, last_look;
  };

  std::string path_;
  double lease_seconds_;
  std::string what_;
  int fd_ = -1;
  int mutex_fd_ = -1;  // the breakers' mutex of the last Acquire (Release takes it too)
  ino_t ino_ = 0;
  dev_t dev_ = 0;
  bool held_ = false;
  Clock::time_point acquired_;
  Watch watch_;
};

}  // namespace gpbandit

#endif  // GPBANDIT_STORAGE_LEASE_LOCK_H_
