// How the mixed maximizer (mixed_maximizer.h) treats integer coordinates. Kept apart from
// mixed_maximizer.h so that option structs can name it.
//
// Pure functions, thread-safe.
#ifndef GPBANDIT_ACQUISITION_INTEGER_SEARCH_H_
#define GPBANDIT_ACQUISITION_INTEGER_SEARCH_H_

#include <string>

namespace gpbandit {

enum class IntegerSearch {
  // Integers searched over their levels, every evaluation at a legal point (the default;
  // Garrido-Merchan & Hernandez-Lobato 2020).
  kLocalSearch,
  // Integers relaxed to continuous coordinates for L-BFGS, then rounded to the nearest level.
  kRelaxAndRound,
};

// "local-search", "relax-and-round" (and the reverse; throws std::invalid_argument on an
// unknown name).
std::string IntegerSearchName(IntegerSearch search);
IntegerSearch ParseIntegerSearch(const std::string& name);

}  // namespace gpbandit

#endif  // GPBANDIT_ACQUISITION_INTEGER_SEARCH_H_
