// Sharded analysis: an input cut at item boundaries into parts, each analyzed by CreatePart and
// merged (directly, and through the serialized partial format), gives byte for byte the report
// one pass gives — on every example, on seeded random inputs and cut points, with every option
// that changes what is kept — and exactly one pass's error on every bad-input class; and the
// API's rules for parts. The partial reader's tests are partial_state_reader_test.cpp.
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
#include "sanitizer_scale.h"
#include "partplay/ingest/analysis.h"
#include "partplay/report/report_builder.h"

namespace partplay {
namespace {

using namespace partial_state_test;  // NOLINT: the shared helpers

// --- examples ------------------------------------------------------------------------------

TEST(PartialStateTest, EveryExampleInPartsEqualsOnePass) {
  std::mt19937_64 rng(11);
  for (const char* name : {"orders.ndjson", "vehicles.ndjson"}) {
    std::string text = ReadFile(std::string(PP_EXAMPLES_DIR) + "/" + name);
    ASSERT_FALSE(text.empty()) << name;
    for (const auto& options : {Options({"/id"}), Options({"/customerId"}, 100, "/total"),
                                Options({"/status", "/channel"}, 7), Options({"/vehicleId"}, -1),
                                Options({"/address/city"}, 0)}) {
      auto one = OnePass(options, text);
      ASSERT_TRUE(one.ok()) << one.status().ToString();
      for (size_t n : {1, 2, 5, 13}) {
        if (scale::kSanitized && (n == 1 || n == 5)) continue;  // 2 and 13 parts under ASan
        std::vector<size_t> cuts = LineCuts(text, n, rng);
        std::string what =
            std::string(name) + " " + options.key_paths[0] + " cuts " + std::to_string(cuts.size());
        ExpectSame(one, Sharded(options, text, cuts, false), what);
        ExpectSame(one, Sharded(options, text, cuts, true), what + " serialized");
        ExpectSame(one, Sharded(options, text, cuts, true, 4096, true), what + " for merge");
        ExpectSame(one, ShardedHashed(options, text, cuts, false, false), what + " hashed");
        ExpectSame(one, ShardedHashed(options, text, cuts, true, true), what + " hashed, for merge");
      }
    }
  }
}

// --- random inputs and cuts --------------------------------------------------------------------

// Under AddressSanitizer the seeds and cuts are fewer: all took 147 s there (2 s natively); 3
// seeds in 3 and 40 parts keep every kind of key, cut and merge, rereads included.
constexpr uint64_t kRandomInputSeeds = scale::Count<uint64_t>(12, 3);

TEST(PartialStateTest, SeededRandomInputsAndCutsEqualOnePass) {
  int hashed = 0, reread = 0;  // merges of PartIds::kHashed parts, and how many read again
  for (uint64_t seed = 1; seed <= kRandomInputSeeds; ++seed) {
    std::string text = RandomInput(seed, 400);
    std::mt19937_64 rng(seed * 7919);
    AnalysisOptions with_hash = Options({"/user"}, 60);
    with_hash.synthetic.kind = SyntheticKeyOptions::Kind::kHashSuffix;
    with_hash.synthetic.buckets = 4;
    with_hash.synthetic.suffix_path = "/tag";
    AnalysisOptions concat = Options({"/user"}, 3);
    concat.synthetic.kind = SyntheticKeyOptions::Kind::kConcat;
    concat.synthetic.paths = {"/user", "/n/a"};
    AnalysisOptions no_ids = Options({"/user"}, 25, "/w");
    no_ids.check_ids = false;
    for (const auto& options :
         {Options({"/user"}, 10000, "/w"), Options({"/id"}, 37, "/w"),
          Options({"/n/a", "/user"}, 1), Options({"/tag"}, -1), with_hash, concat, no_ids}) {
      auto one = OnePass(options, text);
      ASSERT_TRUE(one.ok()) << one.status().ToString();
      for (size_t n : {1, 3, 9, 40}) {
        if (scale::kSanitized && n != 3 && n != 40) continue;  // the hashed ones under ASan
        std::vector<size_t> cuts = LineCuts(text, n, rng);
        std::string what = "seed " + std::to_string(seed) + " key " + options.key_paths[0] +
                           " cuts " + std::to_string(cuts.size());
        ExpectSame(one, Sharded(options, text, cuts, false, 1 + rng() % 700), what);
        ExpectSame(one, Sharded(options, text, cuts, true), what + " serialized");
        ExpectSame(one, Sharded(options, text, cuts, true, 4096, true), what + " for merge");
        bool again = false;  // hashed parts: in memory for 3 cuts, read for a merge for 40
        if (n == 3 || n == 40) {
          ExpectSame(one, ShardedHashed(options, text, cuts, n == 40, n == 40, &again),
                     what + " hashed");
          reread += again;
          ++hashed;
        }
      }
    }
  }
  // The inputs repeat ids across parts (the rereads) and not always (the merges that held).
  EXPECT_GT(reread, 0);
  EXPECT_LT(reread, hashed);
}

TEST(PartialStateTest, DuplicateIdsAcrossPartsAreFound) {
  std::string text =
      "{\"id\":\"a\",\"k\":1}\n{\"id\":\"b\",\"k\":1}\n{\"id\":\"a\",\"k\":1}\n"
      "{\"id\":\"a\",\"k\":2}\n";
  for (const auto& options : {Options({"/k"}), Options({"/id"})}) {
    auto one = OnePass(options, text);
    ASSERT_TRUE(one.ok());
    // Keyed by /k, partition 1 holds "a" twice (item 2 repeats item 0) and partition 2's "a"
    // is no repeat; keyed by /id, items 2 and 3 both repeat item 0.
    std::string count = options.key_paths[0] == "/k" ? "1" : "2";
    EXPECT_NE(one.value().find("\"duplicate_id\":{\"count\":" + count), std::string::npos);
    // Every cut between items: the repeat of "a" in partition 1 is in another part.
    std::vector<size_t> cuts;
    for (size_t at = text.find('\n'); at + 1 < text.size(); at = text.find('\n', at + 1)) {
      cuts.push_back(at + 1);
      ExpectSame(one, Sharded(options, text, {at + 1}, true), "cut " + std::to_string(at + 1));
    }
    ExpectSame(one, Sharded(options, text, cuts, true), "every item apart");
    ExpectSame(one, Sharded(options, text, cuts, true, 4096, true), "every item apart, for merge");
    // Parts made with PartIds::kHashed cannot name the repeat: the merge refuses it, in memory
    // and read for a merge, and the parts read again with records give one pass's report.
    for (bool serialized : {false, true}) {
      auto hashed = Sharded(options, text, {text.find("\n{\"id\":\"a\",\"k\":1}") + 1}, serialized,
                            4096, serialized, PartIds::kHashed);
      ASSERT_FALSE(hashed.ok());
      EXPECT_EQ(hashed.status().code(), ErrorCode::kBadPartial);
      EXPECT_EQ(hashed.status().message(),
                "part 2 holds an id an earlier part holds too, and was made without id records "
                "to name it by: analyse the parts again with records");
      bool again = false;
      ExpectSame(one, ShardedHashed(options, text, cuts, serialized, serialized, &again),
                 "hashed, every item apart");
      EXPECT_TRUE(again);
    }
    // A repeat inside one part cannot be named by a hashed part either (its pairs are checked
    // at the merge): the parts are read again with records. (Keyed by /id the first part names
    // its own repeat, a partition it holds, and the second part's "a" is the one refused.)
    bool again = false;
    ExpectSame(one, ShardedHashed(options, text, {text.rfind("{\"id\"")}, true, true, &again),
               "hashed, the last item apart");
    EXPECT_TRUE(again);
    auto twice = Sharded(options, text, {text.rfind("{\"id\"")}, true, 4096, true,
                         PartIds::kHashed);
    ASSERT_FALSE(twice.ok());
    EXPECT_EQ(twice.status().message(),
              options.key_paths[0] == "/id"
                  ? "part 2 holds an id an earlier part holds too, and was made without id "
                    "records to name it by: analyse the parts again with records"
                  : "part 1 holds an id twice, and was made without id records to name it by: "
                    "analyse the parts again with records");
    // An empty first part: the next part, read for a merge, is adopted (its table loaded from
    // the partial's bytes, which then go).
    std::vector<size_t> after_empty = cuts;
    after_empty.insert(after_empty.begin(), 0);
    ExpectSame(one, Sharded(options, text, after_empty, true, 4096, true), "an empty first part");
  }
}

TEST(PartialStateTest, WeightSumsAreExactWhateverTheGrouping) {
  // 1e16 + 1 + -1e16 + 1 is 2; a float sum in item order gives 1 or 0.
  std::string text =
      "{\"id\":\"1\",\"k\":1,\"w\":1e16}\n{\"id\":\"2\",\"k\":1,\"w\":1}\n"
      "{\"id\":\"3\",\"k\":1,\"w\":-1e16}\n{\"id\":\"4\",\"k\":1,\"w\":1}\n"
      "{\"id\":\"5\",\"k\":1,\"w\":0.1}\n{\"id\":\"6\",\"k\":1,\"w\":0.2}\n";
  AnalysisOptions options = Options({"/k"}, 10000, "/w");
  auto analyzer = Analyzer::Create(options);
  ASSERT_TRUE(analyzer.ok());
  ASSERT_TRUE(analyzer.value()->Feed(text).ok());
  ASSERT_TRUE(analyzer.value()->Finish().ok());
  AnalysisReport r = analyzer.value()->BuildReport({});
  ASSERT_EQ(r.partitions.size(), 1u);
  // The exact sum 2 + 0.1 + 0.2 (as doubles), correctly rounded, is the double 2.3; adding in
  // item order gives 1.3000000000000003.
  EXPECT_EQ(r.partitions[0].weight, 2.3);
  auto one = OnePass(options, text);
  for (size_t at = text.find('\n'); at + 1 < text.size(); at = text.find('\n', at + 1)) {
    ExpectSame(one, Sharded(options, text, {at + 1}, true), "cut " + std::to_string(at + 1));
  }
}

TEST(PartialStateTest, TheSampleIsTheWholeInputsFirstItems) {
  // Part 1 holds items 0-1, part 2 items 2-4: with --discover 3 the sample is items 0-2, so
  // /late (only in items 3-4) is no candidate, and /mid (item 2) is.
  std::string text =
      "{\"id\":\"1\",\"a\":1}\n{\"id\":\"2\",\"a\":2}\n{\"id\":\"3\",\"mid\":1}\n"
      "{\"id\":\"4\",\"late\":1}\n{\"id\":\"5\",\"late\":2}\n";
  AnalysisOptions options = Options({"/a"}, 3);
  auto one = OnePass(options, text);
  ASSERT_TRUE(one.ok());
  EXPECT_NE(one.value().find("\"/mid\""), std::string::npos);
  EXPECT_EQ(one.value().find("\"/late\""), std::string::npos);
  size_t cut = text.find("{\"id\":\"3\"");
  ExpectSame(one, Sharded(options, text, {cut}, true), "sample across parts");
}

// --- errors ----------------------------------------------------------------------------------

TEST(PartialStateTest, ErrorsAreOnePassErrorsWithTheirLocations) {
  std::string good = RandomInput(5, 60);
  struct Bad {
    const char* name;
    std::string item;
  };
  std::vector<Bad> bad = {
      {"bad JSON", "{\"id\":\"x\",\"user\":tru}\n"},
      {"not an object", "  [1,2]\n"},
      {"a number item", "42\n"},
      {"invalid UTF-8", "{\"id\":\"\xff\"}\n"},
      {"too deep", std::string(200, '[') + std::string(200, ']') + "\n"},
      {"nested too deep", "{\"a\":" + std::string(1100, '[') + std::string(1100, ']') + "}\n"},
      {"bad escape", "{\"id\":\"\\q\"}\n"},
      {"control character", "{\"id\":\"a\tb\"}\n"},
      {"unclosed object", "{\"id\":\"y\",\n"},
  };
  std::mt19937_64 rng(3);
  for (const Bad& b : bad) {
    for (bool at_end : {false, true}) {
      size_t at = at_end ? good.size() : good.find('\n', good.size() / 2) + 1;
      std::string text = good.substr(0, at) + b.item + good.substr(at);
      for (const auto& options : {Options({"/user"}), Options({"/id"}, 5, "/w")}) {
        auto one = OnePass(options, text);
        ASSERT_FALSE(one.ok()) << b.name;
        for (size_t n : {1, 2, 6}) {
          if (scale::kSanitized && n != 6) continue;  // 6 parts under ASan
          std::vector<size_t> cuts = LineCuts(text, n, rng);
          std::string what = std::string(b.name) + (at_end ? " at the end" : "") + " cuts " +
                             std::to_string(cuts.size());
          ExpectSame(one, Sharded(options, text, cuts, false), what);
          ExpectSame(one, Sharded(options, text, cuts, true), what + " serialized");
          ExpectSame(one, Sharded(options, text, cuts, true, 4096, true), what + " for merge");
        }
        // A part starting right at the bad item (an object: a part that starts with another
        // value is read as an input of its own, an array or a bad input), or right after it.
        if (b.item[0] == '{') {
          ExpectSame(one, Sharded(options, text, {at}, true), std::string(b.name) + " at a start");
        }
        if (b.item.find(",\n") == std::string::npos && !at_end) {
          ExpectSame(one, Sharded(options, text, {at + b.item.size()}, true),
                     std::string(b.name) + " before a start");
        }
      }
    }
  }
}

TEST(PartialStateTest, EmptyPartsAreNoErrorUnlessEverythingIsEmpty) {
  AnalysisOptions options = Options({"/k"});
  std::string text = "\n  \n{\"id\":\"1\",\"k\":1}\n \n";
  ExpectSame(OnePass(options, text), Sharded(options, text, {1, 4, 22}, true), "whitespace parts");
  std::string blank = " \n\n  \n";
  auto one = OnePass(options, blank);
  ASSERT_FALSE(one.ok());
  EXPECT_EQ(one.status().code(), ErrorCode::kEmptyInput);
  ExpectSame(one, Sharded(options, blank, {2, 3}, true), "all empty");
}

TEST(PartialStateTest, OversizedItemsAreFoundInEveryPart) {
  std::string big(2 * 1024 * 1024 + 10, 'x');
  std::string text = "{\"id\":\"1\",\"k\":1}\n{\"id\":\"2\",\"k\":1,\"pad\":\"" + big +
                     "\"}\n{\"id\":\"3\",\"k\":2}\n";
  AnalysisOptions options = Options({"/k"});
  auto one = OnePass(options, text);
  ASSERT_TRUE(one.ok());
  EXPECT_NE(one.value().find("\"oversized_items\":{\"limit_bytes\":2097152,\"count\":1"),
            std::string::npos);
  ExpectSame(one, Sharded(options, text, {17, text.size() - 17}, true, 1 << 16), "oversized");
}

// --- the API's rules -------------------------------------------------------------------------

TEST(PartialStateTest, RandomSuffixIsRefusedInParts) {
  AnalysisOptions options = Options({"/k"});
  options.synthetic.kind = SyntheticKeyOptions::Kind::kRandomSuffix;
  options.synthetic.buckets = 5;
  auto part = Analyzer::CreatePart(options);
  ASSERT_FALSE(part.ok());
  EXPECT_EQ(part.status().code(), ErrorCode::kBadOption);
  EXPECT_TRUE(Analyzer::Create(options).ok());
}

TEST(PartialStateTest, PartsWithOtherOptionsDoNotMerge) {
  std::vector<std::unique_ptr<Analyzer>> parts;
  for (const char* key : {"/a", "/b"}) {
    auto part = Analyzer::CreatePart(Options({key}));
    ASSERT_TRUE(part.ok());
    ASSERT_TRUE(part.value()->Feed("{\"id\":\"1\"}\n").ok());
    ASSERT_TRUE(part.value()->Finish().ok());
    parts.push_back(std::move(part).value());
  }
  auto merged = Analyzer::Merge(std::move(parts));
  ASSERT_FALSE(merged.ok());
  EXPECT_EQ(merged.status().code(), ErrorCode::kBadPartial);
  EXPECT_NE(merged.status().message().find("part 2"), std::string::npos);
}

TEST(PartialStateTest, AFirstPartIsNeverSerializedAndComesFirst) {
  auto make = [](bool first) {
    auto part = Analyzer::CreatePart(Options({"/a"}), first);
    EXPECT_TRUE(part.ok());
    EXPECT_TRUE(part.value()->Feed("{\"id\":\"1\",\"a\":1}\n").ok());
    EXPECT_TRUE(part.value()->Finish().ok());
    return std::move(part).value();
  };
  EXPECT_EQ(make(true)->SerializePartial().status().code(), ErrorCode::kInvalidState);
  std::vector<std::unique_ptr<Analyzer>> parts;
  parts.push_back(make(false));
  parts.push_back(make(true));
  auto merged = Analyzer::Merge(std::move(parts));
  ASSERT_FALSE(merged.ok());
  EXPECT_EQ(merged.status().code(), ErrorCode::kInvalidState);
}

TEST(PartialStateTest, OnlyFinishedPartsSerialize) {
  auto whole = Analyzer::Create(Options({"/a"}));
  ASSERT_TRUE(whole.ok());
  EXPECT_EQ(whole.value()->SerializePartial().status().code(), ErrorCode::kInvalidState);
  auto part = Analyzer::CreatePart(Options({"/a"}));
  ASSERT_TRUE(part.ok());
  ASSERT_TRUE(part.value()->Feed("{\"id\":\"1\"}").ok());
  EXPECT_EQ(part.value()->SerializePartial().status().code(), ErrorCode::kInvalidState);
  ASSERT_TRUE(part.value()->Finish().ok());
  EXPECT_TRUE(part.value()->SerializePartial().ok());
  EXPECT_EQ(part.value()->Feed("{}").code(), ErrorCode::kInvalidState);  // sealed
}

}  // namespace
}  // namespace partplay
