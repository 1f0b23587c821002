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

// Where a password value that starts at `value` ends: a libpq word may be single-quoted, with
// backslash escapes ('a b', 'it\'s'); otherwise the value ends at a separator of a URL query or
// of libpq's key=value words.
std::size_t PasswordValueEnd(const std::string& text, std::size_t value) {
  if (value < text.size() && text[value] == '\'') {
    std::size_t i = value + 1;
    while (i < text.size() && text[i] != '\'') i += text[i] == '\\' ? 2 : 1;
    return std::min(i + 1, text.size());
  }
  return std::min(text.find_first_of("&#; \t", value), text.size());
}

std::size_t SkipBlanks(const std::string& text, std::size_t i) {
  while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
  return i;
}

}  // namespace

std::string RedactPasswordParameters(const std::string& url) {
  const std::string key = "password";
  std::string out = url;
  for (std::size_t pos = Lower(out).find(key); pos != std::string::npos;
       pos = Lower(out).find(key, pos + 1)) {
    // A parameter starts the text, a query (?, &, ;) or a libpq word (after a space).
    const char before = pos == 0 ? ' ' : out[pos - 1];
    if (before != '?' && before != '&' && before != ';' &&
        !std::isspace(static_cast<unsigned char>(before)))
      continue;
    // libpq allows blanks around the '=' of a key=value word.
    const std::size_t equals = SkipBlanks(out, pos + key.size());
    if (equals >= out.size() || out[equals] != '=') continue;
    const std::size_t value = SkipBlanks(out, equals + 1);
    out.replace(value, PasswordValueEnd(out, value) - value, "***");
  }
  return out;
}

}  // namespace gpbandit
