#include "gpbandit/acquisition/cgp_ucb.h"

namespace gpbandit {

std::unique_ptr<Strategy> CgpUcb::Clone() const { return std::make_unique<CgpUcb>(*this); }

std::unique_ptr<Strategy> CgpUcb::Create(const StrategyParams& params) {
  return std::make_unique<CgpUcb>(ReadOptions(params, "cgp-ucb"));
}

}  // namespace gpbandit
