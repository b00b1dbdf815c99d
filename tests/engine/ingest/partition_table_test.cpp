// Internal PartitionTable: grouping by canonical key bytes, growth, largest-item tracking and
// the size order.
#include "ingest/partition_table.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace partplay::internal {
namespace {

std::string StrKey(std::string_view s) {
  PartitionKey key;
  key.components.push_back(KeyComponent::String(s));
  return key.CanonicalBytes();
}

std::string NumKey(double d) {
  PartitionKey key;
  key.components.push_back(KeyComponent::Number(d));
  return key.CanonicalBytes();
}

// Entry by canonical key (the table has no lookup, so search its entries). A copy: at() may
// return a view.
std::optional<PartitionTable::Entry> Find(const PartitionTable& table,
                                          const std::string& canonical) {
  for (uint32_t i = 0; i < table.size(); ++i) {
    PartitionTable::Entry e = table.EntryAt(i);
    if (e.canonical == canonical) return e;
  }
  return std::nullopt;
}

TEST(PartitionTableTest, EmptyTable) {
  PartitionTable table;
  EXPECT_EQ(table.size(), 0u);
  EXPECT_TRUE(table.Largest(table.size()).empty());
  EXPECT_TRUE(table.Largest(5).empty());
  EXPECT_TRUE(table.SizesDescending().empty());
}

TEST(PartitionTableTest, GroupsItemsByCanonicalKey) {
  PartitionTable table;
  table.Add(StrKey("a"), 10, 0);
  table.Add(StrKey("b"), 20, 1);
  table.Add(StrKey("a"), 5, 2);
  table.Add(NumKey(5), 7, 3);
  table.Add(StrKey("5"), 8, 4);  // the string "5" is not the number 5
  table.Add(NumKey(5.0), 1, 5);
  ASSERT_EQ(table.size(), 4u);

  const auto a = Find(table, StrKey("a"));
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->items, 2u);
  EXPECT_EQ(a->bytes, 15u);
  EXPECT_EQ(a->hash, HashCanonical(StrKey("a")));

  const auto five = Find(table, NumKey(5));
  ASSERT_TRUE(five.has_value());
  EXPECT_EQ(five->items, 2u);
  EXPECT_EQ(five->bytes, 8u);

  const auto five_str = Find(table, StrKey("5"));
  ASSERT_TRUE(five_str.has_value());
  EXPECT_EQ(five_str->items, 1u);
  EXPECT_EQ(five_str->bytes, 8u);
}

TEST(PartitionTableTest, TracksTheLargestItemFirstOneWinsTies) {
  PartitionTable table;
  table.Add(StrKey("k"), 10, 0);
  table.Add(StrKey("k"), 30, 1);
  table.Add(StrKey("k"), 30, 2);  // as large, later: not the largest
  table.Add(StrKey("k"), 5, 3);
  const auto e = Find(table, StrKey("k"));
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->largest_item_bytes, 30u);
  EXPECT_EQ(e->largest_item_index, 1);
  EXPECT_EQ(e->items, 4u);
  EXPECT_EQ(e->bytes, 75u);
  table.Add(StrKey("k"), 31, 9);
  EXPECT_EQ(Find(table, StrKey("k"))->largest_item_index, 9);
  EXPECT_EQ(Find(table, StrKey("k"))->largest_item_bytes, 31u);
}

TEST(PartitionTableTest, ExportDecodesTheKey) {
  PartitionTable table;
  PartitionKey key;
  key.components = {KeyComponent::String("t1"), KeyComponent::Undefined(),
                    KeyComponent::Number(-2.5)};
  table.Add(key.CanonicalBytes(), 100, 7);
  table.Add(key.CanonicalBytes(), 40, 8);
  ASSERT_EQ(table.size(), 1u);
  LogicalPartition p = table.Export(0);
  EXPECT_EQ(p.key, key);
  EXPECT_EQ(p.key.ToJson(), R"(["t1",{},-2.5])");
  EXPECT_EQ(p.items, 2u);
  EXPECT_EQ(p.bytes, 140u);
  EXPECT_EQ(p.largest_item_bytes, 100u);
  EXPECT_EQ(p.largest_item_index, 7);
}

