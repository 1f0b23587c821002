// A user of gpbandit's pagmo adapter through the installed headers and libraries: GP-UCB as a
// pagmo algorithm improves on the initial population of a 2-d sphere. Exits 0 when it does.
#include <gpbandit/pagmo/pagmo_algorithm.h>

#include <cstdio>
#include <pagmo/algorithm.hpp>
#include <pagmo/population.hpp>
#include <pagmo/problem.hpp>
#include <pagmo/types.hpp>
#include <utility>

namespace {

struct Sphere {
  pagmo::vector_double fitness(const pagmo::vector_double& x) const {
    return {(x[0] - 0.3) * (x[0] - 0.3) + (x[1] + 0.2) * (x[1] + 0.2)};
  }
  std::pair<pagmo::vector_double, pagmo::vector_double> get_bounds() const {
    return {{-1.0, -1.0}, {1.0, 1.0}};
  }
};

}  // namespace

int main() {
  pagmo::population pop{pagmo::problem{Sphere{}}, 4, /*seed=*/5};
  const double initial = pop.champion_f()[0];
  pagmo::algorithm algo{gpbandit::BanditAlgorithm{"gp-ucb", /*rounds=*/12, /*batch=*/1,
                                                  /*seed=*/9}};
  pop = algo.evolve(pop);
  std::printf("downstream pagmo: best f %.6f (initial population %.6f), %zu points\n",
              pop.champion_f()[0], initial, static_cast<std::size_t>(pop.size()));
  return pop.size() == 16 && pop.champion_f()[0] < initial ? 0 : 1;
}
