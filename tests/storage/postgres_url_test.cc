// RedactPostgresUrl, in every build (with or without libpqxx): user information and password
// parameters both masked.
#include <gtest/gtest.h>

#include <string>

#include "gpbandit/storage/postgres_storage.h"

namespace gpbandit {
namespace {

TEST(PostgresUrlTest, UserInformationPasswordIsMasked) {
  EXPECT_EQ(RedactPostgresUrl("postgresql://alice:s3cret@db.example:5432/studies"),
            "postgresql://alice:***@db.example:5432/studies");
}

TEST(PostgresUrlTest, BothPlacesAreMaskedAtOnce) {
  EXPECT_EQ(RedactPostgresUrl("postgresql://alice:one@db/x?password=two&sslmode=require"),
            "postgresql://alice:***@db/x?password=***&sslmode=require");
}

TEST(PostgresUrlTest, UrlsWithoutCredentialsAreUnchanged) {
  for (const std::string url : {"postgresql://db/x", "postgresql://alice@db/x",
                                "postgresql:///x?host=/run/pg", "postgresql://db/x?user=a:b@c"})
    EXPECT_EQ(RedactPostgresUrl(url), url);
}

TEST(PostgresUrlTest, AnAtSignInThePathIsNoUserInformation) {
  // The authority ends at the first '/', so "b:c@d" below is part of the path.
  EXPECT_EQ(RedactPostgresUrl("postgresql://db/b:c@d"), "postgresql://db/b:c@d");
}

TEST(PostgresUrlTest, PasswordHoldingAnAtSignIsMaskedWhole) {
  // The last '@' of the authority ends the user information.
  EXPECT_EQ(RedactPostgresUrl("postgresql://alice:p@ss@db/x"), "postgresql://alice:***@db/x");
}

}  // namespace
}  // namespace gpbandit
