// Options the pagmo adapter's tests share.
#ifndef GPBANDIT_TESTS_PAGMO_PAGMO_TEST_OPTIONS_H_
#define GPBANDIT_TESTS_PAGMO_PAGMO_TEST_OPTIONS_H_

#include "gpbandit/study/optimizer_options.h"
#include "tests/optimizer/plugin_test_util.h"

namespace gpbandit::testing {

// CheapOptions refitting every 4 tells: a pagmo run is a few dozen evaluations.
inline OptimizerOptions PagmoCheapOptions() {
  OptimizerOptions o = CheapOptions();
  o.refit.every = 4;
  return o;
}

}  // namespace gpbandit::testing

#endif  // GPBANDIT_TESTS_PAGMO_PAGMO_TEST_OPTIONS_H_
