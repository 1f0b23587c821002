// The command line shared by the regret studies (bench/*_study.cc):
//   [--full] [--trials N] [--<length_flag> L] [--seed S]
// --full switches to the paper's number of trials; the defaults finish in a few minutes.
// Trial i of a study with seed s draws from generators seeded by (s, i, stream, ...) through a
// seed sequence (TrialRng), so different seeds share no problem instance and no run.
#ifndef GPBANDIT_BENCH_STUDY_ARGS_H_
#define GPBANDIT_BENCH_STUDY_ARGS_H_

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "gpbandit/gp/random.h"

namespace gpbandit {
namespace bench {

// What a trial's generator is for: the problem instance, or the run of one strategy.
enum class TrialStream : std::uint64_t { kInstance = 0, kRun = 1 };

// The generator of (seed, trial, stream, index): index tells apart the instances of one trial
// (several test functions) or its strategies.
inline Rng TrialRng(std::uint64_t seed, int trial, TrialStream stream, int index = 0) {
  return SeededRng({seed, static_cast<std::uint64_t>(trial), static_cast<std::uint64_t>(stream),
                    static_cast<std::uint64_t>(index)});
}

struct StudyArgs {
  int trials;
  int length;  // the horizon T, or rounds per task: whatever length_flag names
  std::uint64_t seed;
};

// Parses argv over `defaults`; prints usage and exits with status 2 on anything else.
inline StudyArgs ParseStudyArgs(int argc, char** argv, StudyArgs defaults, int full_trials,
                                const std::string& length_flag) {
  StudyArgs s = defaults;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--full") {
      s.trials = full_trials;
    } else if (arg == "--trials" && i + 1 < argc) {
      s.trials = std::atoi(argv[++i]);
    } else if (arg == "--" + length_flag && i + 1 < argc) {
      s.length = std::atoi(argv[++i]);
    } else if (arg == "--seed" && i + 1 < argc) {
      s.seed = std::strtoull(argv[++i], nullptr, 10);
    } else {
      std::fprintf(stderr, "usage: %s [--full] [--trials N] [--%s L] [--seed S]\n", argv[0],
                   length_flag.c_str());
      std::exit(2);
    }
  }
  if (s.trials < 1 || s.length < 1) {
    std::fprintf(stderr, "--trials and --%s must be >= 1\n", length_flag.c_str());
    std::exit(2);
  }
  return s;
}

}  // namespace bench
}  // namespace gpbandit

#endif  // GPBANDIT_BENCH_STUDY_ARGS_H_
