// The round chooser of a finite set (round_chooser.h).
#include "gpbandit/maximizer/candidate_posterior.h"
#include "gpbandit/maximizer/finite_argmax.h"
#include "optimizer/round_chooser.h"

namespace gpbandit {
namespace {

class FiniteSetChooser : public RoundChooser {
 public:
  Eigen::VectorXd Choose(const ChoiceInputs& in, int /*slot*/, Rng& rng, AskCall* call,
                         double* value) const override {
    const Eigen::VectorXd scores = Scores(in, rng);
    Eigen::Array<bool, Eigen::Dynamic, 1> allowed =
        Eigen::Array<bool, Eigen::Dynamic, 1>::Constant(in.domain.num_candidates(), true);
    for (int c : call->chosen_candidate) allowed(c) = false;
    int best;
    try {
      best = FiniteArgmaxMasked(scores, allowed, in.options.num_threads);
    } catch (const std::invalid_argument&) {
      // Every allowed score was NaN: take the first allowed candidate rather than fail.
      best = 0;
      while (!allowed(best)) ++best;
    }
    call->chosen_candidate.push_back(best);
    *value = scores(best);
    return in.domain.candidates().col(best);
  }

 private:
  // The strategy's scores, or under several outcomes its acquisition at every candidate.
  static Eigen::VectorXd Scores(const ChoiceInputs& in, Rng& rng) {
    if (in.options.outcomes.active())
      return MakeSlotAcquisition(in, rng)->EvaluateMany(in.round.unit_candidates);
    return in.strategy.ScoreCandidates(*CandidatesPosterior(in), rng);
  }

  // The rank-one belief when there is one, else the GP at every candidate.
  static std::unique_ptr<CandidatePosterior> CandidatesPosterior(const ChoiceInputs& in) {
    if (const FiniteSetBelief* belief = in.posterior.finite())
      return std::make_unique<FiniteSetCandidatePosterior>(belief->posterior(), belief->reference(),
                                                           belief->output_offset(),
                                                           belief->output_scale());
    return std::make_unique<GpCandidatePosterior>(in.posterior.gp(), in.round.unit_candidates);
  }
};

}  // namespace

std::unique_ptr<RoundChooser> MakeFiniteSetChooser() {
  return std::make_unique<FiniteSetChooser>();
}

}  // namespace gpbandit
