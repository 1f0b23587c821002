#include "storage/study_name.h"

#include <cstdio>
#include <stdexcept>

namespace gpbandit {

void CheckStudyName(const std::string& study) {
  for (std::size_t i = 0; i < study.size(); ++i) {
    const auto c = static_cast<unsigned char>(study[i]);
    if (c < 0x20 || c == 0x7f) {
      char code[8];
      std::snprintf(code, sizeof code, "\\x%02x", c);
      throw std::invalid_argument("study name: control character " + std::string(code) +
                                  " at position " + std::to_string(i) +
                                  "; a study name is printable text");
    }
  }
}

}  // namespace gpbandit
