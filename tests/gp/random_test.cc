// Seeding from several keys (gp/random.h): reproducible, and unrelated for different keys.
#include "gpbandit/gp/random.h"

#include <gtest/gtest.h>

#include <set>

namespace gpbandit {
namespace {

TEST(SeededRngTest, SameKeysSameStream) {
  Rng a = SeededRng({1, 2, 3}), b = SeededRng({1, 2, 3});
  for (int i = 0; i < 100; ++i) ASSERT_EQ(a(), b());
  EXPECT_EQ(DerivedSeed({7, 8}), DerivedSeed({7, 8}));
}

TEST(SeededRngTest, SwappedOrShiftedKeysGiveUnrelatedStreams) {
  // The pairs that seed + trial schemes confuse: (1, 2) vs (2, 1), (1, 1) vs (2, 0), and keys
  // that differ only in their high 32 bits.
  const std::uint64_t high = std::uint64_t{1} << 32;
  std::set<Rng::result_type> first_draws;
  std::set<std::uint64_t> seeds;
  for (const auto& keys : {std::pair<std::uint64_t, std::uint64_t>{1, 2},
                           {2, 1},
                           {1, 1},
                           {2, 0},
                           {high, 0},
                           {0, high},
                           {0, 0}}) {
    first_draws.insert(SeededRng({keys.first, keys.second})());
    seeds.insert(DerivedSeed({keys.first, keys.second}));
  }
  EXPECT_EQ(first_draws.size(), 7u);
  EXPECT_EQ(seeds.size(), 7u);
  // The number of keys matters: (1) is not (1, 0).
  EXPECT_NE(SeededRng({1})(), SeededRng({1, 0})());
}

}  // namespace
}  // namespace gpbandit
