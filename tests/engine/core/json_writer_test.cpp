// JSON text output: string escaping and shortest round-trip doubles.
#include "partplay/core/json_writer.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "partplay/core/json_diagnostics.h"

namespace partplay {
namespace {

using namespace std::string_literals;

std::string Str(std::string_view text) {
  std::string out;
  AppendJsonString(text, out);
  return out;
}

std::string Num(double value) {
  std::string out;
  AppendJsonNumber(value, out);
  return out;
}

TEST(JsonWriterTest, PlainStrings) {
  EXPECT_EQ(Str(""), R"("")");
  EXPECT_EQ(Str("redmond"), R"("redmond")");
  EXPECT_EQ(Str("a/b"), R"("a/b")");  // '/' needs no escape
  EXPECT_EQ(Str("it's"), R"("it's")");
}

TEST(JsonWriterTest, QuotesAndBackslashes) {
  EXPECT_EQ(Str("say \"hi\""), R"("say \"hi\"")");
  EXPECT_EQ(Str("C:\\dir\\"), R"("C:\\dir\\")");
  EXPECT_EQ(Str("\\\""), R"("\\\"")");
}

TEST(JsonWriterTest, ShortEscapes) {
  EXPECT_EQ(Str("\n\r\t\b\f"), R"("\n\r\t\b\f")");
}

TEST(JsonWriterTest, OtherControlCharactersAsUnicodeEscapes) {
  EXPECT_EQ(Str("\0"s), R"("\u0000")");
  EXPECT_EQ(Str("\x01"), R"("\u0001")");
  EXPECT_EQ(Str("\x0b"), R"("\u000b")");
  EXPECT_EQ(Str("\x1f"), R"("\u001f")");
  EXPECT_EQ(Str("a\x1b[0mb"), R"("a\u001b[0mb")");
  // Every byte below 0x20 comes out escaped, never raw.
  for (int c = 0; c < 0x20; ++c) {
    std::string out = Str(std::string(1, static_cast<char>(c)));
    for (char ch : out) EXPECT_GE(static_cast<unsigned char>(ch), 0x20) << c;
  }
}

TEST(JsonWriterTest, DelAndUtf8PassThrough) {
  EXPECT_EQ(Str("\x7f"), "\"\x7f\"");
  EXPECT_EQ(Str("Zoë 東京 😀"), "\"Zoë 東京 😀\"");
}

TEST(JsonWriterTest, AppendsToExistingText) {
  std::string out = "[1,";
  AppendJsonString("x", out);
  out += ",";
  AppendJsonNumber(2.5, out);
  EXPECT_EQ(out, R"([1,"x",2.5)");
}

TEST(JsonWriterTest, EscapedStringsAreValidJson) {
  std::string all;
  for (int c = 0; c < 256; ++c) all.push_back(static_cast<char>(c < 0x80 ? c : 'x'));
  std::string json = Str(all);
  JsonDiagnosis d = DiagnoseJsonValue(json);
  EXPECT_FALSE(d.found) << d.message << " at " << d.offset;
  EXPECT_EQ(d.value_end, json.size());
}

TEST(JsonWriterTest, IntegralValuesWithoutFraction) {
  EXPECT_EQ(Num(0), "0");
  EXPECT_EQ(Num(5.0), "5");
  EXPECT_EQ(Num(-3), "-3");
  EXPECT_EQ(Num(1e15), "1000000000000000");
  EXPECT_EQ(Num(9007199254740991.0), "9007199254740991");  // 2^53 - 1
  EXPECT_EQ(Num(-9007199254740991.0), "-9007199254740991");
}

TEST(JsonWriterTest, NegativeZeroIsZero) {
  EXPECT_EQ(Num(-0.0), "0");
}

TEST(JsonWriterTest, ShortestRoundTripFractions) {
  EXPECT_EQ(Num(0.1), "0.1");
  EXPECT_EQ(Num(-2.5), "-2.5");
  EXPECT_EQ(Num(0.1 + 0.2), "0.30000000000000004");
  EXPECT_EQ(Num(1.0 / 3), "0.3333333333333333");
  EXPECT_EQ(Num(13.52), "13.52");
}

TEST(JsonWriterTest, ExtremeDoubles) {
  EXPECT_EQ(Num(1e21), "1e+21");
  EXPECT_EQ(Num(5e-324), "5e-324");
  EXPECT_EQ(Num(1.7976931348623157e308), "1.7976931348623157e+308");
  EXPECT_EQ(Num(-1.7976931348623157e308), "-1.7976931348623157e+308");
  EXPECT_EQ(Num(2.2250738585072014e-308), "2.2250738585072014e-308");
  EXPECT_EQ(Num(1.2345678901234568e29), "1.2345678901234568e+29");
}

TEST(JsonWriterTest, NonFiniteBecomesNull) {
  EXPECT_EQ(Num(std::numeric_limits<double>::infinity()), "null");
  EXPECT_EQ(Num(-std::numeric_limits<double>::infinity()), "null");
  EXPECT_EQ(Num(std::numeric_limits<double>::quiet_NaN()), "null");
}

// Every finite double comes out as one JSON number that reads back to the same double, with no
// more significant digits than needed (17 at most).
TEST(JsonWriterTest, RandomDoublesRoundTripAsJsonNumbers) {
  std::mt19937_64 rng(20240611);
  for (int i = 0; i < 20000; ++i) {
    uint64_t bits = rng();
    double d;
    std::memcpy(&d, &bits, 8);
    if (!std::isfinite(d)) continue;
    std::string text = Num(d);
    ASSERT_TRUE(IsJsonNumber(text)) << text;
    double back = std::strtod(text.c_str(), nullptr);
    ASSERT_EQ(back, d) << text;
    std::string significant;  // mantissa digits without leading zeros
    for (char c : text) {
      if (c == 'e' || c == 'E') break;
      if (c >= '0' && c <= '9' && !(significant.empty() && c == '0')) significant.push_back(c);
    }
    // Integral values below 2^53 print all their digits; others need at most 17 significant.
    if (!(d == std::floor(d) && std::fabs(d) < 9007199254740992.0)) {
      EXPECT_LE(significant.size(), 17u) << text;
    }
  }
}

TEST(JsonWriterTest, ShortestMeansNoShorterFormReadsBack) {
  // For these values a 16-digit form reads back, so 17 digits would not be the shortest.
  for (double d : {0.1, 0.7, 1.1, 123.456, 1e-7, 3.14159}) {
    std::string text = Num(d);
    char shorter[64];
    std::snprintf(shorter, sizeof shorter, "%.15g", d);
    EXPECT_EQ(std::strtod(shorter, nullptr), d);
    EXPECT_LE(text.size(), std::string(shorter).size()) << text << " vs " << shorter;
  }
}

// Integers as {fmt} writes them (the listings write millions of them without it).
TEST(JsonWriterTest, IntegersAsFmtWritesThem) {
  std::vector<uint64_t> values = {0, 1, 9, 10, 99, 100, 101, 999, 1000, 65535, 4294967295u,
                                  4294967296u, 9007199254740993u,
                                  std::numeric_limits<uint64_t>::max()};
  std::mt19937_64 rng(3);
  for (int i = 0; i < 2000; ++i) values.push_back(rng() >> (rng() % 64));
  for (uint64_t v : values) {
    std::string got = "x";
    AppendJsonUInt(v, got);
    EXPECT_EQ(got, "x" + std::to_string(v));
    for (int64_t s : {static_cast<int64_t>(v), -static_cast<int64_t>(v >> 1)}) {
      std::string signed_text;
      AppendJsonInt(s, signed_text);
      EXPECT_EQ(signed_text, std::to_string(s));
    }
  }
  std::string lowest;
  AppendJsonInt(std::numeric_limits<int64_t>::min(), lowest);
  EXPECT_EQ(lowest, "-9223372036854775808");
}

// The 8-byte fast path finds a character to escape at every offset of a word, and at its end.
TEST(JsonWriterTest, EscapesAtEveryOffsetOfTheWordScan) {
  auto reference = [](std::string_view text) {
    std::string out = "\"";
    for (unsigned char c : text) {
      if (c == '"') out += "\\\"";
      else if (c == '\\') out += "\\\\";
      else if (c == '\n') out += "\\n";
      else if (c < 0x20) out += fmt::format("\\u{:04x}", c);
      else out.push_back(static_cast<char>(c));
    }
    return out + "\"";
  };
  for (const std::string special : {"\"", "\\", "\n", "\x01", "\x1f", "\xc3\xa9"}) {
    for (size_t before = 0; before < 20; ++before) {
      for (size_t after : {0, 1, 7, 8, 9}) {
        std::string text = std::string(before, 'a') + special + std::string(after, '~');
        std::string want = special == "\xc3\xa9" ? "\"" + text + "\"" : reference(text);
        EXPECT_EQ(Str(text), want) << "before " << before << " after " << after;
      }
    }
  }
  EXPECT_EQ(Str(std::string(64, ' ')), "\"" + std::string(64, ' ') + "\"");
  EXPECT_EQ(Str("abcdefgh\x7f"), "\"abcdefgh\x7f\"");
  EXPECT_EQ(Str("abcdefgh\xff"), "\"abcdefgh\\\\xff\"");
}

}  // namespace
}  // namespace partplay
