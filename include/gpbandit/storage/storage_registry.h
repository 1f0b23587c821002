// The storage registry: where a study lives, chosen by the scheme of its URL.
//
// A storage URL is either "scheme://..." (postgresql://lab-db/tuning) or a plain path
// (runs.jsonl, studies/), which belongs to the scheme "file" (kPathScheme). Each scheme is a
// StorageScheme: how to open one study of a storage, how to list its studies, and how to show
// its URL without credentials. Default() is pre-filled from the explicit table in
// storage_registry.cc, one entry per scheme:
//   file        a plain path: an existing directory, or a path ending in '/', holds one study
//               per file <path>/<study>.jsonl; any other path is a file that is one study
//               (file_storage.h: OpenFileStudy, ListFileStudies).
//   postgresql  a libpq connection URI (postgres_storage.h); postgres:// is the same. In a build
//   postgres    without libpqxx both are registered as unavailable: opening or listing one
//               throws std::invalid_argument naming the scheme and what the build lacks.
// There is no static self-registration (fragile in static libraries). User code adds a scheme
// at run time, and every entry point (OpenStudyStorage, ListStudies, RedactUrl, Optimizer::Open,
// OptimizerOptions::storage) reaches it:
//
//   gpbandit::StorageScheme memory;
//   memory.open = [](const std::string& url, const std::string& study,
//                    const gpbandit::StorageOptions&) {
//     return std::make_unique<MemoryStorage>(url, study);
//   };
//   memory.description = "studies held in this process";
//   gpbandit::StorageRegistry::Default().Register("memory", memory);
//   auto optimizer = gpbandit::Optimizer::Open("memory://lab", "gains");
//
// Thread safety: every member function locks a mutex; a scheme's functions are called outside
// the lock (they may themselves use the registry) and must be safe to call from several
// threads at once.
#ifndef GPBANDIT_STORAGE_STORAGE_REGISTRY_H_
#define GPBANDIT_STORAGE_STORAGE_REGISTRY_H_

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "gpbandit/storage/study_storage.h"

namespace gpbandit {

// The scheme of a plain path (a URL without "scheme://").
inline constexpr char kPathScheme[] = "file";

// The generic redaction of a URL's credentials, its user information (RFC 3986):
// "scheme://user:password@host/..." -> "scheme://user:***@host/..."; anything else is returned
// as given. A scheme whose URLs carry credentials elsewhere too (PostgreSQL's password=
// parameter) builds its own redact function on it.
std::string RedactUserInformation(const std::string& url);
// Every password=VALUE parameter, its name in any letter case, with VALUE replaced by "***": in
// a URL's query (?...&password=...) or among libpq's key=value words ("host=db password=x").
// StorageRegistry::Redact applies it (and RedactUserInformation) to every URL, after the
// scheme's own rule, so that no spelling of a scheme lets a password through.
std::string RedactPasswordParameters(const std::string& url);

// What a scheme does. Every function receives the whole URL, scheme included.
struct StorageScheme {
  using OpenFunction = std::function<std::unique_ptr<StudyStorage>(
      const std::string& url, const std::string& study, const StorageOptions& options)>;
  using ListFunction =
      std::function<std::vector<StudySummary>(const std::string& url, const StorageOptions&)>;
  using RedactFunction = std::function<std::string(const std::string& url)>;

  // Opens study `study` of the storage at `url`, without creating it (OpenStudyStorage's
  // contract, study_storage.h). Required unless `unavailable` is set.
  OpenFunction open;
  // The studies of the storage at `url`, by name. Empty: the scheme cannot list, and ListStudies
  // throws std::invalid_argument saying so.
  ListFunction list;
  // `url` with its credentials replaced by "***", for messages. Empty: the user information of
  // the URL's authority (user:password@) is redacted (RFC 3986's generic syntax).
  RedactFunction redact;
  // One line for listings: what a URL of this scheme names.
  std::string description;
  // Non-empty for a scheme that this build of gpbandit knows but cannot open (PostgreSQL
  // without libpqxx): why, and what to install. Opening or listing then throws
  // std::invalid_argument naming the scheme and this text.
  std::string unavailable;
};

class StorageRegistry {
 public:
  // An empty registry (Default() is the pre-filled one).
  StorageRegistry() = default;
  StorageRegistry(const StorageRegistry&) = delete;
  StorageRegistry& operator=(const StorageRegistry&) = delete;

  // The process-wide registry, with the built-in schemes; OpenStudyStorage, ListStudies and
  // RedactUrl (study_storage.h) go through it.
  static StorageRegistry& Default();

  // The scheme of `url`: the name before "://" when it is a scheme name (a letter, then
  // letters, digits, '+', '-' or '.'), else kPathScheme. Whether it is registered is not checked.
  static std::string SchemeOf(const std::string& url);

  // Adds a scheme. Throws std::invalid_argument for a name that is not a lower-case scheme name
  // ([a-z][a-z0-9+.-]*), a scheme without `open` that is not `unavailable`, or a name already
  // registered (the registry is then unchanged).
  void Register(const std::string& scheme, StorageScheme entry);

  // The scheme's `open` on `url` (see OpenStudyStorage). Throws std::invalid_argument for
  // invalid options, an empty url, a scheme that is not registered (the message names it and
  // lists the registered ones) or unavailable, and std::runtime_error when `open` returns
  // nullptr; and passes on what `open` throws.
  std::unique_ptr<StudyStorage> Open(const std::string& url, const std::string& study,
                                     const StorageOptions& options = StorageOptions()) const;
  // The scheme's `list` on `url`. Throws as Open, and std::invalid_argument for a scheme
  // without `list`.
  std::vector<StudySummary> List(const std::string& url,
                                 const StorageOptions& options = StorageOptions()) const;
  // `url` without credentials: the scheme's `redact` (or, for a scheme without one or not
  // registered, the user information's password), then every password=... parameter
  // (RedactPasswordParameters). A plain path comes back as given unless it holds such a
  // parameter. Never throws but for bad_alloc.
  std::string Redact(const std::string& url) const;

  // Registered scheme names, sorted.
  std::vector<std::string> Names() const;
  bool Contains(const std::string& scheme) const;
  // The entry of a registered scheme; throws std::invalid_argument for an unknown one.
  StorageScheme Scheme(const std::string& scheme) const;

 private:
  // A copy of the entry of url's scheme; throws std::invalid_argument naming the scheme (and
  // the redacted url) when it is not registered or is unavailable.
  StorageScheme Find(const std::string& url) const;

  mutable std::mutex mutex_;
  std::map<std::string, StorageScheme> entries_;
};

}  // namespace gpbandit

#endif  // GPBANDIT_STORAGE_STORAGE_REGISTRY_H_
