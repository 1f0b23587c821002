// RedactPasswordParameters: the password=VALUE parameters of URLs and libpq words.
#include <gtest/gtest.h>

#include <string>

#include "gpbandit/storage/storage_registry.h"

namespace gpbandit {
namespace {

TEST(UrlRedactionTest, QueryPasswordIsReplaced) {
  EXPECT_EQ(RedactPasswordParameters("postgresql://db/x?user=u&password=s3cret&sslmode=require"),
            "postgresql://db/x?user=u&password=***&sslmode=require");
  EXPECT_EQ(RedactPasswordParameters("postgresql://db/x?password=s3cret"),
            "postgresql://db/x?password=***");
  EXPECT_EQ(RedactPasswordParameters("postgresql://db/x?password=s3cret#part"),
            "postgresql://db/x?password=***#part");
  EXPECT_EQ(RedactPasswordParameters("scheme://h/?a=1;password=p;b=2"),
            "scheme://h/?a=1;password=***;b=2");
}

TEST(UrlRedactionTest, AnyLetterCaseAndEveryOccurrence) {
  EXPECT_EQ(RedactPasswordParameters("x://h?PassWord=A&password=B"),
            "x://h?PassWord=***&password=***");
}

TEST(UrlRedactionTest, LibpqWordsAreRedacted) {
  EXPECT_EQ(RedactPasswordParameters("host=db password=s3cret dbname=x"),
            "host=db password=*** dbname=x");
  EXPECT_EQ(RedactPasswordParameters("password=s3cret"), "password=***");
  EXPECT_EQ(RedactPasswordParameters("host=db\tpassword=s3cret"), "host=db\tpassword=***");
}

TEST(UrlRedactionTest, OtherKeysEndingInPasswordAndTextWithoutOneAreKept) {
  EXPECT_EQ(RedactPasswordParameters("x://h?oldpassword=keep&a=1"), "x://h?oldpassword=keep&a=1");
  EXPECT_EQ(RedactPasswordParameters("/tmp/studies/password.jsonl"), "/tmp/studies/password.jsonl");
  EXPECT_EQ(RedactPasswordParameters(""), "");
  // A key after a non-parameter must still be found after a skipped one.
  EXPECT_EQ(RedactPasswordParameters("x://h?mypassword=a&password=b"),
            "x://h?mypassword=a&password=***");
}

TEST(UrlRedactionTest, EmptyValueIsMaskedToo) {
  // Whether a value was given is not shown either.
  EXPECT_EQ(RedactPasswordParameters("x://h?password=&a=1"), "x://h?password=***&a=1");
}

// libpq's key=value words may quote a value (with backslash escapes) and put blanks around '=':
// no part of such a password may show.
TEST(UrlRedactionTest, QuotedLibpqPasswordsAndBlanksAroundTheEqualsSign) {
  EXPECT_EQ(RedactPasswordParameters("host=db password='a b' dbname=s"),
            "host=db password=*** dbname=s");
  EXPECT_EQ(RedactPasswordParameters("host=db password='it\\'s here' user=u"),
            "host=db password=*** user=u");
  EXPECT_EQ(RedactPasswordParameters("host=db password = secret dbname=s"),
            "host=db password = *** dbname=s");
  EXPECT_EQ(RedactPasswordParameters("password\t=\t'x y'"), "password\t=\t***");
  EXPECT_EQ(RedactPasswordParameters("host=db password='unterminated"), "host=db password=***");
}

}  // namespace
}  // namespace gpbandit
