// The round chooser of a safe strategy (round_chooser.h; acquisition/safe_opt.h).
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "model/model_keeper.h"
#include "model/signal_model.h"
#include "optimizer/round_chooser.h"

namespace gpbandit {
namespace {

class SafeChooser : public RoundChooser {
 public:
  SafeChooser(const Eigen::MatrixXd& seeds, const Eigen::MatrixXd& unit_seeds)
      : seeds_(seeds), unit_seeds_(unit_seeds) {}

  // The safety decisions on the models of the told observations, the widths on the ask's
  // posterior with the pending points hallucinated.
  Eigen::VectorXd Choose(const ChoiceInputs& in, int /*slot*/, Rng& rng, AskCall* call,
                         double* /*value*/) const override {
    const Eigen::VectorXd u = in.strategy.ChooseSafe(MakeSafeRound(in, *call), rng);
    // A seed is handed out exactly as the strategy declared it (no unit-cube round trip).
    const int action_dim = in.domain.action_dim();
    for (Eigen::Index s = 0; s < unit_seeds_.cols(); ++s)
      if (u.head(action_dim) == unit_seeds_.col(s)) return seeds_.col(s);
    if (in.domain.kind() != DomainKind::kFiniteSet) return in.domain.ActionFromUnit(u);
    // A finite set: the candidate itself, exactly as the domain holds it.
    for (int c = 0; c < in.domain.num_candidates(); ++c) {
      if (in.round.unit_candidates.col(c) != u) continue;
      call->chosen_candidate.push_back(c);
      return in.domain.candidates().col(c);
    }
    throw std::logic_error("strategy '" + in.strategy.name() +
                           "' chose a point that is no candidate");
  }

 private:
  SafeRound MakeSafeRound(const ChoiceInputs& in, const AskCall& call) const {
    SafeRound round;
    round.reward = &in.model.gp();
    round.reward_for_widths = &in.posterior.gp();
    round.reward_unit = in.model.reward_unit();
    round.reward_sign = in.model.chain().sense().sign();
    for (int i = 0; i < in.model.constraints().num_constraints(); ++i)
      round.constraints.push_back(&in.model.constraints().constraint(i));
    // With fidelities every model is read at the target: the round's box, candidates and seeds
    // hold the target in the fidelity coordinate (ModelInputs::SearchBox).
    for (const SignalModel& model : in.model.constraints().safety_models())
      round.safety.push_back(
          {&model.decision_gp(), model.threshold(), model.prior_stddev(), model.max_observed()});
    if (!round.safety.empty()) round.reward_prior_stddev = RewardPriorStddev(in);
    round.candidates = in.round.unit_candidates;
    round.lower = in.round.unit_lower;
    round.upper = in.round.unit_upper;
    round.action_dim = in.domain.action_dim();
    round.seeds = UsableSeeds(in, call);
    return round;
  }

  // The reward's prior standard deviation at the centre of the cube, at the target with
  // fidelities.
  static double RewardPriorStddev(const ChoiceInputs& in) {
    const GaussianProcess& gp = in.model.gp();
    if (in.options.fidelities.active()) {
      Eigen::MatrixXd centre = Eigen::MatrixXd::Constant(gp.input_dim(), 1, 0.5);
      centre(in.domain.input_dim(), 0) = in.options.fidelities.target();
      return gp.output_scale() * std::sqrt(std::max(gp.kernel().Diagonal(centre)(0), 0.0));
    }
    return PriorStddev(gp);
  }

  // The seeds still vouched for (all when the round holds no audit), under the call's context,
  // at the target with fidelities.
  Eigen::MatrixXd UsableSeeds(const ChoiceInputs& in, const AskCall& call) const {
    const std::vector<bool>& usable = in.round.usable_seeds;
    const bool fidelities = in.options.fidelities.active();
    Eigen::MatrixXd seeds(in.domain.input_dim() + (fidelities ? 1 : 0), unit_seeds_.cols());
    if (fidelities) seeds.row(in.domain.input_dim()).setConstant(in.options.fidelities.target());
    Eigen::Index n = 0;
    for (Eigen::Index s = 0; s < unit_seeds_.cols(); ++s) {
      if (!usable.empty() && !usable[static_cast<std::size_t>(s)]) continue;
      seeds.col(n).head(in.domain.action_dim()) = unit_seeds_.col(s);
      if (in.domain.context_dim() > 0)
        seeds.col(n).segment(in.domain.action_dim(), in.domain.context_dim()) = call.unit_z;
      ++n;
    }
    return seeds.leftCols(n);
  }

  Eigen::MatrixXd seeds_, unit_seeds_;
};

}  // namespace

std::unique_ptr<RoundChooser> MakeSafeChooser(const Eigen::MatrixXd& seeds,
                                              const Eigen::MatrixXd& unit_seeds) {
  return std::make_unique<SafeChooser>(seeds, unit_seeds);
}

}  // namespace gpbandit
