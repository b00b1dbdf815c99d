// PartitionKey: component kinds, canonical bytes (the grouping identity), equality, JSON form
// and the total order used to break ties.
#include "partplay/ingest/partition_key.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

namespace partplay {
namespace {

using namespace std::string_literals;

PartitionKey Key(std::vector<KeyComponent> components) {
  PartitionKey key;
  key.components = std::move(components);
  return key;
}

std::string DoubleBytes(double d) {
  // The encoding is little-endian; build the expected bytes from the bit pattern.
  uint64_t bits;
  std::memcpy(&bits, &d, 8);
  std::string out;
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((bits >> (8 * i)) & 0xFF));
  return out;
}

TEST(PartitionKeyTest, KindMarkersAreTheCosmosDbOnes) {
  EXPECT_EQ(static_cast<int>(KeyKind::kUndefined), 0x00);
  EXPECT_EQ(static_cast<int>(KeyKind::kNull), 0x01);
  EXPECT_EQ(static_cast<int>(KeyKind::kFalse), 0x02);
  EXPECT_EQ(static_cast<int>(KeyKind::kTrue), 0x03);
  EXPECT_EQ(static_cast<int>(KeyKind::kNumber), 0x05);
  EXPECT_EQ(static_cast<int>(KeyKind::kString), 0x08);
}

TEST(PartitionKeyTest, FactoriesSetTheKind) {
  EXPECT_EQ(KeyComponent::Undefined().kind, KeyKind::kUndefined);
  EXPECT_EQ(KeyComponent::Null().kind, KeyKind::kNull);
  EXPECT_EQ(KeyComponent::Bool(false).kind, KeyKind::kFalse);
  EXPECT_EQ(KeyComponent::Bool(true).kind, KeyKind::kTrue);
  KeyComponent n = KeyComponent::Number(2.5);
  EXPECT_EQ(n.kind, KeyKind::kNumber);
  EXPECT_EQ(n.number, 2.5);
  KeyComponent s = KeyComponent::String("redmond");
  EXPECT_EQ(s.kind, KeyKind::kString);
  EXPECT_EQ(s.text, "redmond");
}

TEST(PartitionKeyTest, CanonicalBytesLayout) {
  EXPECT_EQ(Key({KeyComponent::Undefined()}).CanonicalBytes(), "\x00"s);
  EXPECT_EQ(Key({KeyComponent::Null()}).CanonicalBytes(), "\x01"s);
  EXPECT_EQ(Key({KeyComponent::Bool(false)}).CanonicalBytes(), "\x02"s);
  EXPECT_EQ(Key({KeyComponent::Bool(true)}).CanonicalBytes(), "\x03"s);
  EXPECT_EQ(Key({KeyComponent::Number(1.0)}).CanonicalBytes(),
            "\x05"s + "\x00\x00\x00\x00\x00\x00\xF0\x3F"s);
  EXPECT_EQ(Key({KeyComponent::String("ab")}).CanonicalBytes(), "\x08\x02\x00\x00\x00" "ab"s);
  EXPECT_EQ(Key({KeyComponent::String("")}).CanonicalBytes(), "\x08\x00\x00\x00\x00"s);
  std::string long_text(300, 'x');  // length 300 = 0x012C, little-endian
  EXPECT_EQ(Key({KeyComponent::String(long_text)}).CanonicalBytes(),
            "\x08\x2C\x01\x00\x00"s + long_text);
  EXPECT_EQ(Key({}).CanonicalBytes(), "");
}

TEST(PartitionKeyTest, CanonicalBytesConcatenateComponents) {
  PartitionKey key = Key({KeyComponent::String("t"), KeyComponent::Number(-2.5),
                          KeyComponent::Null(), KeyComponent::Undefined()});
  EXPECT_EQ(key.CanonicalBytes(),
            "\x08\x01\x00\x00\x00t"s + "\x05"s + DoubleBytes(-2.5) + "\x01\x00"s);
  std::string appended = "prefix";
  AppendCanonical(KeyComponent::Number(-2.5), appended);
  EXPECT_EQ(appended, "prefix\x05"s + DoubleBytes(-2.5));
}

TEST(PartitionKeyTest, CanonicalBytesRoundTrip) {
  std::vector<PartitionKey> keys = {
      Key({}),
      Key({KeyComponent::Undefined()}),
      Key({KeyComponent::Null()}),
      Key({KeyComponent::Bool(true), KeyComponent::Bool(false)}),
      Key({KeyComponent::Number(0)}),
      Key({KeyComponent::Number(-1e300), KeyComponent::Number(5e-324)}),
      Key({KeyComponent::String("")}),
      Key({KeyComponent::String("a\0b\xff"s)}),  // NUL and a non-UTF-8 byte survive
      Key({KeyComponent::String("日本"), KeyComponent::Number(42),
           KeyComponent::Undefined()}),
      Key({KeyComponent::String(std::string(70000, 'z')), KeyComponent::Null()}),
  };
  for (const PartitionKey& key : keys) {
    PartitionKey back = PartitionKey::FromCanonicalBytes(key.CanonicalBytes());
    EXPECT_EQ(back, key) << key.ToJson();
    EXPECT_EQ(back.components.size(), key.components.size());
    EXPECT_EQ(back.CanonicalBytes(), key.CanonicalBytes());
    EXPECT_EQ(back.Hash(), key.Hash());
  }
}

TEST(PartitionKeyTest, NegativeZeroEqualsZero) {
  KeyComponent made = KeyComponent::Number(-0.0);
  EXPECT_FALSE(std::signbit(made.number)) << "the factory normalizes -0";
  KeyComponent raw;  // built by hand, bypassing the factory
  raw.kind = KeyKind::kNumber;
  raw.number = -0.0;
  EXPECT_EQ(raw, KeyComponent::Number(0));
  PartitionKey a = Key({raw}), b = Key({KeyComponent::Number(0.0)});
  EXPECT_EQ(a, b);
  EXPECT_EQ(a.CanonicalBytes(), b.CanonicalBytes());
  EXPECT_EQ(a.Hash(), b.Hash());
  EXPECT_EQ(CompareKeys(a, b), 0);
  EXPECT_EQ(a.ToJson(), "[0]");
}

TEST(PartitionKeyTest, FiveEqualsFivePointZero) {
  PartitionKey a = Key({KeyComponent::Number(5)});
  PartitionKey b = Key({KeyComponent::Number(5.0)});
  PartitionKey c = Key({KeyComponent::Number(std::stod("5.000"))});
  EXPECT_EQ(a, c);
  EXPECT_EQ(a.CanonicalBytes(), c.CanonicalBytes());
  EXPECT_EQ(b.Hash(), c.Hash());
  EXPECT_EQ(c.ToJson(), "[5]");
}

TEST(PartitionKeyTest, StringFiveDiffersFromNumberFive) {
  PartitionKey s = Key({KeyComponent::String("5")});
  PartitionKey n = Key({KeyComponent::Number(5)});
  EXPECT_FALSE(s == n);
  EXPECT_NE(s.CanonicalBytes(), n.CanonicalBytes());
  EXPECT_NE(s.Hash(), n.Hash());
  EXPECT_NE(CompareKeys(s, n), 0);
  EXPECT_EQ(s.ToJson(), "[\"5\"]");
  EXPECT_EQ(n.ToJson(), "[5]");
}

TEST(PartitionKeyTest, OtherDistinctions) {
  EXPECT_FALSE(KeyComponent::Null() == KeyComponent::Undefined());
  EXPECT_FALSE(KeyComponent::Bool(true) == KeyComponent::Bool(false));
  EXPECT_FALSE(KeyComponent::String("true") == KeyComponent::Bool(true));
  EXPECT_FALSE(KeyComponent::String("") == KeyComponent::Null());
  EXPECT_FALSE(KeyComponent::Number(0) == KeyComponent::Bool(false));
  EXPECT_FALSE(KeyComponent::Number(1) == KeyComponent::Number(1.0000000000000002));
  EXPECT_TRUE(KeyComponent::String("a") == KeyComponent::String("a"));
  EXPECT_FALSE(KeyComponent::String("a") == KeyComponent::String("A"));
  // Component order matters in a hierarchical key.
  PartitionKey ab = Key({KeyComponent::String("a"), KeyComponent::String("b")});
  PartitionKey ba = Key({KeyComponent::String("b"), KeyComponent::String("a")});
  EXPECT_FALSE(ab == ba);
  EXPECT_NE(ab.CanonicalBytes(), ba.CanonicalBytes());
  // The length prefix keeps ["ab", ""] and ["a", "b"] apart.
  PartitionKey split1 = Key({KeyComponent::String("ab"), KeyComponent::String("")});
  PartitionKey split2 = Key({KeyComponent::String("a"), KeyComponent::String("b")});
  EXPECT_NE(split1.CanonicalBytes(), split2.CanonicalBytes());
}

TEST(PartitionKeyTest, HashIsXxh3OfTheCanonicalBytes) {
  PartitionKey key = Key({KeyComponent::String("redmond"), KeyComponent::Number(3)});
  EXPECT_EQ(key.Hash(), HashCanonical(key.CanonicalBytes()));
  EXPECT_NE(HashCanonical("a"), HashCanonical("b"));
  // XXH3-64 of the empty input (a published test vector).
  EXPECT_EQ(HashCanonical(""), 0x2D06800538D394C2ull);
}

TEST(PartitionKeyTest, ComponentToJson) {
  EXPECT_EQ(KeyComponent::Undefined().ToJson(), "{}");
  EXPECT_EQ(KeyComponent::Null().ToJson(), "null");
  EXPECT_EQ(KeyComponent::Bool(true).ToJson(), "true");
  EXPECT_EQ(KeyComponent::Bool(false).ToJson(), "false");
  EXPECT_EQ(KeyComponent::Number(5).ToJson(), "5");
  EXPECT_EQ(KeyComponent::Number(-1.5).ToJson(), "-1.5");
  EXPECT_EQ(KeyComponent::Number(0.1).ToJson(), "0.1");
  EXPECT_EQ(KeyComponent::String("redmond").ToJson(), "\"redmond\"");
}

TEST(PartitionKeyTest, ToJsonEscapesStrings) {
  EXPECT_EQ(KeyComponent::String("a\"b\\c").ToJson(), R"("a\"b\\c")");
  EXPECT_EQ(KeyComponent::String("line\nnext\ttab").ToJson(), R"("line\nnext\ttab")");
  EXPECT_EQ(KeyComponent::String("\x01\x1f").ToJson(), R"("\u0001\u001f")");
  EXPECT_EQ(KeyComponent::String("\0"s).ToJson(), R"("\u0000")");
  EXPECT_EQ(KeyComponent::String("é/東").ToJson(), "\"é/東\"");
}

TEST(PartitionKeyTest, KeyToJson) {
  EXPECT_EQ(Key({}).ToJson(), "[]");
  EXPECT_EQ(Key({KeyComponent::String("redmond")}).ToJson(), "[\"redmond\"]");
  EXPECT_EQ(Key({KeyComponent::Undefined()}).ToJson(), "[{}]");
  EXPECT_EQ(Key({KeyComponent::String("t\"1"), KeyComponent::Undefined(), KeyComponent::Null(),
                 KeyComponent::Bool(true), KeyComponent::Number(2.5)})
                .ToJson(),
            R"(["t\"1",{},null,true,2.5])");
}

