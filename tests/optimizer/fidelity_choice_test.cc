// The probes before the fidelity rule (optimizer/fidelity_choice.h): sources are never probed.
#include "optimizer/fidelity_choice.h"

#include <gtest/gtest.h>

namespace gpbandit {
namespace {

TEST(FidelityChoice, UnprobedFidelityTakesTheCheapestLowerLevelBelowItsProbes) {
  EXPECT_EQ(internal::UnprobedFidelity({3, 1, 5}, 3), 1);
  EXPECT_EQ(internal::UnprobedFidelity({0, 0, 5}, 3), 0);
  EXPECT_EQ(internal::UnprobedFidelity({3, 3, 0}, 3), -1);  // the target is never "unprobed"
}

TEST(FidelityChoice, UnprobedFidelitySkipsSources) {
  FidelityOptions f;
  f.levels = {{"old", 0.0, true}, {"sim", 1.0}, {"robot", 10.0}};
  EXPECT_EQ(internal::UnprobedFidelity({0, 0, 0}, 3, f), 1);
  EXPECT_EQ(internal::UnprobedFidelity({0, 4, 0}, 3, f), -1);
  f.levels = {{"old", 0.0, true}, {"robot", 10.0}};
  EXPECT_EQ(internal::UnprobedFidelity({1, 0}, 3, f), -1);
}

}  // namespace
}  // namespace gpbandit
