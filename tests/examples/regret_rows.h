// The rows of a regret study, collected for the tests of examples/studies/.
#ifndef GPBANDIT_TESTS_EXAMPLES_REGRET_ROWS_H_
#define GPBANDIT_TESTS_EXAMPLES_REGRET_ROWS_H_

#include <sstream>
#include <vector>

#include "examples/studies/regret_study.h"

namespace gpbandit::examples {

// Every row RunRegretStudy reports for `o`, its progress text discarded; its result in `result`
// when given.
inline std::vector<RegretRow> Rows(const RegretStudyOptions& o,
                                   RegretStudyResult* result = nullptr) {
  std::vector<RegretRow> rows;
  std::ostringstream progress;
  const RegretStudyResult r = RunRegretStudy(
      o, [&](const RegretRow& row) { rows.push_back(row); }, progress);
  if (result) *result = r;
  return rows;
}

}  // namespace gpbandit::examples

#endif  // GPBANDIT_TESTS_EXAMPLES_REGRET_ROWS_H_