TEST(PartitionKeyTest, CompareKeysOrdersKindsByMarker) {
  std::vector<PartitionKey> ascending = {
      Key({KeyComponent::Undefined()}), Key({KeyComponent::Null()}),
      Key({KeyComponent::Bool(false)}), Key({KeyComponent::Bool(true)}),
      Key({KeyComponent::Number(-1e300)}), Key({KeyComponent::String("")}),
  };
  for (size_t i = 0; i < ascending.size(); ++i) {
    for (size_t j = 0; j < ascending.size(); ++j) {
      int expected = i < j ? -1 : (i > j ? 1 : 0);
      EXPECT_EQ(CompareKeys(ascending[i], ascending[j]), expected) << i << " vs " << j;
    }
  }
}

TEST(PartitionKeyTest, CompareKeysNumbersNumerically) {
  auto num = [](double d) { return Key({KeyComponent::Number(d)}); };
  EXPECT_EQ(CompareKeys(num(2), num(10)), -1);  // not "10" < "2"
  EXPECT_EQ(CompareKeys(num(10), num(2)), 1);
  EXPECT_EQ(CompareKeys(num(-5), num(-0.5)), -1);
  EXPECT_EQ(CompareKeys(num(-0.5), num(0)), -1);
  EXPECT_EQ(CompareKeys(num(1.5), num(1.5)), 0);
}

