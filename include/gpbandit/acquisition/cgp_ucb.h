// CGP-UCB (Krause & Ong, NIPS 2011): s_t = argmax_s mu_{t-1}(s, z_t) + sqrt(beta_t)
// sigma_{t-1}(s, z_t), where z_t is the context revealed this round and the GP lives on
// actions x contexts with a composite kernel (product k_S (x) k_Z or sum k_S (+) k_Z, see
// gp/kernel_factory.h). Registered as "cgp-ucb".
//
// The score is GP-UCB's; what makes it contextual is how it is maximized: the optimizer passes
// the full point (actions, context) with lower == upper on the context coordinates, so the
// maximizer (box_maximizer.h) moves only the actions, or scores only the candidates that carry
// z_t. beta_t follows the GP-UCB schedules with d = the number of ACTION coordinates (Krause &
// Ong Theorem 1 uses the gamma of the joint kernel, which ResolveGamma receives as the observed
// information gain). The regret this strategy controls is the contextual regret
// r_t = sup_s f(s, z_t) - f(s_t, z_t), not the regret against the best context. JSON options:
// GP-UCB's (gp_ucb.h).
//
// Thread safety and determinism: as every Strategy (strategy.h).
#ifndef GPBANDIT_ACQUISITION_CGP_UCB_H_
#define GPBANDIT_ACQUISITION_CGP_UCB_H_

#include <memory>
#include <string>

#include "gpbandit/acquisition/gp_ucb.h"

namespace gpbandit {

class CgpUcb : public GpUcb {
 public:
  explicit CgpUcb(const GpUcbOptions& options = GpUcbOptions()) : GpUcb(options) {}
  // The registry's factory (GP-UCB's keys and errors).
  static std::unique_ptr<Strategy> Create(const StrategyParams& params);
  std::string name() const override { return "cgp-ucb"; }
  std::unique_ptr<Strategy> Clone() const override;
};

}  // namespace gpbandit

#endif  // GPBANDIT_ACQUISITION_CGP_UCB_H_
