// The round chooser of a parameter space with integers or categoricals (round_chooser.h): the
// strategy's acquisition climbed by the mixed maximizer (acquisition/mixed_maximizer.h), so
// that every point handed out is legal; before it, under OptimizerOptions::label_probes, the
// label probes (LabelProbe below).
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "gpbandit/space/space_transform.h"
#include "optimizer/round_chooser.h"

namespace gpbandit {
namespace {

// Model coordinates are compared on this grid when points are grouped: an interior real that
// went through FromModel(ToModel(x)) comes back within a few ulps, not bit for bit.
constexpr double kProbeGrid = 1e-9;

// The points' action coordinates (model units, input_dim x n: only the first action_dim rows
// are read) grouped by every coordinate but `dim`: per group, the labels seen at `dim`.
std::map<std::vector<long long>, std::set<long long>> GroupsWithout(const Eigen::MatrixXd& points,
                                                                    int action_dim, int dim) {
  std::map<std::vector<long long>, std::set<long long>> groups;
  for (Eigen::Index j = 0; j < points.cols(); ++j) {
    std::vector<long long> key;
    for (int i = 0; i < action_dim; ++i)
      if (i != dim) key.push_back(std::llround(points(i, j) / kProbeGrid));
    groups[key].insert(std::llround(points(dim, j)));
  }
  return groups;
}

// Whether some column of `points` has the same action coordinates as u (within the grid).
bool HoldsAction(const Eigen::MatrixXd& points, int action_dim, const Eigen::VectorXd& u) {
  for (Eigen::Index j = 0; j < points.cols(); ++j)
    if ((points.col(j).head(action_dim) - u.head(action_dim)).cwiseAbs().maxCoeff() <= kProbeGrid)
      return true;
  return false;
}

// A label probe: the incumbent's model input (the best observed start) with one categorical
// moved to another label, while some label of some categorical has never been compared with
// another at otherwise equal actions (no two of the model's points, told or in progress,
// differ in that categorical only, one of them at that label). Each such probe measures a
// label's effect where the others are best known, which the GP cannot infer from a few
// scattered design points; a categorical of L labels takes at most L - 1 probes, after which
// every label is paired and the acquisition alone chooses. Categoricals in the space's order,
// labels in index order; the incumbent's own label is paired by any probe from it. None when
// there is no incumbent, no categorical, or every label is paired.
std::optional<Eigen::VectorXd> LabelProbe(const ChoiceInputs& in) {
  const ModelRound& m = in.round;
  if (m.observed_starts.cols() == 0) return std::nullopt;
  const Eigen::VectorXd& incumbent = m.observed_starts.col(0);
  const Eigen::MatrixXd points = in.posterior.gp().inputs();
  const int action_dim = in.domain.action_dim();
  for (const DiscreteCoordinate& c : m.discrete) {
    if (c.ordered || c.dim >= action_dim) continue;
    std::set<long long> paired;
    for (const auto& group : GroupsWithout(points, action_dim, c.dim))
      if (group.second.size() > 1) paired.insert(group.second.begin(), group.second.end());
    if (static_cast<long long>(paired.size()) == c.num_levels) continue;
    const long long own = std::llround(incumbent(c.dim));
    // First an unpaired label; when only the incumbent's own is, any label not tried there.
    for (const bool unpaired_only : {true, false}) {
      for (long long l = 0; l < c.num_levels; ++l) {
        if (l == own || (unpaired_only && paired.count(l) > 0)) continue;
        Eigen::VectorXd probe = incumbent;
        probe(c.dim) = c.value_of_level(l);
        if (!HoldsAction(points, action_dim, probe)) return probe;
      }
    }
  }
  return std::nullopt;
}

class MixedChooser : public RoundChooser {
 public:
  // As the box chooser: a repeat of the batch's earlier points or of an active pending point
  // (possible when the argmax ignores the variance, or when the space has few points) is
  // replaced by a uniform legal point.
  Eigen::VectorXd Choose(const ChoiceInputs& in, int slot, Rng& rng, AskCall* call,
                         double* value) const override {
    const ModelRound& m = in.round;
    const std::unique_ptr<ContinuousAcquisition> acquisition = MakeSlotAcquisition(in, rng);
    if (in.options.label_probes) {
      if (const std::optional<Eigen::VectorXd> probe = LabelProbe(in)) {
        *value = acquisition->Evaluate(*probe, nullptr);
        return in.domain.ActionFromUnit(*probe);
      }
    }
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
