// std::seed_seq's algorithm ([rand.util.seedseq] of the C++ standard) over at most 8 words kept
// in place, without libstdc++'s divisions: every index of the algorithm is "mod n", which
// libstdc++ computes with an integer division, three per step and 2n steps for the 624 words an
// mt19937_64 asks for. A generator seeded from it holds exactly the state std::seed_seq gives
// (tests/numerics/seed_sequence_test.cc compares them), so every stream gpbandit draws, and
// every log replayed, is unchanged. Internal to the library.
// Thread safety: a value type; distinct objects may be used concurrently.
#ifndef GPBANDIT_NUMERICS_SEED_SEQUENCE_H_
#define GPBANDIT_NUMERICS_SEED_SEQUENCE_H_

#include <cstddef>
#include <cstdint>
#include <initializer_list>

namespace gpbandit {

class SeedSequence {
 public:
  using result_type = std::uint32_t;
  static constexpr std::size_t kMaxWords = 8;

  // The words std::seed_seq{words...} would hold. Throws std::invalid_argument for more than
  // kMaxWords words.
  SeedSequence(std::initializer_list<std::uint32_t> words);
  // Each 64-bit key as two words, low half first.
  static SeedSequence FromKeys(std::initializer_list<std::uint64_t> keys);

  // Fills [begin, end) as std::seed_seq::generate does with the same words.
  void generate(std::uint32_t* begin, std::uint32_t* end) const;
  std::size_t size() const { return size_; }

 private:
  SeedSequence() = default;
  std::uint32_t words_[kMaxWords] = {};
  std::size_t size_ = 0;
};

}  // namespace gpbandit

#endif  // GPBANDIT_NUMERICS_SEED_SEQUENCE_H_
