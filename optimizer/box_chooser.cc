// The round chooser of a box (round_chooser.h).
#include <cmath>

#include "gpbandit/maximizer/box_maximizer.h"
#include "optimizer/round_chooser.h"
#include "study/pending_book.h"
#include "study/round_rng.h"

namespace gpbandit {
namespace {

class BoxChooser : public RoundChooser {
 public:
  // A batch holds distinct points, distinct from the active pending points too: a repeat
  // (possible for strategies whose argmax ignores the variance, like mean-only) is replaced by
  // a uniform point of the box.
  Eigen::VectorXd Choose(const ChoiceInputs& in, int slot, Rng& rng, AskCall* call,
                         double* value) const override {
    const ModelRound& m = in.round;
    const std::unique_ptr<ContinuousAcquisition> acquisition = MakeSlotAcquisition(in, rng);
    const BoxMaximizerResult result = MaximizeOverSearchRegions(*acquisition, m, rng);
    const Eigen::VectorXd action = in.domain.ActionFromUnit(result.x);
    *value = result.value;
    if (!RepeatsAHandedOutPoint(in, *call, slot, action)) return action;
    const Eigen::VectorXd s = FallbackUniforms(in, *call, slot);
    Eigen::VectorXd u = m.unit_lower;
    for (int d = 0; d < in.domain.action_dim(); ++d) u(d) = m.unit_upper(d) * s(d);
    *value = acquisition->Evaluate(u, nullptr);
    return in.domain.ActionFromUnit(u);
  }
};

}  // namespace

bool RepeatsAHandedOutPoint(const ChoiceInputs& in, const AskCall& call, int slot,
                            const Eigen::VectorXd& action) {
  bool repeat = in.pending.HasActive(action, call.z, in.now);
  for (int j = 0; j < slot; ++j) repeat = repeat || SameVector(call.chosen.col(j), action);
  return repeat;
}

Eigen::VectorXd FallbackUniforms(const ChoiceInputs& in, const AskCall& call, int slot) {
  Rng fallback = RoundRng(in.options.seed, call.round * 1024 + slot, kStreamFallback);
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  Eigen::VectorXd s(in.domain.action_dim());
  for (int d = 0; d < s.size(); ++d) s(d) = u01(fallback);
  return s;
}

BoxMaximizerResult MaximizeOverSearchRegions(const ContinuousAcquisition& acquisition,
                                             const ModelRound& m, Rng& rng) {
  if (m.region_lower.cols() == 0)
    return MaximizeOverBox(acquisition, m.unit_lower, m.unit_upper, m.observed_starts,
                           m.box_options, rng);
  BoxMaximizerResult best;
  for (Eigen::Index j = 0; j < m.region_lower.cols(); ++j) {
    BoxMaximizerResult result =
        MaximizeOverBox(acquisition, m.region_lower.col(j), m.region_upper.col(j),
                        m.region_starts.col(j), m.box_options, rng);
    const bool better =
        result.value > best.value || (std::isnan(best.value) && !std::isnan(result.value));
    if (j == 0 || better) best = std::move(result);
  }
  return best;
}

std::unique_ptr<RoundChooser> MakeBoxChooser() { return std::make_unique<BoxChooser>(); }

}  // namespace gpbandit
