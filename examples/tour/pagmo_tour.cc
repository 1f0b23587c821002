// The README's pagmo tour: IGP-UCB as a pagmo algorithm on pagmo's own Rosenbrock problem.
#include <iostream>
#include <pagmo/algorithm.hpp>
#include <pagmo/population.hpp>
#include <pagmo/problems/rosenbrock.hpp>

#include "gpbandit/plugin/pagmo_algorithm.h"

int main() {
  pagmo::problem problem{pagmo::rosenbrock{2}};
  pagmo::population pop{problem, 5, /*seed=*/42};  // 5 evaluated points: the initial data
  pagmo::algorithm algo{gpbandit::BanditAlgorithm{"igp-ucb", /*rounds=*/25, /*batch=*/1,
                                                  /*seed=*/7}};
  algo.set_verbosity(5);
  pop = algo.evolve(pop);
  std::cout << "best f = " << pop.champion_f()[0] << " at (" << pop.champion_x()[0] << ", "
            << pop.champion_x()[1] << "), fevals " << pop.get_problem().get_fevals() << "\n";
  return pop.size() == 30 ? 0 : 1;
}
