#include "gpbandit/gp/format.h"

#include <sstream>

namespace gpbandit {

std::string FormatDouble(double value) {
  std::ostringstream out;
  out.precision(17);
  out << value;
  return out.str();
}

}  // namespace gpbandit
