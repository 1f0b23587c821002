// Domains the tests share.
#ifndef GPBANDIT_TESTS_TEST_DOMAINS_H_
#define GPBANDIT_TESTS_TEST_DOMAINS_H_

#include <Eigen/Core>

#include "gpbandit/space/domain.h"

namespace gpbandit::testing {

// [0, 1]^2.
inline Domain UnitSquare() { return Domain::Box(Eigen::Vector2d(0, 0), Eigen::Vector2d(1, 1)); }

}  // namespace gpbandit::testing

#endif  // GPBANDIT_TESTS_TEST_DOMAINS_H_
