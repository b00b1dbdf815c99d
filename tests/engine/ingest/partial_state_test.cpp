// Sharded analysis: an input cut at item boundaries into parts, each analyzed by CreatePart and
// merged (directly, and through the serialized partial format), gives byte for byte the report
// one pass gives — on every example, on seeded random inputs and cut points, with every option
// that changes what is kept — and exactly one pass's error on every bad-input class. The partial
// reader is a parser: every truncation and corruption of a partial is a located bad_partial.
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

#include "partplay/ingest/analysis.h"
#include "partplay/report/report_builder.h"

namespace partplay {
namespace {

std::string ReportJson(const Analyzer& analyzer, const AnalysisOptions& options) {
  ReportRequest request;
  request.container = ContainerOptions{};
  request.container->ru_per_second = 40000;
  if (options.key_paths.size() > 1) {
    request.container->version = PartitionKeyHashVersion::kMultiHash;
  }
  auto built = BuildFullReport(analyzer, options, request);
  EXPECT_TRUE(built.ok()) << built.status().ToString();
  return built.ok() ? built.value().json : "";
}

// One pass: the report JSON, or the error.
StatusOr<std::string> OnePass(const AnalysisOptions& options, std::string_view text) {
  PARTPLAY_ASSIGN_OR_RETURN(auto analyzer, Analyzer::Create(options));
  PARTPLAY_RETURN_IF_ERROR(analyzer->Feed(text));
  PARTPLAY_RETURN_IF_ERROR(analyzer->Finish());
  return ReportJson(*analyzer, options);
}

// The parts between `cuts` (offsets), each fed in chunks of `chunk` bytes, merged directly
// (serialized = false; the first part made as one, as the CLI's --jobs makes it) or after a
// round trip through the partial format.
// for_merge: the first part merged in memory, the others read by ParsePartialForMerge (their
// partitions unloaded until the merge), as the page's worker merges its pool's parts.
// ids: the parts' PartIds (ShardedHashed below is what a caller of kHashed does).
StatusOr<std::string> Sharded(const AnalysisOptions& options, std::string_view text,
                              std::vector<size_t> cuts, bool serialized, size_t chunk = 4096,
                              bool for_merge = false, PartIds ids = PartIds::kRecorded) {
  cuts.insert(cuts.begin(), 0);
  cuts.push_back(text.size());
  std::vector<std::unique_ptr<Analyzer>> parts;
  for (size_t k = 0; k + 1 < cuts.size(); ++k) {
    const bool in_memory_first = (!serialized || for_merge) && k == 0;
    PARTPLAY_ASSIGN_OR_RETURN(auto part, Analyzer::CreatePart(options, in_memory_first, ids));
    std::string_view slice = text.substr(cuts[k], cuts[k + 1] - cuts[k]);
    Status s;
    for (size_t at = 0; at < slice.size() && s.ok(); at += chunk) {
      s = part->Feed(slice.substr(at, chunk));
    }
    if (s.ok()) s = part->Finish();
    (void)s;  // a failed part carries its error into the merge
    if (serialized && !in_memory_first) {
      PARTPLAY_ASSIGN_OR_RETURN(std::string bytes, part->SerializePartial());
      if (for_merge) {
        PARTPLAY_ASSIGN_OR_RETURN(part, Analyzer::ParsePartialForMerge(std::move(bytes)));
      } else {
        PARTPLAY_ASSIGN_OR_RETURN(part, Analyzer::ParsePartial(bytes));
      }
    }
    parts.push_back(std::move(part));
  }
  PARTPLAY_ASSIGN_OR_RETURN(auto merged, Analyzer::Merge(std::move(parts)));
  return ReportJson(*merged, options);
}

// What the CLI's --jobs and the page do: parts made with PartIds::kHashed, and when their merge
// refuses an id repeated across parts (which they cannot name), the parts again with records.
// `again`: whether that happened.
StatusOr<std::string> ShardedHashed(const AnalysisOptions& options, std::string_view text,
                                    const std::vector<size_t>& cuts, bool serialized,
                                    bool for_merge, bool* again = nullptr) {
  StatusOr<std::string> hashed =
      Sharded(options, text, cuts, serialized, 4096, for_merge, PartIds::kHashed);
  bool unnamed = !hashed.ok() && hashed.status().code() == ErrorCode::kBadPartial &&
                 hashed.status().message().find("made without id records") != std::string::npos;
  if (again) *again = unnamed;
  if (!unnamed) return hashed;
  return Sharded(options, text, cuts, serialized, 4096, for_merge, PartIds::kRecorded);
}

// Item boundaries drawn with `rng` (sorted, distinct): offsets just after a newline between a
// '}' and a '{' (whitespace aside), the rule the CLI's --jobs cuts by.
std::vector<size_t> LineCuts(std::string_view text, size_t count, std::mt19937_64& rng) {
  auto space = [](char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; };
  std::vector<size_t> starts;
  for (size_t i = 0; i + 1 < text.size(); ++i) {
    if (text[i] != '\n') continue;
    size_t before = i, after = i + 1;
    while (before > 0 && space(text[before - 1])) --before;
    while (after < text.size() && space(text[after])) ++after;
    if (before > 0 && text[before - 1] == '}' && after < text.size() && text[after] == '{') {
      starts.push_back(i + 1);
    }
  }
  std::shuffle(starts.begin(), starts.end(), rng);
  starts.resize(std::min(count, starts.size()));
  std::sort(starts.begin(), starts.end());
  return starts;
}

void ExpectSame(const StatusOr<std::string>& one, const StatusOr<std::string>& parts,
                const std::string& what) {
  ASSERT_EQ(one.ok(), parts.ok()) << what
                                  << "\none: " << (one.ok() ? "ok" : one.status().ToString())
                                  << "\nparts: " << (parts.ok() ? "ok" : parts.status().ToString());
  if (!one.ok()) {
    EXPECT_EQ(one.status().code(), parts.status().code()) << what;
    EXPECT_EQ(one.status().message(), parts.status().message()) << what;
    const SourceLocation &a = one.status().where(), &b = parts.status().where();
    EXPECT_EQ(a.byte_offset, b.byte_offset) << what;
    EXPECT_EQ(a.line, b.line) << what;
    EXPECT_EQ(a.column, b.column) << what;
    EXPECT_EQ(a.item_index, b.item_index) << what;
    return;
  }
  EXPECT_EQ(one.value(), parts.value()) << what;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

AnalysisOptions Options(std::vector<std::string> keys, int64_t discover = 10000,
                        std::string weight = "") {
  AnalysisOptions o;
  o.key_paths = std::move(keys);
  o.discover_items = discover;
  o.weight_path = std::move(weight);
  return o;
}

// Items with repeated ids within and across parts, ids that are not strings, invalid and
// imprecise keys, weights whose float sum depends on the order, nested candidate paths,
// pretty-printed items over several lines and items several to a line.
std::string RandomInput(uint64_t seed, int items) {
  std::mt19937_64 rng(seed);
  auto pick = [&](int n) { return static_cast<int>(rng() % n); };
  const char* weights[] = {"0.1", "1e16", "-1e16", "3", "0.3", "1e-300", "2.5", "\"x\"", "7"};
  std::string out;
  for (int i = 0; i < items; ++i) {
    std::string item = "{";
    switch (pick(10)) {
      case 0:
        item += "\"id\":" + std::to_string(pick(50));  // a number: a missing id
        break;
      case 1:
        break;  // no id
      default:
        item += "\"id\":\"i" + std::to_string(pick(items)) + "\"";
    }
    if (item.size() > 1) item += ",";
    switch (pick(12)) {
      case 0:
        item += "\"user\":{\"o\":1}";  // an invalid key
        break;
      case 1:
        item += "\"user\":12345678901234567890";  // imprecise
        break;
      case 2:
        item += "\"other\":1";  // the key is missing: the undefined partition
        break;
      default:
        item += "\"user\":\"u" + std::to_string(pick(30)) + "\"";
    }
    item += ",\"w\":" + std::string(weights[pick(9)]);
    item += ",\"n\":{\"a\":" + std::to_string(pick(4)) + ",\"b\":[1,{\"c\":2}]}";
    if (pick(3) == 0) item += ",\"tag\":\"t" + std::to_string(pick(5)) + "\"";
    item += "}";
    if (pick(8) == 0) {
      std::string pretty;
      for (char c : item) {
        pretty += c;
        if (c == ',') pretty += "\n  ";
      }
      item = pretty;
    }
    out += item;
    out += pick(6) == 0 ? " " : "\n";
  }
  return out;
}

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

TEST(PartialStateTest, SeededRandomInputsAndCutsEqualOnePass) {
  int hashed = 0, reread = 0;  // merges of PartIds::kHashed parts, and how many read again
  for (uint64_t seed = 1; seed <= 12; ++seed) {
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
    for (size_t n = 0; n < bytes.size(); ++n) {
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
  for (size_t i = 0; i < bytes.size(); ++i) {
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
