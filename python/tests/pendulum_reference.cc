// The C++ pendulum (examples/problems/pendulum_plant.h) for the test of its numpy re-write
// (test_examples.py): reads "kp kd payload" lines on stdin and prints the noise-free reward of
// each in C's %a (exact) notation.
#include <cstdio>

#include "examples/problems/pendulum_plant.h"

int main() {
  const gpbandit::problems::PendulumPlant plant;
  double kp, kd, payload;
  while (std::scanf("%lf %lf %lf", &kp, &kd, &payload) == 3)
    std::printf("%a\n", plant.Reward(kp, kd, payload));
  return 0;
}
