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
#include <stdexcept>
#include <string>

#include "bench/flags.h"
#include "gpbandit/numerics/random.h"

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

// Parses argv over `defaults`, and a study's own flags `extra` (read into their targets);
// prints the error and exits with status 2 on anything else.
inline StudyArgs ParseStudyArgs(int argc, char** argv, StudyArgs defaults, int full_trials,
                                const std::string& length_flag,
                                const po::options_description& extra = po::options_description()) {
  StudyArgs s = defaults;
  po::options_description flags("flags");
  flags.add(extra);
  flags.add_options()("full", po::bool_switch(), "the paper's number of trials")(
      "trials", po::value<int>(&s.trials)->default_value(s.trials), "trials")(
      length_flag.c_str(), po::value<int>(&s.length)->default_value(s.length), "length")(
      "seed", po::value<std::uint64_t>(&s.seed)->default_value(s.seed), "the study's seed");
  try {
    const po::variables_map values = ParseFlags(argc, argv, flags);
    if (values["full"].as<bool>()) s.trials = full_trials;
    RequireAtLeastOne(s.trials, "trials");
    RequireAtLeastOne(s.length, length_flag);
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "%s: %s\n", argv[0], e.what());
    std::exit(2);
  }
  return s;
}

}  // namespace bench
}  // namespace gpbandit

#endif  // GPBANDIT_BENCH_STUDY_ARGS_H_
