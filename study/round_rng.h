// The generators of an Optimizer's rounds: the random numbers of ask round r come from a
// generator seeded by (seed, r, stream), so that a run replayed from its log draws exactly the
// numbers of the uninterrupted one, and independent jobs of one round (a refit that may or may
// not happen, the choice, the design) never shift each other's numbers. Internal to study/.
#ifndef GPBANDIT_STUDY_ROUND_RNG_H_
#define GPBANDIT_STUDY_ROUND_RNG_H_

#include <cstdint>

#include "gpbandit/numerics/random.h"
#include "numerics/seed_sequence.h"

namespace gpbandit {

// The streams of one round.
enum RoundStream : int {
  kStreamChoose = 0,    // the strategy's choice (maximizer starts, GP-TS samples)
  kStreamFit = 1,       // the reward model's refit
  kStreamDesign = 2,    // the initial design (round 0)
  kStreamFallback = 3,  // a uniform point replacing a repeated one
  kStreamBest = 4,      // Best(context)'s maximizer
  // Constraint model i refits with stream kStreamConstraintFit + i, apart from the others so
  // that adding constraints never changes the numbers the reward's fit and the choice draw.
  kStreamConstraintFit = 16,
};

inline Rng RoundRng(std::uint64_t seed, long round, int stream) {
  const std::uint64_t r = static_cast<std::uint64_t>(round);
  // std::seed_seq's words and algorithm (numerics/seed_sequence.h), without its divisions.
  SeedSequence seq{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32),
                   static_cast<std::uint32_t>(r), static_cast<std::uint32_t>(r >> 32),
                   static_cast<std::uint32_t>(stream)};
  return Rng(seq);
}

}  // namespace gpbandit

#endif  // GPBANDIT_STUDY_ROUND_RNG_H_