TEST(PartitionTableTest, GrowsPastManyThousandsOfKeys) {
  PartitionTable table;
  const int kKeys = 60000;  // several doublings of the 1024-slot start
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < kKeys; ++i) {
      table.Add(StrKey("user-" + std::to_string(i)), static_cast<uint64_t>(i % 97 + round), i);
    }
  }
  ASSERT_EQ(table.size(), static_cast<size_t>(kKeys));
  std::map<std::string, uint32_t> seen;
  for (uint32_t i = 0; i < table.size(); ++i) {
    PartitionTable::Entry e = table.EntryAt(i);
    EXPECT_TRUE(seen.emplace(std::string(e.canonical), i).second) << "a key appears twice";
  }
  for (int i : {0, 1, 1023, 1024, 4096, 33333, kKeys - 1}) {
    const auto e = Find(table, StrKey("user-" + std::to_string(i)));
    ASSERT_TRUE(e.has_value()) << i;
    EXPECT_EQ(e->items, 3u) << i;
    uint64_t base = static_cast<uint64_t>(i % 97);
    EXPECT_EQ(e->bytes, 3 * base + 0 + 1 + 2) << i;
    EXPECT_EQ(e->largest_item_bytes, base + 2) << i;
  }
}

TEST(PartitionTableTest, NumbersPartitionsInTheOrderTheyFirstAppear) {
  PartitionTable table;
  std::vector<std::string> keys = {StrKey("c"), NumKey(1), StrKey("a"),
                                   StrKey(std::string(40, 'L'))};
  for (int round = 0; round < 2; ++round) {
    for (size_t i = 0; i < keys.size(); ++i) table.Add(keys[i], 1, static_cast<int64_t>(i));
  }
  ASSERT_EQ(table.size(), keys.size());
  for (uint32_t i = 0; i < keys.size(); ++i) {
    EXPECT_EQ(table.EntryAt(i).canonical, keys[i]) << i;
    EXPECT_EQ(table.Export(i).key.CanonicalBytes(), keys[i]) << i;
  }
}

TEST(PartitionTableTest, ShortAndLongKeysAroundEveryLengthBoundary) {
  // Canonical string keys are 5 bytes + the text: lengths 0..80 cover short keys kept inline and
  // long ones stored elsewhere, whatever the split; two keys of one length differ in a byte.
  PartitionTable table;
  std::vector<std::string> keys;
  for (size_t n = 0; n <= 80; ++n) {
    keys.push_back(StrKey(std::string(n, 'k')));
    if (n) keys.push_back(StrKey(std::string(n - 1, 'k') + "z"));
  }
  for (int round = 0; round < 3; ++round) {
    for (size_t i = 0; i < keys.size(); ++i) table.Add(keys[i], i + 1, round);
  }
  ASSERT_EQ(table.size(), keys.size());
  for (size_t i = 0; i < keys.size(); ++i) {
    auto e = Find(table, keys[i]);
    ASSERT_TRUE(e.has_value()) << i;
    EXPECT_EQ(e->items, 3u) << i;
    EXPECT_EQ(e->bytes, 3 * (i + 1)) << i;
    EXPECT_EQ(e->largest_item_index, 0) << i;
    EXPECT_EQ(e->hash, HashCanonical(keys[i])) << i;
  }
}

