// Several outcomes per evaluation: the objectives a study optimizes (each with its sense) and the
// outcome constraints its answer must satisfy (a bound, <= or >=), as OptimizerOptions::outcomes
// declares them and the study's header records them.
//
// Words (docs/outcomes.md): an *objective* is optimized; a *constraint* need only hold at the
// answer, so evaluations may violate it while exploring (unlike a safety signal, safe_opt.h,
// which must hold at every evaluation).
//
// Order: a tell carries num_outcomes() values, the objectives in declared order, then the
// constraints in declared order, each in the caller's own units. Objective 0 is the reward of
// the single-objective API (Observation::y, Optimizer::Predict, the reward model); the others
// and the constraints follow in Observation::constraints, and each has its own GP over the same
// inputs (its own kernel hyperparameters, noise and fit).
//
// An empty OutcomeOptions (the default) is the single objective of OptimizerOptions::sense with
// no constraints: such a study is unchanged, and its header is the one of earlier versions.
//
// Thread safety: plain values.
#ifndef GPBANDIT_STUDY_OUTCOME_OPTIONS_H_
#define GPBANDIT_STUDY_OUTCOME_OPTIONS_H_

#include <string>
#include <vector>

#include "gpbandit/acquisition/feasibility.h"

namespace gpbandit {

struct ObjectiveSpec {
  // A non-empty name without '=', ',' or whitespace, unique among the study's outcomes.
  std::string name;
  // Maximize unless said otherwise.
  bool minimize = false;
};

struct ConstraintSpec {
  // As ObjectiveSpec::name.
  std::string name;
  // g <= bound (the default) or g >= bound.
  ConstraintSense sense = ConstraintSense::kLessEqual;
  // Finite, in g's units.
  double bound = 0.0;
};

// How a round chooses under several objectives when the strategy is not the hypervolume one
// ("ehvi"): a random scalarization drawn each round (Paria, Kandasamy & Poczos 2019), of the
// strategy's index (UCB) or of its Thompson draws (GP-TS), each objective normalized by the
// range of its observed values.
enum class ScalarizationRule { kChebyshev, kLinear };

struct OutcomeOptions {
  // Empty: one objective named "y" in OptimizerOptions::sense. Otherwise >= 1 objectives; the
  // Optimizer takes its sense from objective 0 (OptimizerOptions::sense is overwritten with it).
  std::vector<ObjectiveSpec> objectives;
  std::vector<ConstraintSpec> constraints;
  // The hypervolume's reference point, one entry per objective in the objectives' own units
  // (for a minimized objective an upper limit, for a maximized one a lower limit). Empty: inferred
  // each round from the told values: the worst value of each objective among the points feasible
  // with high probability, moved out by 10% of their range in that objective (1 where the range
  // is 0), so that the whole explored range of every objective counts (docs/outcomes.md);
  // Optimizer::ReferencePoint() reports the one in use.
  std::vector<double> reference_point;
  // Best() and ParetoFront() take only observed points whose posterior probability of
  // feasibility is at least this, in (0, 1). Default 0.95.
  double feasibility_confidence = 0.95;
  // For several objectives under an index strategy or GP-TS. Default Chebyshev.
  ScalarizationRule scalarization = ScalarizationRule::kChebyshev;

  // True when the study has several objectives or any constraint.
  bool active() const { return objectives.size() > 1 || !constraints.empty(); }
  int num_objectives() const {
    return objectives.empty() ? 1 : static_cast<int>(objectives.size());
  }
  int num_constraints() const { return static_cast<int>(constraints.size()); }
  int num_outcomes() const { return num_objectives() + num_constraints(); }
  // The outcome names in tell order ("y" for the implicit objective).
  std::vector<std::string> names() const;
  // The index in tell order of the outcome `name`, or -1.
  int IndexOf(const std::string& name) const;
  // false with a message naming the field and value: an empty, repeated or malformed name, a
  // non-finite bound, a reference point of the wrong size or with a non-finite entry, a
  // confidence outside (0, 1).
  bool IsValid(std::string* error) const;
};

// Whether `name` can name an outcome: non-empty, without whitespace or any of = , < > : (names go
// on command lines as name=value lists and into CSV headers).
bool IsOutcomeName(const std::string& name);

std::string ScalarizationRuleName(ScalarizationRule rule);
// "<=" or ">=".
std::string ConstraintSenseSymbol(ConstraintSense sense);

}  // namespace gpbandit

#endif  // GPBANDIT_STUDY_OUTCOME_OPTIONS_H_
