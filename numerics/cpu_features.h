// What this CPU's instruction set offers the run-time chosen kernels (numerics/vector_exp_avx2.h,
// numerics/vector_solve_avx2.h): read once from cpuid (GCC's __builtin_cpu_supports, which also
// checks that the operating system saves the 256-bit registers). False on other architectures
// than x86-64. Thread safety: safe from any thread (function-local statics).
#ifndef GPBANDIT_NUMERICS_CPU_FEATURES_H_
#define GPBANDIT_NUMERICS_CPU_FEATURES_H_

namespace gpbandit {
namespace internal {

// Whether this CPU runs AVX2.
bool Avx2Available();

// Whether this CPU runs AVX2 and FMA.
bool Avx2FmaAvailable();

}  // namespace internal
}  // namespace gpbandit

#endif  // GPBANDIT_NUMERICS_CPU_FEATURES_H_
