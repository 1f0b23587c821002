// Long studies on a 6-D box (Hartmann-6, reward = -hartmann6, max 3.32237, or --function /
// --problem), the Optimizer with its defaults: the exact GP against the local model of
// OptimizerOptions::local_model.
//
//   --mode=rounds: `t` uniform observations told at once (TellMany), then the first Ask with its
//     fit, then `asks` ask/tell rounds. Prints the seconds of the tells and of the first ask,
//     the median ask and tell after it, the whole run, the peak resident memory, and the
//     regret of Best() (max f - f(Best().x)).
//   --mode=regret: `t0` uniform observations, then GP-UCB rounds up to t = `t`, each reward told
//     with Gaussian noise of standard deviation `noise`; prints at each checkpoint the simple
//     regret (max f - the best f evaluated by the optimizer's own asks), the regret of Best()
//     and the mean regret max f - f(x_t) of the rounds since the previous checkpoint.
//   --mode=fit: `t` uniform observations, then one Ask; prints the seconds of the ask with its
//     fit and the fit's report.
// --problem=<kind>-<d>d-<seed> replaces --function with a generated problem of
// bench/problem_family.h (reward = -value; its own noise_sd is ignored, --noise applies), so that
// defaults are chosen on problems other than the one they are reported on. Where the family does
// not know the minimum (the GP sample paths), max f is estimated (EstimatedMaxReward): regrets are
// then relative to that estimate, the same for every run of the problem.
// --exact keeps the exact GP throughout (local_model.exact_until = INT_MAX) and fits to every
// observation (fit_max_observations = INT_MAX).
#include <sys/resource.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "bench/flags.h"
#include "bench/problem_family.h"
#include "examples/problems/synthetic_functions.h"
#include "gpbandit/optimizer/optimizer.h"
#include "gpbandit/study/log_header.h"