TEST(PartitionTableTest, ManyLongKeysSurviveGrowth) {
  PartitionTable table;
  const int kKeys = 30000;
  auto key = [](int i) { return StrKey("tenant-" + std::to_string(i) + std::string(i % 50, '#')); };
  for (int i = 0; i < kKeys; ++i) table.Add(key(i), 10, i);
  for (int i = kKeys; i-- > 0;) table.Add(key(i), 20, kKeys + i);
  ASSERT_EQ(table.size(), static_cast<size_t>(kKeys));
  std::set<std::string> distinct;
  for (uint32_t i = 0; i < table.size(); ++i) {
    PartitionTable::Entry e = table.EntryAt(i);
    ASSERT_EQ(e.canonical, key(static_cast<int>(i))) << i;  // first-seen order
    ASSERT_EQ(e.items, 2u) << i;
    ASSERT_EQ(e.bytes, 30u) << i;
    ASSERT_EQ(e.largest_item_index, kKeys + static_cast<int64_t>(i)) << i;
    distinct.insert(std::string(e.canonical));
  }
  EXPECT_EQ(distinct.size(), static_cast<size_t>(kKeys));
}

// A merge's walk (Analyzer::Merge): the source table is read in number order while its blocks
// of entries and keys are handed to the destination, which reuses them for its new partitions;
// every value read from the source stays right, and the result is the one of adding every item
// to one table. Keys of every size, one larger than an arena block (1 MiB), many shared.
TEST(PartitionTableTest, ConsumedWhileMergedItsBlocksServeTheDestination) {
  auto key = [](int i) {
    if (i == 41000) return StrKey(std::string((1 << 20) + 17, 'L'));
    return StrKey("k" + std::to_string(i) + std::string(i % 70, '#'));
  };
  PartitionTable one, into, from;
  // Keys 0..59999 go to `into`, 30000..99999 to `from` (30000 shared).
  for (int i = 0; i < 60000; ++i) {
    into.Add(key(i), 3, i);
    one.Add(key(i), 3, i);
  }
  for (int i = 30000; i < 100000; ++i) {
    from.Add(key(i), 5, 100000 + i);
    one.Add(key(i), 5, 100000 + i);
  }
  for (uint32_t i = 0; i < from.size(); ++i) {
    if (i % 4096 == 0) from.ReleaseBefore(i, &into);
    PartitionTable::Entry e = from.EntryAt(i);
    ASSERT_EQ(e.canonical, key(30000 + static_cast<int>(i))) << i;
    into.AddAggregate(e.canonical, e.hash, e.items, e.bytes, e.largest_item_bytes,
                      e.largest_item_index);
  }
  from.ReleaseBefore(static_cast<uint32_t>(from.size()), &into);
  // The blocks of the 30,000 shared keys' entries and keys found no new partition.
  EXPECT_GT(into.spare_blocks(), 0u);
  into.DropSpareBlocks();
  EXPECT_EQ(into.spare_blocks(), 0u);
  ASSERT_EQ(into.size(), one.size());
  for (uint32_t i = 0; i < one.size(); ++i) {
    PartitionTable::Entry a = into.EntryAt(i), b = one.EntryAt(i);
    ASSERT_EQ(a.canonical, b.canonical) << i;
    ASSERT_EQ(a.items, b.items) << i;
    ASSERT_EQ(a.bytes, b.bytes) << i;
    ASSERT_EQ(a.largest_item_index, b.largest_item_index) << i;
    ASSERT_TRUE(into.Contains(b.canonical, b.hash)) << i;
  }
  EXPECT_EQ(into.Largest(into.size()), one.Largest(one.size()));
}

TEST(PartitionTableTest, ManyNumericKeys) {
  PartitionTable table;
  for (int i = 0; i < 20000; ++i) table.Add(NumKey(i * 0.5), 1, i);
  for (int i = 0; i < 20000; ++i) table.Add(NumKey(i * 0.5), 1, i);  // same doubles again
  EXPECT_EQ(table.size(), 20000u);
  for (uint32_t i = 0; i < table.size(); ++i) ASSERT_EQ(table.EntryAt(i).items, 2u) << i;
}

