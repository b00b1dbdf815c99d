// CQL's reserved keywords (cassandra/reserved_words.h): the one list both the parser (which
// refuses a reserved word as an unquoted name) and QuoteName (which quotes one when it writes a
// name back out) read, so the two agree word for word.
#include "cassandra/reserved_words.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "partplay/cassandra/parser.h"
#include "partplay/cassandra/schema.h"

namespace partplay::cql {
namespace {

// Whether the parser takes `name` as an unquoted column name.
bool ParsesAsName(std::string_view name) {
  return ParseStatement("CREATE TABLE t (" + std::string(name) + " int PRIMARY KEY)").ok();
}

TEST(ReservedWordsTest, TheListIsCassandrasFiftySixReservedKeywords) {
  EXPECT_EQ(kReservedKeywords.size(), 56u);
  // Words the old parser kept outside its array, and ones from either end of the list.
  for (std::string_view w : {"add", "unlogged", "view", "where", "with", "columnfamily"}) {
    EXPECT_TRUE(IsReservedKeyword(w)) << w;
  }
  for (std::string_view w : {"key", "ttl", "type", "static", "json", "", "zzz", "aaa"}) {
    EXPECT_FALSE(IsReservedKeyword(w)) << w;
  }
}

TEST(ReservedWordsTest, TheParserRefusesEveryReservedWordAsANameAndQuoteNameQuotesIt) {
  for (std::string_view w : kReservedKeywords) {
    EXPECT_FALSE(ParsesAsName(w)) << w;
    EXPECT_TRUE(ParsesAsName("\"" + std::string(w) + "\"")) << w;
    EXPECT_EQ(QuoteName(w), "\"" + std::string(w) + "\"") << w;
  }
}

TEST(ReservedWordsTest, NonReservedKeywordsAreNamesTheParserTakesAndQuoteNameLeavesBare) {
  for (std::string_view w : {"key", "ttl", "type", "static", "json", "writetime", "filtering"}) {
    EXPECT_TRUE(ParsesAsName(w)) << w;
    EXPECT_EQ(QuoteName(w), std::string(w)) << w;
  }
}

}  // namespace
}  // namespace partplay::cql
