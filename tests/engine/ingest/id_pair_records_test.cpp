// Item places as varints relative to the place before (partial_data.h AppendRecord, ReadRecord)
// in a part's (partition, id) pair records (IdPairRecords): read back exactly, and every damaged
// encoding refused.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ingest/partial_data.h"

namespace partplay::internal {
namespace {

struct Pair {
  ItemRecord record;
  std::string id;
};

// Records in item order across the varints' byte widths: offsets past 2^32, a line jump, items
// on one line (arrays), a large column, an empty id and a long one.
std::vector<Pair> SomePairs() {
  return {
      {{0, 1, 0, 1, 1}, "a"},
      {{1, 127, 2, 2, 1}, "0123456789abcdef0123456789abcdef0123"},
      {{5, 128, 200, 2, 199}, ""},
      {{6, 300, 329, 2, 16384}, std::string(200, 'x')},
      {{1000000, 5, (uint64_t{1} << 40) + 3, 9000000, 1}, "\xc3\xa9t\xc3\xa9"},
      {{1000001, 2, (uint64_t{1} << 40) + 9, 9000001, 3}, "last"},
  };
}

TEST(IdPairRecordsTest, RecordsReadBackExactly) {
  IdPairRecords pairs;
  std::vector<Pair> in = SomePairs();
  for (size_t i = 0; i < in.size(); ++i) pairs.Add(1000 + i, in[i].record, in[i].id);
  ASSERT_EQ(pairs.size(), in.size());
  IdPairRecords::Cursor cursor(pairs.records(), 1000002, (uint64_t{1} << 41));
  for (size_t i = 0; i < in.size(); ++i) {
    ItemRecord r;
    std::string_view id;
    ASSERT_TRUE(cursor.Next(r, id)) << i << ": " << cursor.error();
    EXPECT_EQ(pairs.hash(i), 1000 + i);
    EXPECT_EQ(r.index, in[i].record.index) << i;
    EXPECT_EQ(r.bytes, in[i].record.bytes) << i;
    EXPECT_EQ(r.byte_offset, in[i].record.byte_offset) << i;
    EXPECT_EQ(r.line, in[i].record.line) << i;
    EXPECT_EQ(r.column, in[i].record.column) << i;
    EXPECT_EQ(id, in[i].id) << i;
  }
  EXPECT_TRUE(cursor.done());
  // Far less than the 40-byte records and 8-byte offsets they replace.
  EXPECT_LT(pairs.records().size(), 6 * 16 + 1 + 36 + 200 + 6 + 4);
}

TEST(IdPairRecordsTest, EveryTruncationIsRefused) {
  IdPairRecords pairs;
  for (const Pair& p : SomePairs()) pairs.Add(0, p.record, p.id);
  const std::string all(pairs.records());
  for (size_t n = 0; n < all.size(); ++n) {
    IdPairRecords::Cursor cursor(std::string_view(all).substr(0, n), 1000002, uint64_t{1} << 41);
    ItemRecord r;
    std::string_view id;
    size_t read = 0;
    while (cursor.Next(r, id)) ++read;
    ASSERT_LT(read, SomePairs().size()) << n;
    ASSERT_NE(cursor.error(), nullptr) << n;
    EXPECT_NE(std::string(cursor.error()).find("truncated"), std::string::npos) << n;
  }
}

TEST(IdPairRecordsTest, RecordsOutsideThePartAreRefused) {
  auto refused = [](const std::string& records, uint64_t items, uint64_t input_bytes) {
    IdPairRecords::Cursor cursor(records, items, input_bytes);
    ItemRecord r;
    std::string_view id;
    while (cursor.Next(r, id)) {
    }
    return cursor.error() ? std::string(cursor.error()) : std::string("read");
  };
  IdPairRecords pairs;
  pairs.Add(0, {3, 10, 50, 4, 2}, "id");
  const std::string good(pairs.records());
  EXPECT_EQ(refused(good, 4, 60), "truncated: the file ends inside a number");  // no more
  const std::string outside = "an id pair's first item lies outside the part";
  EXPECT_EQ(refused(good, 3, 60), outside);   // item 3 of 3
  EXPECT_EQ(refused(good, 4, 50), outside);   // byte 50 of 50
  EXPECT_EQ(refused(good, 4, 59), outside);   // 10 bytes from 50 pass 59
  EXPECT_EQ(refused(good, 4, 2), outside);    // line 4 past the part's 3 bytes
  std::string column0 = good;
  column0[4] = 0;                              // the column varint
  EXPECT_EQ(refused(column0, 4, 60), outside);
  std::string long_id = good;
  long_id[5] = 3;                              // an id of 3 bytes where 2 are left
  EXPECT_EQ(refused(long_id, 4, 60), "truncated: the id pairs end inside an id");
  // A varint past 64 bits: ten continuation bytes, or a tenth byte above 1.
  EXPECT_EQ(refused(std::string(10, '\x80') + std::string(1, '\0'), 4, 60),
            "a number past 64 bits");
  EXPECT_EQ(refused(std::string(9, '\xff') + std::string(1, '\x02'), 4, 60),
            "a number past 64 bits");
  // Deltas that wrap around land out of range: item -1, byte -1.
  const std::string rest("\x00\x01\x00\x01\x00", 5);  // offset +0, 1 byte, line +0, column 1, ""
  EXPECT_EQ(refused("\x01" + rest, UINT64_MAX, 60), outside);
  EXPECT_EQ(refused(std::string("\x00\x01", 2) + rest.substr(1), 4, UINT64_MAX), outside);
}

}  // namespace
}  // namespace partplay::internal