TEST(PartitionKeyTest, CompareKeysStringsByUnsignedBytes) {
  auto str = [](std::string s) { return Key({KeyComponent::String(s)}); };
  EXPECT_EQ(CompareKeys(str("Z"), str("a")), -1);
  EXPECT_EQ(CompareKeys(str("a"), str("ab")), -1);  // a prefix sorts first
  EXPECT_EQ(CompareKeys(str("ab"), str("a")), 1);
  EXPECT_EQ(CompareKeys(str("\x7f"), str("é")), -1);  // 0x7F < 0xC3 as unsigned bytes
  EXPECT_EQ(CompareKeys(str("é"), str("z")), 1);
  EXPECT_EQ(CompareKeys(str("\xff"), str("\x01")), 1);
  EXPECT_EQ(CompareKeys(str("same"), str("same")), 0);
}

TEST(PartitionKeyTest, CompareKeysComponentByComponent) {
  PartitionKey a1 = Key({KeyComponent::String("a"), KeyComponent::Number(1)});
  PartitionKey a2 = Key({KeyComponent::String("a"), KeyComponent::Number(2)});
  PartitionKey b0 = Key({KeyComponent::String("b"), KeyComponent::Number(0)});
  PartitionKey a = Key({KeyComponent::String("a")});
  EXPECT_EQ(CompareKeys(a1, a2), -1);
  EXPECT_EQ(CompareKeys(a2, b0), -1);  // the first component decides
  EXPECT_EQ(CompareKeys(b0, a1), 1);
  EXPECT_EQ(CompareKeys(a, a1), -1);  // fewer components first
  EXPECT_EQ(CompareKeys(a1, a), 1);
  EXPECT_EQ(CompareKeys(a1, a1), 0);
}

}  // namespace
}  // namespace partplay
