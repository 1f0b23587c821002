// A StudyStorage wrapper for the shared-study benchmark and its worker program: the time spent
// in the storage's calls (lock waits, reads, the clock, appends, commits), and how long this
// worker held the study's exclusive lock (from Begin returning to the session's end); for the
// fault tests, a worker that stops itself (SIGSTOP) holding the lock, at its n-th exclusive
// commit. No test framework here (bench/ uses it too).
#ifndef GPBANDIT_TESTS_SHARED_TIMED_STORAGE_H_
#define GPBANDIT_TESTS_SHARED_TIMED_STORAGE_H_

#include <chrono>
#include <csignal>
#include <memory>
#include <string>
#include <vector>

#include "gpbandit/storage/study_storage.h"

namespace gpbandit {
namespace testing {

class TimedStorage : public StudyStorage {
 public:
  explicit TimedStorage(std::unique_ptr<StudyStorage> inner) : inner_(std::move(inner)) {}
  std::string Describe() const override { return inner_->Describe(); }
  std::unique_ptr<StudySession> Begin(LockMode mode) override {
    const auto start = Clock::now();
    auto session = std::make_unique<Session>(inner_->Begin(mode), this, mode);
    spent_ += Seconds(Clock::now() - start);
    return session;
  }
  // Seconds in the storage's calls, in all.
  double spent() const { return spent_; }
  // Seconds the exclusive lock was held, and the exclusive sessions.
  double held() const { return held_; }
  long exclusive_sessions() const { return exclusive_sessions_; }
  // Stops this process (SIGSTOP) at the n-th exclusive session's Commit, before it commits:
  // frozen holding the study's lock until someone sends SIGCONT. 0: never.
  void StopAtCommit(long n) { stop_at_commit_ = n; }

 private:
  using Clock = std::chrono::steady_clock;
  static double Seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

  class Session : public StudySession {
   public:
    Session(std::unique_ptr<StudySession> inner, TimedStorage* owner, LockMode mode)
        : inner_(std::move(inner)), owner_(owner), exclusive_(mode == LockMode::kExclusive) {
      if (exclusive_) ++owner_->exclusive_sessions_;
    }
    ~Session() override {
      Time([&] { inner_.reset(); });
      if (exclusive_) owner_->held_ += Seconds(Clock::now() - locked_);
    }
    const std::string& header() const override { return inner_->header(); }
    std::vector<StudyRecord> ReadAfter(long long after) override {
      std::vector<StudyRecord> out;
      Time([&] { out = inner_->ReadAfter(after); });
      return out;
    }
    double Now() override {
      double now = 0;
      Time([&] { now = inner_->Now(); });
      return now;
    }
    void CreateStudy(const std::string& h) override { inner_->CreateStudy(h); }
    void Append(const std::string& r) override {
      Time([&] { inner_->Append(r); });
    }
    long long Commit(Durability durability) override {
      if (exclusive_ && ++owner_->exclusive_commits_ == owner_->stop_at_commit_)
        std::raise(SIGSTOP);
      long long last = 0;
      Time([&] { last = inner_->Commit(durability); });
      return last;
    }

   private:
    template <typename F>
    void Time(F f) {
      const auto start = Clock::now();
      f();
      owner_->spent_ += Seconds(Clock::now() - start);
    }
    std::unique_ptr<StudySession> inner_;
    TimedStorage* owner_;
    bool exclusive_;
    Clock::time_point locked_ = Clock::now();
  };

  std::unique_ptr<StudyStorage> inner_;
  double spent_ = 0, held_ = 0;
  long exclusive_sessions_ = 0;
  long exclusive_commits_ = 0, stop_at_commit_ = 0;
};

}  // namespace testing
}  // namespace gpbandit

#endif  // GPBANDIT_TESTS_SHARED_TIMED_STORAGE_H_