namespace gpbandit {
namespace {

using Clock = std::chrono::steady_clock;

double Seconds(Clock::time_point since) {
  return std::chrono::duration<double>(Clock::now() - since).count();
}

// CPU seconds of the whole process (every thread) since it started.
double ProcessCpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

double PeakMegabytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

double Median(std::vector<double> v) {
  if (v.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

struct Setup {
  problems::SyntheticFunction f;
  OptimizerOptions options;
};

// The 6-D problems: Hartmann-6 on the unit cube, Levy-6 on [-10, 10]^6, Rosenbrock-6 on
// [-2.048, 2.048]^6 (examples/problems/synthetic_functions.h).
problems::SyntheticFunction MakeFunction(const std::string& name) {
  if (name == "hartmann6") return problems::MakeHartmann6();
  if (name == "levy6") return problems::MakeLevy(6);
  if (name == "rosenbrock6") return problems::MakeRosenbrock(6);
  throw std::invalid_argument("--function must be hartmann6, levy6 or rosenbrock6, got " + name);
}

// The best reward of 10^5 uniform points of the box, then of 2000 Gaussian steps from it whose
// scale halves every 200 (a fixed stream: the same estimate for every run of a problem).
double EstimatedMaxReward(const problems::SyntheticFunction& f) {
  Rng rng(20261126);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::normal_distribution<double> normal(0.0, 1.0);
  const Eigen::VectorXd span = f.upper - f.lower;
  Eigen::VectorXd best_x(f.lower.size()), x(f.lower.size());
  double best = -std::numeric_limits<double>::infinity();
  for (int n = 0; n < 100000; ++n) {
    for (Eigen::Index i = 0; i < x.size(); ++i) x(i) = f.lower(i) + span(i) * u(rng);
    const double r = f.reward(x);
    if (r > best) best = r, best_x = x;
  }
  double scale = 0.05;
  for (int n = 0; n < 2000; ++n) {
    if (n > 0 && n % 200 == 0) scale *= 0.5;
    for (Eigen::Index i = 0; i < x.size(); ++i)
      x(i) = std::clamp(best_x(i) + scale * span(i) * normal(rng), f.lower(i), f.upper(i));
    const double r = f.reward(x);
    if (r > best) best = r, best_x = x;
  }
  return best;
}

// A generated problem (bench/problem_family.h) as a function to maximize.
problems::SyntheticFunction MakeGeneratedFunction(const std::string& name) {
  auto problem = std::make_shared<const bench::GeneratedProblem>(bench::MakeFamilyProblem(name));
  problems::SyntheticFunction f;
  f.name = name;
  f.lower = problem->lower;
  f.upper = problem->upper;
  f.reward = [problem](const Eigen::VectorXd& x) { return -problem->value(x); };
  f.max_reward = -problem->min_value;
  f.argmax = problem->argmin;
  if (std::isnan(f.max_reward)) f.max_reward = EstimatedMaxReward(f);
  return f;
}

Setup MakeSetup(const bench::po::variables_map& flags) {
  Setup s;
  s.f = flags.count("problem") > 0 ? MakeGeneratedFunction(flags["problem"].as<std::string>())
                                   : MakeFunction(flags["function"].as<std::string>());
  if (flags.count("log") > 0) s.options.log_path = flags["log"].as<std::string>();
  s.options.seed = flags["seed"].as<unsigned long>();
  s.options.sync_log = false;
  s.options.initial_design_size = 0;
  s.options.num_threads = flags["threads"].as<int>();
  if (flags["exact"].as<bool>()) {
    s.options.local_model.exact_until = std::numeric_limits<int>::max();
    s.options.fit_max_observations = std::numeric_limits<int>::max();
  }
  if (flags.count("exact-until") > 0)
    s.options.local_model.exact_until = flags["exact-until"].as<int>();
  if (flags.count("local-size") > 0) s.options.local_model.size = flags["local-size"].as<int>();
  if (flags.count("regions") > 0) s.options.local_model.regions = flags["regions"].as<int>();
  if (flags.count("anchor") > 0) {
    const std::string anchor = flags["anchor"].as<std::string>();
    if (anchor != "output" && anchor != "mean")
      throw std::invalid_argument("--anchor must be output or mean, got " + anchor);
    s.options.local_model.anchor =
        anchor == "mean" ? LocalAnchor::kHighestMean : LocalAnchor::kHighestOutput;
  }
  if (flags.count("trust-box-scale") > 0)
    s.options.local_model.trust_box_scale = flags["trust-box-scale"].as<double>();
  if (flags.count("fit-max") > 0) s.options.fit_max_observations = flags["fit-max"].as<int>();
  return s;
}

// n uniform points of the box and their rewards, from the seed's own stream.
void TellUniform(const Setup& s, int n, std::uint64_t seed, Optimizer* opt) {
  Rng rng(seed * 7919 + 13);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  const auto dim = s.f.lower.size();
  Eigen::MatrixXd X(dim, n);
  Eigen::VectorXd y(n);
  for (int j = 0; j < n; ++j) {
    for (Eigen::Index i = 0; i < dim; ++i)
      X(i, j) = s.f.lower(i) + (s.f.upper(i) - s.f.lower(i)) * u(rng);
    y(j) = s.f.reward(X.col(j));
  }
  opt->TellMany(X, Eigen::MatrixXd(), y);
}

void Rounds(const bench::po::variables_map& flags) {
  const Setup s = MakeSetup(flags);
  const int t = flags["t"].as<int>(), asks = flags["asks"].as<int>();
  const auto begin = Clock::now();
  Optimizer opt(Domain::Box(s.f.lower, s.f.upper), nullptr, "gp-ucb", StrategyParams(), s.options);
  TellUniform(s, t, s.options.seed, &opt);
  const double tells = Seconds(begin);
  auto start = Clock::now();
  double cpu = ProcessCpuSeconds();
  Eigen::VectorXd x = opt.Ask();
  const double first = Seconds(start), first_cpu = ProcessCpuSeconds() - cpu;
  std::vector<double> ask_times, ask_cpu, tell_times;
  for (int r = 0; r < asks; ++r) {
    start = Clock::now();
    opt.Tell(x, s.f.reward(x));
    tell_times.push_back(Seconds(start));
    start = Clock::now();
    cpu = ProcessCpuSeconds();
    x = opt.Ask();
    ask_times.push_back(Seconds(start));
    ask_cpu.push_back(ProcessCpuSeconds() - cpu);
  }
  opt.Tell(x, s.f.reward(x));
  const double regret = s.f.max_reward - s.f.reward(opt.Best().x);
  std::printf(
      "t=%d model=%s tells_s=%.3f first_ask_s=%.3f (cpu %.3f) median_ask_ms=%.2f (cpu %.2f) "
      "median_tell_ms=%.3f run_s=%.2f (cpu %.2f) peak_mb=%.0f best_regret=%.4g\n",
      t, opt.model().num_observations() < opt.t() - 1 ? "local" : "exact", tells, first, first_cpu,
      1e3 * Median(ask_times), 1e3 * Median(ask_cpu), 1e3 * Median(tell_times), Seconds(begin),
      ProcessCpuSeconds(), PeakMegabytes(), regret);
}

// Copies the header and the records of `from` up to its `tells`-th tell record into `to` (a
// study stopped after that tell), so that runs which agree up to there (the exact GP below
// local_model.exact_until) start from one computation of it. The header takes `local` as its
// local_model settings: both runs held the exact GP over the copied rounds (checked), which
// these settings do not affect, and a study refuses to continue under settings other than its
// header's.
void CopyLogPrefix(const std::string& from, int tells, const LocalModelOptions& local,
                   const std::string& to) {
  std::ifstream in(from);
  if (!in) throw std::invalid_argument("--from-log: cannot read " + from);
  std::string line;
  if (!std::getline(in, line)) throw std::invalid_argument("--from-log: " + from + " is empty");
  LogHeader header = ParseLogHeader(line);
  const int exact_until = std::min(header.options.local_model.exact_until, local.exact_until);
  if (tells > exact_until)
    throw std::invalid_argument("--from-t = " + std::to_string(tells) +
                                " passes local_model.exact_until = " + std::to_string(exact_until) +
                                " of --from-log or of this run");
  header.options.local_model = local;
  std::ofstream out(to, std::ios::trunc);
  out << FormatLogHeader(header) << '\n';
  int seen = 0;
  while (seen < tells && std::getline(in, line)) {
    out << line << '\n';
    if (line.find("\"type\":\"tell\"") != std::string::npos) ++seen;
  }
  if (seen < tells)
    throw std::invalid_argument("--from-log: " + from + " holds " + std::to_string(seen) +
                                " tells, fewer than --from-t = " + std::to_string(tells));
}

void Regret(const bench::po::variables_map& flags) {
  Setup s = MakeSetup(flags);
  const int t0 = flags["t0"].as<int>(), t = flags["t"].as<int>();
  const int every = flags["checkpoint"].as<int>();
  int start = t0;
  if (flags.count("from-log") > 0) {
    if (s.options.log_path.empty()) throw std::invalid_argument("--from-log needs --log");
    start = flags["from-t"].as<int>();
    CopyLogPrefix(flags["from-log"].as<std::string>(), start, s.options.local_model,
                  s.options.log_path);
  }
  Optimizer opt(Domain::Box(s.f.lower, s.f.upper), nullptr, "gp-ucb", StrategyParams(), s.options);
  if (start == t0) TellUniform(s, t0, s.options.seed, &opt);
  const double noise = flags["noise"].as<double>();
  Rng noise_rng(s.options.seed + 101);
  std::normal_distribution<double> normal(0.0, 1.0);
  double best = -std::numeric_limits<double>::infinity(), window_regret = 0.0;
  // A continued study: the noise draws and the best point of the rounds it holds.
  const std::vector<Observation> told = opt.observations();
  if (static_cast<int>(told.size()) != start)
    throw std::invalid_argument("the study holds " + std::to_string(told.size()) +
                                " observations, expected " + std::to_string(start));
  for (int n = t0; n < start; ++n) {
    normal(noise_rng);
    best = std::max(best, s.f.reward(told[static_cast<std::size_t>(n)].x));
  }
  int window = 0;
  const auto begin = Clock::now();
  const double cpu_begin = ProcessCpuSeconds();
  for (int n = start; n < t; ++n) {
    const Eigen::VectorXd x = opt.Ask();
    const double f = s.f.reward(x);
    best = std::max(best, f);
    window_regret += s.f.max_reward - f;
    ++window;
    opt.Tell(x, f + noise * normal(noise_rng));
    if ((n + 1) % every == 0 || n + 1 == t) {
      std::printf(
          "seed=%lu t=%d simple_regret=%.5g best_regret=%.5g mean_regret=%.5g seconds=%.1f "
          "cpu=%.1f\n",
          static_cast<unsigned long>(s.options.seed), n + 1, s.f.max_reward - best,
          s.f.max_reward - s.f.reward(opt.Best().x), window_regret / window, Seconds(begin),
          ProcessCpuSeconds() - cpu_begin);
      window_regret = 0.0;
      window = 0;
    }
    std::fflush(stdout);
  }
}

// The recommendation of a study: a copy (--log) of the first --from-t tells of --from-log,
// replayed under this run's options; prints the regret of Best() and of Best(context) (the
// maximizer of the posterior mean over the box).
void Recommend(const bench::po::variables_map& flags) {
  Setup s = MakeSetup(flags);
  if (s.options.log_path.empty() || flags.count("from-log") == 0)
    throw std::invalid_argument("--mode=best needs --from-log and --log");
  CopyLogPrefix(flags["from-log"].as<std::string>(), flags["from-t"].as<int>(),
                s.options.local_model, s.options.log_path);
  const double cpu = ProcessCpuSeconds();
  Optimizer opt(Domain::Box(s.f.lower, s.f.upper), nullptr, "gp-ucb", StrategyParams(), s.options);
  const double replay = ProcessCpuSeconds() - cpu;
  const Recommendation best = opt.Best();
  const Recommendation mean_max = opt.Best(Eigen::VectorXd());
  std::printf("seed=%lu t=%d model=%s best_regret=%.5g mean_max_regret=%.5g replay_cpu=%.1f\n",
              static_cast<unsigned long>(s.options.seed), opt.t() - 1,
              opt.model().num_observations() < opt.t() - 1 ? "local" : "exact",
              s.f.max_reward - s.f.reward(best.x), s.f.max_reward - s.f.reward(mean_max.x), replay);
}

void Fit(const bench::po::variables_map& flags) {
  const Setup s = MakeSetup(flags);
  const int t = flags["t"].as<int>();
  Optimizer opt(Domain::Box(s.f.lower, s.f.upper), nullptr, "gp-ucb", StrategyParams(), s.options);
  TellUniform(s, t, s.options.seed, &opt);
  const auto start = Clock::now();
  const double cpu = ProcessCpuSeconds();
  opt.Ask();
  const double seconds = Seconds(start);
  std::printf("t=%d first_ask_with_fit_s=%.3f (cpu %.3f) fit: %s\n", t, seconds,
              ProcessCpuSeconds() - cpu, opt.last_fit_report().BriefReport().c_str());
}

}  // namespace
}  // namespace gpbandit

int main(int argc, char** argv) {
  namespace po = gpbandit::bench::po;
  po::options_description flags("long_study");
  flags.add_options()("mode", po::value<std::string>()->default_value("rounds"),
                      "rounds, regret, fit or best")("t", po::value<int>()->default_value(1000),
                                                     "observations (regret: the last t)")(
      "t0", po::value<int>()->default_value(200), "regret: uniform observations first")(
      "asks", po::value<int>()->default_value(20), "rounds: ask/tell rounds after the first ask")(
      "checkpoint", po::value<int>()->default_value(250), "regret: print every this many")(
      "noise", po::value<double>()->default_value(0.0), "regret: noise standard deviation")(
      "seed", po::value<unsigned long>()->default_value(1), "seed")(
      "function", po::value<std::string>()->default_value("hartmann6"),
      "hartmann6, levy6 or rosenbrock6")(
      "problem", po::value<std::string>(),
      "a generated problem <kind>-<d>d-<seed> (bench/problem_family.h) instead of --function")(
      "log", po::value<std::string>(), "the study's log file (OptimizerOptions::log_path)")(
      "from-log", po::value<std::string>(),
      "regret: continue a copy (--log) of this log's first --from-t tells")(
      "from-t", po::value<int>()->default_value(1000), "regret: see --from-log")(
      "threads", po::value<int>()->default_value(0), "OptimizerOptions::num_threads")(
      "exact", po::value<bool>()->default_value(false), "the exact GP and full fits throughout")(
      "exact-until", po::value<int>(), "local_model.exact_until")("local-size", po::value<int>(),
                                                                  "local_model.size")(
      "regions", po::value<int>(), "local_model.regions")("anchor", po::value<std::string>(),
                                                          "local_model.anchor: output or mean")(
      "trust-box-scale", po::value<double>(), "local_model.trust_box_scale")(
      "fit-max", po::value<int>(), "fit_max_observations");
  try {
    const po::variables_map values = gpbandit::bench::ParseFlags(argc, argv, flags);
    const std::string mode = values["mode"].as<std::string>();
    if (mode == "rounds")
      gpbandit::Rounds(values);
    else if (mode == "regret")
      gpbandit::Regret(values);
    else if (mode == "fit")
      gpbandit::Fit(values);
    else if (mode == "best")
      gpbandit::Recommend(values);
    else
      throw std::invalid_argument("--mode must be rounds, regret, fit or best, got " + mode);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "long_study: %s\n", e.what());
    return 1;
  }
  return 0;
}
