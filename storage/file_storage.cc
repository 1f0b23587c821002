#include "gpbandit/storage/file_storage.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <stdexcept>

#include "gpbandit/numerics/warning_sink.h"
#include "storage/json_lines.h"
#include "storage/lease_lock.h"

namespace gpbandit {
namespace {

std::string ErrnoText(const std::string& what, const std::string& path) {
  return what + " '" + RedactUrl(path) + "': " + std::strerror(errno);
}

std::string ReadRange(int fd, long long from, long long to, const std::string& path) {
  std::string text(static_cast<std::size_t>(to - from), '\0');
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::pread(fd, &text[done], text.size() - done,
                              static_cast<off_t>(from + static_cast<long long>(done)));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw std::runtime_error(ErrnoText("cannot read", path));
    if (n == 0) break;  // cannot happen under the lock; keep what was read
    done += static_cast<std::size_t>(n);
  }
  text.resize(done);
  return text;
}

long long FileSize(int fd, const std::string& path) {
  struct stat st;
  if (::fstat(fd, &st) != 0) throw std::runtime_error(ErrnoText("cannot stat", path));
  return static_cast<long long>(st.st_size);
}

}  // namespace

// A session: the lock (exclusive sessions), the records read at its start, and what it stages.
class FileStudySession : public StudySession {
 public:
  FileStudySession(FileStudyStorage* storage, LockMode mode) : storage_(storage), mode_(mode) {
    const bool exclusive = mode == LockMode::kExclusive;
    if (!storage_->EnsureOpen(exclusive)) return;  // no file: no study yet
    if (exclusive) {
      storage_->lock_->Acquire(storage_->fd_, storage_->path_);
      locked_ = true;
    }
    read_from_ = storage_->cursor_.sequence;
    try {
      records_ = storage_->ReadNew(exclusive);
    } catch (...) {
      Unlock();
      throw;
    }
  }
  ~FileStudySession() override { Unlock(); }

  const std::string& header() const override { return storage_->header_; }

  std::vector<StudyRecord> ReadAfter(long long after) override {
    if (after < std::max(read_from_, 0LL)) return storage_->ReadAllAfter(after);
    std::vector<StudyRecord> out;
    for (const StudyRecord& r : records_)
      if (r.sequence > after) out.push_back(r);
    return out;
  }

  double Now() override {
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch())
        .count();
  }

  void CreateStudy(const std::string& header_json) override {
    RequireExclusive("CreateStudy");
    if (!storage_->header_.empty() || !staged_.empty() || creates_)
      throw std::logic_error("CreateStudy: the study exists already or records are staged");
    CheckHeaderRecord(header_json, "CreateStudy");
    staged_ = header_json + "\n";
    creates_ = true;
  }

  void Append(const std::string& record_json) override {
    RequireExclusive("Append");
    AppendableRecordType(record_json, "Append");
    staged_ += record_json + "\n";
    ++staged_records_;
  }

  long long Commit(Durability durability) override {
    RequireExclusive("Commit");
    if (storage_->header_.empty() && !creates_ && staged_records_ > 0)
      throw std::logic_error("Commit: records for a study that does not exist");
    const bool wrote = !staged_.empty();
    // Fencing: a session whose lock has outlived its lease may have lost it to another worker.
    if (wrote && !storage_->lock_->StillHeld()) {
      Unlock();
      throw StorageInterrupted(storage_->path_ +
                               ": this worker held the study's lock beyond its lease (was it "
                               "stopped?); nothing was written");
    }
    if (wrote) storage_->Append(staged_, staged_records_ + (creates_ ? 1 : 0));
    if (creates_) storage_->header_ = staged_.substr(0, staged_.find('\n'));
    staged_.clear();
    staged_records_ = 0;
    creates_ = false;
    const long long last = storage_->cursor_.sequence;
    if (wrote && durability == Durability::kDurable && storage_->sync_) {
      // The records are complete and the session is over: other workers may go on while the
      // disk catches up. fsync makes every line up to ours durable.
      Unlock();
      storage_->SyncToDisk();
    }
    return last;
  }

 private:
  void RequireExclusive(const char* what) const {
    if (mode_ != LockMode::kExclusive || !locked_)
      throw std::logic_error(std::string(what) + " in a shared or ended session");
  }
  void Unlock() {
    if (locked_) storage_->lock_->Release();
    locked_ = false;
  }

  FileStudyStorage* storage_;
  LockMode mode_;
  bool locked_ = false;
  long long read_from_ = -1;
  std::vector<StudyRecord> records_;
  std::string staged_;
  long long staged_records_ = 0;
  bool creates_ = false;
};

FileStudyStorage::FileStudyStorage(std::string path, bool sync, double lock_lease_seconds)
    : path_(std::move(path)),
      sync_(sync),
      lock_(std::make_unique<LeaseLock>(path_ + ".lock", lock_lease_seconds)) {}

FileStudyStorage::~FileStudyStorage() {
  if (fd_ >= 0) ::close(fd_);
}

std::unique_ptr<StudySession> FileStudyStorage::Begin(LockMode mode) {
  return std::make_unique<FileStudySession>(this, mode);
}

void FileStudyStorage::CheckWritable() const {
  struct stat info;
  if (::stat(path_.c_str(), &info) == 0) {
    if (S_ISDIR(info.st_mode))
      throw std::runtime_error("the log '" + Describe() + "' is a directory");
    if (::access(path_.c_str(), R_OK | W_OK) != 0)
      throw std::runtime_error(ErrnoText("cannot write the log", path_));
    return;
  }
  if (errno != ENOENT) throw std::runtime_error(ErrnoText("cannot create the log", path_));
  const std::size_t slash = path_.find_last_of('/');
  const std::string directory =
      slash == std::string::npos ? "." : (slash == 0 ? "/" : path_.substr(0, slash));
  if (::access(directory.c_str(), W_OK | X_OK) != 0)
    throw std::runtime_error(ErrnoText("cannot create the log", path_) + " (in its directory '" +
                             RedactUrl(directory) + "')");
}

