#include "partplay/core/limits.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "partplay/cosmos/container.h"
#include "partplay/sizing/formulas.h"

namespace partplay {
namespace {

TEST(Limits, QuotasHaveTheDocumentedValues) {
  EXPECT_EQ(kCosmosLogicalPartitionBytes, 20.0 * 1073741824.0);
  EXPECT_EQ(kCosmosPhysicalPartitionBytes, 53687091200.0);  // collectionSize=52428800 KB
  EXPECT_EQ(kCosmosPhysicalPartitionRuPerSecond, 10000);
  EXPECT_EQ(kCosmosItemBytes, 2097152);
  EXPECT_EQ(kCosmosKeyBytesLarge, 2048);
  EXPECT_EQ(kCosmosKeyBytesClassic, 101);
  EXPECT_EQ(kCosmosMaxSafeInteger, 9007199254740992.0);
  EXPECT_EQ(kCosmosCassandraPhysicalPartitionBytes, 30.0 * 1073741824.0);
  EXPECT_EQ(kCassandraCellsPerPartition, 2e9);
  EXPECT_EQ(kCassandraRecommendedValuesPerPartition, 100000);
  EXPECT_EQ(kCassandraRecommendedPartitionBytes, 100e6);
}

TEST(Limits, TableListsEveryQuotaOnceWithItsSource) {
  std::set<std::string_view> ids;
  for (const Limit& l : AllLimits()) {
    EXPECT_TRUE(ids.insert(l.id).second) << l.id;
    EXPECT_FALSE(l.label.empty()) << l.id;
    EXPECT_FALSE(l.source.empty()) << l.id;
    EXPECT_TRUE(l.kind == "quota" || l.kind == "recommendation" || l.kind == "input" ||
                l.kind == "default" || l.kind == "threshold")
        << l.id;
    EXPECT_GT(l.value, 0) << l.id;
  }
  ASSERT_NE(FindLimit("cosmos_logical_partition_bytes"), nullptr);
  EXPECT_EQ(FindLimit("cosmos_logical_partition_bytes")->value, kCosmosLogicalPartitionBytes);
  EXPECT_EQ(FindLimit("cassandra_cells_per_partition")->value, kCassandraCellsPerPartition);
  EXPECT_EQ(FindLimit("cosmos_max_modelled_physical_partitions")->value,
            kCosmosMaxModelledPhysicalPartitions);
  EXPECT_EQ(FindLimit("cosmos_max_modelled_physical_partitions")->kind, "input");
  EXPECT_EQ(FindLimit("no_such_limit"), nullptr);
  EXPECT_EQ(FindLimit("cosmos_default_ru_per_second")->value, ContainerOptions{}.ru_per_second);
  EXPECT_EQ(FindLimit("cosmos_default_ru_per_second")->kind, "default");
  EXPECT_EQ(FindLimit("cosmos_default_query_ru")->value, RequestCosts{}.query_ru);
  EXPECT_EQ(FindLimit("cosmos_default_top_per_range")->value, ContainerOptions{}.top_per_range);
  EXPECT_EQ(FindLimit("storage_balance_warn")->kind, "threshold");
}

TEST(Limits, JsonCarriesEveryEntry) {
  const std::string json = LimitsToJson();
  EXPECT_EQ(json.rfind("{\"limits\":[", 0), 0u);
  for (const Limit& l : AllLimits()) {
    EXPECT_NE(json.find(std::string("\"id\":\"") + std::string(l.id) + "\""), std::string::npos)
        << l.id;
  }
  EXPECT_NE(json.find("\"value\":21474836480"), std::string::npos);
  EXPECT_NE(json.find("\"label\":\"20 GB per logical partition\""), std::string::npos);
}

TEST(Limits, BytesAreSaidAsTheDocsSayThem) {
  EXPECT_EQ(LimitBytesText(kCosmosLogicalPartitionBytes), "20 GB");
  EXPECT_EQ(LimitBytesText(kCosmosPhysicalPartitionBytes), "50 GB");
  EXPECT_EQ(LimitBytesText(kCosmosCassandraPhysicalPartitionBytes), "30 GB");
  EXPECT_EQ(LimitBytesText(kCosmosItemBytes), "2 MB");
  EXPECT_EQ(LimitBytesText(kCassandraRecommendedPartitionBytes), "100 MB");
}

TEST(Limits, SizingMessagesQuoteTheTable) {
  // A partition just over every limit: each finding names the limit as the table says it.
  auto findings =
      CheckPartitionLimits(kCassandraCellsPerPartition + 1, kCosmosLogicalPartitionBytes + 1);
  ASSERT_EQ(findings.size(), 4u);
  EXPECT_NE(findings[0].message.find("2,000,000,000 cells"), std::string::npos);
  EXPECT_NE(findings[1].message.find("over the recommended 100,000"), std::string::npos);
  EXPECT_NE(findings[2].message.find("over the recommended 100 MB"), std::string::npos);
  EXPECT_NE(findings[3].message.find("Cosmos DB's 20 GB per logical"), std::string::npos);
  EXPECT_EQ(findings[3].limit, kCosmosLogicalPartitionBytes);
}

}  // namespace
}  // namespace partplay
