// A throw-away PostgreSQL server for tests and benchmarks: initdb and pg_ctl from Debian's
// postgresql package in a fresh temporary directory, removed afterwards. As root (CI), the
// server runs as the unprivileged user `postgres` (the package creates it), since PostgreSQL
// refuses to run as root. It listens on a Unix socket in its own directory (clients connect
// with Url()) and on 127.0.0.1 at a port that was free (TcpUrl(): libpq ignores sslmode on Unix
// sockets, and the sslmode tests need TCP). Roles: kSuperuser (trust) and kGuardedUser, which
// needs kGuardedPassword (scram-sha-256), for the wrong-credentials tests.
//
// Header-only so that bench/ can use it without the test tree.
#ifndef GPBANDIT_TESTS_STORAGE_LOCAL_POSTGRES_H_
#define GPBANDIT_TESTS_STORAGE_LOCAL_POSTGRES_H_

#include <dirent.h>
#include <glob.h>
#include <netinet/in.h>
#include <pwd.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpbandit {
namespace testing {

class LocalPostgres {
 public:
  static constexpr const char* kSuperuser = "gpbandit_test";
  static constexpr const char* kGuardedUser = "guarded";
  static constexpr const char* kGuardedPassword = "right-horse-battery";

  // The directory of initdb and pg_ctl (GPBANDIT_PG_BIN, else the newest
  // /usr/lib/postgresql/*/bin), or "" when there is none.
  static std::string BinDir() {
    if (const char* env = std::getenv("GPBANDIT_PG_BIN")) return env;
    glob_t found;
    std::string dir;
    if (::glob("/usr/lib/postgresql/*/bin/initdb", 0, nullptr, &found) == 0 && found.gl_pathc > 0) {
      const std::string last = found.gl_pathv[found.gl_pathc - 1];
      dir = last.substr(0, last.size() - std::string("/initdb").size());
    }
    ::globfree(&found);
    return dir;
  }

  // Starts the server; throws std::runtime_error with the tools' output when it cannot.
  // fsync: off for tests (a killed server keeps what it committed in the page cache; power
  // loss is not simulated), on for benchmarks. settings: more "-c name=value" options for the
  // server (e.g. "-c wal_writer_delay=10000", which keeps asynchronous commits in memory for up
  // to 30 s, so that Crash() forgets them).
  explicit LocalPostgres(bool fsync = false, std::string settings = "")
      : fsync_(fsync), settings_(std::move(settings)) {
    bin_ = BinDir();
    if (bin_.empty())
      throw std::runtime_error(
          "no PostgreSQL server binaries (Debian: apt-get install postgresql)");
    char pattern[] = "/tmp/gpbandit_pg_XXXXXX";
    if (::mkdtemp(pattern) == nullptr) throw std::runtime_error("mkdtemp failed");
    dir_ = pattern;
    port_ = FreePort();
    try {
      Prepare();
      Start();
      Sql("CREATE ROLE " + std::string(kGuardedUser) + " LOGIN SUPERUSER PASSWORD '" +
          kGuardedPassword + "'");
    } catch (...) {
      Remove();
      throw;
    }
  }
  ~LocalPostgres() { Remove(); }
  LocalPostgres(const LocalPostgres&) = delete;
  LocalPostgres& operator=(const LocalPostgres&) = delete;

  // A libpq URL for `user` (optionally with a password in it) to the database `postgres`.
  std::string Url(const std::string& user = kSuperuser, const std::string& password = "") const {
    return "postgresql://" + (password.empty() ? "" : user + ":" + password + "@") +
           "/postgres?host=" + dir_ + "&port=" + std::to_string(port_) +
           (password.empty() ? "&user=" + user : "");
  }
  // The same over TCP to 127.0.0.1.
  std::string TcpUrl(const std::string& user = kSuperuser) const {
    return "postgresql://" + user + "@127.0.0.1:" + std::to_string(port_) + "/postgres";
  }
  const std::string& dir() const { return dir_; }

  // A TCP port nothing listens on now.
  static int FreePort() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    int port = 54329;
    if (fd >= 0 && ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0)
      port = ntohs(address.sin_port);
    if (fd >= 0) ::close(fd);
    return port;
  }

  int port() const { return port_; }

  void Start() {
    Run(AsOwner() + "'" + bin_ + "/pg_ctl' -D '" + dir_ + "/data' -l '" + dir_ +
            "/server.log' -w -t 60 -o \"-p " + std::to_string(port_) + " -k '" + dir_ +
            "' -c listen_addresses=127.0.0.1 -c fsync=" + (fsync_ ? "on" : "off") + " " +
            settings_ + "\" start",
        "pg_ctl start");
  }
  // A crash of the database server: SIGKILL to the postmaster and every process it started, at
  // once (all stopped first), as the kernel's OOM killer or a power cut would leave it; returns
  // when they are gone. What the server had not written to its log (asynchronous commits still
  // in its WAL buffers) is lost; Start() then recovers from the log.
  void Crash() {
    const pid_t postmaster = PostmasterPid();
    if (postmaster <= 0) throw std::runtime_error("Crash: no postmaster.pid");
    std::vector<pid_t> all = ChildrenOf(postmaster);
    all.push_back(postmaster);
    for (pid_t pid : all) ::kill(pid, SIGSTOP);
    for (pid_t pid : all) ::kill(pid, SIGKILL);
    // The server refuses to start while its old process ids exist, zombies included: wait
    // until the init process has reaped them (it may take a few seconds).
    for (int waited = 0; waited < 3000; ++waited) {
      bool gone = true;
      for (pid_t pid : all) gone = gone && ::kill(pid, 0) != 0;
      if (gone) return;
      ::usleep(10000);
    }
    throw std::runtime_error("Crash: the server's processes did not end within 30 s");
  }
  // The postmaster's process id (the first line of postmaster.pid), or -1.
  pid_t PostmasterPid() const {
    std::ifstream in(dir_ + "/data/postmaster.pid");
    long pid = -1;
    in >> pid;
    return static_cast<pid_t>(pid);
  }
  // The CPU time the server has used so far, in seconds: the postmaster and the processes it
  // runs, and those it has reaped (its backends of closed connections).
  double CpuSeconds() const {
    const pid_t postmaster = PostmasterPid();
    double seconds = StatCpuSeconds(postmaster, /*with_reaped=*/true);
    for (pid_t child : ChildrenOf(postmaster)) seconds += StatCpuSeconds(child, false);
    return seconds;
  }

