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
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/flags.h"
#include "gpbandit/maximizer/raw_sample_design.h"

namespace gpbandit {
namespace bench {

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

// The command line of the studies: --problems a,b --<names_flag> a,b --seeds 0-9 --threads N
// --jobs N --raw-sample-design NAME, and the integer and text flags named in `ints` and
// `strings` (with their defaults).
struct StudyFlags {
  std::vector<std::string> problems, names;
  std::vector<unsigned> seeds;
  int threads = 1;
  int jobs = 1;
  RawSampleDesign raw_sample_design = RawSampleDesign::kLatinHypercube;
  std::map<std::string, int> ints;
  std::map<std::string, std::string> strings;
};

// Parses argv over `defaults`; throws std::invalid_argument for an unknown flag, a flag without
// its value or with a value of the wrong type, or threads, jobs or an integer flag below 1.
inline StudyFlags ParseStudyFlags(int argc, char** argv, StudyFlags defaults,
                                  const std::string& names_flag) {
  StudyFlags s = std::move(defaults);
  std::string problems, names, seeds, design = RawSampleDesignName(s.raw_sample_design);
  po::options_description flags("flags");
  flags.add_options()("problems", po::value<std::string>(&problems), "problems, a,b,...")(
      names_flag.c_str(), po::value<std::string>(&names), "methods, a,b,...")(
      "seeds", po::value<std::string>(&seeds), "seeds: 0-19, 3,5,8 or 2-4,9")(
      "threads", po::value<int>(&s.threads)->default_value(s.threads), "threads per run")(
      "jobs", po::value<int>(&s.jobs)->default_value(s.jobs), "runs in parallel processes")(
      "raw-sample-design", po::value<std::string>(&design)->default_value(design),
      "latin-hypercube or sobol");
  for (auto& [name, value] : s.ints)
    flags.add_options()(name.c_str(), po::value<int>(&value)->default_value(value), "");
  for (auto& [name, value] : s.strings)
    flags.add_options()(name.c_str(), po::value<std::string>(&value)->default_value(value), "");
  ParseFlags(argc, argv, flags);
  if (!problems.empty()) s.problems = SplitList(problems);
  if (!names.empty()) s.names = SplitList(names);
  if (!seeds.empty()) s.seeds = ParseSeeds(seeds);
  s.raw_sample_design = ParseRawSampleDesign(design);
  RequireAtLeastOne(s.threads, "threads");
  RequireAtLeastOne(s.jobs, "jobs");
  for (const auto& [name, value] : s.ints) RequireAtLeastOne(value, name);
  return s;
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

// Runs run(problem, name, seed) for every problem, name and seed of the flags (in that order,
// seeds fastest), over flags.jobs processes (RunAll); returns the lines in that order and prints
// the wall time to stdout after print(lines).
inline void RunEveryCombination(
    const StudyFlags& s,
    const std::function<std::string(const std::string&, const std::string&, unsigned)>& run,
    const std::function<void(const std::vector<std::string>&)>& print) {
  const std::size_t per_pair = s.seeds.size(), names = s.names.size();
  const int n = static_cast<int>(s.problems.size() * names * per_pair);
  const auto start = std::chrono::steady_clock::now();
  const std::vector<std::string> lines = RunAll(n, s.jobs, [&](int i) {
    const std::size_t k = static_cast<std::size_t>(i), pair = k / per_pair;
    return run(s.problems[pair / names], s.names[pair % names], s.seeds[k % per_pair]);
  });
  print(lines);
  std::printf("wall time %.0f s (%d jobs x %d threads)\n",
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
              s.jobs, s.threads);
}

// Runs body(): returns 0, or 2 after printing "<program>: <what went wrong>" to stderr.
inline int ReportingErrors(const char* program, const std::function<void()>& body) {
  try {
    body();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", program, e.what());
    return 2;
  }
  return 0;
}

// A study's main: the flags, every combination of run(flags, problem, name, seed), then
// print(flags, lines). Returns 0, or 2 after printing what went wrong (bad flags included).
inline int RunStudyMain(
    const char* program, const std::function<StudyFlags()>& parse_flags,
    const std::function<std::string(const StudyFlags&, const std::string&, const std::string&,
                                    unsigned)>& run,
    const std::function<void(const StudyFlags&, const std::vector<std::string>&)>& print) {
  return ReportingErrors(program, [&] {
    const StudyFlags s = parse_flags();
    RunEveryCombination(
        s,
        [&](const std::string& problem, const std::string& name, unsigned seed) {
          return run(s, problem, name, seed);
        },
        [&](const std::vector<std::string>& lines) { print(s, lines); });
  });
}

}  // namespace bench
}  // namespace gpbandit

#endif  // GPBANDIT_BENCH_RUN_TABLE_H_
