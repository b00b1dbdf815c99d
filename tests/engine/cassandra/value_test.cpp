// CQL values: literal conversion (bytes as the native protocol serializes them, each expectation
// worked out by hand from the encoding rules), Cassandra's per-type order, and cqlsh / SELECT
// JSON rendering.
#include <gtest/gtest.h>

#include <string>

#include "partplay/cassandra/literal.h"
#include "partplay/cassandra/types.h"
#include "partplay/cassandra/value.h"
#include "session_helpers.h"

namespace partplay::cql {
namespace {

CqlType T(TypeKind k) { return CqlType::Native(k); }

Literal Lit(LiteralKind kind, std::string text, int column = 1) {
  Literal l;
  l.kind = kind;
  l.text = std::move(text);
  l.where.line = 1;
  l.where.column = column;
  l.where.byte_offset = column - 1;
  return l;
}
Literal Str(std::string s) { return Lit(LiteralKind::kString, std::move(s)); }
Literal Int(std::string s) { return Lit(LiteralKind::kInteger, std::move(s)); }
Literal Flt(std::string s) { return Lit(LiteralKind::kFloat, std::move(s)); }

Bytes Convert(const CqlType& type, const Literal& lit) {
  ValueGenerator gen(0);
  StatusOr<Value> v = LiteralToValue(type, lit, "c", gen);
  EXPECT_TRUE(v.ok()) << v.status().ToString();
  if (!v.ok() || !v.value().has_value()) return "<null>";
  return *v.value();
}

std::string HexOf(TypeKind k, const Literal& lit) { return Hex(Convert(T(k), lit)); }

Status Error(const CqlType& type, const Literal& lit) {
  ValueGenerator gen(0);
  StatusOr<Value> v = LiteralToValue(type, lit, "id", gen);
  EXPECT_FALSE(v.ok());
  return v.ok() ? Status::Ok() : v.status();
}

TEST(CqlTypesTest, SpellsTypesLikeCassandra) {
  EXPECT_EQ(T(TypeKind::kText).ToCql(), "text");
  EXPECT_EQ(NativeTypeKind("varchar"), TypeKind::kText);
  EXPECT_EQ(CqlType::Map(T(TypeKind::kText), T(TypeKind::kInt), true).ToCql(),
            "frozen<map<text, int>>");
  EXPECT_EQ(CqlType::List(CqlType::Set(T(TypeKind::kUuid), true)).ToCql(),
            "list<frozen<set<uuid>>>");
  EXPECT_FALSE(NativeTypeKind("counterx").has_value());
}

TEST(CqlValueTest, SerializesFixedWidthTypesBigEndian) {
  EXPECT_EQ(HexOf(TypeKind::kInt, Int("42")), "0000002a");
  EXPECT_EQ(HexOf(TypeKind::kInt, Int("-1")), "ffffffff");
  EXPECT_EQ(HexOf(TypeKind::kInt, Int("-2147483648")), "80000000");
  EXPECT_EQ(HexOf(TypeKind::kBigint, Int("1")), "0000000000000001");
  EXPECT_EQ(HexOf(TypeKind::kSmallint, Int("-2")), "fffe");
  EXPECT_EQ(HexOf(TypeKind::kTinyint, Int("127")), "7f");
  EXPECT_EQ(HexOf(TypeKind::kBoolean, Lit(LiteralKind::kBoolean, "true")), "01");
  EXPECT_EQ(HexOf(TypeKind::kBoolean, Lit(LiteralKind::kBoolean, "false")), "00");
  // IEEE 754: 1.5f = 0x3FC00000, 1.5 = 0x3FF8000000000000, -0.0 keeps its sign bit.
  EXPECT_EQ(HexOf(TypeKind::kFloat, Flt("1.5")), "3fc00000");
  EXPECT_EQ(HexOf(TypeKind::kDouble, Flt("1.5")), "3ff8000000000000");
  EXPECT_EQ(HexOf(TypeKind::kDouble, Int("2")), "4000000000000000");
  EXPECT_EQ(HexOf(TypeKind::kDouble, Flt("-0.0")), "8000000000000000");
  EXPECT_EQ(HexOf(TypeKind::kFloat, Flt("-Infinity")), "ff800000");
  // 0.1 rounds once to float (0x3DCCCCCD), not through double.
  EXPECT_EQ(HexOf(TypeKind::kFloat, Flt("0.1")), "3dcccccd");
}

TEST(CqlValueTest, SerializesTextBlobUuidInet) {
  EXPECT_EQ(HexOf(TypeKind::kText, Str("hé")), "68c3a9");
  EXPECT_EQ(HexOf(TypeKind::kText, Str("")), "");
  EXPECT_EQ(HexOf(TypeKind::kAscii, Str("A")), "41");
  EXPECT_EQ(HexOf(TypeKind::kBlob, Lit(LiteralKind::kHex, "0xCAFE00")), "cafe00");
  EXPECT_EQ(HexOf(TypeKind::kUuid, Lit(LiteralKind::kUuid, "6AB09BEC-E68E-48D9-A5F8-97E6FB4C9B47")),
            "6ab09bece68e48d9a5f897e6fb4c9b47");
  EXPECT_EQ(HexOf(TypeKind::kInet, Str("192.168.0.1")), "c0a80001");
  EXPECT_EQ(HexOf(TypeKind::kInet, Str("::1")), "00000000000000000000000000000001");
  EXPECT_EQ(HexOf(TypeKind::kInet, Str("2001:db8::ff00:42:8329")),
            "20010db8000000000000ff0000428329");
  EXPECT_EQ(HexOf(TypeKind::kInet, Str("::ffff:1.2.3.4")), "00000000000000000000ffff01020304");
}

TEST(CqlValueTest, SerializesVarintAsMinimalTwosComplement) {
  EXPECT_EQ(HexOf(TypeKind::kVarint, Int("0")), "00");
  EXPECT_EQ(HexOf(TypeKind::kVarint, Int("127")), "7f");
  EXPECT_EQ(HexOf(TypeKind::kVarint, Int("128")), "0080");
  EXPECT_EQ(HexOf(TypeKind::kVarint, Int("-1")), "ff");
  EXPECT_EQ(HexOf(TypeKind::kVarint, Int("-128")), "80");
  EXPECT_EQ(HexOf(TypeKind::kVarint, Int("-129")), "ff7f");
  EXPECT_EQ(HexOf(TypeKind::kVarint, Int("256")), "0100");
  EXPECT_EQ(HexOf(TypeKind::kVarint, Int("18446744073709551616")), "010000000000000000");  // 2^64
  EXPECT_EQ(FormatCqlsh(T(TypeKind::kVarint),
                        Convert(T(TypeKind::kVarint), Int("-123456789012345678901234567890"))),
            "-123456789012345678901234567890");
}

TEST(CqlValueTest, SerializesDecimalAsScaleAndUnscaledVarint) {
  EXPECT_EQ(HexOf(TypeKind::kDecimal, Flt("1.5")), "000000010f");    // 15 x 10^-1
  EXPECT_EQ(HexOf(TypeKind::kDecimal, Flt("-0.01")), "00000002ff");  // -1 x 10^-2
  EXPECT_EQ(HexOf(TypeKind::kDecimal, Flt("1.5e3")), "fffffffe0f");  // 15 x 10^2
  EXPECT_EQ(HexOf(TypeKind::kDecimal, Int("100")), "0000000064");
  const CqlType d = T(TypeKind::kDecimal);
  // BigDecimal.toString: plain unless the scale is negative or the exponent is below -6.
  EXPECT_EQ(FormatCqlsh(d, Convert(d, Flt("1.5e3"))), "1.5E+3");
  EXPECT_EQ(FormatCqlsh(d, Convert(d, Flt("1.00"))), "1.00");
  EXPECT_EQ(FormatCqlsh(d, Convert(d, Flt("0.000001"))), "0.000001");
  EXPECT_EQ(FormatCqlsh(d, Convert(d, Flt("0.0000001"))), "1E-7");
  EXPECT_EQ(FormatCqlsh(d, Convert(d, Flt("-12.345"))), "-12.345");
}

TEST(CqlValueTest, SerializesTemporalTypes) {
  // 2021-01-01 is day 18628 (51 years of 365 days and 13 leap days); date adds 2^31.
  EXPECT_EQ(HexOf(TypeKind::kDate, Str("1970-01-01")), "80000000");
  EXPECT_EQ(HexOf(TypeKind::kDate, Str("2021-01-01")), "800048c4");
  EXPECT_EQ(HexOf(TypeKind::kDate, Str("1969-12-31")), "7fffffff");
  EXPECT_EQ(HexOf(TypeKind::kDate, Int("2147483648")), "80000000");  // the raw day number
  EXPECT_EQ(Convert(T(TypeKind::kTimestamp), Str("2021-01-01 00:00:00+0000")),
            EncodeInt64(1609459200000));
  EXPECT_EQ(Convert(T(TypeKind::kTimestamp), Str("2021-01-01T01:00:00.250+01:00")),
            EncodeInt64(1609459200250));
  EXPECT_EQ(Convert(T(TypeKind::kTimestamp), Str("2021-01-01")), EncodeInt64(1609459200000));
  EXPECT_EQ(Convert(T(TypeKind::kTimestamp), Int("-1")), EncodeInt64(-1));
  EXPECT_EQ(Convert(T(TypeKind::kTime), Str("01:02:03.5")), EncodeInt64(3723500000000));
  EXPECT_EQ(Convert(T(TypeKind::kTime), Int("1000")), EncodeInt64(1000));
}

TEST(CqlValueTest, SerializesCollectionsSortedAsCassandraStoresThem) {
  Literal set = Lit(LiteralKind::kSet, "");
  set.elements = {Int("3"), Int("1"), Int("3")};
  CqlType set_int = CqlType::Set(T(TypeKind::kInt));
  // count 2, then (4-byte length, value) for 1 and 3.
  EXPECT_EQ(Hex(Convert(set_int, set)),
            "00000002"
            "00000004"
            "00000001"
            "00000004"
            "00000003");
  Literal map = Lit(LiteralKind::kMap, "");
  map.elements = {Str("b"), Int("2"), Str("a"), Int("1"), Str("b"), Int("9")};
  CqlType map_type = CqlType::Map(T(TypeKind::kText), T(TypeKind::kInt));
  Bytes m = Convert(map_type, map);
  EXPECT_EQ(FormatCqlsh(map_type, m), "{'a': 1, 'b': 9}");  // the last duplicate wins
  Literal list = Lit(LiteralKind::kList, "");
  list.elements = {Str("it's"), Str("b\\c")};
  CqlType list_text = CqlType::List(T(TypeKind::kText));
  EXPECT_EQ(FormatCqlsh(list_text, Convert(list_text, list)), "['it''s', 'b\\\\c']");
  Literal empty = Lit(LiteralKind::kMap, "");
  EXPECT_EQ(Hex(Convert(set_int, empty)), "00000000");
}

TEST(CqlValueTest, RejectsLiteralsWithCassandrasMessagesAndPositions) {
  Literal abc = Lit(LiteralKind::kString, "abc", 37);
  Status s = Error(T(TypeKind::kInt), abc);
  EXPECT_EQ(s.code(), ErrorCode::kCqlBadLiteral);
  EXPECT_EQ(s.message(), "Invalid STRING constant (abc) for \"id\" of type int");
  EXPECT_EQ(s.where().column, 37);
  EXPECT_EQ(Error(T(TypeKind::kInt), Int("99999999999")).message(),
            "Unable to make int from '99999999999'");
  EXPECT_EQ(Error(T(TypeKind::kTinyint), Int("128")).message(), "Unable to make byte from '128'");
  EXPECT_EQ(Error(T(TypeKind::kBigint), Int("9223372036854775808")).message(),
            "Unable to make long from '9223372036854775808'");
  EXPECT_EQ(
      Error(T(TypeKind::kUuid), Str("6ab09bec-e68e-48d9-a5f8-97e6fb4c9b47")).message(),
      "Invalid STRING constant (6ab09bec-e68e-48d9-a5f8-97e6fb4c9b47) for \"id\" of type uuid");
  EXPECT_EQ(
      Error(T(TypeKind::kTimeuuid), Lit(LiteralKind::kUuid, "6ab09bec-e68e-48d9-a5f8-97e6fb4c9b47"))
          .message(),
      "TimeUUID supports only version 1 UUIDs");
  EXPECT_EQ(Error(T(TypeKind::kDate), Str("2021-13-01")).message(),
            "Unable to coerce '2021-13-01' to a formatted date (long)");
  EXPECT_EQ(Error(T(TypeKind::kDate), Str("2021-02-29")).message(),
            "Unable to coerce '2021-02-29' to a formatted date (long)");
  EXPECT_EQ(Error(T(TypeKind::kTimestamp), Str("yesterday")).message(),
            "Unable to coerce 'yesterday' to a formatted date (long)");
  EXPECT_EQ(Error(T(TypeKind::kInet), Str("1.2.3")).message(),
            "Unable to make inet address from '1.2.3'");
  EXPECT_EQ(Error(T(TypeKind::kInet), Str("256.0.0.1")).message(),
            "Unable to make inet address from '256.0.0.1'");
  EXPECT_EQ(Error(T(TypeKind::kText), Int("1")).message(),
            "Invalid INTEGER constant (1) for \"id\" of type text");
  EXPECT_EQ(Error(T(TypeKind::kInt), Flt("1.5")).message(),
            "Invalid FLOAT constant (1.5) for \"id\" of type int");
  EXPECT_EQ(Error(T(TypeKind::kAscii), Str("é")).message(), "Invalid byte for ascii: -61");
  Literal list = Lit(LiteralKind::kList, "");
  list.elements = {Int("1")};
  EXPECT_EQ(Error(T(TypeKind::kInt), list).message(), "Invalid list literal for id of type int");
  list.elements = {Str("x")};
  EXPECT_EQ(Error(CqlType::List(T(TypeKind::kInt)), list).message(),
            "Invalid STRING constant (x) for \"value(id)\" of type int");
  list.elements = {Lit(LiteralKind::kNull, "")};
  EXPECT_EQ(Error(CqlType::List(T(TypeKind::kInt)), list).message(),
            "null is not supported inside collections");
}

TEST(CqlValueTest, NullLiteralIsAnAbsentValue) {
  ValueGenerator gen(0);
  StatusOr<Value> v = LiteralToValue(T(TypeKind::kInt), Lit(LiteralKind::kNull, ""), "c", gen);
  ASSERT_TRUE(v.ok());
  EXPECT_FALSE(v.value().has_value());
  EXPECT_EQ(FormatCqlshValue(T(TypeKind::kInt), v.value()), "null");
}

int Cmp(TypeKind k, const Literal& a, const Literal& b) {
  int c = Compare(T(k), Convert(T(k), a), Convert(T(k), b));
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

TEST(CqlOrderTest, SignedIntegersAndTimestamps) {
  EXPECT_EQ(Cmp(TypeKind::kInt, Int("-1"), Int("1")), -1);  // bytes ff.. > 00.., numbers not
  EXPECT_EQ(Cmp(TypeKind::kBigint, Int("-9223372036854775808"), Int("0")), -1);
  EXPECT_EQ(Cmp(TypeKind::kTinyint, Int("-128"), Int("127")), -1);
  EXPECT_EQ(Cmp(TypeKind::kTimestamp, Str("1969-12-31"), Str("1970-01-01")), -1);
  EXPECT_EQ(Cmp(TypeKind::kDate, Str("1969-12-31"), Str("2021-01-01")), -1);
  EXPECT_EQ(Cmp(TypeKind::kTime, Str("23:59:59"), Str("00:00:01")), 1);
}

TEST(CqlOrderTest, TextAndBlobByUnsignedBytes) {
  EXPECT_EQ(Cmp(TypeKind::kText, Str("Z"), Str("a")), -1);
  EXPECT_EQ(Cmp(TypeKind::kText, Str("z"), Str("é")), -1);  // 0x7A < 0xC3
  EXPECT_EQ(Cmp(TypeKind::kText, Str("ab"), Str("abc")), -1);
  EXPECT_EQ(Cmp(TypeKind::kText, Str(""), Str("a")), -1);
  EXPECT_EQ(Cmp(TypeKind::kBlob, Lit(LiteralKind::kHex, "0x7f"), Lit(LiteralKind::kHex, "0x80")),
            -1);
  EXPECT_EQ(Cmp(TypeKind::kInet, Str("10.0.0.1"), Str("9.0.0.1")), 1);
}

TEST(CqlOrderTest, NumbersByValue) {
  EXPECT_EQ(Cmp(TypeKind::kVarint, Int("-129"), Int("-128")), -1);
  EXPECT_EQ(Cmp(TypeKind::kVarint, Int("128"), Int("127")), 1);
  EXPECT_EQ(Cmp(TypeKind::kVarint, Int("-1"), Int("100000000000000000000")), -1);
  EXPECT_EQ(Cmp(TypeKind::kDecimal, Flt("1.0"), Flt("1.00")), 0);  // BigDecimal.compareTo
  EXPECT_EQ(Cmp(TypeKind::kDecimal, Flt("1.5"), Int("2")), -1);
  EXPECT_EQ(Cmp(TypeKind::kDecimal, Flt("-3"), Flt("-2.5")), -1);
  EXPECT_EQ(Cmp(TypeKind::kDecimal, Flt("1e3"), Flt("999.99")), 1);
  EXPECT_EQ(Cmp(TypeKind::kDouble, Flt("-0.0"), Flt("0.0")), -1);  // Double.compare
  EXPECT_EQ(Cmp(TypeKind::kDouble, Flt("NaN"), Flt("Infinity")), 1);
  EXPECT_EQ(Cmp(TypeKind::kFloat, Flt("-1.5"), Flt("-1.25")), -1);
  EXPECT_EQ(Cmp(TypeKind::kBoolean, Lit(LiteralKind::kBoolean, "false"),
                Lit(LiteralKind::kBoolean, "true")),
            -1);
}

TEST(CqlOrderTest, TimeuuidByEmbeddedTimestampFirst) {
  // a has the larger time_low, b the larger time_hi: b is later although its bytes sort lower.
  Literal a = Lit(LiteralKind::kUuid, "ffffffff-0000-1000-8000-000000000000");
  Literal b = Lit(LiteralKind::kUuid, "00000000-0000-1001-8000-000000000000");
  EXPECT_EQ(Cmp(TypeKind::kTimeuuid, a, b), -1);
  // time_mid ranks above time_low.
  Literal c = Lit(LiteralKind::kUuid, "ffffffff-0001-1000-8000-000000000000");
  Literal d = Lit(LiteralKind::kUuid, "00000000-0002-1000-8000-000000000000");
  EXPECT_EQ(Cmp(TypeKind::kTimeuuid, c, d), -1);
  // Same timestamp: clock sequence and node compare as signed bytes (0x80 < 0x7f).
  Literal e = Lit(LiteralKind::kUuid, "00000000-0000-1000-8000-000000000000");
  Literal f = Lit(LiteralKind::kUuid, "00000000-0000-1000-7f00-000000000000");
  EXPECT_EQ(Cmp(TypeKind::kTimeuuid, e, f), -1);
  Literal g = Lit(LiteralKind::kUuid, "00000000-0000-1000-8000-0000000000ff");
  Literal h = Lit(LiteralKind::kUuid, "00000000-0000-1000-8000-000000000001");
  EXPECT_EQ(Cmp(TypeKind::kTimeuuid, g, h), -1);
}

TEST(CqlOrderTest, UuidByVersionThenTimestampThenUnsignedBytes) {
  Literal v4 = Lit(LiteralKind::kUuid, "00000000-0000-4000-8000-000000000000");
  Literal v1 = Lit(LiteralKind::kUuid, "ffffffff-ffff-1fff-8000-000000000000");
  EXPECT_EQ(Cmp(TypeKind::kUuid, v1, v4), -1);  // version 1 before version 4
  Literal v4a = Lit(LiteralKind::kUuid, "7fffffff-0000-4000-8000-000000000000");
  Literal v4b = Lit(LiteralKind::kUuid, "80000000-0000-4000-8000-000000000000");
  EXPECT_EQ(Cmp(TypeKind::kUuid, v4a, v4b), -1);  // unsigned, not signed
  Literal v1a = Lit(LiteralKind::kUuid, "ffffffff-0000-1000-8000-000000000000");
  Literal v1b = Lit(LiteralKind::kUuid, "00000000-0000-1001-8000-000000000000");
  EXPECT_EQ(Cmp(TypeKind::kUuid, v1a, v1b), -1);  // by timestamp
  Literal v1c = Lit(LiteralKind::kUuid, "00000000-0000-1000-8000-0000000000ff");
  Literal v1d = Lit(LiteralKind::kUuid, "00000000-0000-1000-8000-000000000001");
  EXPECT_EQ(Cmp(TypeKind::kUuid, v1c, v1d), 1);  // then unsigned bytes
}

TEST(CqlOrderTest, FrozenCollectionsElementByElementThenSize) {
  CqlType t = CqlType::List(T(TypeKind::kInt), true);
  auto list = [&](std::vector<std::string> xs) {
    Literal l = Lit(LiteralKind::kList, "");
    for (auto& x : xs) l.elements.push_back(Int(x));
    return Convert(t, l);
  };
  EXPECT_LT(Compare(t, list({"-1", "5"}), list({"1"})), 0);
  EXPECT_LT(Compare(t, list({"1"}), list({"1", "0"})), 0);
  EXPECT_EQ(Compare(t, list({"2", "3"}), list({"2", "3"})), 0);
}

TEST(CqlFormatTest, PrintsLikeCqlsh) {
  auto f = [](TypeKind k, const Literal& l) { return FormatCqlsh(T(k), Convert(T(k), l)); };
  EXPECT_EQ(f(TypeKind::kBoolean, Lit(LiteralKind::kBoolean, "true")), "True");
  EXPECT_EQ(f(TypeKind::kDouble, Flt("1.5")), "1.5");
  EXPECT_EQ(f(TypeKind::kDouble, Flt("3.14159265")), "3.14159");
  EXPECT_EQ(f(TypeKind::kDouble, Flt("123456.789")), "1.2346e+05");
  EXPECT_EQ(f(TypeKind::kDouble, Flt("0.00001")), "1e-05");
  EXPECT_EQ(f(TypeKind::kDouble, Int("2")), "2");
  EXPECT_EQ(f(TypeKind::kFloat, Flt("0.1")), "0.1");
  EXPECT_EQ(f(TypeKind::kDouble, Flt("NaN")), "NaN");
  EXPECT_EQ(f(TypeKind::kTimestamp, Str("2021-01-31 13:45:00.5+0000")),
            "2021-01-31 13:45:00.500000+0000");
  EXPECT_EQ(f(TypeKind::kDate, Str("2021-01-31")), "2021-01-31");
  EXPECT_EQ(f(TypeKind::kTime, Str("13:45:00.000000001")), "13:45:00.000000001");
  EXPECT_EQ(f(TypeKind::kUuid, Lit(LiteralKind::kUuid, "6AB09BEC-E68E-48D9-A5F8-97E6FB4C9B47")),
            "6ab09bec-e68e-48d9-a5f8-97e6fb4c9b47");
  EXPECT_EQ(f(TypeKind::kBlob, Lit(LiteralKind::kHex, "0xCAFE")), "0xcafe");
  EXPECT_EQ(f(TypeKind::kInet, Str("2001:0db8:0:0:0:0:0:1")), "2001:db8::1");
  EXPECT_EQ(f(TypeKind::kInet, Str("::ffff:1.2.3.4")), "::ffff:1.2.3.4");
  EXPECT_EQ(f(TypeKind::kText, Str("a\nb\\")), "a\\nb\\\\");
  CqlType st = CqlType::Set(T(TypeKind::kTimestamp));
  Literal s = Lit(LiteralKind::kSet, "");
  s.elements = {Int("0")};
  EXPECT_EQ(FormatCqlsh(st, Convert(st, s)), "{'1970-01-01 00:00:00.000000+0000'}");
}

TEST(CqlFormatTest, WritesSelectJsonValues) {
  auto j = [](const CqlType& t, const Literal& l) {
    std::string out;
    AppendJson(t, Value(Convert(t, l)), out);
    return out;
  };
  EXPECT_EQ(j(T(TypeKind::kBigint), Int("-9223372036854775808")), "-9223372036854775808");
  EXPECT_EQ(j(T(TypeKind::kVarint), Int("123456789012345678901234567890")),
            "123456789012345678901234567890");
  EXPECT_EQ(j(T(TypeKind::kText), Str("say \"hi\"")), "\"say \\\"hi\\\"\"");
  EXPECT_EQ(j(T(TypeKind::kBoolean), Lit(LiteralKind::kBoolean, "false")), "false");
  EXPECT_EQ(j(T(TypeKind::kTimestamp), Int("1609459200250")), "\"2021-01-01 00:00:00.250Z\"");
  EXPECT_EQ(j(T(TypeKind::kBlob), Lit(LiteralKind::kHex, "0x00ff")), "\"0x00ff\"");
  CqlType m = CqlType::Map(T(TypeKind::kInt), T(TypeKind::kText));
  Literal map = Lit(LiteralKind::kMap, "");
  map.elements = {Int("2"), Str("b"), Int("1"), Str("a")};
  EXPECT_EQ(j(m, map), "{\"1\": \"a\", \"2\": \"b\"}");
  std::string null_out;
  AppendJson(T(TypeKind::kInt), Value(), null_out);
  EXPECT_EQ(null_out, "null");
}

TEST(CqlFunctionTest, NowIsATimeuuidOfTheSessionClock) {
  ValueGenerator gen(1609459200000);  // 2021-01-01 00:00:00 UTC
  Literal now = Lit(LiteralKind::kFunction, "now");
  StatusOr<Value> a = LiteralToValue(T(TypeKind::kTimeuuid), now, "c", gen);
  StatusOr<Value> b = LiteralToValue(T(TypeKind::kTimeuuid), now, "c", gen);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ((static_cast<uint8_t>((*a.value())[6]) >> 4), 1);  // version 1
  EXPECT_LT(Compare(T(TypeKind::kTimeuuid), *a.value(), *b.value()), 0);
  Literal ts = Lit(LiteralKind::kFunction, "totimestamp");
  ts.elements = {now};
  StatusOr<Value> t = LiteralToValue(T(TypeKind::kTimestamp), ts, "c", gen);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(*t.value(), EncodeInt64(1609459200000));
  StatusOr<Value> bad = LiteralToValue(T(TypeKind::kInt), now, "id", gen);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(),
            "Type error: cannot assign result of function system.now (type timeuuid) to id (type "
            "int)");
}

}  // namespace
}  // namespace partplay::cql
