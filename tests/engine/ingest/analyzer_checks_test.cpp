// The Analyzer's per-item checks and extras for the container model: ids (missing, not a string,
// duplicated within a logical partition), summed weights, imprecise numeric keys, synthetic keys,
// and the candidate values and id evidence the key advisor reads.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "core/murmur_hash3.h"
#include "partplay/ingest/analysis.h"
#include "partplay/report/options_json.h"

namespace partplay {
namespace {

StatusOr<AnalysisReport> Analyze(std::string_view input, AnalysisOptions options) {
  PARTPLAY_ASSIGN_OR_RETURN(auto analyzer, Analyzer::Create(options));
  PARTPLAY_RETURN_IF_ERROR(analyzer->Feed(input));
  PARTPLAY_RETURN_IF_ERROR(analyzer->Finish());
  return analyzer->BuildReport({});
}

AnalysisOptions Key(std::string path) {
  AnalysisOptions o;
  o.key_paths = {std::move(path)};
  return o;
}

// key JSON -> {items, bytes, weight}
std::map<std::string, LogicalPartition> ByKey(const AnalysisReport& r) {
  std::map<std::string, LogicalPartition> m;
  for (const auto& p : r.partitions) m[p.key.ToJson()] = p;
  return m;
}

TEST(AnalyzerIds, MissingAndNonStringIdsAreLocated) {
  std::string input =
      "{\"id\":\"a\",\"k\":1}\n"
      "{\"k\":1}\n"                             // item 1: no id
      "{\"id\":5,\"k\":1}\n"                    // item 2: a number
      "{\"id\":{},\"k\":1}\n"                   // item 3: an object
      "{\"id\":null,\"k\":1}\n"                 // item 4: null
      "{\"x\":{\"id\":\"nested\"},\"k\":2}\n";  // item 5: only a nested id
  auto r = Analyze(input, Key("/k"));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->missing_id_items, 5u);
  ASSERT_EQ(r->missing_id_examples.size(), 5u);
  EXPECT_EQ(r->missing_id_examples[0].item_index, 1);
  EXPECT_EQ(r->missing_id_examples[0].type, "missing");
  EXPECT_EQ(r->missing_id_examples[0].where.line, 2);
  EXPECT_EQ(r->missing_id_examples[0].where.column, 1);
  EXPECT_EQ(r->missing_id_examples[0].where.byte_offset, 17);
  EXPECT_EQ(r->missing_id_examples[1].type, "number");
  EXPECT_EQ(r->missing_id_examples[2].type, "object");
  EXPECT_EQ(r->missing_id_examples[3].type, "null");
  EXPECT_EQ(r->missing_id_examples[4].type, "missing");
  EXPECT_EQ(r->missing_id_examples[4].item_index, 5);
}

TEST(AnalyzerIds, DuplicateOnlyWithinOneLogicalPartition) {
  std::string input =
      "{\"id\":\"x\",\"k\":\"a\"}\n"
      "{\"id\":\"x\",\"k\":\"b\"}\n"  // same id, other partition: allowed
      "{\"id\":\"y\",\"k\":\"a\"}\n"
      "{\"id\":\"x\",\"k\":\"a\"}\n"   // item 3: duplicate in partition "a"
      "{\"id\":\"x\",\"k\":\"a\"}\n";  // item 4: again
  auto r = Analyze(input, Key("/k"));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->missing_id_items, 0u);
  EXPECT_EQ(r->duplicate_id_items, 2u);
  ASSERT_EQ(r->duplicate_id_examples.size(), 2u);
  EXPECT_EQ(r->duplicate_id_examples[0].item_index, 3);
  EXPECT_EQ(r->duplicate_id_examples[0].type, "x");
  EXPECT_EQ(r->duplicate_id_examples[0].where.line, 4);
  EXPECT_EQ(r->duplicate_id_examples[1].item_index, 4);
  // The string "5" and the number 5 are different partitions, so the same id is no duplicate.
  auto typed = Analyze("{\"id\":\"i\",\"k\":5}\n{\"id\":\"i\",\"k\":\"5\"}\n", Key("/k"));
  ASSERT_TRUE(typed.ok());
  EXPECT_EQ(typed->duplicate_id_items, 0u);
}

TEST(AnalyzerIds, CheckCanBeTurnedOff) {
  AnalysisOptions o = Key("/k");
  o.check_ids = false;
  auto r = Analyze("{\"k\":1}\n{\"k\":1}\n", o);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->missing_id_items, 0u);
  EXPECT_EQ(r->duplicate_id_items, 0u);
}

