// Several fidelities of one objective: a study's named sources ordered by cost (a simulator, the
// robot), as OptimizerOptions::fidelities declares them and the study's header records them
// (docs/fidelities.md, "In a study").
//
// Words: fidelity 0 is the cheapest source, fidelity F - 1 the TARGET (the system whose optimum
// is sought). Every strategy chooses its point at the target; the fidelity rule
// (acquisition/fidelity_rule.h) then says at which fidelity to evaluate it, from the joint
// posterior at that point. Best() and Predict() answer at the target.
//
// The model: one GP over (x, fidelity): the fidelity index is one more model input after the
// action and the context, and the study's kernel (the default or the caller's) is wrapped in
// the chosen joint kernel (kernel/fidelity_kernels.h) with its fidelity_dim at that coordinate;
// the relation between fidelities is fitted by the study's marginal-likelihood refits.
//
// Units: costs in any one unit (seconds, euros, episodes), the same for every fidelity.
// An empty FidelityOptions (the default) is a study of one source: unchanged, and its header is
// the one of earlier versions.
// Thread safety: plain values.
#ifndef GPBANDIT_STUDY_FIDELITY_OPTIONS_H_
#define GPBANDIT_STUDY_FIDELITY_OPTIONS_H_

#include <Eigen/Core>
#include <string>
#include <utility>
#include <vector>

namespace gpbandit {

// One observation of an earlier study, at that study's target: action and context in original
// units, the accepted (finite) reward in the caller's units and sense.
struct SourcePoint {
  Eigen::VectorXd x, z;
  double y = 0.0;
};

struct FidelitySpec {
  FidelitySpec() = default;
  // An evaluable fidelity, {"sim", 1.0}; a source, {"old", 0.0, true, observations}.
  FidelitySpec(std::string name, double cost, bool source = false,
               std::vector<SourcePoint> observations = {})
      : name(std::move(name)), cost(cost), source(source), observations(std::move(observations)) {}

  // A non-empty name without whitespace or any of = , < > : (IsOutcomeName's rule), unique.
  std::string name;
  // The cost of one evaluation at this fidelity: finite and > 0; 0 for a source.
  double cost = 1.0;
  // A SOURCE: an earlier, finished study of the same objective on the same domain
  // (study/source_study.h reads one), never evaluated; its data enter the joint model as this
  // level, whose relation with the target is fitted like a fidelity's (docs/fidelities.md,
  // "Earlier studies as sources"). Sources come first, before every evaluable level.
  bool source = false;
  // A source's observations, copied into a new study as tell records at this level when it is
  // created (not part of the header: a resumed study reads them from its own records).
  std::vector<SourcePoint> observations;
};

// The joint kernel: the autoregressive simulator + error model (f_i = rho_i f_{i-1} + g_i, one
// copy of the study's kernel per level) or the ICM (the study's kernel times a fitted F x F
// coregionalization matrix of rank 1).
enum class FidelityModel { kAutoregressive, kIcm };
// Which fidelity an ask evaluates (acquisition/fidelity_rule.h): information about the target
// per unit cost, or MF-GP-UCB's threshold rule.
enum class FidelityRule { kInformation, kThreshold };

struct FidelityOptions {
  // Empty: one source. Otherwise at least two: the sources (earlier studies, cost 0) first,
  // then at least one evaluable level, the evaluable ones ordered by strictly increasing cost;
  // the last is the target.
  std::vector<FidelitySpec> levels;
  // Default kAutoregressive.
  FidelityModel model = FidelityModel::kAutoregressive;
  // Default kInformation.
  FidelityRule rule = FidelityRule::kInformation;
  // A lower fidelity whose fitted prior correlation with the target at the chosen point is below
  // this is never evaluated (fidelity_rule.h): in [-1, 1], default 0.3.
  double min_correlation = 0.3;
  // The marginal-likelihood fits of a study with fidelities (the reward's joint model, and the
  // constraints' and signals') stop at the smaller of this and OptimizerOptions::fit's
  // function_tolerance (Ceres' relative change of the cost). The relation between fidelities
  // (rho, the coregionalization) sits on a flatter likelihood than one GP's lengthscales, and
  // fits stopped at the plain default of 1e-4 lost a good simulator's advantage
  // (docs/benchmarks.md, "Why the defaults are what they are"). > 0, default 1e-6; infinity:
  // fit.function_tolerance alone (headers written before this field).
  double fit_function_tolerance = 1e-6;

  bool active() const { return !levels.empty(); }
  int num_fidelities() const { return static_cast<int>(levels.size()); }
  // The target's index, F - 1 (-1 without fidelities).
  int target() const { return num_fidelities() - 1; }
  // The index of the fidelity `name`, or -1.
  int IndexOf(const std::string& name) const;
  std::vector<double> costs() const;
  // Whether level i is a source (an earlier study), and how many levels are.
  bool IsSource(int i) const;
  int num_sources() const;
  // false with a message naming the field and value: a single level, an empty, repeated or
  // malformed name, a cost that is not finite and > 0 or not above the one before (a source's:
  // not 0), a source after an evaluable level or every level a source, an unknown model or rule,
  // a min_correlation outside [-1, 1], a fit_function_tolerance that is not > 0.
  bool IsValid(std::string* error) const;
};

// "autoregressive" / "icm"; "information" / "threshold".
std::string FidelityModelName(FidelityModel model);
std::string FidelityRuleName(FidelityRule rule);

}  // namespace gpbandit

#endif  // GPBANDIT_STUDY_FIDELITY_OPTIONS_H_
