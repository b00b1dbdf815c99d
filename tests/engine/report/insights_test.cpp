#include "partplay/report/insights.h"

#include <gtest/gtest.h>

#include <string>

#include "partplay/core/limits.h"

namespace partplay {
namespace {

const Insight* Find(const std::vector<Insight>& list, const std::string& code) {
  for (const Insight& i : list) {
    if (i.code == code) return &i;
  }
  return nullptr;
}

AnalysisReport Spread(uint64_t partitions, uint64_t items, uint64_t largest_bytes) {
  AnalysisReport r;
  r.key_paths = {"/tenantId"};
  r.items = items;
  r.bytes = largest_bytes * partitions;
  r.partition_count = partitions;
  r.has_largest = partitions > 0;
  r.largest.key.components = {KeyComponent::String("t1")};
  r.largest.items = items / (partitions ? partitions : 1);
  r.largest.bytes = largest_bytes;
  return r;
}

TEST(Insights, NoItems) {
  AnalysisReport r;
  r.key_paths = {"/k"};
  auto list = JudgeReport(r);
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(list[0].code, "no_items");
  EXPECT_EQ(list[0].level, "warn");
}

TEST(Insights, EveryItemWithoutTheKeyIsBadAndSomeIsAWarningWithTheUndefinedKey) {
  AnalysisReport all = Spread(1, 10, 100);
  all.undefined_key_items = 10;
  auto list = JudgeReport(all);
  ASSERT_NE(Find(list, "all_undefined"), nullptr);
  EXPECT_EQ(Find(list, "all_undefined")->level, "bad");
  EXPECT_EQ(Find(list, "one_partition"), nullptr);  // said once, as all_undefined

  AnalysisReport some = Spread(3, 10, 100);
  some.undefined_key_items = 4;
  list = JudgeReport(some);
  const Insight* i = Find(list, "some_undefined");
  ASSERT_NE(i, nullptr);
  EXPECT_EQ(i->message,
            "4 items (40.0%) have no value at /tenantId. Cosmos DB accepts them, but they all "
            "share one partition: {0}.");
  ASSERT_EQ(i->keys.size(), 1u);
  EXPECT_EQ(i->keys[0].ToJson(), "[{}]");
}

TEST(Insights, OneKeyForEverything) {
  auto list = JudgeReport(Spread(1, 50, 5000));
  ASSERT_NE(Find(list, "one_partition"), nullptr);
  EXPECT_EQ(Find(list, "one_partition")->message,
            "All 50 items share one logical partition: this key does not spread the data at all.");
}

TEST(Insights, TheLargestPartitionAgainstTheQuotaComesFromTheLimitsTable) {
  auto over = JudgeReport(Spread(2, 10, uint64_t(kCosmosLogicalPartitionBytes) + 1));
  ASSERT_NE(Find(over, "largest_over_limit"), nullptr);
  EXPECT_NE(Find(over, "largest_over_limit")->message.find("over the 20 GB limit"),
            std::string::npos);
  EXPECT_EQ(Find(over, "largest_vs_limit"), nullptr);

  auto near = JudgeReport(Spread(2, 10, uint64_t(kCosmosLogicalPartitionBytes / 2)));
  const Insight* i = Find(near, "largest_vs_limit");
  ASSERT_NE(i, nullptr);
  EXPECT_EQ(i->level, "warn");  // less than 4x room
  EXPECT_EQ(i->message,
            "The largest partition uses 50.0% of the 20 GB limit: it could grow about 2.0x before "
            "reaching it.");
}

TEST(Insights, MixedTypesFewValuesAndAnEvenSpread) {
  AnalysisReport r = Spread(5, 500, 100);
  CandidatePath c;
  c.path = "/tenantId";
  c.strings = 400;
  c.numbers = 100;
  r.candidate_paths.push_back(c);
  auto list = JudgeReport(r);
  const Insight* mixed = Find(list, "mixed_types");
  ASSERT_NE(mixed, nullptr);
  ASSERT_EQ(mixed->keys.size(), 2u);
  EXPECT_EQ(mixed->keys[0].ToJson(), "[\"5\"]");
  EXPECT_EQ(mixed->keys[1].ToJson(), "[5]");
  EXPECT_NE(Find(list, "few_values"), nullptr);
  EXPECT_EQ(Find(list, "even_spread"), nullptr);

  AnalysisReport even = Spread(200, 2000, 100);
  even.gini = 0.1;
  list = JudgeReport(even);
  ASSERT_NE(Find(list, "even_spread"), nullptr);
  EXPECT_EQ(Find(list, "even_spread")->level, "good");
  even.undefined_key_items = 200;  // 10% without the key: not called a good spread
  EXPECT_EQ(Find(JudgeReport(even), "even_spread"), nullptr);
}

TEST(Insights, InvalidAndOversizedItemsNameTheFirstPlace) {
  AnalysisReport r = Spread(2, 10, 100);
  r.invalid_key_items = 1;
  r.invalid_key_examples.push_back({3, 10, SourceLocation{55, 4, 2, 3}, "array"});
  r.oversized_items = 2;
  r.oversized_examples.push_back({1, 3000000, SourceLocation{20, 2, 1, 1}, ""});
  auto list = JudgeReport(r);
  ASSERT_NE(Find(list, "invalid_key"), nullptr);
  EXPECT_EQ(Find(list, "invalid_key")->message,
            "1 item has an object or array at /tenantId; Cosmos DB would reject it. First: line 4, "
            "column 2, item #3.");
  ASSERT_NE(Find(list, "oversized_items"), nullptr);
  EXPECT_EQ(Find(list, "oversized_items")->message,
            "2 items are larger than 2 MB, the Cosmos DB item limit. First: line 2, column 1, "
            "item #1 (2.9 MB).");
}

TEST(Insights, Json) {
  auto json = InsightsToJson(JudgeReport(Spread(1, 50, 5000)));
  EXPECT_NE(json.find(R"({"code":"one_partition","level":"bad","message":"All 50 items)"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find(R"("keys":[]})"), std::string::npos) << json;
}

}  // namespace
}  // namespace partplay