TEST(AnalyzerIds, IdAsTheKeyItself) {
  // /id as the partition key: every item its own partition; a repeated id is a duplicate.
  auto r = Analyze("{\"id\":\"a\"}\n{\"id\":\"b\"}\n{\"id\":\"a\"}\n", Key("/id"));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->partition_count, 2u);
  EXPECT_EQ(r->duplicate_id_items, 1u);
}

// Keyed by /id, repeats are found through the partition table (no id set): the same counts and
// examples as a plain reference, with repeats right after each other (the item held back by the
// table update's pipeline), non-string ids and ids that are objects.
TEST(AnalyzerIds, IdAsTheKeyMatchesAReference) {
  std::mt19937_64 rng(5);
  std::string input;
  std::set<std::string> seen;
  std::vector<int64_t> repeats;
  uint64_t missing = 0;
  for (int64_t i = 0; i < 3000; ++i) {
    uint64_t pick = rng() % 10;
    if (pick == 0) {
      input += "{\"id\":" + std::to_string(rng() % 5) + "}\n";  // a number: missing
      ++missing;
    } else if (pick == 1) {
      input += "{\"id\":{\"a\":1}}\n";  // an object: missing, and an invalid key
      ++missing;
    } else {
      std::string id = "id" + std::to_string(rng() % 400);
      if (pick == 2 && i > 0) id = "same";  // runs of one id
      input += "{\"id\":\"" + id + "\",\"n\":" + std::to_string(i) + "}\n";
      if (!seen.insert(id).second) repeats.push_back(i);
    }
  }
  auto r = Analyze(input, Key("/id"));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->missing_id_items, missing);
  EXPECT_EQ(r->duplicate_id_items, repeats.size());
  ASSERT_EQ(r->duplicate_id_examples.size(), std::min<size_t>(repeats.size(), kMaxFindingExamples));
  for (size_t k = 0; k < r->duplicate_id_examples.size(); ++k) {
    EXPECT_EQ(r->duplicate_id_examples[k].item_index, repeats[k]) << k;
    EXPECT_EQ(r->duplicate_id_examples[k].where.line, repeats[k] + 1) << k;
  }
}

TEST(AnalyzerWeights, SummedPerPartitionAndMissingCounted) {
  AnalysisOptions o = Key("/k");
  o.weight_path = "/w";
  auto r = Analyze(
      "{\"id\":\"1\",\"k\":\"a\",\"w\":2.5}\n"
      "{\"id\":\"2\",\"k\":\"a\",\"w\":4}\n"
      "{\"id\":\"3\",\"k\":\"b\",\"w\":\"7\"}\n"  // a string: weighs 0
      "{\"id\":\"4\",\"k\":\"b\"}\n"              // missing
      "{\"id\":\"5\",\"k\":\"c\",\"w\":-1}\n",
      o);
  ASSERT_TRUE(r.ok());
  auto m = ByKey(r.value());
  EXPECT_DOUBLE_EQ(m["[\"a\"]"].weight, 6.5);
  EXPECT_DOUBLE_EQ(m["[\"b\"]"].weight, 0);
  EXPECT_DOUBLE_EQ(m["[\"c\"]"].weight, -1);
  EXPECT_EQ(r->weight_missing_items, 2u);
  // Without a weight path every weight is 0 and nothing is counted as missing.
  auto plain = Analyze("{\"id\":\"1\",\"k\":\"a\",\"w\":3}\n", Key("/k"));
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(plain->partitions[0].weight, 0);
  EXPECT_EQ(plain->weight_missing_items, 0u);
}

TEST(AnalyzerNumbers, IntegersBeyondDoublePrecisionAreFlagged) {
  auto r = Analyze(
      "{\"id\":\"1\",\"k\":9007199254740991}\n"      // 2^53 - 1: exact
      "{\"id\":\"2\",\"k\":9007199254740992}\n"      // 2^53: the first shared by two integers
      "{\"id\":\"3\",\"k\":12345678901234567890}\n"  // a 20-digit id
      "{\"id\":\"4\",\"k\":-9007199254740993}\n"
      "{\"id\":\"5\",\"k\":1e300}\n"  // not an integer literal
      "{\"id\":\"6\",\"k\":0.1}\n",
      Key("/k"));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->imprecise_number_items, 3u);
  ASSERT_EQ(r->imprecise_number_examples.size(), 3u);
  EXPECT_EQ(r->imprecise_number_examples[0].item_index, 1);
  EXPECT_EQ(r->imprecise_number_examples[0].type, "9007199254740992");
  EXPECT_EQ(r->imprecise_number_examples[1].type, "12345678901234567890");
  EXPECT_EQ(r->imprecise_number_examples[2].type, "-9007199254740993");
  // They are still grouped (as the double they read as): nothing is dropped.
  EXPECT_EQ(r->partition_count, 6u);
}

