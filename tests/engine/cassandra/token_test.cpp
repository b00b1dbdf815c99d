// Murmur3Partitioner tokens. Expected values: the documented token of the int 1 in Cassandra's
// docs (-4069959284402364209), and vectors published by npm cassandra-driver 4.10.0
// (lib/tokenizer.js Murmur3Tokenizer over lib/encoder.js encodings), computed once with node and
// written down here.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/murmur_hash3.h"
#include "partplay/cassandra/token.h"
#include "partplay/cassandra/value.h"

namespace partplay::cql {
namespace {

std::string Unhex(std::string_view hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<char>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16)));
  }
  return out;
}

struct Vector {
  const char* what;
  const char* key_hex;
  int64_t token;
};

TEST(CqlTokenTest, MatchesCassandraDriverVectors) {
  const Vector vectors[] = {
      {"text ''", "", 0},
      {"text 'a'", "61", -8839064797231613815},
      {"text 'hello'", "68656c6c6f", -3758069500696749310},
      {"text 'theo'", "7468656f", -1457224325554927207},
      {"text 'é' (tail bytes >= 0x80)", "c3a9", 5461403030378599040},
      {"text '日本語テキスト'", "e697a5e69cace8aa9ee38386e382ade382b9e38388", -4696617625605886511},
      {"text, one full block", "30313233343536373839616263646566", 5467490433528156583},
      {"text, a block and a non-ASCII tail", "30313233343536373839616263646566c3a9",
       8755401265980413160},
      {"int 0", "00000000", -3485513579396041028},
      {"int 1", "00000001", -4069959284402364209},
      {"int 42", "0000002a", -7160136740246525330},
      {"int -1", "ffffffff", 7297452126230313552},
      {"bigint 1", "0000000000000001", 6292367497774912474},
      {"bigint min", "8000000000000000", 9204767954415360687},
      {"uuid", "6ab09bece68e48d9a5f897e6fb4c9b47", 3066791452337107542},
  };
  for (const Vector& v : vectors) {
    EXPECT_EQ(Murmur3Token(Unhex(v.key_hex)), v.token) << v.what;
  }
}

TEST(CqlTokenTest, CompositeKeysAreLengthPrefixedComponents) {
  std::string key = PartitionKeyBytes(std::vector<std::string>{"theo", EncodeInt32(1)});
  EXPECT_EQ(key, Unhex("00047468656f00"
                       "00040000000100"));
  EXPECT_EQ(Murmur3Token(key), 2489062925119996681);  // driver: (text 'theo', int 1)
  EXPECT_EQ(Murmur3Token(PartitionKeyBytes(std::vector<std::string>{"ann", "smith"})),
            -7183557721371002741);
  std::vector<std::string_view> parts = SplitCompositeKey(key);
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_EQ(parts[0], "theo");
  EXPECT_EQ(parts[1], EncodeInt32(1));
  // A non-zero end-of-component byte is malformed (found by tests/fuzz/token_fuzz: it was
  // skipped, so the components rejoined to other bytes).
  EXPECT_TRUE(SplitCompositeKey(std::string("\0\0\x04\0\0\0", 6)).empty());
  EXPECT_TRUE(SplitCompositeKey(Unhex("00047468656f01"
                                      "00040000000100"))
                  .empty());
  // One component is the value's bytes alone.
  EXPECT_EQ(PartitionKeyBytes(std::vector<std::string>{"theo"}), "theo");
}

TEST(CqlTokenTest, SignExtendsTailBytesUnlikeTheReference) {
  // All-ASCII keys hash as the reference does; a tail byte >= 0x80 does not.
  EXPECT_EQ(CassandraMurmur3H1("hello"),
            static_cast<int64_t>(internal::MurmurHash3X64_128("hello").h1));
  EXPECT_NE(CassandraMurmur3H1("\xc3\xa9"),
            static_cast<int64_t>(internal::MurmurHash3X64_128("\xc3\xa9").h1));
  // Bytes >= 0x80 inside full 16-byte blocks are read as unsigned, like the reference.
  std::string block(16, '\xff');
  EXPECT_EQ(CassandraMurmur3H1(block),
            static_cast<int64_t>(internal::MurmurHash3X64_128(block).h1));
}

TEST(CqlTokenTest, EveryTailLengthAgreesWithReferenceOnAsciiKeys) {
  std::string key;
  for (int n = 0; n <= 40; ++n) {
    EXPECT_EQ(CassandraMurmur3H1(key), static_cast<int64_t>(internal::MurmurHash3X64_128(key).h1))
        << n;
    key.push_back(static_cast<char>('a' + n % 26));
  }
}

TEST(CqlTokenTest, MinimumTokenBecomesMaximum) {
  EXPECT_EQ(TokenFromH1(INT64_MIN), INT64_MAX);
  EXPECT_EQ(TokenFromH1(INT64_MIN + 1), INT64_MIN + 1);
  EXPECT_EQ(TokenFromH1(-1), -1);
}

}  // namespace
}  // namespace partplay::cql
