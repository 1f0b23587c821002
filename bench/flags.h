// Command lines of the bench programs, read with Boost.Program_options: every flag is typed, so a
// value that is not entirely a number ("5x") is refused rather than read as its prefix.
#ifndef GPBANDIT_BENCH_FLAGS_H_
#define GPBANDIT_BENCH_FLAGS_H_

#include <boost/program_options.hpp>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpbandit {
namespace bench {

namespace po = boost::program_options;

// Parses argv against `flags` (plus --help, which prints them and exits with status 0). A flag
// that is unknown, repeated, missing its value or of the wrong type throws std::invalid_argument
// naming the flag.
inline po::variables_map ParseFlags(int argc, char** argv, po::options_description flags) {
  flags.add_options()("help", "print the flags and exit");
  po::variables_map values;
  try {
    po::store(po::parse_command_line(argc, argv, flags), values);
    po::notify(values);
  } catch (const po::error& e) {
    throw std::invalid_argument(e.what());
  }
  if (values.count("help") > 0) {
    std::ostringstream text;
    text << flags;
    std::printf("usage: %s [flags]\n%s", argv[0], text.str().c_str());
    std::exit(0);
  }
  return values;
}

// "a,b,c" -> {a, b, c}; empty items are skipped.
inline std::vector<std::string> SplitList(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ','))
    if (!item.empty()) out.push_back(item);
  return out;
}

// "1,4,16" -> {1, 4, 16}; every item must be a whole integer >= 1 (flag names the list).
inline std::vector<int> ParsePositiveInts(const std::string& text, const std::string& flag) {
  std::vector<int> out;
  for (const std::string& item : SplitList(text)) {
    std::size_t used = 0;
    int value = 0;
    try {
      value = std::stoi(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != item.size() || value < 1)
      throw std::invalid_argument("--" + flag + ": '" + item + "' is not an integer >= 1");
    out.push_back(value);
  }
  if (out.empty()) throw std::invalid_argument("--" + flag + ": no value in '" + text + "'");
  return out;
}

// Throws unless value >= 1, naming the flag.
inline void RequireAtLeastOne(long value, const std::string& flag) {
  if (value < 1)
    throw std::invalid_argument("--" + flag + " must be >= 1, got " + std::to_string(value));
}

}  // namespace bench
}  // namespace gpbandit

#endif  // GPBANDIT_BENCH_FLAGS_H_
