// RedactPasswordParameters (storage_registry.h): password=... parameters out of anything shown
// of a storage's path or URL.
#include <algorithm>
#include <cctype>
#include <string>

#include "gpbandit/storage/storage_registry.h"

namespace gpbandit {
namespace {

std::string Lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

}  // namespace

std::string RedactPasswordParameters(const std::string& url) {
  const std::string key = "password=";
  std::string out = url;
  for (std::size_t pos = Lower(out).find(key); pos != std::string::npos;
       pos = Lower(out).find(key, pos + 1)) {
    // A parameter starts the text, a query (?, &, ;) or a libpq word (after a space).
    const char before = pos == 0 ? ' ' : out[pos - 1];
    if (before != '?' && before != '&' && before != ';' &&
        !std::isspace(static_cast<unsigned char>(before)))
      continue;
    const std::size_t value = pos + key.size();
    const std::size_t end = std::min(out.find_first_of("&#; \t", value), out.size());
    out.replace(value, end - value, "***");
  }
  return out;
}

}  // namespace gpbandit
