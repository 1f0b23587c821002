#include "study/round_rng.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <set>
#include <vector>

namespace gpbandit {
namespace {

std::vector<std::uint64_t> Draws(Rng rng, int n = 4) {
  std::vector<std::uint64_t> out;
  for (int i = 0; i < n; ++i) out.push_back(rng());
  return out;
}

// The generator the header documents: mt19937_64 through std::seed_seq over the seed's and the
// round's 32-bit halves, low half first, and the stream. seed_seq's algorithm is fixed by the
// standard, so these are the numbers a log written by any earlier build replays with.
Rng Documented(std::uint64_t seed, long round, int stream) {
  const auto r = static_cast<std::uint64_t>(round);
  std::seed_seq seq{static_cast<std::uint32_t>(seed & 0xffffffffu),
                    static_cast<std::uint32_t>(seed >> 32),
                    static_cast<std::uint32_t>(r & 0xffffffffu),
                    static_cast<std::uint32_t>(r >> 32), static_cast<std::uint32_t>(stream)};
  return std::mt19937_64(seq);
}

TEST(RoundRng, IsTheDocumentedSeedSequence) {
  for (std::uint64_t seed :
       {std::uint64_t{0}, std::uint64_t{42}, std::uint64_t{0x123456789abcdefULL}})
    for (long round : {0L, 1L, 99L, (1L << 40) + 3})
      for (int stream : {int{kStreamChoose}, int{kStreamFit}, kStreamConstraintFit + 2})
        EXPECT_EQ(Draws(RoundRng(seed, round, stream)), Draws(Documented(seed, round, stream)))
            << seed << " " << round << " " << stream;
}

TEST(RoundRng, TheSameKeysGiveTheSameNumbers) {
  EXPECT_EQ(Draws(RoundRng(7, 3, kStreamDesign), 100), Draws(RoundRng(7, 3, kStreamDesign), 100));
}

TEST(RoundRng, EveryKeyChangesTheNumbers) {
  const std::vector<std::uint64_t> base = Draws(RoundRng(7, 3, kStreamChoose));
  EXPECT_NE(Draws(RoundRng(8, 3, kStreamChoose)), base);
  EXPECT_NE(Draws(RoundRng(7, 4, kStreamChoose)), base);
  EXPECT_NE(Draws(RoundRng(7, 3, kStreamFit)), base);
  // Both halves of the 64-bit seed and round count.
  EXPECT_NE(Draws(RoundRng(7 + (std::uint64_t{1} << 32), 3, kStreamChoose)), base);
  EXPECT_NE(Draws(RoundRng(7, 3 + (1L << 32), kStreamChoose)), base);
}

TEST(RoundRng, SwappedKeysGiveUnrelatedNumbers) {
  // Unlike Rng(seed + round), (seed 1, round 2) and (seed 2, round 1) share nothing.
  EXPECT_NE(Draws(RoundRng(1, 2, kStreamChoose)), Draws(RoundRng(2, 1, kStreamChoose)));
  EXPECT_NE(Draws(RoundRng(0, 1, kStreamChoose)), Draws(RoundRng(0, 0, kStreamFit)));
}

TEST(RoundStream, StreamsAreDistinctAndConstraintFitsNeverMeetTheOthers) {
  const std::set<int> fixed = {kStreamChoose, kStreamFit, kStreamDesign, kStreamFallback,
                               kStreamBest};
  EXPECT_EQ(fixed.size(), 5u);
  // The logged studies replay with these numbers: they must not move.
  EXPECT_EQ(kStreamChoose, 0);
  EXPECT_EQ(kStreamFit, 1);
  EXPECT_EQ(kStreamDesign, 2);
  EXPECT_EQ(kStreamFallback, 3);
  EXPECT_EQ(kStreamBest, 4);
  EXPECT_EQ(kStreamConstraintFit, 16);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(fixed.count(kStreamConstraintFit + i), 0u) << i;
}

}  // namespace
}  // namespace gpbandit
