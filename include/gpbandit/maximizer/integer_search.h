// How the mixed maximizer (mixed_maximizer.h) treats integer coordinates. Kept apart from
// mixed_maximizer.h so that option structs can name it.
//
// Pure functions, thread-safe.
#ifndef GPBANDIT_MAXIMIZER_INTEGER_SEARCH_H_
#define GPBANDIT_MAXIMIZER_INTEGER_SEARCH_H_

#include <string>

namespace gpbandit {

enum class IntegerSearch {
  // Integers searched over their levels only, every evaluation at a legal point
  // (Garrido-Merchan & Hernandez-Lobato 2020).
  kLocalSearch,
  // Integers relaxed to continuous coordinates for L-BFGS, then rounded to the nearest level.
  kRelaxAndRound,
  // Both (the default): each climb relaxes the integers and rounds them, then the local search
  // goes over the integers' levels too (docs/benchmarks.md, "Mixed spaces").
  kRelaxThenSearch,
};

// "local-search", "relax-and-round", "relax-then-search" (and the reverse; throws
// std::invalid_argument on an unknown name).
std::string IntegerSearchName(IntegerSearch search);
IntegerSearch ParseIntegerSearch(const std::string& name);

}  // namespace gpbandit

#endif  // GPBANDIT_MAXIMIZER_INTEGER_SEARCH_H_
