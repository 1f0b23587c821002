#include "numerics/vector_exp.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "numerics/cpu_features.h"
#include "numerics/vector_exp_avx2.h"

namespace gpbandit {
namespace {

// Eigen's own (scale * x).exp() into out: the reference, whose head and tail elements depend on
// out's alignment, so callers give it a buffer aligned as the one under test.
void EigenExp(double scale, const double* x, Eigen::Index n, double* out) {
  Eigen::Map<Eigen::ArrayXd>(out, n) = (scale * Eigen::Map<const Eigen::ArrayXd>(x, n)).exp();
}

bool SameBits(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return std::memcmp(&a, &b, sizeof(double)) == 0;
}

// Values over the exponential's whole range: ordinary arguments, the band whose results are
// subnormal, past the clamps, and the special values.
std::vector<double> Arguments(std::size_t count) {
  std::mt19937_64 rng(20261207);
  std::uniform_real_distribution<double> wide(-760.0, 760.0), subnormal(-746.0, -707.0),
      small(-3.0, 3.0);
  std::vector<double> x;
  for (std::size_t i = 0; i < count; ++i)
    x.push_back(i % 3 == 0 ? wide(rng) : i % 3 == 1 ? subnormal(rng) : small(rng));
  const double inf = std::numeric_limits<double>::infinity();
  for (double v : {0.0, -0.0, inf, -inf, std::numeric_limits<double>::quiet_NaN(), 709.78, 709.79,
                   -709.78, -709.79, 1e-300, -1e-300, 1e308, -1e308, 0.5, -0.5})
    x.push_back(v);
  return x;
}

TEST(VectorExpTest, EqualsEigensBitsOverTheWholeRange) {
  const std::vector<double> x = Arguments(300000);
  const Eigen::Index n = static_cast<Eigen::Index>(x.size());
  for (double scale : {1.0, -1.0, -0.5}) {
    std::vector<double> ours(x.size()), eigens(x.size());
    ExpOfScaledInto(scale, x.data(), n, ours.data());
    EigenExp(scale, x.data(), n, eigens.data());
    for (std::size_t i = 0; i < x.size(); ++i)
      ASSERT_TRUE(SameBits(ours[i], eigens[i]))
          << "scale " << scale << " x " << x[i] << ": " << ours[i] << " vs " << eigens[i];
  }
}

// Every length up to 21 at each of four offsets into a buffer (so out both on and off a 16-byte
// boundary), written to another buffer and in place.
TEST(VectorExpTest, EqualsEigensBitsForEveryLengthAndOffset) {
  std::vector<double> source = Arguments(64);
  for (Eigen::Index offset = 0; offset < 4; ++offset) {
    for (Eigen::Index n = 0; n <= 21; ++n) {
      const double* x = source.data() + offset;
      std::vector<double> ours(32, 7.0), eigens(32, 7.0), in_place(source);
      ExpOfScaledInto(-1.0, x, n, ours.data() + offset);
      EigenExp(-1.0, x, n, eigens.data() + offset);
      ExpOfScaledInto(-1.0, in_place.data() + offset, n, in_place.data() + offset);
      for (Eigen::Index i = 0; i < 32; ++i)
        ASSERT_TRUE(SameBits(ours[i], eigens[i]))
            << "offset " << offset << " n " << n << " i " << i;
      for (Eigen::Index i = 0; i < n; ++i)
        ASSERT_TRUE(SameBits(in_place[offset + i], eigens[offset + i]))
            << "in place, offset " << offset << " n " << n << " i " << i;
      // Nothing outside [offset, offset + n) is written.
      for (Eigen::Index i = 0; i < 32; ++i) {
        if (i >= offset && i < offset + n) continue;
        ASSERT_EQ(ours[i], 7.0) << "i " << i;
      }
    }
  }
}

// The kernel alone (every element by the packet algorithm) against Eigen's packets: an aligned
// out of even length, where Eigen takes no std::exp, so the comparison covers every element.
// Without AVX2 the dispatch, which then runs Eigen's loop alone, stands in for the kernel.
TEST(VectorExpTest, KernelEqualsEigensPackets) {
  std::vector<double> x = Arguments(1000);
  if (x.size() % 2 != 0) x.pop_back();
  const Eigen::Index n = static_cast<Eigen::Index>(x.size());
  Eigen::ArrayXd ours(n), eigens(n);  // Eigen's arrays are 16-byte aligned
  if (internal::Avx2Available()) {
    internal::ExpOfScaledAvx2(n, -1.0, x.data(), ours.data());
  } else {
    ExpOfScaledInto(-1.0, x.data(), n, ours.data());
  }
  EigenExp(-1.0, x.data(), n, eigens.data());
  for (Eigen::Index i = 0; i < n; ++i) ASSERT_TRUE(SameBits(ours(i), eigens(i))) << "x " << x[i];
}

TEST(VectorExpTest, AgreesWithTheLibrarysExpToRounding) {
  std::vector<double> x;
  for (int i = -7000; i <= 7000; ++i) x.push_back(0.1 * i + 0.013);
  std::vector<double> out(x.size());
  ExpOfScaledInto(1.0, x.data(), static_cast<Eigen::Index>(x.size()), out.data());
  for (std::size_t i = 0; i < x.size(); ++i)
    EXPECT_NEAR(out[i], std::exp(x[i]), 4e-16 * std::exp(x[i])) << "x " << x[i];
}

}  // namespace
}  // namespace gpbandit
