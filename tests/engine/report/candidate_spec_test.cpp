#include "partplay/report/candidate_spec.h"

#include <gtest/gtest.h>

#include <string>

#include "partplay/core/defaults.h"
#include "partplay/core/limits.h"
#include "partplay/report/options_json.h"

namespace partplay {
namespace {

using Kind = SyntheticKeyOptions::Kind;

TEST(CandidateSpec, ReadsEveryFormOfTheGrammar) {
  auto path = ParseCandidateSpec("/tenantId");
  ASSERT_TRUE(path.ok());
  EXPECT_EQ(path->key_paths, std::vector<std::string>{"/tenantId"});
  EXPECT_EQ(path->discover_items, 0);
  EXPECT_EQ(path->synthetic.kind, Kind::kNone);

  auto hier = ParseCandidateSpec("/a, /b,/c");
  ASSERT_TRUE(hier.ok());
  EXPECT_EQ(hier->key_paths, (std::vector<std::string>{"/a", "/b", "/c"}));

  auto concat = ParseCandidateSpec("concat:/a,/b");
  ASSERT_TRUE(concat.ok());
  EXPECT_EQ(concat->synthetic.kind, Kind::kConcat);
  EXPECT_EQ(concat->synthetic.paths, (std::vector<std::string>{"/a", "/b"}));
  EXPECT_EQ(concat->key_paths, std::vector<std::string>{"/a"});

  // A part may take a piece of its value; commas inside its parentheses do not split the key.
  auto monthly = ParseCandidateSpec("concat: month(/orderDate), /tenantId, left(/sku, 3)");
  ASSERT_TRUE(monthly.ok()) << monthly.status().ToString();
  EXPECT_EQ(monthly->synthetic.paths,
            (std::vector<std::string>{"month(/orderDate)", "/tenantId", "left(/sku, 3)"}));
  EXPECT_EQ(monthly->key_paths, std::vector<std::string>{"/orderDate"});

  auto random = ParseCandidateSpec("random:/a:10");
  ASSERT_TRUE(random.ok());
  EXPECT_EQ(random->synthetic.kind, Kind::kRandomSuffix);
  EXPECT_EQ(random->synthetic.buckets, 10u);

  auto hash = ParseCandidateSpec("hash:/date:/vin:400");
  ASSERT_TRUE(hash.ok());
  EXPECT_EQ(hash->synthetic.kind, Kind::kHashSuffix);
  EXPECT_EQ(hash->key_paths, std::vector<std::string>{"/date"});
  EXPECT_EQ(hash->synthetic.suffix_path, "/vin");
  EXPECT_EQ(hash->synthetic.buckets, 400u);
}

TEST(CandidateSpec, RejectsWhatTheLimitsTableBounds) {
  for (const char* bad : {"", "tenantId", "/a,/b,/c,/d", "concat:/a", "concat:/a,/b,/c,/d,/e,/f",
                          "random:/a", "random:/a:0", "random:/a:x", "random:/a:1000001",
                          "hash:/a:9", "hash:/a:b:9", "zip:/a:3", "concat:/a,week(/b)",
                          "concat:/a,left(/b)", "concat:/a,b", "concat:/a,month(/b"}) {
    auto key = ParseCandidateSpec(bad);
    ASSERT_FALSE(key.ok()) << bad;
    EXPECT_EQ(key.status().code(), ErrorCode::kBadOption) << bad;
  }
  EXPECT_TRUE(ParseCandidateSpec("random:/a:1000000").ok());
  EXPECT_EQ(FindLimit("candidate_max_buckets")->value, kCandidateMaxBuckets);
  EXPECT_EQ(FindLimit("candidate_max_hierarchical_paths")->value, 3);
}

TEST(CandidateSpec, JsonReadsBackAsTheSameOptions) {
  for (const char* spec : {"/a", "/a,/b", "concat:/a,/b,/c", "random:/a:7", "hash:/a:/b:9",
                           "concat:/a,substring(/b, 1, 2)"}) {
    auto key = ParseCandidateSpec(spec);
    ASSERT_TRUE(key.ok()) << spec;
    auto back = ParseAnalysisOptionsJson(CandidateKeyToJson(key.value()));
    ASSERT_TRUE(back.ok()) << spec << ": " << back.status().ToString();
    EXPECT_EQ(back->key_paths, key->key_paths) << spec;
    EXPECT_EQ(back->synthetic.kind, key->synthetic.kind) << spec;
    EXPECT_EQ(back->synthetic.paths, key->synthetic.paths) << spec;
    EXPECT_EQ(back->synthetic.buckets, key->synthetic.buckets) << spec;
    EXPECT_EQ(back->synthetic.suffix_path, key->synthetic.suffix_path) << spec;
  }
  EXPECT_EQ(CandidateKeyToJson(ParseCandidateSpec("hash:/d:/v:4").value()),
            R"({"key_paths":["/d"],"synthetic":{"kind":"hash_suffix","separator":"-","buckets":4,)"
            R"("suffix_path":"/v"}})");
}

}  // namespace
}  // namespace partplay
