// How the box maximizer lays out the raw samples it scores before any L-BFGS start
// (box_maximizer.h). Kept apart from box_maximizer.h, which includes Ceres, so that option
// structs can name it.
//
// Pure functions, thread-safe.
#ifndef GPBANDIT_MAXIMIZER_RAW_SAMPLE_DESIGN_H_
#define GPBANDIT_MAXIMIZER_RAW_SAMPLE_DESIGN_H_

#include <string>

namespace gpbandit {

enum class RawSampleDesign {
  kLatinHypercube,  // LatinHypercube (box_maximizer.h)
  kSobol,           // ScrambledSobol (box_maximizer.h)
};

// "latin-hypercube", "sobol" (and the reverse; throws std::invalid_argument on an unknown name).
std::string RawSampleDesignName(RawSampleDesign design);
RawSampleDesign ParseRawSampleDesign(const std::string& name);

}  // namespace gpbandit

#endif  // GPBANDIT_MAXIMIZER_RAW_SAMPLE_DESIGN_H_