TEST(AnalyzerSynthetic, ConcatenatesValuesInTheirTextForm) {
  AnalysisOptions o = Key("/deviceId");
  o.synthetic.kind = SyntheticKeyOptions::Kind::kConcat;
  o.synthetic.paths = {"/deviceId", "/date"};
  auto r = Analyze(
      "{\"id\":\"1\",\"deviceId\":\"abc-123\",\"date\":2018}\n"
      "{\"id\":\"2\",\"deviceId\":\"abc-123\",\"date\":2018}\n"
      "{\"id\":\"3\",\"deviceId\":\"abc-123\",\"date\":2019.5}\n"
      "{\"id\":\"4\",\"deviceId\":true,\"date\":null}\n"
      "{\"id\":\"5\",\"deviceId\":\"abc-123\"}\n",  // no date: the undefined partition
      o);
  ASSERT_TRUE(r.ok());
  auto m = ByKey(r.value());
  EXPECT_EQ(m["[\"abc-123-2018\"]"].items, 2u);
  EXPECT_EQ(m["[\"abc-123-2019.5\"]"].items, 1u);
  EXPECT_EQ(m["[\"true-null\"]"].items, 1u);
  EXPECT_EQ(m["[{}]"].items, 1u);
  EXPECT_EQ(r->undefined_key_items, 1u);
}

TEST(AnalyzerSynthetic, HashSuffixIsMurmur3OfTheSourceValue) {
  AnalysisOptions o = Key("/date");
  o.synthetic.kind = SyntheticKeyOptions::Kind::kHashSuffix;
  o.synthetic.suffix_path = "/vin";
  o.synthetic.buckets = 400;
  o.synthetic.separator = ".";
  std::string input;
  std::map<std::string, uint64_t> expected;
  for (int i = 0; i < 50; ++i) {
    std::string vin = "1FT" + std::to_string(1000 + i * 7);
    input +=
        "{\"id\":\"" + std::to_string(i) + "\",\"date\":\"2018-08-09\",\"vin\":\"" + vin + "\"}\n";
    uint32_t bucket = internal::MurmurHash3X86_32(vin, 0) % 400 + 1;
    ++expected["[\"2018-08-09." + std::to_string(bucket) + "\"]"];
  }
  auto r = Analyze(input, o);
  ASSERT_TRUE(r.ok());
  auto m = ByKey(r.value());
  ASSERT_EQ(m.size(), expected.size());
  for (const auto& [key, items] : expected) EXPECT_EQ(m[key].items, items) << key;
}

TEST(AnalyzerSynthetic, RandomSuffixIsSeededAndCoversTheBuckets) {
  AnalysisOptions o = Key("/date");
  o.synthetic.kind = SyntheticKeyOptions::Kind::kRandomSuffix;
  o.synthetic.buckets = 10;
  o.synthetic.seed = 7;
  std::string input;
  for (int i = 0; i < 2000; ++i) input += "{\"id\":\"" + std::to_string(i) + "\",\"date\":\"d\"}\n";
  auto a = Analyze(input, o);
  auto b = Analyze(input, o);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->partition_count, 10u);
  ASSERT_EQ(a->partitions.size(), b->partitions.size());
  for (size_t i = 0; i < a->partitions.size(); ++i) {
    EXPECT_EQ(a->partitions[i].key, b->partitions[i].key);
    EXPECT_EQ(a->partitions[i].items, b->partitions[i].items);
    // 2000 items over 10 buckets: each near 200 (a 6-sigma band).
    EXPECT_GT(a->partitions[i].items, 120u);
    EXPECT_LT(a->partitions[i].items, 280u);
    std::string text = a->partitions[i].key.components[0].text;
    ASSERT_EQ(text.substr(0, 2), "d-");
    int suffix = std::stoi(text.substr(2));
    EXPECT_GE(suffix, 1);
    EXPECT_LE(suffix, 10);
  }
  o.synthetic.seed = 8;
  auto c = Analyze(input, o);
  ASSERT_TRUE(c.ok());
  bool differs = false;
  for (size_t i = 0; i < c->partitions.size(); ++i) {
    differs |= c->partitions[i].key != a->partitions[i].key ||
               c->partitions[i].items != a->partitions[i].items;
  }
  EXPECT_TRUE(differs) << "another seed must draw other suffixes";
}

