// The parts of a concatenated synthetic key (ingest/synthetic_key.h): reading "month(/date)",
// "left(/sku, 3)" and the like, what each takes of a value, and the analyzer's keys built from
// them (a part it cannot read leaves the item in the undefined partition, counted). Authored.
#include "partplay/ingest/synthetic_key.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "partplay/core/iso_time.h"
#include "partplay/ingest/analysis.h"

namespace partplay {
namespace {

using Fn = KeyPart::Fn;

std::string Take(std::string_view part_text, KeyKind kind, double number, std::string_view text) {
  StatusOr<KeyPart> part = ParseKeyPart(part_text);
  EXPECT_TRUE(part.ok()) << part_text;
  if (!part.ok()) return "<bad part>";
  std::string out;
  if (!AppendKeyPartText(part.value(), kind, number, text, out)) return "<none>";
  return out;
}

std::string TakeString(std::string_view part_text, std::string_view value) {
  return Take(part_text, KeyKind::kString, 0, value);
}

TEST(KeyPart, ReadsPathsAndFunctions) {
  auto whole = ParseKeyPart(" /tenantId ");
  ASSERT_TRUE(whole.ok());
  EXPECT_EQ(whole->path, "/tenantId");
  EXPECT_EQ(whole->fn, Fn::kWhole);
  auto month = ParseKeyPart("MONTH( /orderDate )");
  ASSERT_TRUE(month.ok());
  EXPECT_EQ(month->path, "/orderDate");
  EXPECT_EQ(month->fn, Fn::kMonth);
  auto left = ParseKeyPart("left(/a,b, 3)");  // the count is the last argument: the path has a comma
  ASSERT_TRUE(left.ok());
  EXPECT_EQ(left->path, "/a,b");
  EXPECT_EQ(left->length, 3u);
  auto sub = ParseKeyPart("substring(/sku, 0, 1000)");
  ASSERT_TRUE(sub.ok());
  EXPECT_EQ(sub->fn, Fn::kSubstring);
  EXPECT_EQ(sub->start, 0u);
  EXPECT_EQ(sub->length, 1000u);
  // Text without parentheses is a path, checked as one where it is used (kBadKeyPath).
  auto bare = ParseKeyPart("tenantId");
  ASSERT_TRUE(bare.ok());
  EXPECT_EQ(bare->path, "tenantId");
  EXPECT_TRUE(IsKeyPartFunction("day(/d)"));
  EXPECT_FALSE(IsKeyPartFunction(" /d"));
}

TEST(KeyPart, RefusesWhatIsNotAPart) {
  for (const char* bad :
       {"", "week(/d)", "month(d)", "month(/d", "month(/d))x", "month()", "left(/a)",
        "left(/a, 0)", "left(/a, 1001)", "left(/a, -1)", "left(/a, 2x)", "left(/a, )",
        "substring(/a, 1)", "substring(/a, 1001, 2)", "substring(/a, 1, 0)", "month(/d) x",
        "left(/a, 99999999999999999999)"}) {
    auto part = ParseKeyPart(bad);
    ASSERT_FALSE(part.ok()) << bad;
    EXPECT_EQ(part.status().code(), ErrorCode::kBadOption);
    EXPECT_NE(part.status().message().find("month(/PATH)"), std::string::npos)
        << part.status().message();
  }
  // A long text is named shortened, never copied whole into the message.
  auto long_part = ParseKeyPart(std::string(5000, 'x'));
  ASSERT_FALSE(long_part.ok());
  EXPECT_LT(long_part.status().message().size(), 400u);
}

TEST(KeyPart, DateBucketsOfIsoStringsAreUtc) {
  EXPECT_EQ(TakeString("year(/d)", "2024-03-15T10:22:05Z"), "2024");
  EXPECT_EQ(TakeString("month(/d)", "2024-03-15T10:22:05Z"), "2024-03");
  EXPECT_EQ(TakeString("day(/d)", "2024-03-15T10:22:05.123Z"), "2024-03-15");
  EXPECT_EQ(TakeString("hour(/d)", "2024-03-15 10:22"), "2024-03-15T10");
  EXPECT_EQ(TakeString("day(/d)", "2024-03-15"), "2024-03-15");
  // An offset moves the time to UTC: the last evening of March in New York is April in UTC.
  EXPECT_EQ(TakeString("month(/d)", "2024-03-31T22:30:00-05:00"), "2024-04");
  EXPECT_EQ(TakeString("hour(/d)", "2024-01-01T00:30:00+01:00"), "2023-12-31T23");
  EXPECT_EQ(TakeString("day(/d)", "2024-02-29T12:00:00Z"), "2024-02-29");
  // Not a date: no part.
  for (const char* bad : {"soon", "2024-02-30", "2023-02-29T00:00", "2024-03", "2024-3-15",
                          "2024-03-15T25:00", "2024-03-15Tx", "2024-03-15T10:00:00Zjunk", ""}) {
    EXPECT_EQ(TakeString("month(/d)", bad), "<none>") << bad;
  }
}

TEST(KeyPart, DateBucketsOfEpochNumbers) {
  // 1710498125 = 2024-03-15T10:22:05Z, as seconds and as milliseconds.
  EXPECT_EQ(Take("hour(/ts)", KeyKind::kNumber, 1710498125, {}), "2024-03-15T10");
  EXPECT_EQ(Take("hour(/ts)", KeyKind::kNumber, 1710498125123.0, {}), "2024-03-15T10");
  EXPECT_EQ(Take("month(/ts)", KeyKind::kNumber, 1710498125.9, {}), "2024-03");
  EXPECT_EQ(Take("year(/ts)", KeyKind::kNumber, 99999999999.0, {}), "5138");  // the last second
  // Outside both ranges a number is not a time (a year, a count, 1e11..1e12).
  for (double n : {2024.0, 0.0, -5.0, 999999999.0, 1e11, 5e11, 1e14, 1e300}) {
    EXPECT_EQ(Take("year(/ts)", KeyKind::kNumber, n, {}), "<none>") << n;
  }
  EXPECT_EQ(Take("year(/ts)", KeyKind::kTrue, 0, {}), "<none>");
  EXPECT_EQ(Take("year(/ts)", KeyKind::kNull, 0, {}), "<none>");
  EXPECT_EQ(Take("year(/ts)", KeyKind::kUndefined, 0, {}), "<none>");
}

TEST(KeyPart, LeftAndSubstringCountCharacters) {
  EXPECT_EQ(TakeString("left(/s, 3)", "sku-12345"), "sku");
  EXPECT_EQ(TakeString("left(/s, 30)", "sku"), "sku");
  EXPECT_EQ(TakeString("substring(/s, 4, 2)", "sku-12345"), "12");
  EXPECT_EQ(TakeString("substring(/s, 20, 2)", "sku"), "");  // past the end: "" (NoSQL's SUBSTRING)
  // Code points, not bytes: "é" is 2 bytes, "😀" 4.
  EXPECT_EQ(TakeString("left(/s, 2)", "\xC3\xA9t\xC3\xA9"), "\xC3\xA9t");
  EXPECT_EQ(TakeString("substring(/s, 1, 1)", "a\xF0\x9F\x98\x80z"), "\xF0\x9F\x98\x80");
  // Only strings have characters; a number is not cut.
  EXPECT_EQ(Take("left(/s, 2)", KeyKind::kNumber, 12345, {}), "<none>");
  // The whole value writes any kind.
  EXPECT_EQ(Take("/s", KeyKind::kNumber, 12345, {}), "12345");
  EXPECT_EQ(Take("/s", KeyKind::kFalse, 0, {}), "false");
}

TEST(IsoTime, CivilFromMillisInvertsDaysFromCivil) {
  for (int64_t year : {1, 1600, 1969, 1970, 2000, 2024, 2100, 9999}) {
    for (unsigned month : {1u, 2u, 12u}) {
      const unsigned day = month == 2 ? (LeapYear(year) ? 29u : 28u) : 31u;
      const int64_t ms = DaysFromCivil(year, month, day) * 86400000 + 23 * 3600000 + 59999;
      const CivilTime t = CivilFromMillis(ms);
      EXPECT_EQ(t.year, year);
      EXPECT_EQ(t.month, month);
      EXPECT_EQ(t.day, day);
      EXPECT_EQ(t.hour, 23u);
    }
  }
  const CivilTime before = CivilFromMillis(-1);  // 1969-12-31T23:59:59.999Z
  EXPECT_EQ(before.year, 1969);
  EXPECT_EQ(before.day, 31u);
  EXPECT_EQ(before.hour, 23u);
}

// The analyzer's key from a tenant and the month of its order date; an item whose date is not one
// is in the undefined partition, counted, not dropped.
TEST(KeyPart, AnalyzerBuildsTenantAndMonth) {
  AnalysisOptions o;
  o.key_paths = {"month(/orderDate)"};  // a first part with a function: its path is the key path
  o.synthetic.kind = SyntheticKeyOptions::Kind::kConcat;
  o.synthetic.paths = {"month(/orderDate)", "/tenantId"};
  o.synthetic.separator = "|";
  auto analyzer = Analyzer::Create(o);
  ASSERT_TRUE(analyzer.ok()) << analyzer.status().ToString();
  ASSERT_TRUE(analyzer.value()
                  ->Feed("{\"id\":\"1\",\"tenantId\":\"t1\",\"orderDate\":\"2024-03-01T00:00:00Z\"}\n"
                         "{\"id\":\"2\",\"tenantId\":\"t1\",\"orderDate\":\"2024-03-31T23:59:59Z\"}\n"
                         "{\"id\":\"3\",\"tenantId\":\"t1\",\"orderDate\":\"2024-04-01T00:00:00Z\"}\n"
                         "{\"id\":\"4\",\"tenantId\":\"t2\",\"orderDate\":1711929600}\n"
                         "{\"id\":\"5\",\"tenantId\":\"t2\",\"orderDate\":\"April\"}\n")
                  .ok());
  ASSERT_TRUE(analyzer.value()->Finish().ok());
  const AnalysisReport r = analyzer.value()->BuildReport({});
  std::map<std::string, uint64_t> items;
  for (const auto& p : r.partitions) items[p.key.ToJson()] = p.items;
  EXPECT_EQ(items["[\"2024-03|t1\"]"], 2u);
  EXPECT_EQ(items["[\"2024-04|t1\"]"], 1u);
  EXPECT_EQ(items["[\"2024-04|t2\"]"], 1u);  // 1711929600 s = 2024-04-01T00:00:00Z
  EXPECT_EQ(items["[{}]"], 1u);
  EXPECT_EQ(r.undefined_key_items, 1u);
  EXPECT_EQ(r.partitions.size(), 4u);

  o.synthetic.paths = {"/tenantId", "week(/orderDate)"};
  auto bad = Analyzer::Create(o);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), ErrorCode::kBadOption);
  EXPECT_NE(bad.status().message().find("week(/orderDate)"), std::string::npos);
}

}  // namespace
}  // namespace partplay
