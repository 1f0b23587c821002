// The round chooser of a parameter space with integers or categoricals (round_chooser.h): the
// strategy's acquisition climbed by the mixed maximizer (acquisition/mixed_maximizer.h), so
// that every point handed out is legal.
#include "gpbandit/space/space_transform.h"
#include "optimizer/round_chooser.h"

namespace gpbandit {
namespace {

class MixedChooser : public RoundChooser {
 public:
  // As the box chooser: a repeat of the batch's earlier points or of an active pending point
  // (possible when the argmax ignores the variance, or when the space has few points) is
  // replaced by a uniform legal point.
  Eigen::VectorXd Choose(const ChoiceInputs& in, int slot, Rng& rng, AskCall* call,
                         double* value) const override {
    const ModelRound& m = in.round;
    const std::unique_ptr<ContinuousAcquisition> acquisition =
        in.strategy.MakeContinuous(in.posterior.gp(), rng);
    const Eigen::VectorXd best =
        MaximizeOverInputs(*acquisition, m.unit_lower, m.unit_upper, m.discrete, m.observed_starts,
                           m.box_options, in.options.maximizer_integer_search, rng, value);
    const Eigen::VectorXd action = in.domain.ActionFromUnit(best);
    if (!RepeatsAHandedOutPoint(in, *call, slot, action)) return action;
    const Eigen::VectorXd uniform =
        in.domain.action_transform()->FromUniform(FallbackUniforms(in, *call, slot));
    Eigen::VectorXd u = m.unit_lower;
    u.head(in.domain.action_dim()) = in.domain.action_transform()->ToModel(uniform);
    *value = acquisition->Evaluate(u, nullptr);
    return uniform;
  }
};

}  // namespace

Eigen::VectorXd MaximizeOverInputs(const ContinuousAcquisition& acquisition,
                                   const Eigen::VectorXd& lower, const Eigen::VectorXd& upper,
                                   const std::vector<DiscreteCoordinate>& discrete,
                                   const Eigen::MatrixXd& starts, const BoxMaximizerOptions& box,
                                   IntegerSearch integer_search, Rng& rng, double* value) {
  if (discrete.empty()) {
    const BoxMaximizerResult result = MaximizeOverBox(acquisition, lower, upper, starts, box, rng);
    *value = result.value;
    return result.x;
  }
  MixedMaximizerOptions options;
  options.box = box;
  options.integer_search = integer_search;
  const MixedMaximizerResult result =
      MaximizeOverMixed(acquisition, lower, upper, discrete, starts, options, rng);
  *value = result.value;
  return result.x;
}

std::unique_ptr<RoundChooser> MakeMixedChooser() { return std::make_unique<MixedChooser>(); }

}  // namespace gpbandit
