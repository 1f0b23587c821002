// What the demos and studies print their numbers with: fixed-point text and elapsed seconds.
// Internal to examples/; pure: thread-safe.
#ifndef GPBANDIT_EXAMPLES_REPORT_TEXT_H_
#define GPBANDIT_EXAMPLES_REPORT_TEXT_H_

#include <chrono>
#include <iomanip>
#include <sstream>
#include <string>

namespace gpbandit {
namespace examples {

// v with `precision` digits after the point.
inline std::string Fixed(double v, int precision) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(precision) << v;
  return out.str();
}

// Seconds from `since` until now.
inline double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

}  // namespace examples
}  // namespace gpbandit

#endif  // GPBANDIT_EXAMPLES_REPORT_TEXT_H_
