#include "gpbandit/gp/random.h"

#include <vector>

namespace gpbandit {
namespace {

std::seed_seq SeedWords(std::initializer_list<std::uint64_t> keys) {
  std::vector<std::uint32_t> words;
  words.reserve(2 * keys.size());
  for (const std::uint64_t k : keys) {
    words.push_back(static_cast<std::uint32_t>(k));
    words.push_back(static_cast<std::uint32_t>(k >> 32));
  }
  return std::seed_seq(words.begin(), words.end());
}

}  // namespace

Rng SeededRng(std::initializer_list<std::uint64_t> keys) {
  std::seed_seq seq = SeedWords(keys);
  return Rng(seq);
}

std::uint64_t DerivedSeed(std::initializer_list<std::uint64_t> keys) {
  std::seed_seq seq = SeedWords(keys);
  std::uint32_t out[2];
  seq.generate(out, out + 2);
  return static_cast<std::uint64_t>(out[0]) | (static_cast<std::uint64_t>(out[1]) << 32);
}

Eigen::VectorXd StandardNormalVector(int n, Rng& rng) {
  std::normal_distribution<double> normal(0.0, 1.0);
  Eigen::VectorXd z(n);
  for (int i = 0; i < n; ++i) z(i) = normal(rng);
  return z;
}

Eigen::MatrixXd StandardNormalMatrix(int rows, int cols, Rng& rng) {
  std::normal_distribution<double> normal(0.0, 1.0);
  Eigen::MatrixXd z(rows, cols);
  for (int j = 0; j < cols; ++j)
    for (int i = 0; i < rows; ++i) z(i, j) = normal(rng);
  return z;
}

}  // namespace gpbandit
