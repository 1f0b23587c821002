// How an Optimizer chooses the model-driven points of an ask: one chooser per kind of domain
// (a box: the strategy's acquisition climbed by the multi-start L-BFGS maximizer; a finite set:
// the argmax of the strategy's scores; a parameter space with integers or categoricals: the
// mixed maximizer; a safe strategy: Strategy::ChooseSafe), all reading one
// round's shared inputs (ModelRound) and the ask's posterior (AskPosterior). Internal to
// optimizer/.
#ifndef GPBANDIT_OPTIMIZER_ROUND_CHOOSER_H_
#define GPBANDIT_OPTIMIZER_ROUND_CHOOSER_H_

#include <Eigen/Core>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gpbandit/acquisition/strategy.h"
#include "gpbandit/gp/gaussian_process.h"
#include "gpbandit/maximizer/box_maximizer.h"
#include "gpbandit/maximizer/mixed_maximizer.h"
#include "gpbandit/space/domain.h"
#include "gpbandit/study/optimizer_options.h"
#include "model/finite_set_belief.h"

namespace gpbandit {

class ModelKeeper;
class PendingBook;
namespace internal {
struct StudyReplica;
}  // namespace internal

// One Ask/AskBatch call: q slots, each a design point or a model-driven choice, filled in order.
struct AskCall {
  long round = 0;
  Eigen::VectorXd z, unit_z;
  Eigen::MatrixXd chosen;          // action_dim x q, original units
  std::vector<long> design_index;  // per slot: the design point handed out, or -1 (model)
  // Per slot in a study with fidelities: the fidelity to evaluate it at (the target for design
  // points); empty without fidelities.
  std::vector<int> fidelity;
  std::vector<int> chosen_candidate;  // finite sets: the candidates this batch holds
  long design_next = 0;               // the design points handed out after this call
  int num_model = 0;                  // slots left to the model
  // For the round's report: per slot the acquisition value (NaN for design points), and the t
  // and figure of the first model-driven slot.
  std::vector<double> acquisition_values;
  int first_t = 0;
  double first_figure = std::numeric_limits<double>::quiet_NaN();
  // For the round's report: the seeds dropped since they were measured unsafe (index, finding).
  std::vector<std::pair<int, std::string>> dropped_seeds;
};

// What every model-driven slot of a call shares.
struct ModelRound {
  RoundState state;
  Eigen::VectorXd unit_lower, unit_upper;  // the action box, context (and round) held fixed
  Eigen::MatrixXd unit_candidates;         // finite sets: every candidate under the context
  Eigen::MatrixXd observed_starts;         // boxes: the maximizer's starts at the best points
  // Boxes under the local model (RewardModel::SearchRegions): one column per trust region,
  // each searched from its anchor; no column = the whole box from observed_starts.
  Eigen::MatrixXd region_lower, region_upper, region_starts;
  BoxMaximizerOptions box_options;
  std::vector<DiscreteCoordinate> discrete;  // parameter spaces: integers and categoricals
  // Safe strategies with declared safety signals: per safe seed, whether it still vouches
  // (optimizer/seed_audit.h); empty = every seed.
  std::vector<bool> usable_seeds;
};

// The posterior one ask chooses from: the model itself, or a scratch copy of it with the active
// pending points and the call's design points hallucinated at their own posterior means
// (GP-BUCB: the variance shrinks where work is under way, the mean does not move). On a finite
// set kept by rank-one updates the model is the candidates' belief (FiniteSetBelief), and there
// is no GP.
class AskPosterior {
 public:
  // Uses `model` (or `belief`) itself until the first Hallucinate; it must outlive this.
  explicit AskPosterior(const GaussianProcess& model);
  explicit AskPosterior(const FiniteSetBelief& belief);
  // The GP; throws std::logic_error on a rank-one belief.
  const GaussianProcess& gp() const;
  // The rank-one belief over the candidates, or nullptr (then predict through gp()).
  const FiniteSetBelief* finite() const { return belief_copy_ ? belief_copy_.get() : belief_; }
  // The points hallucinated so far.
  int num_hallucinated() const { return num_hallucinated_; }
  // Observes model input u at its posterior mean; `candidate` is its index among the finite
  // set's candidates when there is a rank-one belief (ignored otherwise).
  void Hallucinate(const Eigen::VectorXd& u, int candidate);
  // Makes the copies now, so that the posterior no longer reads the model (which may change).
  void Detach();

