// A round's acquisition under several outcomes (OptimizerOptions::outcomes): several objectives,
// outcome constraints, or both, each outcome with its own GP over the same inputs. The strategy
// keeps its formula; this unit says how it acts on several posteriors.
//
// Rules, by the strategy's kind (OutcomeRuleOf):
// - before any observed point is feasible with high probability (front has no column), every
//   strategy maximizes log PoF(x) = sum_j log Phi(-m_j(x) / s_j(x)) (feasibility.h): the round
//   searches for feasibility (Gelbart, Snoek & Adams 2014);
// - improvement strategies ("ei", "log-ei", "pi", "ehvi"), one objective: constrained log EI
//   (Gardner et al. 2014) = log EI(m_0, s_0; best feasible mean) + log PoF; "pi" takes
//   log Phi((m_0 - best) / s_0) + log PoF;
// - improvement strategies, 2-3 objectives: log EHVI over the front of posterior means
//   (ehvi.h; Emmerich et al. 2006, Ament et al. 2023's log form) + log PoF;
// - index strategies (GP-UCB, IGP-UCB, CGP-UCB, mean, variance, a user's IndexStrategy) and,
//   with 4 or more objectives, the improvement strategies too: the strategy's acquisition a_i on
//   each objective's GP, scalarized s(a) = Chebyshev min_i w_i ahat_i or linear sum_i w_i ahat_i
//   (ahat_i = (a_i - lower_i) / (upper_i - lower_i), the observed range; Paria, Kandasamy &
//   Poczos 2019; one objective is normalized too), plus log PoF: the region plausibly feasible
//   keeps its index, and a point loses log 2 of the observed range on the constraint's boundary
//   and more outside it (docs/outcomes.md says why not the optimistic region alone);
// - other strategies (GP-TS, a user's): their acquisition on each outcome's GP (for GP-TS one
//   posterior draw per outcome), scalarized as above over the objectives; with constraints SCBO's
//   rule on the drawn constraints (Eriksson & Poloczek 2021): the scalarized draw where every
//   drawn c_j <= 0, else a value below every feasible one that falls with the drawn total
//   violation.
// Units: every objective in its model's units and maximized; every constraint c with c <= 0
// feasible (model/outcome_map.h). Thread safety: the returned acquisition is const and safe to
// evaluate concurrently; it keeps pointers to the round's GPs, which must outlive it.
#ifndef GPBANDIT_ACQUISITION_OUTCOME_ACQUISITION_H_
#define GPBANDIT_ACQUISITION_OUTCOME_ACQUISITION_H_

#include <Eigen/Core>
#include <memory>
#include <vector>

#include "gpbandit/acquisition/scalarization.h"
#include "gpbandit/acquisition/strategy.h"
#include "gpbandit/gp/gaussian_process.h"

namespace gpbandit {

enum class OutcomeRule { kImprovement, kProbabilityOfImprovement, kIndex, kDraws };

// kImprovement for "ei", "log-ei" and "ehvi"; kProbabilityOfImprovement for "pi"; kIndex for any
// other IndexStrategy; kDraws otherwise.
OutcomeRule OutcomeRuleOf(const Strategy& strategy);

struct OutcomeRound {
  // k >= 1 objectives' GPs (maximized) and m >= 0 constraints' GPs (c <= 0 feasible), over the
  // same model inputs.
  std::vector<const GaussianProcess*> objectives, constraints;
  // k x n: the objectives' posterior means at the observed points feasible with high
  // probability (dominated ones allowed); no column while none is.
  Eigen::MatrixXd front;
  // k: the hypervolume's reference point, objectives' model units; below every front point.
  Eigen::VectorXd reference;
  // The objectives' observed ranges, for the scalarizations.
  ObjectiveNormalization normalization;
  // k weights of this round's scalarization (e.g. SampleScalarizationWeights).
  Eigen::VectorXd weights;
  Scalarization scalarization = Scalarization::kChebyshev;
};

// The acquisition of this round (see the rules above). The strategy's BeginRound has been called.
// Throws std::invalid_argument for sizes that do not match (naming them).
std::unique_ptr<ContinuousAcquisition> MakeOutcomeAcquisition(const Strategy& strategy,
                                                              const OutcomeRound& round, Rng& rng);

}  // namespace gpbandit

#endif  // GPBANDIT_ACQUISITION_OUTCOME_ACQUISITION_H_
