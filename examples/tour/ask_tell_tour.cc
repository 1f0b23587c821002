// The README's ask/tell tour: tune two gains of a noisy system with GP-UCB, by hand in a loop.
#include <cmath>
#include <iostream>
#include <random>

#include "gpbandit/plugin/optimizer.h"

int main() {
  std::mt19937 noise_rng(7);
  std::normal_distribution<double> noise(0.0, 0.05);
  auto reward = [&](const Eigen::VectorXd& gains) {  // the expensive, noisy experiment
    return -std::pow(gains(0) - 2.0, 2) - 0.1 * std::pow(gains(1) - 7.0, 2) + noise(noise_rng);
  };
  gpbandit::OptimizerOptions options;
  options.seed = 1;
  options.log_path = "ask_tell_tour.jsonl";  // every tell is on disk before Tell returns
  gpbandit::Optimizer opt(gpbandit::Domain::Box(Eigen::Vector2d(0, 0), Eigen::Vector2d(5, 10)),
                          /*kernel=*/nullptr, "gp-ucb", options);
  for (int round = 0; round < 30; ++round) {
    const Eigen::VectorXd gains = opt.Ask();
    opt.Tell(gains, reward(gains));
  }
  const gpbandit::Recommendation best = opt.Best();
  std::cout << "best gains " << best.x.transpose() << " (posterior mean " << best.posterior_mean
            << ")\n";
  std::remove("ask_tell_tour.jsonl");
  return std::abs(best.x(0) - 2.0) < 0.5 ? 0 : 1;
}
