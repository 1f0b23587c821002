// The C++ half of the Python parity test (test_parity.py): runs 30 rounds of a scenario and
// prints every suggested point and its reward, one point per line, each number in C's %a
// (exact) notation. test_parity.py runs the same scenario through the Python module and
// requires the same bits.
//
//   python_parity box SEED       Branin (maximize -branin), gp-ucb, default options
//   python_parity context SEED   a 2-D box with a bounded 1-D context, cgp-ucb, batches of 2
#include <cstdio>
#include <cstdlib>
#include <string>

#include "examples/problems/synthetic_functions.h"
#include "gpbandit/optimizer/optimizer.h"

namespace {

constexpr int kRounds = 30;

void Print(const Eigen::VectorXd& x, double y) {
  for (Eigen::Index i = 0; i < x.size(); ++i) std::printf("%a ", x(i));
  std::printf("%a\n", y);
}

void RunBox(std::uint64_t seed) {
  const auto f = gpbandit::problems::MakeBranin();
  gpbandit::OptimizerOptions options;
  options.seed = seed;
  gpbandit::Optimizer opt(gpbandit::Domain::Box(f.lower, f.upper), nullptr, "gp-ucb", options);
  for (int round = 0; round < kRounds; ++round) {
    const Eigen::VectorXd x = opt.Ask();
    const double y = f.reward(x);
    opt.Tell(x, y);
    Print(x, y);
  }
}

// Written the same way, operation by operation, in test_parity.py.
double ContextReward(const Eigen::VectorXd& x, double z) {
  const double a = x(0) - z, b = x(1) - 0.5;
  return -(a * a) - 2.0 * (b * b) + 0.3 * x(0) * x(1);
}

void RunContext(std::uint64_t seed) {
  gpbandit::OptimizerOptions options;
  options.seed = seed;
  const gpbandit::Domain domain =
      gpbandit::Domain::Box(Eigen::Vector2d(0, 0), Eigen::Vector2d(1, 1))
          .WithContext(1, Eigen::VectorXd::Zero(1), Eigen::VectorXd::Ones(1));
  gpbandit::Optimizer opt(domain, nullptr, "cgp-ucb", options);
  for (int round = 0; round < kRounds; ++round) {
    const Eigen::VectorXd z = Eigen::VectorXd::Constant(1, (round % 5) / 4.0);
    const Eigen::MatrixXd batch = opt.AskBatch(2, z);
    for (Eigen::Index j = 0; j < batch.cols(); ++j) {
      const double y = ContextReward(batch.col(j), z(0));
      opt.Tell(batch.col(j), z, y);
      Print(batch.col(j), y);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: python_parity box|context SEED\n");
    return 2;
  }
  const std::string scenario = argv[1];
  const std::uint64_t seed = std::strtoull(argv[2], nullptr, 10);
  if (scenario == "box") {
    RunBox(seed);
  } else if (scenario == "context") {
    RunContext(seed);
  } else {
    std::fprintf(stderr, "unknown scenario %s\n", scenario.c_str());
    return 2;
  }
  return 0;
}
