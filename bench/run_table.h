// What the optimization-run studies (defaults_suite_study, pagmo_comparison_study) share: lists
// of names and seeds from the command line, runs spread over forked worker processes, medians.
//
// Runs are independent: each is one (problem, method, seed) and prints one result line. With
// --jobs J > 1 the runs are dealt round-robin to J forked children, each single-threaded unless
// --threads says otherwise; every child sends its lines back through a pipe, and the parent
// prints the tables once all are in. The parent itself never enters OpenMP before forking
// (libgomp's pool does not survive fork()).
#ifndef GPBANDIT_BENCH_RUN_TABLE_H_
#define GPBANDIT_BENCH_RUN_TABLE_H_

#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpbandit {
namespace bench {

// "a,b,c" -> {a, b, c}.
inline std::vector<std::string> SplitList(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ','))
    if (!item.empty()) out.push_back(item);
  return out;
}

// "0-19" or "3,5,8" or "2-4,9" -> the seeds.
inline std::vector<unsigned> ParseSeeds(const std::string& text) {
  std::vector<unsigned> seeds;
  for (const std::string& part : SplitList(text)) {
    const std::size_t dash = part.find('-');
    const unsigned first = static_cast<unsigned>(std::stoul(part.substr(0, dash)));
    const unsigned last = dash == std::string::npos
                              ? first
                              : static_cast<unsigned>(std::stoul(part.substr(dash + 1)));
    for (unsigned s = first; s <= last; ++s) seeds.push_back(s);
  }
  if (seeds.empty()) throw std::invalid_argument("--seeds: no seed in '" + text + "'");
  return seeds;
}

inline double Median(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Runs run(i) for i in [0, n): in this process when jobs <= 1, else in `jobs` forked children
// (child k runs i = k, k + jobs, ...). Returns the lines in index order. A run's line must not
// contain a newline. Each finished line is also echoed to stderr as progress.
inline std::vector<std::string> RunAll(int n, int jobs,
                                       const std::function<std::string(int)>& run) {
  std::vector<std::string> lines(static_cast<std::size_t>(n));
  if (jobs <= 1) {
    for (int i = 0; i < n; ++i) {
      lines[static_cast<std::size_t>(i)] = run(i);
      std::fprintf(stderr, "%s\n", lines[static_cast<std::size_t>(i)].c_str());
    }
    return lines;
  }
  std::vector<int> fds;
  std::vector<pid_t> pids;
  for (int k = 0; k < jobs; ++k) {
    int p[2];
    if (pipe(p) != 0) throw std::runtime_error("pipe failed");
    std::fflush(nullptr);
    const pid_t pid = fork();
    if (pid < 0) throw std::runtime_error("fork failed");
    if (pid == 0) {
      close(p[0]);
      for (int i = k; i < n; i += jobs) {
        const std::string line = std::to_string(i) + "\t" + run(i) + "\n";
        std::fprintf(stderr, "%s", line.c_str() + line.find('\t') + 1);
        for (std::size_t done = 0; done < line.size();) {
          const ssize_t w = write(p[1], line.data() + done, line.size() - done);
          if (w <= 0) _exit(3);
          done += static_cast<std::size_t>(w);
        }
      }
      close(p[1]);
      _exit(0);
    }
    close(p[1]);
    fds.push_back(p[0]);
    pids.push_back(pid);
  }
  std::vector<std::string> buffers(fds.size());
  std::vector<pollfd> open;
  for (int fd : fds) open.push_back({fd, POLLIN, 0});
  int remaining = jobs;
  while (remaining > 0) {
    if (poll(open.data(), open.size(), -1) < 0) throw std::runtime_error("poll failed");
    for (std::size_t k = 0; k < open.size(); ++k) {
      if (open[k].fd < 0 || open[k].revents == 0) continue;
      char chunk[4096];
      const ssize_t r = read(open[k].fd, chunk, sizeof chunk);
      if (r > 0) {
        buffers[k].append(chunk, static_cast<std::size_t>(r));
      } else {
        close(open[k].fd);
        open[k].fd = -1;
        --remaining;
      }
    }
  }
  for (pid_t pid : pids) {
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
      throw std::runtime_error("a worker process failed");
  }
  for (const std::string& buffer : buffers) {
    std::stringstream in(buffer);
    std::string line;
    while (std::getline(in, line)) {
      const std::size_t tab = line.find('\t');
      lines[static_cast<std::size_t>(std::stoi(line.substr(0, tab)))] = line.substr(tab + 1);
    }
  }
  return lines;
}

}  // namespace bench
}  // namespace gpbandit

#endif  // GPBANDIT_BENCH_RUN_TABLE_H_
