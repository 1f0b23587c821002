#include "gpbandit/storage/storage_registry.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>
#include <utility>

#include "gpbandit/storage/file_storage.h"
#include "gpbandit/storage/postgres_storage.h"
#include "storage/study_name.h"

namespace gpbandit {
namespace {

// RFC 3986: scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ); lower_case_only for the names
// the registry accepts (URLs are matched as written).
bool IsSchemeName(const std::string& name, bool lower_case_only) {
  if (name.empty() || !std::isalpha(static_cast<unsigned char>(name[0]))) return false;
  return std::all_of(name.begin(), name.end(), [&](char c) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (lower_case_only && std::isupper(u)) return false;
    return std::isalnum(u) || c == '+' || c == '-' || c == '.';
  });
}

std::string JoinNames(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

StorageScheme PostgresScheme() {
  StorageScheme scheme;
  scheme.open = OpenPostgresStudy;
  scheme.list = ListPostgresStudies;
  scheme.redact = RedactPostgresUrl;
  scheme.description =
      "a PostgreSQL database (a libpq connection URI), for workers on many machines";
  if (!HavePostgresStorage())
    scheme.unavailable =
        "this build of gpbandit has no PostgreSQL support (libpqxx was not found when it was "
        "built: install libpqxx-dev and rebuild)";
  return scheme;
}

}  // namespace

std::string RedactUserInformation(const std::string& url) {
  std::string out = url;
  const std::size_t scheme_end = out.find("://");
  if (scheme_end == std::string::npos) return out;
  const std::size_t authority = scheme_end + 3;
  const std::size_t authority_end = std::min(out.find_first_of("/?#", authority), out.size());
  const std::size_t at = out.rfind('@', authority_end);
  if (at != std::string::npos && at >= authority) {
    const std::size_t colon = out.find(':', authority);
    if (colon < at) out.replace(colon + 1, at - colon - 1, "***");
  }
  return out;
}

StorageRegistry& StorageRegistry::Default() {
  // The built-in schemes, one entry each. Never destroyed: workers may still use it while
  // static objects are torn down.
  static StorageRegistry* const registry = [] {
    auto* r = new StorageRegistry;
    StorageScheme path;
    path.open = OpenFileStudy;
    path.list = ListFileStudies;
    path.description =
        "a path: a JSON-Lines file that is one study, or a directory of them (<dir>/<study>.jsonl)";
    r->Register(kPathScheme, path);
    r->Register("postgresql", PostgresScheme());
    r->Register("postgres", PostgresScheme());
    return r;
  }();
  return *registry;
}

std::string StorageRegistry::SchemeOf(const std::string& url) {
  const std::size_t separator = url.find("://");
  if (separator == std::string::npos) return kPathScheme;
  const std::string scheme = url.substr(0, separator);
  return IsSchemeName(scheme, false) ? scheme : kPathScheme;
}

void StorageRegistry::Register(const std::string& scheme, StorageScheme entry) {
  if (!IsSchemeName(scheme, true))
    throw std::invalid_argument("StorageRegistry::Register: '" + scheme +
                                "' is not a scheme name (a lower-case letter, then lower-case "
                                "letters, digits, '+', '-' or '.')");
  if (!entry.open && entry.unavailable.empty())
    throw std::invalid_argument("StorageRegistry::Register: scheme '" + scheme +
                                "' has no open function");
  std::lock_guard<std::mutex> lock(mutex_);
  if (entries_.count(scheme) > 0)
    throw std::invalid_argument("StorageRegistry::Register: scheme '" + scheme +
                                "' is already registered");
  entries_.emplace(scheme, std::move(entry));
}

StorageScheme StorageRegistry::Find(const std::string& url) const {
  const std::string scheme = SchemeOf(url);
  StorageScheme entry;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto it = entries_.find(scheme);
    if (it != entries_.end()) entry = it->second;
  }
  if (!entry.open && entry.unavailable.empty())
    throw std::invalid_argument("storage '" + Redact(url) + "': unknown scheme '" + scheme +
                                "://'; registered: " + JoinNames(Names()));
  if (!entry.unavailable.empty())
    throw std::invalid_argument("storage '" + Redact(url) + "': the scheme '" + scheme +
                                "://' is not available: " + entry.unavailable);
  return entry;
}

std::unique_ptr<StudyStorage> StorageRegistry::Open(const std::string& url,
                                                    const std::string& study,
                                                    const StorageOptions& options) const {
  std::string error;
  if (!options.IsValid(&error)) throw std::invalid_argument("StorageOptions: " + error);
  if (url.empty()) throw std::invalid_argument("storage: empty path or URL");
  CheckStudyName(study);  // every scheme, before anything is opened or connected
  std::unique_ptr<StudyStorage> storage = Find(url).open(url, study, options);
  if (!storage)
    throw std::runtime_error("storage '" + Redact(url) + "': the scheme '" + SchemeOf(url) +
                             "://' opened nothing");
  return storage;
}

std::vector<StudySummary> StorageRegistry::List(const std::string& url,
                                                const StorageOptions& options) const {
  std::string error;
  if (!options.IsValid(&error)) throw std::invalid_argument("StorageOptions: " + error);
  if (url.empty()) throw std::invalid_argument("storage: empty path or URL");
  const StorageScheme entry = Find(url);
  if (!entry.list)
    throw std::invalid_argument("storage '" + Redact(url) + "': the scheme '" + SchemeOf(url) +
                                "://' cannot list its studies");
  return entry.list(url, options);
}

std::string StorageRegistry::Redact(const std::string& url) const {
  const std::string scheme = SchemeOf(url);
  StorageScheme::RedactFunction redact;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto it = entries_.find(scheme);
    if (it != entries_.end()) redact = it->second.redact;
  }
  // The generic rules after the scheme's own: an unregistered spelling of a scheme
  // (POSTGRESQL://) or a scheme's incomplete rule lets no password through.
  const std::string out = redact ? redact(url) : url;
  if (url.find("://") == std::string::npos || scheme == kPathScheme)
    return RedactPasswordParameters(out);
  return RedactPasswordParameters(RedactUserInformation(out));
}

std::vector<std::string> StorageRegistry::Names() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::string> names;
  for (const auto& entry : entries_) names.push_back(entry.first);
  return names;
}

bool StorageRegistry::Contains(const std::string& scheme) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return entries_.count(scheme) > 0;
}

StorageScheme StorageRegistry::Scheme(const std::string& scheme) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = entries_.find(scheme);
  if (it == entries_.end())
    throw std::invalid_argument("StorageRegistry: unknown scheme '" + scheme + "'");
  return it->second;
}

}  // namespace gpbandit
