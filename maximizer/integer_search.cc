#include "gpbandit/maximizer/integer_search.h"

#include <stdexcept>

namespace gpbandit {

std::string IntegerSearchName(IntegerSearch search) {
  switch (search) {
    case IntegerSearch::kLocalSearch:
      return "local-search";
    case IntegerSearch::kRelaxAndRound:
      return "relax-and-round";
    case IntegerSearch::kRelaxThenSearch:
      return "relax-then-search";
  }
  return "unknown";
}

IntegerSearch ParseIntegerSearch(const std::string& name) {
  for (IntegerSearch search : {IntegerSearch::kLocalSearch, IntegerSearch::kRelaxAndRound,
                               IntegerSearch::kRelaxThenSearch})
    if (IntegerSearchName(search) == name) return search;
  throw std::invalid_argument(
      "integer search = '" + name +
      "': unknown; known: local-search, relax-and-round, relax-then-search");
}

}  // namespace gpbandit
