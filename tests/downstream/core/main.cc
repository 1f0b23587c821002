// A user of gpbandit's core through the installed headers and libraries: the ask/tell
// Optimizer tunes one gain, and a GP fitted to three points interpolates them. Exits 0 when
// both work.
#include <gpbandit/gp/gaussian_process.h>
#include <gpbandit/kernel/kernel_factory.h>
#include <gpbandit/optimizer/optimizer.h>
#include <gpbandit/version.h>

#include <cmath>
#include <cstdio>

static_assert(__cplusplus >= 201703L, "gpbandit::core must require C++17 of its users");
#ifdef _OPENMP
#error "gpbandit::core must not turn OpenMP on in its users' code"
#endif
static_assert(GPBANDIT_VERSION == GPBANDIT_VERSION_MAJOR * 10000 + GPBANDIT_VERSION_MINOR * 100 +
                                      GPBANDIT_VERSION_PATCH,
              "version.h");

int main() {
  std::printf("downstream: gpbandit %s\n", GPBANDIT_VERSION_STRING);
  gpbandit::GaussianProcessOptions gp_options;
  gp_options.noise_variance = 1e-6;
  gpbandit::GaussianProcess gp(gpbandit::MakeMatern52({0}), 1, gp_options);
  for (double x : {0.1, 0.5, 0.9}) gp.AddObservation(Eigen::VectorXd::Constant(1, x), std::sin(x));
  const double mean = gp.Mean(Eigen::VectorXd::Constant(1, 0.5));
  std::printf("downstream: mean at 0.5 = %.6f (sin 0.5 = %.6f)\n", mean, std::sin(0.5));
  if (std::abs(mean - std::sin(0.5)) > 1e-3) return 1;

  gpbandit::OptimizerOptions options;
  options.seed = 3;
  gpbandit::Optimizer optimizer(
      gpbandit::Domain::Box(Eigen::VectorXd::Constant(1, 0.0), Eigen::VectorXd::Constant(1, 1.0)),
      /*kernel=*/nullptr, "gp-ucb", options);
  for (int round = 0; round < 12; ++round) {
    const Eigen::VectorXd x = optimizer.Ask();
    optimizer.Tell(x, -std::pow(x(0) - 0.3, 2));
  }
  const double best = optimizer.Best().x(0);
  std::printf("downstream: best gain %.4f (optimum 0.3)\n", best);
  return std::abs(best - 0.3) < 0.1 ? 0 : 1;
}
