// Fits a GP to a few points through the installed headers and library; exits 0 when the
// posterior mean interpolates the data.
#include <cmath>
#include <cstdio>

#include <gpbandit/gp/gaussian_process.h>
#include <gpbandit/gp/kernel_factory.h>

int main() {
  gpbandit::GaussianProcessOptions options;
  options.noise_variance = 1e-6;
  gpbandit::GaussianProcess gp(gpbandit::MakeMatern52({0}), 1, options);
  for (double x : {0.1, 0.5, 0.9}) gp.AddObservation(Eigen::VectorXd::Constant(1, x), std::sin(x));
  const double mean = gp.Mean(Eigen::VectorXd::Constant(1, 0.5));
  std::printf("downstream: mean at 0.5 = %.6f (sin 0.5 = %.6f)\n", mean, std::sin(0.5));
  return std::abs(mean - std::sin(0.5)) < 1e-3 ? 0 : 1;
}
