// Standard synthetic test functions for Bayesian optimization, written as MAXIMIZATION problems
// (the negated textbook functions), with their boxes and known optima. Header-only so that
// tests, benchmarks and the command line share one definition.
// Sources: Surjanovic & Bingham, Virtual Library of Simulation Experiments (SFU).
#ifndef GPBANDIT_EXAMPLES_PROBLEMS_SYNTHETIC_FUNCTIONS_H_
#define GPBANDIT_EXAMPLES_PROBLEMS_SYNTHETIC_FUNCTIONS_H_

#include <Eigen/Core>
#include <cmath>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpbandit {
namespace problems {

constexpr double kPi = 3.14159265358979323846;

struct SyntheticFunction {
  std::string name;
  Eigen::VectorXd lower, upper;                          // the box
  std::function<double(const Eigen::VectorXd&)> reward;  // to maximize
  double max_reward;                                     // sup over the box
  Eigen::VectorXd argmax;                                // one maximizer
};

// Branin-Hoo on [-5, 10] x [0, 15]; reward = -branin, max -0.397887 at three points.
inline double Branin(const Eigen::VectorXd& x) {
  const double pi = kPi;
  const double a = 1.0, b = 5.1 / (4 * pi * pi), c = 5.0 / pi, r = 6.0, s = 10.0,
               t = 1.0 / (8 * pi);
  const double u = x(1) - b * x(0) * x(0) + c * x(0) - r;
  return a * u * u + s * (1 - t) * std::cos(x(0)) + s;
}

// Hartmann-3 and -6 on the unit cube (textbook minimization form).
inline double Hartmann3(const Eigen::VectorXd& x) {
  static const double alpha[4] = {1.0, 1.2, 3.0, 3.2};
  static const double A[4][3] = {{3, 10, 30}, {0.1, 10, 35}, {3, 10, 30}, {0.1, 10, 35}};
  static const double P[4][3] = {{0.3689, 0.1170, 0.2673},
                                 {0.4699, 0.4387, 0.7470},
                                 {0.1091, 0.8732, 0.5547},
                                 {0.0381, 0.5743, 0.8828}};
  double sum = 0;
  for (int i = 0; i < 4; ++i) {
    double inner = 0;
    for (int j = 0; j < 3; ++j) inner += A[i][j] * (x(j) - P[i][j]) * (x(j) - P[i][j]);
    sum += alpha[i] * std::exp(-inner);
  }
  return -sum;
}

inline double Hartmann6(const Eigen::VectorXd& x) {
  static const double alpha[4] = {1.0, 1.2, 3.0, 3.2};
  static const double A[4][6] = {{10, 3, 17, 3.5, 1.7, 8},
                                 {0.05, 10, 17, 0.1, 8, 14},
                                 {3, 3.5, 1.7, 10, 17, 8},
                                 {17, 8, 0.05, 10, 0.1, 14}};
  static const double P[4][6] = {{0.1312, 0.1696, 0.5569, 0.0124, 0.8283, 0.5886},
                                 {0.2329, 0.4135, 0.8307, 0.3736, 0.1004, 0.9991},
                                 {0.2348, 0.1451, 0.3522, 0.2883, 0.3047, 0.6650},
                                 {0.4047, 0.8828, 0.8732, 0.5743, 0.1091, 0.0381}};
  double sum = 0;
  for (int i = 0; i < 4; ++i) {
    double inner = 0;
    for (int j = 0; j < 6; ++j) inner += A[i][j] * (x(j) - P[i][j]) * (x(j) - P[i][j]);
    sum += alpha[i] * std::exp(-inner);
  }
  return -sum;
}

// Rosenbrock in d dimensions on [-2.048, 2.048]^d (textbook form, minimum 0 at all ones).
inline double Rosenbrock(const Eigen::VectorXd& x) {
  double sum = 0;
  for (int i = 0; i + 1 < x.size(); ++i) {
    const double a = x(i + 1) - x(i) * x(i), b = 1 - x(i);
    sum += 100 * a * a + b * b;
  }
  return sum;
}

// Levy in d dimensions on [-10, 10]^d (textbook form, minimum 0 at all ones):
// w_i = 1 + (x_i - 1) / 4, sin^2(pi w_1) + sum_{i<d} (w_i - 1)^2 (1 + 10 sin^2(pi w_i + 1))
// + (w_d - 1)^2 (1 + sin^2(2 pi w_d)).
inline double Levy(const Eigen::VectorXd& x) {
  const double pi = kPi;
  const Eigen::Index d = x.size();
  auto w = [&](Eigen::Index i) { return 1.0 + (x(i) - 1.0) / 4.0; };
  const double s1 = std::sin(pi * w(0));
  double sum = s1 * s1;
  for (Eigen::Index i = 0; i + 1 < d; ++i) {
    const double si = std::sin(pi * w(i) + 1.0);
    sum += (w(i) - 1.0) * (w(i) - 1.0) * (1.0 + 10.0 * si * si);
  }
  const double sd = std::sin(2.0 * pi * w(d - 1));
  return sum + (w(d - 1) - 1.0) * (w(d - 1) - 1.0) * (1.0 + sd * sd);
}

inline SyntheticFunction MakeBranin() {
  SyntheticFunction f;
  f.name = "branin";
  f.lower = Eigen::Vector2d(-5, 0);
  f.upper = Eigen::Vector2d(10, 15);
  f.reward = [](const Eigen::VectorXd& x) { return -Branin(x); };
  f.max_reward = -0.397887357729738;
  f.argmax = Eigen::Vector2d(kPi, 2.275);
  return f;
}

inline SyntheticFunction MakeHartmann3() {
  SyntheticFunction f;
  f.name = "hartmann3";
  f.lower = Eigen::VectorXd::Zero(3);
  f.upper = Eigen::VectorXd::Ones(3);
  f.reward = [](const Eigen::VectorXd& x) { return -Hartmann3(x); };
  f.max_reward = 3.86278214782076;
  f.argmax = Eigen::Vector3d(0.114614, 0.555649, 0.852547);
  return f;
}

inline SyntheticFunction MakeHartmann6() {
  SyntheticFunction f;
  f.name = "hartmann6";
  f.lower = Eigen::VectorXd::Zero(6);
  f.upper = Eigen::VectorXd::Ones(6);
  f.reward = [](const Eigen::VectorXd& x) { return -Hartmann6(x); };
  f.max_reward = 3.32236801141551;
  f.argmax.resize(6);
  f.argmax << 0.20169, 0.150011, 0.476874, 0.275332, 0.311652, 0.6573;
  return f;
}

inline SyntheticFunction MakeRosenbrock(int dim) {
  if (dim < 2)
    throw std::invalid_argument("rosenbrock: dim must be >= 2, got " + std::to_string(dim));
  SyntheticFunction f;
  f.name = "rosenbrock";
  f.lower = Eigen::VectorXd::Constant(dim, -2.048);
  f.upper = Eigen::VectorXd::Constant(dim, 2.048);
  f.reward = [](const Eigen::VectorXd& x) { return -Rosenbrock(x); };
  f.max_reward = 0.0;
  f.argmax = Eigen::VectorXd::Ones(dim);
  return f;
}

inline SyntheticFunction MakeLevy(int dim) {
  if (dim < 1) throw std::invalid_argument("levy: dim must be >= 1, got " + std::to_string(dim));
  SyntheticFunction f;
  f.name = "levy" + std::to_string(dim);
  f.lower = Eigen::VectorXd::Constant(dim, -10.0);
  f.upper = Eigen::VectorXd::Constant(dim, 10.0);
  f.reward = [](const Eigen::VectorXd& x) { return -Levy(x); };
  f.max_reward = 0.0;
  f.argmax = Eigen::VectorXd::Ones(dim);
  return f;
}

// By name: "branin", "hartmann3", "hartmann6", "rosenbrock" (2-D), "levy10" (10-D). Throws
// std::invalid_argument listing the known names.
inline SyntheticFunction MakeSyntheticFunction(const std::string& name) {
  if (name == "branin") return MakeBranin();
  if (name == "hartmann3") return MakeHartmann3();
  if (name == "hartmann6") return MakeHartmann6();
  if (name == "rosenbrock") return MakeRosenbrock(2);
  if (name == "levy10") return MakeLevy(10);
  throw std::invalid_argument("unknown synthetic function '" + name +
                              "'; known: branin, hartmann3, hartmann6, rosenbrock, levy10");
}

}  // namespace problems
}  // namespace gpbandit

#endif  // GPBANDIT_EXAMPLES_PROBLEMS_SYNTHETIC_FUNCTIONS_H_
