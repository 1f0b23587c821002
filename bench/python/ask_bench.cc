// The C++ side of bench/python/ask_overhead.py: one ask at t = 200 on a 6-D box, timed, as
// Python's is timed. The 200 observations are the same numbers in both (a formula, evaluated
// in the same order), so both sides do exactly the same asks (the script checks the points).
//
//   python_ask_bench ASKS [design]   one line per timed ask: seconds, then the point in %a
//
// Setup (not timed): GP-UCB with the optimizer's defaults (seed 1, no log), TellMany of the
// 200 points, one ask (its refit) released. Then ASKS times: Ask() timed, Release() not, so
// every ask sees t = 200 and no pending point. With "design", the initial design is 10^6
// points, so every ask hands out a design point (microseconds of C++ work: what remains is
// the fixed cost of a call).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "gpbandit/optimizer/optimizer.h"

namespace {

constexpr int kObservations = 200;
constexpr int kDim = 6;

// x_ij = frac(0.6180339887498949 (6 i + j + 1)); y = -sum_j (x_ij - 0.3)^2, summed in j order.
void Data(Eigen::MatrixXd* X, Eigen::VectorXd* y) {
  X->resize(kDim, kObservations);
  y->resize(kObservations);
  for (int i = 0; i < kObservations; ++i) {
    double sum = 0.0;
    for (int j = 0; j < kDim; ++j) {
      const double x = std::fmod(0.6180339887498949 * (kDim * i + j + 1), 1.0);
      (*X)(j, i) = x;
      sum += (x - 0.3) * (x - 0.3);
    }
    (*y)(i) = -sum;
  }
}

}  // namespace

int main(int argc, char** argv) {
  const int asks = argc > 1 ? std::atoi(argv[1]) : 40;
  const bool design = argc > 2 && std::string(argv[2]) == "design";
  gpbandit::OptimizerOptions options;
  options.seed = 1;
  if (design) options.initial_design_size = 1000000;
  gpbandit::Optimizer opt(
      gpbandit::Domain::Box(Eigen::VectorXd::Zero(kDim), Eigen::VectorXd::Ones(kDim)), nullptr,
      "gp-ucb", options);
  Eigen::MatrixXd X;
  Eigen::VectorXd y;
  Data(&X, &y);
  opt.TellMany(X, Eigen::MatrixXd(), y);
  opt.Release(opt.Ask());
  for (int k = 0; k < asks; ++k) {
    const auto start = std::chrono::steady_clock::now();
    const Eigen::VectorXd x = opt.Ask();
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    opt.Release(x);
    std::printf("%.9f", seconds);
    for (int j = 0; j < kDim; ++j) std::printf(" %a", x(j));
    std::printf("\n");
  }
  return 0;
}
