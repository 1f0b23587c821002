// RedactUrl (study_storage.h): passwords out of anything shown of a storage's path or URL.
#include <algorithm>
#include <cctype>
#include <string>

#include "gpbandit/storage/study_storage.h"

namespace gpbandit {
namespace {

// RFC 3986: scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ), compared case-insensitively.
bool IsScheme(const std::string& text) {
  if (text.empty() || !std::isalpha(static_cast<unsigned char>(text[0]))) return false;
  return std::all_of(text.begin(), text.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '-' || c == '.';
  });
}

std::string Lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

// scheme://user:PASSWORD@host...: the password of the authority's userinfo.
void RedactUserinfo(std::string* url) {
  const std::size_t separator = url->find("://");
  if (separator == std::string::npos || !IsScheme(url->substr(0, separator))) return;
  const std::size_t authority = separator + 3;
  const std::size_t authority_end = std::min(url->find_first_of("/?#", authority), url->size());
  const std::size_t at = url->rfind('@', authority_end);
  if (at == std::string::npos || at < authority) return;
  const std::size_t colon = url->find(':', authority);
  if (colon < at) url->replace(colon + 1, at - colon - 1, "***");
}

// password=VALUE as a query parameter (?...&password=...) or a libpq key=value word, in any
// letter case.
void RedactPasswordParameters(std::string* url) {
  const std::string key = "password=";
  for (std::size_t pos = Lower(*url).find(key); pos != std::string::npos;
       pos = Lower(*url).find(key, pos + 1)) {
    const char before = pos == 0 ? ' ' : (*url)[pos - 1];
    if (before != '?' && before != '&' && before != ';' &&
        !std::isspace(static_cast<unsigned char>(before)))
      continue;
    const std::size_t value = pos + key.size();
    const std::size_t end = std::min(url->find_first_of("&#; \t", value), url->size());
    url->replace(value, end - value, "***");
  }
}

}  // namespace

std::string RedactUrl(const std::string& url) {
  std::string out = url;
  RedactUserinfo(&out);
  RedactPasswordParameters(&out);
  return out;
}

}  // namespace gpbandit
