#include "numerics/vector_exp.h"

#include <cmath>
#include <cstdint>

#include "numerics/cpu_features.h"
#include "numerics/vector_exp_avx2.h"

namespace gpbandit {
namespace {

#if defined(__x86_64__) && !defined(__AVX2__)
// Eigen's SSE2 assignment loop as the AVX2 kernel's frame: Eigen takes std::exp for the element
// before out's first 16-byte boundary and for an odd element left at the end, and its packet
// exponential (the kernel's algorithm) for the pairs between. Returns false without AVX2.
bool ExpWithAvx2(double scale, const double* x, Eigen::Index n, double* out) {
  if (!internal::Avx2Available()) return false;
  const bool misaligned = reinterpret_cast<std::uintptr_t>(out) % 16 != 0;
  const Eigen::Index head = n > 0 && misaligned ? 1 : 0;
  const Eigen::Index pairs_end = head + (n - head) / 2 * 2;
  if (head == 1) out[0] = std::exp(scale * x[0]);
  internal::ExpOfScaledAvx2(pairs_end - head, scale, x + head, out + head);
  for (Eigen::Index i = pairs_end; i < n; ++i) out[i] = std::exp(scale * x[i]);
  return true;
}
#else
// Built for AVX2 itself (or not for x86-64): Eigen's loop is already the widest, and with FMA
// its rounding differs from the kernel's.
bool ExpWithAvx2(double, const double*, Eigen::Index, double*) { return false; }
#endif

}  // namespace

void ExpOfScaledInto(double scale, const double* x, Eigen::Index n, double* out) {
  if (ExpWithAvx2(scale, x, n, out)) return;
  Eigen::Map<Eigen::ArrayXd>(out, n) = (scale * Eigen::Map<const Eigen::ArrayXd>(x, n)).exp();
}

}  // namespace gpbandit
