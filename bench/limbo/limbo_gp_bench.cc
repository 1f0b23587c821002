// limbo's GP (resibots/limbo, src/limbo/model/gp.hpp) timed as bench/gp_bench.cc times
// gpbandit's: d = 6, Matern-5/2, noise variance 1e-3, points uniform in [0, 1]^6, rewards
// sin(3 x_1) + |x|^2, at t = 2000 observations:
//   add_one_sample_ms  GP::add_sample of observation t + 1 (limbo's incremental Cholesky),
//                      as gp_bench's BM_AddObservationIncremental/2000
//   refactorize_ms     GP::recompute() on t + 1 observations (kernel matrix, LLT, alpha), as
//                      gp_bench's BM_AddObservationRefactorize/2000
//   predict_one_point_us  GP::query (mean and variance) of one point at a time on a model of
//                      t / 2 observations, per point, as gp_bench's BM_PredictOnePoint/1000
// Each figure is the median of --reps timings, in wall-clock time (std::chrono::steady_clock)
// and in the process's CPU time (clock_gettime(CLOCK_PROCESS_CPUTIME_ID); on a busy machine the
// wall clock also counts the time other processes held the core). Each add_sample runs on a
// fresh copy of the t-observation model (the copy is not timed). The program runs one thread.
//
// Not built by CMake: limbo is not a dependency of gpbandit. bench/limbo/run_limbo_gp_bench.sh
// compiles it against a limbo checkout and runs it beside gp_bench.
//   limbo_gp_bench [--t 2000] [--reps 15]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <iostream>
#include <limbo/kernel/matern_five_halves.hpp>
#include <limbo/mean/data.hpp>
#include <limbo/model/gp.hpp>
#include <random>
#include <string>
#include <vector>

namespace {

constexpr int kDim = 6;

// limbo's parameters are compile-time: the same kernel and noise as gp_bench's model
// (gp_bench's Matern-5/2 is ARD with all lengthscales 0.5; limbo's is isotropic, l = 0.5).
struct Params {
  struct kernel : public limbo::defaults::kernel {
    BO_PARAM(double, noise, 1e-3);
  };
  struct kernel_maternfivehalves {
    BO_PARAM(double, sigma_sq, 1.0);
    BO_PARAM(double, l, 0.5);
  };
};

using Gp =
    limbo::model::GP<Params, limbo::kernel::MaternFiveHalves<Params>, limbo::mean::Data<Params>>;

Eigen::VectorXd Point(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  Eigen::VectorXd x(kDim);
  for (int i = 0; i < kDim; ++i) x(i) = u(rng);
  return x;
}

Eigen::VectorXd Reward(const Eigen::VectorXd& x) {
  return Eigen::VectorXd::Constant(1, std::sin(3 * x(0)) + x.squaredNorm());
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double CpuMilliseconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return 1e3 * static_cast<double>(now.tv_sec) + 1e-6 * static_cast<double>(now.tv_nsec);
}

// Wall-clock and CPU milliseconds of one call.
struct Timings {
  std::vector<double> wall, cpu;

  template <typename F>
  void Time(F f) {
    const auto start = std::chrono::steady_clock::now();
    const double cpu_start = CpuMilliseconds();
    f();
    cpu.push_back(CpuMilliseconds() - cpu_start);
    wall.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count());
  }
};

}  // namespace

int main(int argc, char** argv) {
  int t = 2000, reps = 15;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--t") {
      t = std::atoi(argv[i + 1]);
    } else if (flag == "--reps") {
      reps = std::atoi(argv[i + 1]);
    } else {
      std::cerr << "unknown flag " << flag << "; usage: limbo_gp_bench [--t N] [--reps N]\n";
      return 2;
    }
  }
  if (t < 1 || reps < 1) {
    std::cerr << "--t and --reps must be >= 1\n";
    return 2;
  }
  std::mt19937_64 rng(1);
  std::vector<Eigen::VectorXd> samples, observations;
  for (int j = 0; j <= t; ++j) {
    samples.push_back(Point(rng));
    observations.push_back(Reward(samples.back()));
  }
  const Eigen::VectorXd new_sample = samples.back(), new_observation = observations.back();

  const std::vector<Eigen::VectorXd> first_samples(samples.begin(), samples.end() - 1);
  const std::vector<Eigen::VectorXd> first_observations(observations.begin(),
                                                        observations.end() - 1);
  Gp base(kDim, 1);
  base.compute(first_samples, first_observations);
  Timings add;
  for (int r = 0; r < reps; ++r) {
    Gp gp = base;
    add.Time([&] { gp.add_sample(new_sample, new_observation); });
  }

  Gp full(kDim, 1);
  full.compute(samples, observations);
  Timings refactorize;
  for (int r = 0; r < reps; ++r) refactorize.Time([&] { full.recompute(); });

  const int half = std::max(1, t / 2), probes = 1000;
  Gp small(kDim, 1);
  small.compute(std::vector<Eigen::VectorXd>(samples.begin(), samples.begin() + half),
                std::vector<Eigen::VectorXd>(observations.begin(), observations.begin() + half));
  std::vector<Eigen::VectorXd> points;
  for (int j = 0; j < probes; ++j) points.push_back(Point(rng));
  Timings predict;
  double sink = 0.0;
  for (int r = 0; r < reps; ++r) {
    predict.Time([&] {
      for (const Eigen::VectorXd& x : points) {
        const auto [mean, variance] = small.query(x);
        sink += mean(0) + variance;
      }
    });
  }
  if (!std::isfinite(sink)) std::cerr << "non-finite prediction\n";
  std::cout << "t " << t << "\n"
            << "add_one_sample_ms " << Median(add.wall) << "\n"
            << "refactorize_ms " << Median(refactorize.wall) << "\n"
            << "add_one_sample_cpu_ms " << Median(add.cpu) << "\n"
            << "refactorize_cpu_ms " << Median(refactorize.cpu) << "\n"
            << "predict_one_point_us " << 1e3 * Median(predict.wall) / probes << "\n"
            << "predict_one_point_cpu_us " << 1e3 * Median(predict.cpu) / probes << "\n";
  return 0;
}
