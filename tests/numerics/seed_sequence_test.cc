// numerics/seed_sequence.h: the words std::seed_seq would generate from the same input, for
// every output length the generators ask for and around the standard's lag thresholds, and the
// states of generators seeded from both.
#include "numerics/seed_sequence.h"

#include <gtest/gtest.h>

#include <random>
#include <stdexcept>
#include <vector>

#include "gpbandit/numerics/random.h"

namespace gpbandit {
namespace {

// Input word lists of every length 0-8, with high bits set and repeated values.
std::vector<std::vector<std::uint32_t>> InputLists() {
  std::vector<std::vector<std::uint32_t>> lists;
  for (std::size_t s = 0; s <= SeedSequence::kMaxWords; ++s) {
    std::vector<std::uint32_t> words;
    for (std::size_t i = 0; i < s; ++i) words.push_back(0x9e3779b9u * (i + 1) ^ (i % 3));
    lists.push_back(words);
  }
  lists.push_back({0u, 0u, 0u, 0u, 0u});
  lists.push_back({0xffffffffu, 1u});
  return lists;
}

SeedSequence FromWords(const std::vector<std::uint32_t>& w) {
  // The initializer-list constructor, one call per length.
  switch (w.size()) {
    case 0:
      return SeedSequence({});
    case 1:
      return SeedSequence({w[0]});
    case 2:
      return SeedSequence({w[0], w[1]});
    case 3:
      return SeedSequence({w[0], w[1], w[2]});
    case 4:
      return SeedSequence({w[0], w[1], w[2], w[3]});
    case 5:
      return SeedSequence({w[0], w[1], w[2], w[3], w[4]});
    case 6:
      return SeedSequence({w[0], w[1], w[2], w[3], w[4], w[5]});
    case 7:
      return SeedSequence({w[0], w[1], w[2], w[3], w[4], w[5], w[6]});
    default:
      return SeedSequence({w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]});
  }
}

TEST(SeedSequenceTest, GeneratesTheWordsOfStdSeedSeq) {
  // 1-13 (t = (n - 1) / 2 and 3), both sides of 39, 68 and 623, and the 624 of mt19937_64.
  const std::vector<std::size_t> lengths = {1,  2,  3,  4,  5,  6,   7,   8,   9,   12,  13,  38,
                                            39, 40, 67, 68, 69, 311, 312, 622, 623, 624, 625, 1000};
  for (const auto& words : InputLists()) {
    const SeedSequence ours = FromWords(words);
    ASSERT_EQ(ours.size(), words.size());
    std::seed_seq standard(words.begin(), words.end());
    for (const std::size_t n : lengths) {
      std::vector<std::uint32_t> expected(n), actual(n, 7u);
      standard.generate(expected.begin(), expected.end());
      ours.generate(actual.data(), actual.data() + n);
      ASSERT_EQ(actual, expected) << words.size() << " words, n = " << n;
    }
  }
}

TEST(SeedSequenceTest, AnEmptyRangeIsLeftAlone) {
  std::uint32_t word = 5u;
  SeedSequence({1u, 2u}).generate(&word, &word);
  EXPECT_EQ(word, 5u);
}

TEST(SeedSequenceTest, SeedsTheGeneratorStdSeedSeqSeeds) {
  const std::uint64_t high = std::uint64_t{3} << 40;
  SeedSequence ours = SeedSequence::FromKeys({high + 17, 0, 4});
  std::seed_seq standard{17u, 768u, 0u, 0u, 4u, 0u};
  Rng a(ours), b(standard);
  EXPECT_EQ(a, b);  // the whole state
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(a(), b());
}

TEST(SeedSequenceTest, RefusesMoreWordsThanItKeeps) {
  EXPECT_THROW(SeedSequence({1u, 2u, 3u, 4u, 5u, 6u, 7u, 8u, 9u}), std::invalid_argument);
  EXPECT_THROW(SeedSequence::FromKeys({1, 2, 3, 4, 5}), std::invalid_argument);
}

}  // namespace
}  // namespace gpbandit
