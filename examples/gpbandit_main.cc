// The `gpbandit` program: dispatches to the subcommands of examples/cli/.
#include <iostream>
#include <string>
#include <vector>

#include "examples/cli/command.h"

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  return gpbandit::cli::Main(args, {std::cout, std::cerr});
}
