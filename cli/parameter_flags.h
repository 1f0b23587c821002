// The user's own parameters on the command line (gpbandit/space/parameter_space.h): a study
// over named reals (linear or log scale), integers and categoricals instead of a box.
//
//   --param kp=log:0.1:100 --param taps=int:1:12 --param mode=cat:pid,lead-lag
//   --space space.json        {"parameters": [{"name": "kp", "type": "real", ...}, ...]}
//
// The spec grammar and the JSON are the library's (gpbandit/space/parameter_spec.h): real,
// log, int, int-log, cat; equal bounds or a single label fix a parameter. A point of such a
// study is printed and read as name=value pairs, "kp=3.1622776601683795 taps=7 mode=lead-lag":
// reals in their shortest round-trip form, integers as integers, labels as given. The commands
// of a box study keep their comma-separated numbers (PointText, ParsePoint decide by the
// study's domain).
#ifndef GPBANDIT_CLI_PARAMETER_FLAGS_H_
#define GPBANDIT_CLI_PARAMETER_FLAGS_H_

#include <optional>
#include <string>
#include <vector>

#include "cli/command.h"
#include "gpbandit/space/domain.h"
#include "gpbandit/space/parameter_space.h"
#include "gpbandit/study/optimizer_types.h"

namespace gpbandit {
namespace cli {

struct SpaceFlags {
  std::vector<std::string> params;  // --param, in order
  std::string space_file;           // --space
  bool given() const { return !params.empty() || !space_file.empty(); }
};

// Adds --param (repeatable) and --space. `when` ends their help ("first call; ...").
void AddSpaceFlags(po::options_description* desc, SpaceFlags* f, const std::string& when);

// The space the flags give, or none when neither flag is. Throws UsageError naming the flag and
// its value (a bad spec: an unknown kind, lower > upper (equal bounds fix it), lower <= 0 on
// a log scale, a repeated name; both --param and --space; either with --bounds when `bounds`
// is non-empty) and InputError for a --space file that cannot be read or holds no valid space.
std::optional<ParameterSpace> SpaceFromFlags(const SpaceFlags& f, const std::string& bounds);

// Throws UsageError, naming the first difference and `where` (the study), unless the space of
// the flags (when given) is the domain's action space.
void CheckSpaceMatches(const SpaceFlags& f, const Domain& domain, const std::string& where);

// A point of the domain as text: "name=value ..." (separated by blanks) for a parameter space,
// "x1,x2,..." otherwise.
std::string PointText(const Domain& domain, const Eigen::VectorXd& x);
// x with every coordinate within rounding of a bound of the domain set to that bound: within
// kBoundSnap of the coordinate's width (on a log parameter, of its width in log units). A
// maximizer that stops 7.877e-08 off the lower bound 0 of [0, 1], or at 49.99999993 of
// [0, 50], hands out the bound a person would have typed. Other coordinates are unchanged.
constexpr double kBoundSnap = 1e-6;
Eigen::VectorXd SnapToBounds(const Domain& domain, const Eigen::VectorXd& x);
// PointText of SnapToBounds: how suggest, best, study show and a worker's command show a point
// the optimizer handed out. Its pending point keeps the exact value (the log's 17 digits):
// observe matches a --x that prints alike to it (FindPendingPrintedAs).
std::string SuggestionText(const Domain& domain, const Eigen::VectorXd& x);

// Its entries one by one: "name=value" for a space, the number otherwise (a worker's arguments).
std::vector<std::string> PointArguments(const Domain& domain, const Eigen::VectorXd& x);
// Each entry's value alone: the real, the integer, the label, or the number (GPBANDIT_X1, ...).
std::vector<std::string> PointValues(const Domain& domain, const Eigen::VectorXd& x);

// The trial of the pending point at context z whose SuggestionText is x's, when none is
// exactly x (a suggestion observed as printed, its bound snapped); -1 if none or x is pending.
long FindPendingPrintedAs(const std::vector<PendingPoint>& pending, const Domain& domain,
                          const Eigen::VectorXd& x, const Eigen::VectorXd& z);

// The action vector of `texts`, the values of a repeatable --flag. For a parameter space: the
// name=value pairs of all the texts, each text holding one or more pairs separated by blanks
// (what PointText prints; a blank inside a label stays when the text after it does not start
// with "name=" of a parameter and the label so joined is one of the parameter's), every
// parameter named once, legal values; a word "name=..." whose name is not a parameter is
// refused naming it. Otherwise one text of
// comma-separated numbers. Throws UsageError naming --flag and the offending text.
Eigen::VectorXd ParsePoint(const Domain& domain, const std::string& flag,
                           const std::vector<std::string>& texts);

}  // namespace cli
}  // namespace gpbandit

#endif  // GPBANDIT_CLI_PARAMETER_FLAGS_H_