TEST(AnalyzerSynthetic, BadOptionsAreRejected) {
  AnalysisOptions o = Key("/a");
  o.synthetic.kind = SyntheticKeyOptions::Kind::kConcat;
  o.synthetic.paths = {"/a"};
  EXPECT_EQ(Analyzer::Create(o).status().code(), ErrorCode::kBadOption);
  o.synthetic.paths = {"/a", "b"};  // not a JSON pointer
  EXPECT_EQ(Analyzer::Create(o).status().code(), ErrorCode::kBadKeyPath);
  o.synthetic = {};
  o.synthetic.kind = SyntheticKeyOptions::Kind::kRandomSuffix;
  o.synthetic.buckets = 0;
  EXPECT_EQ(Analyzer::Create(o).status().code(), ErrorCode::kBadOption);
  o.synthetic.kind = SyntheticKeyOptions::Kind::kHashSuffix;
  o.synthetic.buckets = 4;
  EXPECT_EQ(Analyzer::Create(o).status().code(), ErrorCode::kBadOption);  // no suffix path
  o.key_paths = {"/a", "/b"};
  o.synthetic.suffix_path = "/v";
  EXPECT_EQ(Analyzer::Create(o).status().code(), ErrorCode::kBadOption);  // two key paths
}

TEST(AnalyzerCandidates, ValuesWithItemsAndBytesLargestFirst) {
  std::string a = "{\"id\":\"1\",\"g\":\"x\"}";          // 20 bytes
  std::string b = "{\"id\":\"2\",\"g\":\"x\",\"p\":1}";  // 26 bytes
  std::string c = "{\"id\":\"3\",\"g\":\"y\"}";          // 20 bytes
  auto r = Analyze(a + "\n" + b + "\n" + c + "\n", Key("/id"));
  ASSERT_TRUE(r.ok());
  const CandidatePath* g = nullptr;
  for (const auto& p : r->candidate_paths) {
    if (p.path == "/g") g = &p;
  }
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->distinct, 2u);
  ASSERT_EQ(g->values.size(), 2u);
  EXPECT_EQ(PartitionKey::FromCanonicalBytes(g->values[0].canonical).ToJson(), "[\"x\"]");
  EXPECT_EQ(g->values[0].items, 2u);
  EXPECT_EQ(g->values[0].bytes, a.size() + b.size());
  EXPECT_EQ(g->values[1].items, 1u);
  EXPECT_EQ(g->values[1].bytes, c.size());
}

TEST(AnalyzerCandidates, IdEvidenceForImmutability) {
  // Two versions of item "1": /status changes, /owner does not; item "2" appears once.
  auto r = Analyze(
      "{\"id\":\"1\",\"owner\":\"ann\",\"status\":\"new\"}\n"
      "{\"id\":\"2\",\"owner\":\"bob\",\"status\":\"new\"}\n"
      "{\"id\":\"1\",\"owner\":\"ann\",\"status\":\"done\"}\n"
      "{\"id\":\"1\",\"owner\":\"ann\",\"status\":\"done\"}\n",
      Key("/owner"));
  ASSERT_TRUE(r.ok());
  std::map<std::string, const CandidatePath*> paths;
  for (const auto& p : r->candidate_paths) paths[p.path] = &p;
  ASSERT_TRUE(paths.count("/owner") && paths.count("/status"));
  EXPECT_EQ(paths["/owner"]->ids_repeated, 2u);
  EXPECT_EQ(paths["/owner"]->ids_changed, 0u);
  EXPECT_EQ(paths["/status"]->ids_repeated, 2u);
  EXPECT_EQ(paths["/status"]->ids_changed, 2u);  // both later versions differ from the first
  EXPECT_EQ(r->duplicate_id_items, 2u);
}

TEST(OptionsJson, AnalysisOptionsRoundTrip) {
  auto o = ParseAnalysisOptionsJson(
      R"({"key_paths":["/date"],"discover_items":-1,"weight_path":"/w","check_ids":false,)"
      R"("synthetic":{"kind":"hash_suffix","suffix_path":"/vin","buckets":400,"separator":"."}})");
  ASSERT_TRUE(o.ok()) << o.status().ToString();
  EXPECT_EQ(o->key_paths, std::vector<std::string>{"/date"});
  EXPECT_EQ(o->discover_items, -1);
  EXPECT_EQ(o->weight_path, "/w");
  EXPECT_FALSE(o->check_ids);
  EXPECT_EQ(o->synthetic.kind, SyntheticKeyOptions::Kind::kHashSuffix);
  EXPECT_EQ(o->synthetic.buckets, 400u);
  EXPECT_EQ(o->synthetic.separator, ".");
}

