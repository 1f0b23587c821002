#include "numerics/cpu_features.h"

namespace gpbandit {
namespace internal {

#if defined(__x86_64__)
bool Avx2Available() {
  static const bool available = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") != 0;
  }();
  return available;
}

bool Avx2FmaAvailable() {
  static const bool available = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") != 0 && __builtin_cpu_supports("fma") != 0;
  }();
  return available;
}
#else
bool Avx2Available() { return false; }

bool Avx2FmaAvailable() { return false; }
#endif

}  // namespace internal
}  // namespace gpbandit
