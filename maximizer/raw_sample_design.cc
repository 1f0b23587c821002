#include "gpbandit/maximizer/raw_sample_design.h"

#include <stdexcept>

namespace gpbandit {

std::string RawSampleDesignName(RawSampleDesign design) {
  switch (design) {
    case RawSampleDesign::kLatinHypercube:
      return "latin-hypercube";
    case RawSampleDesign::kSobol:
      return "sobol";
  }
  return "unknown";
}

RawSampleDesign ParseRawSampleDesign(const std::string& name) {
  for (RawSampleDesign design : {RawSampleDesign::kLatinHypercube, RawSampleDesign::kSobol})
    if (RawSampleDesignName(design) == name) return design;
  throw std::invalid_argument("raw sample design = '" + name +
                              "': unknown; known: latin-hypercube, sobol");
}

}  // namespace gpbandit