TEST(OptionsJson, ContainerOptionsRoundTrip) {
  auto c = ParseContainerOptionsJson(
      R"({"hash_version":"multihash","ru_per_second":18000,"autoscale":true,"growth":10,)"
      R"("grown_ru_per_second":40000,"route":["a",5],"top_per_range":7,)"
      R"("workload":{"point_reads_per_second":100,"writes_per_second":10,"queries_per_second":1,)"
      R"("spread":"zipf","zipf_exponent":1.2,"read_factor":2,"write_factor":0.5,"query_ru":4}})");
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->version, PartitionKeyHashVersion::kMultiHash);
  EXPECT_EQ(c->ru_per_second, 18000);
  EXPECT_TRUE(c->autoscale);
  EXPECT_EQ(c->growth, 10);
  EXPECT_EQ(c->grown_ru_per_second, 40000);
  ASSERT_TRUE(c->route.has_value());
  EXPECT_EQ(c->route->ToJson(), "[\"a\",5]");
  EXPECT_EQ(c->top_per_range, 7);
  EXPECT_EQ(c->workload.spread, RequestSpread::kZipf);
  EXPECT_EQ(c->workload.zipf_exponent, 1.2);
  EXPECT_EQ(c->workload.costs.query_ru, 4);
}

TEST(OptionsJson, ErrorsNameTheField) {
  auto unknown = ParseContainerOptionsJson(R"({"ru":400})");
  EXPECT_EQ(unknown.status().code(), ErrorCode::kBadOption);
  EXPECT_NE(unknown.status().message().find("container.ru"), std::string::npos);
  auto type = ParseContainerOptionsJson(R"({"ru_per_second":"400"})");
  EXPECT_NE(type.status().message().find("ru_per_second"), std::string::npos);
  auto spread = ParseContainerOptionsJson(R"({"workload":{"spread":"hot"}})");
  EXPECT_NE(spread.status().message().find("workload.spread"), std::string::npos);
  auto kind = ParseAnalysisOptionsJson(R"({"synthetic":{"kind":"salted"}})");
  EXPECT_NE(kind.status().message().find("synthetic.kind"), std::string::npos);
  EXPECT_EQ(ParseAnalysisOptionsJson("{\"key_paths\":[").status().code(),
            ErrorCode::kMalformedJson);
  EXPECT_EQ(ParseAnalysisOptionsJson("[1]").status().code(), ErrorCode::kBadOption);
  auto route = ParseContainerOptionsJson(R"({"route":[[1]]})");
  EXPECT_NE(route.status().message().find("route"), std::string::npos);
}

TEST(OptionsJson, ReportRequest) {
  auto all = ParseReportRequestJson("{}");
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->max_partitions, -1);
  EXPECT_FALSE(all->container.has_value());
  auto r = ParseReportRequestJson(
      R"({"max_partitions":2000,"container":{"ru_per_second":18000,"hash_version":"1"}})");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->max_partitions, 2000);
  ASSERT_TRUE(r->container.has_value());
  EXPECT_EQ(r->container->ru_per_second, 18000);
  EXPECT_EQ(r->container->version, PartitionKeyHashVersion::kV1);
  EXPECT_FALSE(ParseReportRequestJson(R"({"container":null})")->container.has_value());
  // The container's own checks apply inside the request, and name its field.
  auto inner = ParseReportRequestJson(R"({"container":{"ru":1}})");
  EXPECT_EQ(inner.status().code(), ErrorCode::kBadOption);
  EXPECT_NE(inner.status().message().find("container.ru"), std::string::npos);
  for (const char* bad :
       {R"({"max_partitions":-2})", R"({"max_partitions":1.5})", R"({"max_partitions":"all"})",
        R"({"container":5})", R"({"maxPartitions":1})"}) {
    EXPECT_EQ(ParseReportRequestJson(bad).status().code(), ErrorCode::kBadOption) << bad;
  }
  EXPECT_EQ(ParseReportRequestJson("{").status().code(), ErrorCode::kMalformedJson);
}

}  // namespace
}  // namespace partplay