TEST(PartitionTableTest, SortedByBytesThenItemsThenKey) {
  PartitionTable table;
  table.Add(StrKey("small"), 5, 0);
  table.Add(StrKey("big"), 100, 1);
  // "b2" and "b1": 50 bytes each, b2 in 2 items, b1 in 1 item -> b2 first.
  table.Add(StrKey("b1"), 50, 2);
  table.Add(StrKey("b2"), 25, 3);
  table.Add(StrKey("b2"), 25, 4);
  // Same bytes and items: key order (numbers before strings, "x" before "y").
  table.Add(StrKey("y"), 30, 5);
  table.Add(StrKey("x"), 30, 6);
  table.Add(NumKey(99), 30, 7);
  table.Add(NumKey(3), 30, 8);

  std::vector<std::string> order;
  for (uint32_t i : table.Largest(table.size())) order.push_back(table.Export(i).key.ToJson());
  EXPECT_EQ(order, (std::vector<std::string>{R"(["big"])", R"(["b2"])", R"(["b1"])", "[3]", "[99]",
                                             R"(["x"])", R"(["y"])", R"(["small"])"}));
}

TEST(PartitionTableTest, SortOrderDoesNotDependOnInsertionOrder) {
  std::vector<std::pair<std::string, uint64_t>> adds = {{"c", 10}, {"a", 10}, {"b", 10},
                                                        {"d", 20}, {"e", 5},  {"a", 0}};
  PartitionTable forward, backward;
  for (size_t i = 0; i < adds.size(); ++i) forward.Add(StrKey(adds[i].first), adds[i].second, 0);
  for (size_t i = adds.size(); i-- > 0;) backward.Add(StrKey(adds[i].first), adds[i].second, 0);
  auto keys = [](const PartitionTable& t) {
    std::vector<std::string> out;
    for (uint32_t i : t.Largest(t.size())) out.push_back(t.Export(i).key.ToJson());
    return out;
  };
  // "a" has 10 bytes in 2 items, so it leads the 10-byte group.
  std::vector<std::string> expected = {R"(["d"])", R"(["a"])", R"(["b"])", R"(["c"])", R"(["e"])"};
  EXPECT_EQ(keys(forward), expected);
  EXPECT_EQ(keys(backward), expected);
}

// Keys of every kind, with shared string prefixes (the 7-byte order prefix ties), equal numbers
// written differently, and two-component keys; sizes drawn from a few values so ties are many.
std::vector<std::string> MixedKeys(std::mt19937_64& rng, int n) {
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i) {
    PartitionKey key;
    int components = 1 + static_cast<int>(rng() % 2);
    for (int c = 0; c < components; ++c) {
      switch (rng() % 6) {
        case 0:
          key.components.push_back(KeyComponent::Number(static_cast<double>(rng() % 50) - 25));
          break;
        case 1:
          key.components.push_back(KeyComponent::Number(static_cast<double>(rng() % 1000) / 7));
          break;
        case 2:
          key.components.push_back(KeyComponent::Bool(rng() % 2));
          break;
        case 3:
          key.components.push_back(KeyComponent::Null());
          break;
        case 4:
          key.components.push_back(KeyComponent::Undefined());
          break;
        default: {
          std::string s = std::string(rng() % 10, 'p') + static_cast<char>('a' + rng() % 3);
          if (rng() % 4 == 0) s.push_back('\0');
          if (rng() % 4 == 0) s += "\xC3\xA9";
          key.components.push_back(KeyComponent::String(s));
        }
      }
    }
    out.push_back(key.CanonicalBytes());
  }
  return out;
}

TEST(PartitionTableTest, CompareCanonicalKeysAgreesWithCompareKeys) {
  std::mt19937_64 rng(7);
  std::vector<std::string> keys = MixedKeys(rng, 400);
  for (const std::string& a : keys) {
    for (const std::string& b : keys) {
      ASSERT_EQ(CompareCanonicalKeys(a, b), CompareKeys(PartitionKey::FromCanonicalBytes(a),
                                                        PartitionKey::FromCanonicalBytes(b)))
          << PartitionKey::FromCanonicalBytes(a).ToJson() << " vs "
          << PartitionKey::FromCanonicalBytes(b).ToJson();
    }
  }
}

