// UTF-8 checks, and that no invalid byte of an input ever reaches JSON output raw.
#include "partplay/core/utf8.h"

#include <gtest/gtest.h>

#include <string>

#include "partplay/core/json_writer.h"

namespace partplay {
namespace {

TEST(Utf8, CharLengthFollowsRfc3629) {
  EXPECT_EQ(Utf8CharLength("a", 0), 1u);
  EXPECT_EQ(Utf8CharLength("\xC3\xA9", 0), 2u);
  EXPECT_EQ(Utf8CharLength("\xE2\x82\xAC", 0), 3u);
  EXPECT_EQ(Utf8CharLength("\xF0\x9F\x98\x80", 0), 4u);
  EXPECT_EQ(Utf8CharLength("\xFF", 0), 0u);
  EXPECT_EQ(Utf8CharLength("\xC0\xAF", 0), 0u);          // overlong
  EXPECT_EQ(Utf8CharLength("\xED\xA0\x80", 0), 0u);      // a surrogate
  EXPECT_EQ(Utf8CharLength("\xF4\x90\x80\x80", 0), 0u);  // past U+10FFFF
  EXPECT_EQ(Utf8CharLength("\xE2\x82", 0), 0u);          // cut short
  EXPECT_TRUE(IsValidUtf8("Zoë €"));
  EXPECT_FALSE(IsValidUtf8("ok\xFF"));
}

// The 8-byte ASCII scan: a bad or multi-byte sequence at every offset of a long ASCII run, and
// a sequence cut at the end of a word, are judged as byte by byte.
TEST(Utf8, IsValidUtf8AtEveryOffsetOfTheWordScan) {
  for (size_t at = 0; at < 24; ++at) {
    for (std::string_view seq : {"\xFF", "\xC3\xA9", "\xE2\x82", "\xED\xA0\x80", "\xF0\x9F\x98\x80"}) {
      std::string s = std::string(at, 'a') + std::string(seq) + std::string(9, 'b');
      bool good = seq == "\xC3\xA9" || seq == "\xF0\x9F\x98\x80";
      EXPECT_EQ(IsValidUtf8(s), good) << at << " " << s;
      std::string tail = std::string(at, 'a') + std::string(seq);
      EXPECT_EQ(IsValidUtf8(tail), good) << at;
    }
  }
  EXPECT_TRUE(IsValidUtf8(std::string(64, 'x')));
}

TEST(Utf8, PrintableTextEscapesInvalidAndControlBytes) {
  EXPECT_EQ(PrintableText("Zoë"), "Zoë");
  EXPECT_EQ(PrintableText(std::string("a\0b\x1F\x7F\xFF", 6)), "a\\x00b\\x1F\\x7F\\xFF");
}

TEST(Utf8, JsonStringsNeverCarryARawInvalidByte) {
  std::string out;
  AppendJsonString("bad \xFF\xC0\xAF then é", out);
  EXPECT_EQ(out, "\"bad \\\\xff\\\\xc0\\\\xaf then é\"");
  out.clear();
  AppendJsonString("tab\tnul", out);
  EXPECT_EQ(out, "\"tab\\tnul\"");
}

}  // namespace
}  // namespace partplay