 private:
  const GaussianProcess* model_ = nullptr;
  const FiniteSetBelief* belief_ = nullptr;
  int num_hallucinated_ = 0;
  std::unique_ptr<GaussianProcess> copy_;
  std::unique_ptr<FiniteSetBelief> belief_copy_;
};

// What a chooser reads.
struct ChoiceInputs {
  const Domain& domain;
  const Strategy& strategy;
  const OptimizerOptions& options;
  const ModelKeeper& model;  // the told observations only (safe decisions)
  const AskPosterior& posterior;
  const ModelRound& round;
  const PendingBook& pending;
  double now;  // the call's clock (pending leases)
  // The study (observations, options) for the choosers of several outcomes.
  const internal::StudyReplica* replica;
};

// The acquisition of a model-driven slot: the strategy's MakeContinuous on the ask's posterior,
// or, when the study declares several outcomes, the strategy acting on every outcome's model
// (acquisition/outcome_acquisition.h; optimizer/outcome_choice.cc).
std::unique_ptr<ContinuousAcquisition> MakeSlotAcquisition(const ChoiceInputs& in, Rng& rng);

class RoundChooser {
 public:
  virtual ~RoundChooser() = default;
  // The action (original units) of model-driven slot `slot`; *value is its acquisition value
  // (NaN when the chooser has none). Records a chosen candidate in call->chosen_candidate.
  virtual Eigen::VectorXd Choose(const ChoiceInputs& in, int slot, Rng& rng, AskCall* call,
                                 double* value) const = 0;
};

// The maximizer of `acquisition` over the whole action box from m.observed_starts, or, under
// the local model (m.region_lower has columns), in each trust region from its anchor: the best
// of them (the first of equal values).
BoxMaximizerResult MaximizeOverSearchRegions(const ContinuousAcquisition& acquisition,
                                             const ModelRound& m, Rng& rng);

// The maximizer of the strategy's acquisition over the action box; a repeat of the batch's
// earlier points or of an active pending point is replaced by a uniform point of the box.
std::unique_ptr<RoundChooser> MakeBoxChooser();
// The argmax of the strategy's scores over the candidates this batch does not hold yet.
std::unique_ptr<RoundChooser> MakeFiniteSetChooser();
// Whether `action` (under the call's context) repeats an active pending point or one of the
// batch's earlier slots (before `slot`): the box and mixed choosers replace such a repeat.
bool RepeatsAHandedOutPoint(const ChoiceInputs& in, const AskCall& call, int slot,
                            const Eigen::VectorXd& action);
// action_dim uniform draws in [0, 1) for a replacement, from the call's fallback stream
// (round_rng.h) of slot `slot`.
Eigen::VectorXd FallbackUniforms(const ChoiceInputs& in, const AskCall& call, int slot);
// The maximizer of the strategy's acquisition over a parameter space's legal points (the mixed
// maximizer); a repeat is replaced by a uniform legal point.
std::unique_ptr<RoundChooser> MakeMixedChooser();
// The argmax (a model input) of `acquisition` over [lower, upper] from `starts`, and its value:
// the mixed maximizer over the discrete coordinates, or the box maximizer when there are none.
Eigen::VectorXd MaximizeOverInputs(const ContinuousAcquisition& acquisition,
                                   const Eigen::VectorXd& lower, const Eigen::VectorXd& upper,
                                   const std::vector<DiscreteCoordinate>& discrete,
                                   const Eigen::MatrixXd& starts, const BoxMaximizerOptions& box,
                                   IntegerSearch integer_search, Rng& rng, double* value);
// A safe strategy's choice (Strategy::ChooseSafe). seeds: the strategy's safe seeds (original
// units), unit_seeds their unit-cube actions.
std::unique_ptr<RoundChooser> MakeSafeChooser(const Eigen::MatrixXd& seeds,
                                              const Eigen::MatrixXd& unit_seeds);

}  // namespace gpbandit

#endif  // GPBANDIT_OPTIMIZER_ROUND_CHOOSER_H_
