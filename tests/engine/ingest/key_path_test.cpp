// KeyPath: JSON pointers (RFC 6901) naming partition key properties.
#include "partplay/ingest/key_path.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace partplay {
namespace {

using Segments = std::vector<std::string>;

Segments ParseOk(std::string_view text) {
  StatusOr<KeyPath> path = KeyPath::Parse(text);
  EXPECT_TRUE(path.ok()) << text << ": " << path.status().ToString();
  if (!path.ok()) return {"<error>"};
  EXPECT_EQ(path->text(), text);  // kept as written, escaped
  return path->segments();
}

// Expects kBadKeyPath at the 1-based `column` of `text`.
void ExpectBad(std::string_view text, int64_t column) {
  SCOPED_TRACE(std::string(text));
  StatusOr<KeyPath> path = KeyPath::Parse(text);
  ASSERT_FALSE(path.ok());
  EXPECT_EQ(path.status().code(), ErrorCode::kBadKeyPath);
  EXPECT_EQ(path.status().where().line, 1);
  EXPECT_EQ(path.status().where().column, column);
  EXPECT_NE(path.status().message().find("\"" + std::string(text) + "\""), std::string::npos)
      << "the message names the path: " << path.status().message();
}

TEST(KeyPathTest, SimplePaths) {
  EXPECT_EQ(ParseOk("/userId"), Segments({"userId"}));
  EXPECT_EQ(ParseOk("/address/city"), Segments({"address", "city"}));
  EXPECT_EQ(ParseOk("/a/b/c/d"), Segments({"a", "b", "c", "d"}));
}

TEST(KeyPathTest, NonAsciiAndOddCharactersAreKeptAsIs) {
  EXPECT_EQ(ParseOk("/städte/東京"), Segments({"städte", "東京"}));
  EXPECT_EQ(ParseOk("/a b/\"q\"/%7E"), Segments({"a b", "\"q\"", "%7E"}));
}

TEST(KeyPathTest, Escapes) {
  EXPECT_EQ(ParseOk("/a~1b"), Segments({"a/b"}));
  EXPECT_EQ(ParseOk("/a~0b"), Segments({"a~b"}));
  EXPECT_EQ(ParseOk("/~0~1"), Segments({"~/"}));
  EXPECT_EQ(ParseOk("/~1/~0"), Segments({"/", "~"}));
  EXPECT_EQ(ParseOk("/promo~1code"), Segments({"promo/code"}));
}

TEST(KeyPathTest, EscapesAreDecodedOnceLeftToRight) {
  // "~01" is "~0" then "1": the property "a~1", not "a/".
  EXPECT_EQ(ParseOk("/a~01"), Segments({"a~1"}));
  EXPECT_EQ(ParseOk("/a~10"), Segments({"a/0"}));
  EXPECT_EQ(ParseOk("/~00"), Segments({"~0"}));
}

TEST(KeyPathTest, EmptySegments) {
  EXPECT_EQ(ParseOk("/"), Segments({""}));
  EXPECT_EQ(ParseOk("//"), Segments({"", ""}));
  EXPECT_EQ(ParseOk("/a//b"), Segments({"a", "", "b"}));
  EXPECT_EQ(ParseOk("/a/"), Segments({"a", ""}));
}

TEST(KeyPathTest, EmptyPathIsBad) { ExpectBad("", 1); }

TEST(KeyPathTest, MissingLeadingSlashIsBad) {
  ExpectBad("userId", 1);
  ExpectBad("a/b", 1);
  ExpectBad("~1", 1);
  ExpectBad(" /a", 1);
  StatusOr<KeyPath> path = KeyPath::Parse("userId");
  ASSERT_FALSE(path.ok());
  EXPECT_NE(path.status().message().find("\"/userId\""), std::string::npos)
      << path.status().message();
}

TEST(KeyPathTest, TildeAtTheEndIsBad) {
  ExpectBad("/~", 2);
  ExpectBad("/a~", 3);
  ExpectBad("/ab/cd~", 7);
}

TEST(KeyPathTest, TildeFollowedByAnythingButZeroOrOneIsBad) {
  ExpectBad("/a~2", 3);
  ExpectBad("/~2", 2);
  ExpectBad("/a~~0", 3);
  ExpectBad("/a~/b", 3);
  ExpectBad("/ok/x~a", 6);
  ExpectBad("/a~1b/c~9", 8);  // the first escape is fine, the second is not
}

TEST(KeyPathTest, EscapeSegment) {
  EXPECT_EQ(KeyPath::EscapeSegment("userId"), "userId");
  EXPECT_EQ(KeyPath::EscapeSegment("a/b"), "a~1b");
  EXPECT_EQ(KeyPath::EscapeSegment("a~b"), "a~0b");
  EXPECT_EQ(KeyPath::EscapeSegment("~/~1"), "~0~1~0" "1");
  EXPECT_EQ(KeyPath::EscapeSegment(""), "");
  EXPECT_EQ(KeyPath::EscapeSegment("ab/"), "ab~1");
  EXPECT_EQ(KeyPath::EscapeSegment("/ab~c"), "~1ab~0c");
}

TEST(KeyPathTest, EscapeSegmentRoundTripsThroughParse) {
  for (std::string name : {"a/b", "~", "/", "~1", "x~0/y", "plain", "", "é/ü"}) {
    StatusOr<KeyPath> path = KeyPath::Parse("/" + KeyPath::EscapeSegment(name) + "/tail");
    ASSERT_TRUE(path.ok()) << name;
    EXPECT_EQ(path->segments(), Segments({name, "tail"})) << name;
  }
}

}  // namespace
}  // namespace partplay
