// Text forms of a parameter space (parameter_space.h) and of its points, for command lines and
// files:
//
//   parameter specs  "kp=log:0.1:100"           a real on a log scale
//                    "gain=real:-1:1", "gain=-1:1"   a real on a linear scale
//                    "taps=int:1:12"            an integer
//                    "size=int-log:1:4096"      an integer on a log scale
//                    "mode=cat:pid,lead-lag"    a categorical (labels separated by commas)
//                    a real or integer with equal bounds, or one label, is fixed
//   a space as JSON  {"parameters": [{"name": "kp", "type": "real", "scale": "log",
//                    "lower": 0.1, "upper": 100}, {"name": "mode", "type": "categorical",
//                    "labels": ["pid", "lead-lag"]}, ...]} (the form a study's header uses)
//   a point          "kp=0.3 taps=4 mode=pid": name=value pairs, values in their shortest
//                    round-trip form (gp/format.h), so a printed point parses back exactly
//
// Every parse throws std::invalid_argument naming the text and what is wrong with it.
// Thread safety: pure functions.
#ifndef GPBANDIT_SPACE_PARAMETER_SPEC_H_
#define GPBANDIT_SPACE_PARAMETER_SPEC_H_

#include <string>
#include <vector>

#include "gpbandit/space/parameter_space.h"

namespace gpbandit {

// One parameter from its spec; and back (FormatParameterSpec(ParseParameterSpec(s)) parses to
// an equal parameter; labels holding ',' have no spec form and are refused).
Parameter ParseParameterSpec(const std::string& spec);
std::string FormatParameterSpec(const Parameter& parameter);
// A space from one spec per parameter, in order (then the space's own checks).
ParameterSpace ParseParameterSpecs(const std::vector<std::string>& specs);

// A space as JSON text, and back.
std::string FormatParameterSpaceJson(const ParameterSpace& space);
ParameterSpace ParseParameterSpaceJson(const std::string& json_text);

// A point's "name=value" pairs, in the space's order, separated by `separator`.
std::string FormatNamedValues(const ParameterSpace& space, const NamedValues& values,
                              const std::string& separator = " ");
// A point from "name=value" pairs (each value read by its parameter's kind: a real, an integer,
// a label). Every parameter named once; the values are checked as ParameterSpace::ToVector does.
NamedValues ParseNamedValues(const ParameterSpace& space, const std::vector<std::string>& pairs);

}  // namespace gpbandit

#endif  // GPBANDIT_SPACE_PARAMETER_SPEC_H_
