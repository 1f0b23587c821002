#include "gpbandit/acquisition/cgp_ucb.h"

namespace gpbandit {

std::unique_ptr<Strategy> CgpUcb::Clone() const { return std::make_unique<CgpUcb>(*this); }

}  // namespace gpbandit