// Largest(k) is the first k of the full order: bytes, then items, then CompareKeys on decoded keys.
TEST(PartitionTableTest, LargestSelectsTheFirstKOfTheFullOrder) {
  for (uint64_t seed : {1, 2, 3}) {
    std::mt19937_64 rng(seed);
    std::vector<std::string> keys = MixedKeys(rng, 3000);
    PartitionTable table;
    for (size_t i = 0; i < keys.size(); ++i)
      table.Add(keys[i], 1 + rng() % 6, static_cast<int64_t>(i));
    std::vector<uint32_t> expected(table.size());
    for (uint32_t i = 0; i < expected.size(); ++i) expected[i] = i;
    std::sort(expected.begin(), expected.end(), [&](uint32_t a, uint32_t b) {
      PartitionTable::Entry x = table.EntryAt(a), y = table.EntryAt(b);
      if (x.bytes != y.bytes) return x.bytes > y.bytes;
      if (x.items != y.items) return x.items > y.items;
      return CompareKeys(PartitionKey::FromCanonicalBytes(x.canonical),
                         PartitionKey::FromCanonicalBytes(y.canonical)) < 0;
    });
    for (size_t k : {size_t{0}, size_t{1}, size_t{7}, size_t{100}, table.size() - 1, table.size(),
                     table.size() + 5}) {
      std::vector<uint32_t> want(
          expected.begin(),
          expected.begin() + static_cast<std::ptrdiff_t>(std::min(k, expected.size())));
      EXPECT_EQ(table.Largest(k), want) << "seed " << seed << " k " << k;
    }
    std::vector<uint64_t> sizes;
    for (uint32_t i : expected) sizes.push_back(table.EntryAt(i).bytes);
    EXPECT_EQ(table.SizesDescending(), sizes);
  }
}

TEST(PartitionTableTest, ContainsFindsOnlyAddedKeys) {
  PartitionTable table;
  for (int i = 0; i < 5000; i += 2) table.Add(NumKey(i), 1, i);
  for (int i = 0; i < 5000; ++i) {
    std::string key = NumKey(i);
    EXPECT_EQ(table.Contains(key, HashCanonical(key)), i % 2 == 0) << i;
  }
}

// Partial tables merged in input order equal one table fed every item.
TEST(PartitionTableTest, AddAggregateMergesLikeOnePass) {
  std::mt19937_64 rng(11);
  std::vector<std::string> keys = MixedKeys(rng, 200);
  PartitionTable whole, first, second;
  for (int i = 0; i < 4000; ++i) {
    const std::string& key = keys[rng() % keys.size()];
    uint64_t bytes = 1 + rng() % 5;
    whole.Add(key, bytes, i);
    (i < 2500 ? first : second).Add(key, bytes, i);
  }
  PartitionTable merged;
  for (const PartitionTable* part : {&first, &second}) {
    for (uint32_t i = 0; i < part->size(); ++i) {
      PartitionTable::Entry e = part->EntryAt(i);
      merged.AddAggregate(e.canonical, e.hash, e.items, e.bytes, e.largest_item_bytes,
                          e.largest_item_index);
    }
  }
  ASSERT_EQ(merged.size(), whole.size());
  for (uint32_t i = 0; i < whole.size(); ++i) {
    PartitionTable::Entry w = whole.EntryAt(i);
    std::optional<PartitionTable::Entry> m = Find(merged, std::string(w.canonical));
    ASSERT_TRUE(m.has_value());
    EXPECT_EQ(m->items, w.items);
    EXPECT_EQ(m->bytes, w.bytes);
    EXPECT_EQ(m->largest_item_bytes, w.largest_item_bytes);
    EXPECT_EQ(m->largest_item_index, w.largest_item_index);
  }
}

}  // namespace
}  // namespace partplay::internal
