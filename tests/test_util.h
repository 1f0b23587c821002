// Helpers shared by the test suite: the refused values kNaN and kInf, the small vectors Vec({..})
// and At(x), seeds, random points, and a central finite-difference gradient checker.
#ifndef GPBANDIT_TESTS_TEST_UTIL_H_
#define GPBANDIT_TESTS_TEST_UTIL_H_

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <Eigen/Core>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <initializer_list>
#include <iostream>
#include <limits>
#include <stdexcept>
#include <string>

#include "gpbandit/numerics/random.h"

namespace gpbandit {
namespace testing {

// The values the tests of refused inputs pass.
inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
inline constexpr double kInf = std::numeric_limits<double>::infinity();

// A vector of `values`: Vec({0.2, 0.4}).
inline Eigen::VectorXd Vec(std::initializer_list<double> values) {
  Eigen::VectorXd v(static_cast<Eigen::Index>(values.size()));
  Eigen::Index i = 0;
  for (double value : values) v(i++) = value;
  return v;
}

// The one-dimensional point x.
inline Eigen::VectorXd At(double x) { return Eigen::VectorXd::Constant(1, x); }

// The seed of a randomized test: `fallback`, or GPBANDIT_TEST_SEED from the environment.
// Printed, so that a failure can be replayed.
inline std::uint64_t TestSeed(std::uint64_t fallback) {
  std::uint64_t seed = fallback;
  if (const char* env = std::getenv("GPBANDIT_TEST_SEED")) seed = std::strtoull(env, nullptr, 10);
  std::cout << "[ seed     ] " << seed << " (override with GPBANDIT_TEST_SEED)" << std::endl;
  return seed;
}

// Uniform points in [lo, hi]^dim, one per column.
inline Eigen::MatrixXd UniformPoints(int dim, int n, double lo, double hi, Rng& rng) {
  std::uniform_real_distribution<double> u(lo, hi);
  Eigen::MatrixXd X(dim, n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < dim; ++i) X(i, j) = u(rng);
  return X;
}

// Central finite differences of f at x with step h (relative to max(1, |x_i|)).
inline Eigen::VectorXd FiniteDifferenceGradient(
    const std::function<double(const Eigen::VectorXd&)>& f, const Eigen::VectorXd& x,
    double h = 1e-6) {
  Eigen::VectorXd g(x.size());
  for (int i = 0; i < x.size(); ++i) {
    const double step = h * std::max(1.0, std::abs(x(i)));
    Eigen::VectorXd xp = x, xm = x;
    xp(i) += step;
    xm(i) -= step;
    g(i) = (f(xp) - f(xm)) / (2.0 * step);
  }
  return g;
}

// EXPECTs that `analytic` matches the finite-difference gradient of f at x, entry by entry, to
// abs_tol + rel_tol * |fd|.
inline void ExpectGradientNear(const std::function<double(const Eigen::VectorXd&)>& f,
                               const Eigen::VectorXd& x, const Eigen::VectorXd& analytic,
                               double rel_tol = 1e-5, double abs_tol = 1e-7,
                               const std::string& what = "") {
  const Eigen::VectorXd fd = FiniteDifferenceGradient(f, x);
  ASSERT_EQ(fd.size(), analytic.size()) << what;
  for (int i = 0; i < fd.size(); ++i) {
    EXPECT_NEAR(analytic(i), fd(i), abs_tol + rel_tol * std::abs(fd(i)))
        << what << " gradient entry " << i;
  }
}

// EXPECTs that call() throws std::invalid_argument whose message contains `substring` (the
// field or value the message must name).
inline void ExpectInvalid(const std::function<void()>& call, const std::string& substring) {
  try {
    call();
    ADD_FAILURE() << "expected std::invalid_argument containing '" << substring << "'";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr(substring));
  }
}

}  // namespace testing
}  // namespace gpbandit

// Under -DGPBANDIT_NATIVE=ON the last bits of a result may depend on heap addresses (and so on
// which thread's buffers did the work), so a run resumed from its log, or run on another number
// of threads, is not bit-identical to the first one (CMakeLists.txt says why). Tests whose point
// is a bit-exact comparison start with this: skipped in native builds, a no-op in the default
// one. Tests that check more use kBitReproducibleBuild to leave out only the comparison.
#ifdef GPBANDIT_NATIVE_BUILD
#define GPBANDIT_SKIP_UNLESS_BIT_REPRODUCIBLE() \
  GTEST_SKIP() << "GPBANDIT_NATIVE build: results are not bit-reproducible (see CMakeLists.txt)"
namespace gpbandit::testing {
inline constexpr bool kBitReproducibleBuild = false;
}
#else
#define GPBANDIT_SKIP_UNLESS_BIT_REPRODUCIBLE() static_cast<void>(0)
namespace gpbandit::testing {
inline constexpr bool kBitReproducibleBuild = true;
}
#endif

#endif  // GPBANDIT_TESTS_TEST_UTIL_H_
