// Several outcomes on the command line (gpbandit/study/outcome_options.h): a study declares its
// objectives and outcome constraints when it is made (suggest's or observe's first call on a
// --log, study create), and every tell then carries one value per outcome.
//
//   --objective itae:min --objective tv:min     objectives, in order (min|minimize|max|maximize)
//   --constraint 'overshoot<=0.1'               an outcome that must be <= (or >=) a bound at
//                                               the answer (evaluations may violate it)
//   --reference-point 2.5,40                    the hypervolume's reference, one per objective
//   --feasibility-confidence 0.95               the front and the best point keep only points
//                                               feasible with at least this probability
//   --scalarization chebyshev|linear            several objectives under an index strategy
//
//   observe --y itae=0.3,tv=4.2,overshoot=0.05  the outcomes by name (a plain number for a
//                                               study of one outcome)
//   a worker's command: its last line           itae=0.3 tv=4.2 overshoot=0.05, or the values
//                                               in tell order: 0.3 4.2 0.05 (blanks or commas)
// A constraint without --objective belongs to the one objective "y" of --sense.
#ifndef GPBANDIT_CLI_OUTCOME_DECLARATION_H_
#define GPBANDIT_CLI_OUTCOME_DECLARATION_H_

#include <Eigen/Core>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/outcome_flags.h"
#include "gpbandit/optimizer/optimizer.h"

namespace gpbandit {
namespace cli {

struct DeclarationFlags {
  std::vector<std::string> objectives, constraints;  // --objective, --constraint, in order
  std::string reference_point, scalarization;        // empty: not given
  double feasibility_confidence = OutcomeOptions().feasibility_confidence;
  bool confidence_given = false;  // set by ParseArguments' caller from the variables map
  bool given() const {
    return !objectives.empty() || !constraints.empty() || !reference_point.empty() ||
           !scalarization.empty() || confidence_given;
  }
};

// Adds --objective, --constraint, --reference-point, --feasibility-confidence, --scalarization;
// `when` ends their help ("first call; remembered by the log").
void AddDeclarationFlags(po::options_description* desc, DeclarationFlags* f,
                         const std::string& when);
// Records whether --feasibility-confidence was given (after parsing).
void NoteDeclarationFlags(const po::variables_map& vm, DeclarationFlags* f);

// The outcomes the flags declare (empty when none is given). Throws UsageError naming the flag
// and the value: "itae:least" (a sense other than min/max), "overshoot<0.1" (neither <= nor >=),
// a bound that is not a finite number, a malformed or repeated name, a reference point whose
// size is not the number of objectives, a confidence outside (0, 1), --sense with --objective
// (each objective has its own sense).
OutcomeOptions OutcomesFromFlags(const DeclarationFlags& f, const OutcomeFlags& outcome);

// Throws UsageError, naming `where`, when the flags are given and declare other outcomes than
// the study's (a later call may restate them, never change them).
void CheckDeclarationMatches(const DeclarationFlags& f, const OutcomeFlags& outcome,
                             const Optimizer& optimizer, const std::string& where);

// True when the study declares outcomes (objectives or constraints): its tells carry
// num_outcomes() values (Optimizer::TellOutcomes).
bool DeclaresOutcomes(const Optimizer& optimizer);

// "itae:min, tv:min, overshoot<=0.1" (the implicit objective: "y:max").
std::string DescribeOutcomes(const OutcomeOptions& outcomes, ObjectiveSense sense);

// The values of `flag`'s text in tell order: "itae=0.3,tv=4.2" (pairs separated by commas or
// blanks, every outcome of the study exactly once) or, for a study of one outcome, a plain
// number. Non-finite values are returned (a failed evaluation: RequireTellableOutcomes).
// Throws UsageError naming the flag: a pair without '=', an unknown or repeated name, a missing
// outcome, a value that is not a number, a plain number for a study of several outcomes.
Eigen::VectorXd ParseOutcomeFlag(const Optimizer& optimizer, const std::string& flag,
                                 const std::string& text);

// The values of a worker's command's last output line in tell order: name=value pairs (every
// outcome once) or the values in tell order, separated by blanks or commas. false, with
// *problem saying what is wrong, otherwise.
bool ParseOutcomeLine(const OutcomeOptions& outcomes, const std::string& line,
                      Eigen::VectorXd* values, std::string* problem);

// Throws UsageError "--y tv=nan is not finite, and this study refuses failed evaluations ..."
// when a value is not finite and the study's policy is throw (RequireTellable's rule).
void RequireTellableOutcomes(const Optimizer& optimizer, const Eigen::VectorXd& values,
                             const std::string& flag);

// "itae=0.3 tv=4.2 overshoot=0.05": the values with their names (separator between pairs).
std::string OutcomeText(const OutcomeOptions& outcomes, const Eigen::VectorXd& values,
                        const char* separator = " ");

// The told outcomes of an observation in tell order: y, then Observation::constraints (NaN
// where a failed evaluation holds none).
Eigen::VectorXd ObservedOutcomes(const OutcomeOptions& outcomes, const Observation& o);

}  // namespace cli
}  // namespace gpbandit

#endif  // GPBANDIT_CLI_OUTCOME_DECLARATION_H_
