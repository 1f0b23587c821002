// Credentials in PostgreSQL connection URIs (postgres_storage.h), in every build: a build
// without libpqxx still keeps passwords out of its messages.
#include <algorithm>

#include "gpbandit/storage/postgres_storage.h"
#include "gpbandit/storage/storage_registry.h"

namespace gpbandit {

std::string RedactPostgresUrl(const std::string& url) {
  std::string out = RedactUserInformation(url);  // user:password@ in the authority
  // password=... among the query parameters.
  for (std::size_t pos = out.find('?'); pos != std::string::npos; pos = out.find('&', pos + 1)) {
    if (out.compare(pos + 1, 9, "password=") != 0) continue;
    const std::size_t value = pos + 10;
    const std::size_t end = std::min(out.find('&', value), out.size());
    out.replace(value, end - value, "***");
  }
  return out;
}

}  // namespace gpbandit
