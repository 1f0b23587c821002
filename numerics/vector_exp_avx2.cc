#include "numerics/vector_exp_avx2.h"

#if defined(__x86_64__)
#include <immintrin.h>
#else
#include <stdexcept>
#endif

namespace gpbandit {
namespace internal {

#if defined(__x86_64__)
// AVX2 without FMA: a multiply and an add must stay two roundings, as in Eigen's SSE2 code.
#define GPBANDIT_AVX2 __attribute__((target("avx2")))

namespace {

// 2^k for four integers k in [-1022, 1023], built from the exponent bits.
GPBANDIT_AVX2 __m256d PowerOfTwo(__m128i k) {
  const __m256i biased = _mm256_add_epi64(_mm256_cvtepi32_epi64(k), _mm256_set1_epi64x(1023));
  return _mm256_castsi256_pd(_mm256_slli_epi64(biased, 52));
}

// a * 2^e for integral e in [-1100, 1100], as Eigen's pldexp<Packet2d>: e clamped to +-2099 and
// split into four factors 2^b 2^b 2^b 2^(e - 3b), b = floor(e / 4), so that no factor over- or
// underflows and only the last product rounds.
GPBANDIT_AVX2 __m256d TimesPowerOfTwo(__m256d a, __m256d exponent) {
  const __m256d limit = _mm256_set1_pd(2099.0);
  const __m256d e = _mm256_min_pd(limit, _mm256_max_pd(_mm256_set1_pd(-2099.0), exponent));
  const __m128i ei = _mm256_cvtpd_epi32(e);
  const __m128i b = _mm_srai_epi32(ei, 2);
  const __m128i rest = _mm_sub_epi32(_mm_sub_epi32(_mm_sub_epi32(ei, b), b), b);
  const __m256d c = PowerOfTwo(b), d = PowerOfTwo(rest);
  return _mm256_mul_pd(_mm256_mul_pd(_mm256_mul_pd(_mm256_mul_pd(a, c), c), c), d);
}

// p * x + q, two roundings (Eigen's pmadd without FMA).
GPBANDIT_AVX2 __m256d MulAdd(__m256d p, __m256d x, __m256d q) {
  return _mm256_add_pd(_mm256_mul_pd(p, x), q);
}

// Eigen's pexp_double, operation for operation. The operand order of every min and max is
// Eigen's, so NaN and infinities come out as they do there.
GPBANDIT_AVX2 __m256d Exp(__m256d input) {
  __m256d x =
      _mm256_max_pd(_mm256_set1_pd(-709.784), _mm256_min_pd(_mm256_set1_pd(709.784), input));
  // exp(x) = 2^n exp(g), n = floor(x log2(e) + 1/2), g = x - n ln 2 (ln 2 in two parts).
  __m256d n = MulAdd(_mm256_set1_pd(1.4426950408889634073599), x, _mm256_set1_pd(0.5));
  n = _mm256_round_pd(n, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
  x = _mm256_sub_pd(x, _mm256_mul_pd(n, _mm256_set1_pd(0.693145751953125)));
  x = _mm256_sub_pd(x, _mm256_mul_pd(n, _mm256_set1_pd(1.42860682030941723212e-6)));
  const __m256d x2 = _mm256_mul_pd(x, x);
  __m256d p = MulAdd(_mm256_set1_pd(1.26177193074810590878e-4), x2,
                     _mm256_set1_pd(3.02994407707441961300e-2));
  p = MulAdd(p, x2, _mm256_set1_pd(9.99999999999999999910e-1));
  p = _mm256_mul_pd(p, x);
  __m256d q = MulAdd(_mm256_set1_pd(3.00198505138664455042e-6), x2,
                     _mm256_set1_pd(2.52448340349684104192e-3));
  q = MulAdd(q, x2, _mm256_set1_pd(2.27265548208155028766e-1));
  q = MulAdd(q, x2, _mm256_set1_pd(2.00000000000000000009e0));
  // exp(g) = 1 + 2 p / (q - p).
  x = MulAdd(_mm256_set1_pd(2.0), _mm256_div_pd(p, _mm256_sub_pd(q, p)), _mm256_set1_pd(1.0));
  return _mm256_max_pd(input, TimesPowerOfTwo(x, n));
}

}  // namespace

GPBANDIT_AVX2 void ExpOfScaledAvx2(long n, double scale, const double* x, double* out) {
  const __m256d factor = _mm256_set1_pd(scale);
  long i = 0;
  for (; i + 4 <= n; i += 4)
    _mm256_storeu_pd(out + i, Exp(_mm256_mul_pd(factor, _mm256_loadu_pd(x + i))));
  if (i == n) return;
  // The last n mod 4 values through a padded block.
  double block[4] = {0.0, 0.0, 0.0, 0.0};
  for (long k = i; k < n; ++k) block[k - i] = x[k];
  _mm256_storeu_pd(block, Exp(_mm256_mul_pd(factor, _mm256_loadu_pd(block))));
  for (long k = i; k < n; ++k) out[k] = block[k - i];
}

#else
// Other architectures have no AVX2: the dispatch never calls the kernel.
void ExpOfScaledAvx2(long, double, const double*, double*) {
  throw std::logic_error("ExpOfScaledAvx2: no AVX2 on this architecture");
}
#endif

}  // namespace internal
}  // namespace gpbandit
