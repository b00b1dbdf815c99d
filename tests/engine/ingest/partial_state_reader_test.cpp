// The partial reader is a parser: every truncation and corruption of a partial is a located
// bad_partial; broken id-pair records, hashed parts, repeated keys, values in forms no writer
// writes and other versions are named; a partial written in pieces is the same bytes.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <xxhash.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "partial_state_test_helpers.h"
#include "partplay/ingest/analysis.h"
#include "partplay/report/report_builder.h"
#include "sanitizer_scale.h"

namespace partplay {
namespace {

using namespace partial_state_test;  // NOLINT: the shared helpers

// --- the partial reader ----------------------------------------------------------------------

std::string SomePartial(const AnalysisOptions& options) {
  auto part = Analyzer::CreatePart(options);
  EXPECT_TRUE(part.ok());
  EXPECT_TRUE(part.value()->Feed(RandomInput(9, 40)).ok());
  EXPECT_TRUE(part.value()->Finish().ok());
  auto bytes = part.value()->SerializePartial();
  EXPECT_TRUE(bytes.ok());
  return bytes.ok() ? bytes.value() : "";
}

// A forged partial with the checksum it needs (as a forged file could have), so the reader's
// value checks, not the checksum, decide.
std::string WithRightChecksum(std::string forged) {
  uint64_t sum = XXH3_64bits(forged.data(), forged.size() - 8);
  std::memcpy(&forged[forged.size() - 8], &sum, 8);
  return forged;
}

// A part (not the first) fed `text` and finished, or null when either failed.
std::unique_ptr<Analyzer> FinishedPart(const AnalysisOptions& options, std::string_view text) {
  auto part = Analyzer::CreatePart(options);
  if (!part.ok() || !part.value()->Feed(text).ok() || !part.value()->Finish().ok()) return nullptr;
  return std::move(part).value();
}

TEST(PartialStateTest, EveryTruncationIsALocatedBadPartial) {
  for (const auto& options : {Options({"/user"}, 10, "/w"), Options({"/id"})}) {
    std::string bytes = SomePartial(options);
    ASSERT_TRUE(Analyzer::ParsePartial(bytes).ok());
    for (size_t n = 0; n < bytes.size(); n += scale::Step(7)) {
      auto parsed = Analyzer::ParsePartial(std::string_view(bytes).substr(0, n));
      ASSERT_FALSE(parsed.ok()) << n;
      EXPECT_EQ(parsed.status().code(), ErrorCode::kBadPartial) << n;
      EXPECT_GE(parsed.status().where().byte_offset, 0) << n;
      EXPECT_LE(parsed.status().where().byte_offset, static_cast<int64_t>(n)) << n;
    }
  }
}

TEST(PartialStateTest, EveryFlippedByteIsRefused) {
  std::string bytes = SomePartial(Options({"/user"}, 10, "/w"));
  for (size_t i = 0; i < bytes.size(); i += scale::Step(5)) {
    std::string corrupt = bytes;
    corrupt[i] = static_cast<char>(corrupt[i] ^ 0x41);
    auto parsed = Analyzer::ParsePartial(corrupt);
    ASSERT_FALSE(parsed.ok()) << i;  // a value check, or at the latest the checksum
    EXPECT_EQ(parsed.status().code(), ErrorCode::kBadPartial) << i;
  }
}

// The (partition, id) pair records are read as carefully as the rest (with a right checksum,
// as a forged file could have): a record outside the part is refused where it starts.
TEST(PartialStateTest, ABrokenIdPairRecordIsLocated) {
  AnalysisOptions options = Options({"/user"});
  std::string text;
  for (int i = 0; i < 20; ++i) text += fmt::format("{{\"id\":\"id{:02}\",\"user\":\"u{}\"}}\n", i, i % 3);
  auto part = FinishedPart(options, text);
  ASSERT_NE(part, nullptr);
  auto written = part->SerializePartial();
  ASSERT_TRUE(written.ok());
  ASSERT_TRUE(Analyzer::ParsePartial(written.value()).ok());
  // Item 5's record: six one-byte varints (index, offset, bytes, line, column, id length).
  const size_t start = written.value().find("id05") - 6;
  for (bool for_merge : {false, true}) {
    std::string forged = written.value();
    forged[start + 4] = 0;  // column 0
    forged = WithRightChecksum(std::move(forged));
    auto parsed = for_merge ? Analyzer::ParsePartialForMerge(forged) : Analyzer::ParsePartial(forged);
    ASSERT_FALSE(parsed.ok()) << for_merge;
    EXPECT_EQ(parsed.status().code(), ErrorCode::kBadPartial);
    EXPECT_NE(parsed.status().message().find("an id pair's first item lies outside the part"),
              std::string::npos) << parsed.status().message();
    EXPECT_EQ(parsed.status().where().byte_offset, static_cast<int64_t>(start)) << for_merge;
  }
}

// A part made with PartIds::kHashed writes its id pairs' hashes and no place at all (nor a /id
// partition's first item): id-check byte 2, read back to the same bytes; records forged into it
// and an id-check byte past 2 are refused where they are.
// Hashed parts' pairs are checked at the merge, all parts together: the refusal names the first
// part (in input order) that holds a pair twice or one an earlier part holds, in memory and read
// for a merge alike, with two parts and with more.
TEST(PartialStateTest, HashedPartsNameTheFirstPartThatRepeatsAPair) {
  auto item = [](const char* id, int k) { return fmt::format("{{\"id\":\"{}\",\"k\":{}}}\n", id, k); };
  struct Case {
    std::vector<std::string> parts;
    const char* refusal;  // empty: the merge holds
  };
  const std::vector<Case> cases = {
      {{item("a", 1) + item("b", 1), item("c", 1), item("d", 1)}, ""},
      {{item("a", 1), item("b", 1), item("a", 1)}, "part 3 holds an id an earlier part holds too"},
      {{item("a", 1), item("b", 1) + item("b", 1), item("a", 1)}, "part 2 holds an id twice"},
      {{item("a", 1), item("b", 1), item("c", 1) + item("b", 1)}, "part 3 holds an id an earlier part holds too"},
      {{item("a", 1) + item("a", 2), item("b", 1), item("a", 2)}, "part 3 holds an id an earlier part holds too"},
      {{item("a", 1), item("a", 2)}, ""},
      {{item("a", 1), item("b", 2) + item("a", 1)}, "part 2 holds an id an earlier part holds too"},
      {{item("a", 1) + item("a", 1), item("a", 1)}, "part 1 holds an id twice"},
  };
  const AnalysisOptions options = Options({"/k"});
  for (const Case& c : cases) {
    std::string text;
    std::vector<size_t> cuts;
    for (const std::string& part : c.parts) {
      if (!text.empty()) cuts.push_back(text.size());
      text += part;
    }
    auto one = OnePass(options, text);
    ASSERT_TRUE(one.ok());
    for (bool serialized : {false, true}) {
      auto merged = Sharded(options, text, cuts, serialized, 4096, serialized, PartIds::kHashed);
      if (*c.refusal == '\0') {
        ExpectSame(one, merged, text);
        continue;
      }
      ASSERT_FALSE(merged.ok()) << text;
      EXPECT_EQ(merged.status().message(),
                std::string(c.refusal) + ", and was made without id records to name it by: "
                                          "analyse the parts again with records")
          << text;
      bool again = false;
      ExpectSame(one, ShardedHashed(options, text, cuts, serialized, serialized, &again), text);
      EXPECT_TRUE(again);
    }
  }
}

TEST(PartialStateTest, AHashedPartKeepsNoRecords) {
  std::string text;
  for (int i = 0; i < 20; ++i) text += fmt::format("{{\"id\":\"id{:02}\",\"user\":\"u{}\"}}\n", i, i % 3);
  for (const auto& options : {Options({"/user"}, 0), Options({"/id"}, 0)}) {
    auto recorded = FinishedPart(options, text);
    auto hashed = Analyzer::CreatePart(options, false, PartIds::kHashed);
    ASSERT_TRUE(hashed.ok() && recorded != nullptr);
    ASSERT_TRUE(hashed.value()->Feed(text).ok() && hashed.value()->Finish().ok());
    auto with = recorded->SerializePartial();
    auto without = hashed.value()->SerializePartial();
    ASSERT_TRUE(with.ok() && without.ok());
    EXPECT_EQ(without.value().find("id05"), options.key_paths[0] == "/id" ? without.value().find("id05")
                                                                           : std::string::npos);
    // Each record is gone: a /id partition's five one-byte varints (index, offset, bytes, line,
    // column), an id pair's six and its id.
    EXPECT_EQ(with.value().size() - without.value().size(),
              options.key_paths[0] == "/id" ? 20u * 5 : 20u * (6 + 4))
        << options.key_paths[0];
    for (bool for_merge : {false, true}) {
      auto parsed = for_merge ? Analyzer::ParsePartialForMerge(without.value())
                              : Analyzer::ParsePartial(without.value());
      ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
      auto again = parsed.value()->SerializePartial();
      ASSERT_TRUE(again.ok());
      EXPECT_EQ(again.value(), without.value());
    }
    // The id-check byte (after the key paths, --discover and the weight path) is where the two
    // differ first.
    size_t id_check = 0;
    while (with.value()[id_check] == without.value()[id_check]) ++id_check;
    ASSERT_EQ(without.value()[id_check], 2);
    ASSERT_EQ(with.value()[id_check], 1);
    std::string forged = without.value();
    forged[id_check] = 3;
    auto parsed = Analyzer::ParsePartial(WithRightChecksum(forged));
    ASSERT_FALSE(parsed.ok());
    EXPECT_EQ(parsed.status().message(),
              fmt::format("partial state: the id check is 3, not 0, 1 or 2 (at byte {})", id_check));
    EXPECT_EQ(parsed.status().where().byte_offset, static_cast<int64_t>(id_check));
  }
  // Keyed by /user, the two partials of one item differ in the id-check byte and from the
  // pairs' string on (empty in the hashed one; with one pair the hashed part's sorted hashes are
  // the recorded part's): a recorded partial marked hashed is refused at its records.
  const std::string one_item = "{\"id\":\"id00\",\"user\":\"u0\"}\n";
  auto hashed = Analyzer::CreatePart(Options({"/user"}, 0), false, PartIds::kHashed);
  ASSERT_TRUE(hashed.ok() && hashed.value()->Feed(one_item).ok() && hashed.value()->Finish().ok());
  auto written = hashed.value()->SerializePartial();
  auto full = FinishedPart(Options({"/user"}, 0), one_item)->SerializePartial();
  ASSERT_TRUE(written.ok() && full.ok());
  size_t id_check = 0;
  while (written.value()[id_check] == full.value()[id_check]) ++id_check;
  size_t length_at = id_check + 1;  // the pairs' string's length (u64), where they differ next
  while (written.value()[length_at] == full.value()[length_at]) ++length_at;
  std::string forged = full.value();
  forged[id_check] = 2;
  auto parsed = Analyzer::ParsePartial(WithRightChecksum(forged));
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.status().message(),
            fmt::format("partial state: a part made without id records holds id pair records (at "
                        "byte {})",
                        length_at + 8));
  EXPECT_EQ(parsed.status().where().byte_offset, static_cast<int64_t>(length_at + 8));
}

// A key that repeats in a partial is refused where its partition starts, also when a later
// partition of the same batch of adds, or the same partition's counts, are broken too.
TEST(PartialStateTest, ARepeatedKeyIsTheFirstProblem) {
  for (const auto& options : {Options({"/user"}, 10, "/w"), Options({"/id"})}) {
    const std::string path = options.key_paths[0].substr(1);
    std::string text;
    for (int i = 0; i < 40; ++i) {
      text += fmt::format("{{\"{}\":\"k{:02}\",\"w\":{}}}\n", path, i % 20, i);
    }
    if (path == "id") {
      text.clear();
      for (int i = 0; i < 20; ++i) text += fmt::format("{{\"id\":\"k{:02}\",\"w\":{}}}\n", i, i);
    }
    auto part = FinishedPart(options, text);
    ASSERT_NE(part, nullptr);
    auto written = part->SerializePartial();
    ASSERT_TRUE(written.ok());
    const std::string bytes = written.value();
    // Partition n's key "kNN": its canonical bytes (kind, u32 length, text) after a one-byte
    // varint length, then its counts as varints.
    auto key_at = [&](int n) {
      size_t at = bytes.find(fmt::format("k{:02}", n));
      EXPECT_NE(at, std::string::npos) << n;
      return at;
    };
    const size_t start5 = key_at(5) - 5 - 1;  // where partition 5 starts
    for (int variant = 0; variant < 3; ++variant) {
      std::string corrupt = bytes;
      corrupt.replace(key_at(5), 3, "k01");  // partition 5 repeats partition 1
      if (variant == 1) {
        corrupt[key_at(6) + 3] = 0;  // partition 6 holds no items
      } else if (variant == 2) {
        corrupt[key_at(5) + 3] = 0;  // and partition 5 none either
      }
      auto parsed = Analyzer::ParsePartial(corrupt);
      ASSERT_FALSE(parsed.ok()) << variant;
      EXPECT_EQ(parsed.status().code(), ErrorCode::kBadPartial);
      EXPECT_NE(parsed.status().message().find("partition 5's key appears twice"), std::string::npos)
          << variant << ": " << parsed.status().message();
      EXPECT_EQ(parsed.status().where().byte_offset, static_cast<int64_t>(start5)) << variant;
    }
    // Read for a merge (with a right checksum, as a forged file could have), the repeat is
    // found by the merge, alone (the part's table loaded) or after a first part; other damage
    // is found when read.
    std::string forged = bytes;
    forged.replace(key_at(5), 3, "k01");
    forged = WithRightChecksum(std::move(forged));
    auto eager = Analyzer::ParsePartial(forged);
    ASSERT_FALSE(eager.ok());
    EXPECT_EQ(eager.status().where().byte_offset, static_cast<int64_t>(start5));
    for (bool after_first : {false, true}) {
      auto kept = Analyzer::ParsePartialForMerge(forged);
      ASSERT_TRUE(kept.ok()) << kept.status().ToString();
      std::vector<std::unique_ptr<Analyzer>> parts;
      if (after_first) {
        auto first = Analyzer::CreatePart(options, true);
        ASSERT_TRUE(first.ok());
        ASSERT_TRUE(first.value()->Feed(text).ok());
        ASSERT_TRUE(first.value()->Finish().ok());
        parts.push_back(std::move(first).value());
      }
      parts.push_back(std::move(kept).value());
      auto merged = Analyzer::Merge(std::move(parts));
      ASSERT_FALSE(merged.ok()) << after_first;
      EXPECT_EQ(merged.status().ToString(), eager.status().ToString()) << after_first;
    }
    std::memset(&forged[key_at(6) + 3], 0, 8);
    forged = WithRightChecksum(std::move(forged));
    auto kept = Analyzer::ParsePartialForMerge(forged);
    ASSERT_FALSE(kept.ok());
    EXPECT_NE(kept.status().message().find("partition 6's counts are out of range"),
              std::string::npos)
        << kept.status().message();

    // Partition 6 alone broken: its counts are the problem.
    std::string corrupt = bytes;
    corrupt[key_at(6) + 3] = 0;
    auto parsed = Analyzer::ParsePartial(corrupt);
    ASSERT_FALSE(parsed.ok());
    EXPECT_NE(parsed.status().message().find("partition 6's counts are out of range"),
              std::string::npos)
        << parsed.status().message();
  }
}

// The partial written in pieces (as the wasm worker copies it out) is the same bytes, of the
// length said beforehand; a partial of several MiB crosses piece boundaries inside values.
TEST(PartialStateTest, WrittenInPiecesIsTheSameBytes) {
  for (const auto& options : {Options({"/id"}), Options({"/user"}, 10, "/w")}) {
    std::string text;
    for (int i = 0; i < 40000; ++i) {
      text += fmt::format("{{\"id\":\"{:08x}-{}\",\"user\":\"u{}\",\"w\":{}.5}}\n", i * 2654435761u, i,
                          i % 997, i);
    }
    auto part = FinishedPart(options, text);
    ASSERT_NE(part, nullptr);
    auto whole = part->SerializePartial();
    ASSERT_TRUE(whole.ok());
    auto size = part->PartialSize();
    ASSERT_TRUE(size.ok());
    EXPECT_EQ(size.value(), whole.value().size());
    std::string joined;
    size_t pieces = 0;
    Status written = part->SerializePartialTo([&](std::string_view piece) {
      EXPECT_LE(piece.size(), size_t{1} << 20);
      EXPECT_FALSE(piece.empty());
      joined.append(piece);
      ++pieces;
    });
    ASSERT_TRUE(written.ok()) << written.ToString();
    EXPECT_EQ(joined, whole.value());
    if (options.key_paths[0] == "/id") EXPECT_GT(pieces, 2u) << whole.value().size();
    EXPECT_TRUE(Analyzer::ParsePartial(joined).ok());
  }
  auto unfinished = Analyzer::CreatePart(Options({"/id"}));
  ASSERT_TRUE(unfinished.ok());
  EXPECT_EQ(unfinished.value()->PartialSize().status().code(), ErrorCode::kInvalidState);
  EXPECT_EQ(unfinished.value()->SerializePartialTo([](std::string_view) {}).code(),
            ErrorCode::kInvalidState);
}

// Every value has one form, the one the writer writes, so a partial read back (loaded, or kept
// in its bytes for a merge) serializes to the same bytes: a varint longer than it needs to be
// and a weight sum with a zero part are refused where they start.
TEST(PartialStateTest, AValueInAFormNoWriterWritesIsRefused) {
  AnalysisOptions options = Options({"/user"}, 10, "/w");
  std::string text;
  for (int i = 0; i < 40; ++i) text += fmt::format("{{\"user\":\"k{:02}\",\"w\":5}}\n", i % 20);
  auto part = FinishedPart(options, text);
  ASSERT_NE(part, nullptr);
  auto written = part->SerializePartial();
  ASSERT_TRUE(written.ok());
  const std::string bytes = written.value();
  auto refused = [&](const std::string& changed, size_t at, const std::string& message) {
    const std::string forged = WithRightChecksum(changed);
    for (bool for_merge : {false, true}) {
      auto parsed =
          for_merge ? Analyzer::ParsePartialForMerge(forged) : Analyzer::ParsePartial(forged);
      ASSERT_FALSE(parsed.ok()) << message;
      EXPECT_EQ(parsed.status().code(), ErrorCode::kBadPartial);
      EXPECT_NE(parsed.status().message().find(message), std::string::npos)
          << parsed.status().message();
      EXPECT_EQ(parsed.status().where().byte_offset, static_cast<int64_t>(at)) << message;
    }
  };
  // Partition 5: key "k05", then its item count (2) as a one-byte varint, ... and its weight
  // sum (one part, 10.0).
  const size_t items_at = bytes.find("k05") + 3;
  ASSERT_EQ(bytes[items_at], 2);
  std::string longer = bytes;
  longer.replace(items_at, 1, std::string("\x82\x00", 2));  // 2 in two bytes
  refused(longer, items_at, "a number not in its shortest form");
  longer = bytes;
  longer.replace(items_at, 1, std::string("\x82\x80\x80\x00", 4));  // and in four
  refused(longer, items_at, "a number not in its shortest form");
  double ten = 10;
  const size_t weight_at =
      bytes.find(std::string(reinterpret_cast<const char*>(&ten), 8), items_at);
  ASSERT_NE(weight_at, std::string::npos);
  for (double zero : {0.0, -0.0}) {
    std::string forged = bytes;
    std::memcpy(&forged[weight_at], &zero, 8);
    refused(forged, weight_at, "a weight sum holds a zero part");
  }
}

// A weight sum that grew past two parts and then cancelled to zero keeps one zero part in
// memory; it is written without it, and reads back to the same bytes.
TEST(PartialStateTest, AWeightSumCancelledToZeroRoundTrips) {
  AnalysisOptions options = Options({"/user"}, 10, "/w");
  std::string text;
  for (const char* w : {"1e16", "1", "0.1", "-1e16", "-1", "-0.1", "0.25", "-0.25"}) {
    text += fmt::format("{{\"user\":\"a\",\"w\":{}}}\n", w);
  }
  auto part = FinishedPart(options, text);
  ASSERT_NE(part, nullptr);
  auto written = part->SerializePartial();
  ASSERT_TRUE(written.ok());
  auto read = Analyzer::ParsePartial(written.value());
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  auto kept = Analyzer::ParsePartialForMerge(written.value());
  ASSERT_TRUE(kept.ok()) << kept.status().ToString();
  EXPECT_EQ(read.value()->SerializePartial().value(), written.value());
  EXPECT_EQ(kept.value()->SerializePartial().value(), written.value());
  std::vector<std::unique_ptr<Analyzer>> parts;
  parts.push_back(std::move(read).value());
  auto merged = Analyzer::Merge(std::move(parts));
  ASSERT_TRUE(merged.ok()) << merged.status().ToString();
  AnalysisReport report = merged.value()->BuildReport({});
  ASSERT_EQ(report.partitions.size(), 1u);
  EXPECT_EQ(report.partitions[0].weight, 0.0);
}

TEST(PartialStateTest, AnotherVersionIsNamed) {
  std::string bytes = SomePartial(Options({"/user"}));
  bytes[16] = 9;
  auto parsed = Analyzer::ParsePartial(bytes);
  ASSERT_FALSE(parsed.ok());
  EXPECT_NE(parsed.status().message().find("format version 9"), std::string::npos)
      << parsed.status().message();
  EXPECT_EQ(parsed.status().where().byte_offset, 16);
  auto foreign = Analyzer::ParsePartial("{\"id\":\"1\"}");
  ASSERT_FALSE(foreign.ok());
  EXPECT_EQ(foreign.status().code(), ErrorCode::kBadPartial);
}

}  // namespace
}  // namespace partplay
