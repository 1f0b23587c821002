// An ask previewed (Optimizer::PreviewAskBatch): the same steps as an ask under the lock
// (ask_round.cc, AskUnderLock) on the replica as the study's records leave it, without the lock
// and without recording: the design takes its points as the ask would (StartCall changes
// nothing), a refit the ask would make is made on the models and undone afterwards
// (Refitter::PreviewRefit, RestoreFit), and the strategy's round state and the figure, which the
// choice sets, are set again by the next real ask (the figure is put back here). Nothing the
// replica keeps between calls changes, so Fingerprint() and the study are as they were.
#include <chrono>

#include "optimizer/ask_round.h"

namespace gpbandit {
namespace internal {

Eigen::MatrixXd AskRound::Preview(int q, const Eigen::VectorXd& z, RoundReport* report) {
  CheckAsk(q, z);
  const auto start = std::chrono::steady_clock::now();
  journal_.ReadAhead();  // others' records and the study's clock, as an ask outside the lock
  r_.model->CatchUp();
  AskCall call = StartCall(q, z);
  bool refitted = false;
  HyperparameterFitReport fit_report;
  const double figure = r_.figure;
  if (call.num_model > 0) {
    Refitter& refit = r_.model->refit();
    refitted = !refit.PreviewRefit(call.round, journal_.now()).empty();
    if (refitted) fit_report = refit.last_fit_report();
    try {
      AskPosterior posterior = MakeAskPosterior(call);
      ChooseByModel(&call, &posterior);
    } catch (...) {
      if (refitted) refit.RestoreFit();
      r_.figure = figure;
      throw;
    }
    if (refitted) refit.RestoreFit();
    r_.figure = figure;
  }
  if (report != nullptr)
    *report = RoundSummary(
        call, refitted ? &fit_report : nullptr,
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  return call.chosen;
}

}  // namespace internal
}  // namespace gpbandit