bool FileStudyStorage::EnsureOpen(bool writable) {
  if (fd_ >= 0 && (writable_ || !writable)) return true;
  const int flags = writable ? O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC : O_RDONLY | O_CLOEXEC;
  const int fd = ::open(path_.c_str(), flags, 0644);
  if (fd < 0) {
    if (!writable && errno == ENOENT) return false;
    throw std::runtime_error(ErrnoText("cannot open the log", path_));
  }
  if (fd_ >= 0) ::close(fd_);
  fd_ = fd;
  writable_ = writable;
  return true;
}

std::vector<StudyRecord> FileStudyStorage::ReadNew(bool repair) {
  const long long size = FileSize(fd_, path_);
  if (size < cursor_.bytes)
    throw std::runtime_error("the log '" + Describe() + "' is shorter (" + std::to_string(size) +
                             " bytes) than the records already read from it (" +
                             std::to_string(cursor_.bytes) + " bytes): it was cut or replaced");
  const std::string text = ReadRange(fd_, cursor_.bytes, size, path_);
  return Parse(text, repair, &cursor_, &header_);
}

std::vector<StudyRecord> FileStudyStorage::ReadAllAfter(long long after) {
  const std::string text = ReadRange(fd_, 0, FileSize(fd_, path_), path_);
  Cursor scratch;
  std::string header;
  std::vector<StudyRecord> all = Parse(text, false, &scratch, &header);
  std::vector<StudyRecord> out;
  for (StudyRecord& r : all)
    if (r.sequence > after) out.push_back(std::move(r));
  return out;
}

std::vector<StudyRecord> FileStudyStorage::Parse(const std::string& text, bool repair,
                                                 Cursor* cursor, std::string* header) {
  std::vector<StudyRecord> records;
  long long sequence = cursor->sequence;
  auto take = [&](const std::string& line, int line_number) {
    const std::string type = StudyRecordType(line, sequence < 0);
    ++sequence;
    if (sequence == 0)
      *header = line;
    else
      records.push_back({sequence, type, line, Describe() + ":" + std::to_string(line_number)});
  };
  const long long first_line = cursor->lines + 1;
  const ScannedLines scanned = ScanJsonLines(text, Describe(), static_cast<int>(first_line), take);
  cursor->sequence = sequence;
  cursor->bytes += static_cast<long long>(scanned.intact_bytes);
  cursor->lines += scanned.lines;
  // A file that does not start with a header is not a study: neither repaired nor appended to.
  RefuseHeaderlessText(scanned, !header->empty(), Describe());
  if (!scanned.torn) return records;
  const long long torn_line = first_line + scanned.lines;
  // A reader cannot tell a crash's torn line from one being written unless nobody holds the lock.
  if (warned_torn_line_ != torn_line && (repair || LeaseLock::Free(path_ + ".lock"))) {
    Warn(Describe() + ": dropping a torn last line " + std::to_string(torn_line) + " (" +
         scanned.torn_problem + "); the records before it are intact");
    warned_torn_line_ = torn_line;
  }
  // Under the exclusive lock no live process can be writing the torn bytes.
  if (repair && (::ftruncate(fd_, static_cast<off_t>(cursor->bytes)) != 0 || ::fsync(fd_) != 0))
    throw std::runtime_error(ErrnoText("cannot truncate the torn last line of", path_));
  return records;
}

// Appends `text` (`records` complete lines) at the end, which the cursor must be at; on a
// failure the file is cut back to where it was (the exclusive lock is held).
void FileStudyStorage::SyncToDisk() {
  if (::fsync(fd_) != 0)
    throw std::runtime_error(
        ErrnoText("cannot fsync the log (its last records are written, "
                  "but may not be on disk)",
                  path_));
}

long long FileStudyStorage::Append(const std::string& text, long long records) {
  const long long before = FileSize(fd_, path_);
  // Under a lock of our own, only a broken lease lets another worker append meanwhile.
  if (before != cursor_.bytes)
    throw StorageInterrupted("'" + Describe() +
                             "' grew after this worker read it (its lock was "
                             "broken: was it stopped?); nothing was written");
  std::size_t written = 0;
  try {
    while (written < text.size()) {
      const ssize_t n = ::write(fd_, text.data() + written, text.size() - written);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) throw std::runtime_error(ErrnoText("cannot write to the log", path_));
      written += static_cast<std::size_t>(n);
    }
  } catch (...) {
    if (::ftruncate(fd_, static_cast<off_t>(before)) == 0) (void)::fsync(fd_);
    throw;
  }
  const off_t end = ::lseek(fd_, 0, SEEK_CUR);  // O_APPEND: just past what we wrote
  if (end >= 0 && static_cast<long long>(end) != before + static_cast<long long>(text.size()))
    throw std::runtime_error(
        "'" + Describe() +
        "': this worker's lock was broken while it was frozen between its last "
        "check and its write: its records landed after records it had not read. Open the "
        "study again; if it recorded a failed evaluation with an imputed reward, check it");
  cursor_.bytes += static_cast<long long>(text.size());
  cursor_.sequence += records;
  cursor_.lines += records;
  return cursor_.sequence;
}

}  // namespace gpbandit