  // mode: "fast" (clients are disconnected, like a restart) or "immediate" (a crash).
  void Stop(const std::string& mode = "fast") {
    Run(AsOwner() + "'" + bin_ + "/pg_ctl' -D '" + dir_ + "/data' -m " + mode + " -w stop",
        "pg_ctl stop");
  }
  // Runs SQL as the superuser through psql; returns its unaligned output.
  std::string Sql(const std::string& sql) const {
    const std::string out = dir_ + "/psql.out";
    Run("'" + bin_ + "/psql' -X -q -A -t -v ON_ERROR_STOP=1 '" + Url() + "' -c \"" + sql +
            "\" > '" + out + "' 2>&1",
        "psql");
    std::ifstream in(out);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }

 private:
  // As root, commands run as `postgres` on a directory it owns.
  std::string AsOwner() const { return ::geteuid() == 0 ? "runuser -u postgres -- " : ""; }

  void Prepare() {
    if (::geteuid() == 0) {
      const passwd* pw = ::getpwnam("postgres");
      if (pw == nullptr) throw std::runtime_error("running as root, but there is no user postgres");
      if (::chown(dir_.c_str(), pw->pw_uid, pw->pw_gid) != 0)
        throw std::runtime_error("cannot chown " + dir_ + " to postgres");
    }
    Run(AsOwner() + "'" + bin_ + "/initdb' -N -D '" + dir_ + "/data' -A trust -U " + kSuperuser +
            " > '" + dir_ + "/initdb.log' 2>&1",
        "initdb");
    // The guarded role needs its password; everyone else is trusted (a test server on a
    // private socket and the loopback interface).
    const std::string guarded = kGuardedUser;
    const std::string hba = "local all " + guarded + " scram-sha-256\\n" + "host all " + guarded +
                            " 127.0.0.1/32 scram-sha-256\\n" +
                            "local all all trust\\nhost all all 127.0.0.1/32 trust\\n";
    Run(AsOwner() + "sh -c \"printf '" + hba + "' > '" + dir_ + "/data/pg_hba.conf'\"",
        "writing pg_hba.conf");
  }

  void Remove() {
    if (dir_.empty()) return;
    const std::string quiet = " > /dev/null 2>&1";
    std::system(
        (AsOwner() + "'" + bin_ + "/pg_ctl' -D '" + dir_ + "/data' -m immediate stop" + quiet)
            .c_str());
    std::system(("rm -rf '" + dir_ + "'").c_str());
    dir_.clear();
  }

  void Run(const std::string& command, const std::string& what) const {
    const std::string log = dir_ + "/command.log";
    const int status = std::system(("(" + command + ") >> '" + log + "' 2>&1").c_str());
    if (status != 0) {
      std::ifstream in(log);
      std::stringstream s;
      s << in.rdbuf();
      throw std::runtime_error(what + " failed (status " + std::to_string(status) +
                               "): " + s.str());
    }
  }

  // The processes whose parent is `parent` (from /proc).
  static std::vector<pid_t> ChildrenOf(pid_t parent) {
    std::vector<pid_t> children;
    DIR* proc = ::opendir("/proc");
    if (proc == nullptr) return children;
    while (const dirent* entry = ::readdir(proc)) {
      const long pid = std::strtol(entry->d_name, nullptr, 10);
      if (pid <= 0) continue;
      std::ifstream stat("/proc/" + std::string(entry->d_name) + "/stat");
      std::string line;
      std::getline(stat, line);
      // pid (comm) state ppid ...: the command may hold spaces and parentheses.
      const std::size_t close = line.rfind(')');
      if (close == std::string::npos) continue;
      std::istringstream rest(line.substr(close + 1));
      std::string state;
      long ppid = 0;
      rest >> state >> ppid;
      if (ppid == parent) children.push_back(static_cast<pid_t>(pid));
    }
    ::closedir(proc);
    return children;
  }

  // utime + stime (+ cutime + cstime) of /proc/<pid>/stat, in seconds; 0 when it is gone.
  static double StatCpuSeconds(pid_t pid, bool with_reaped) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    std::getline(stat, line);
    const std::size_t close = line.rfind(')');
    if (close == std::string::npos) return 0;
    std::istringstream rest(line.substr(close + 2));
    std::vector<std::string> fields;
    for (std::string f; rest >> f;) fields.push_back(f);
    // Fields 14-17 of stat(5) are 11-14 here (the first two, pid and comm, are gone).
    if (fields.size() < 15) return 0;
    double ticks = std::stod(fields[11]) + std::stod(fields[12]);
    if (with_reaped) ticks += std::stod(fields[13]) + std::stod(fields[14]);
    return ticks / static_cast<double>(::sysconf(_SC_CLK_TCK));
  }

  bool fsync_;
  std::string settings_;
  std::string bin_;
  std::string dir_;
  int port_ = 0;
};

}  // namespace testing
}  // namespace gpbandit

#endif  // GPBANDIT_TESTS_STORAGE_LOCAL_POSTGRES_H_
