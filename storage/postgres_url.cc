// Credentials in PostgreSQL connection URIs (postgres_storage.h), in every build: a build
// without libpqxx still keeps passwords out of its messages.

#include "gpbandit/storage/postgres_storage.h"
#include "gpbandit/storage/storage_registry.h"

namespace gpbandit {

std::string RedactPostgresUrl(const std::string& url) {
  // user:password@ in the authority, and password=... among the query parameters (in any
  // letter case: libpq's keywords are lower case, but a message must not depend on it).
  return RedactPasswordParameters(RedactUserInformation(url));
}

}  // namespace gpbandit
