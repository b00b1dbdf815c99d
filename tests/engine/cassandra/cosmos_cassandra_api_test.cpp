#include "partplay/cassandra/cosmos_cassandra_api.h"

#include <gtest/gtest.h>

#include <cstdint>

#include "partplay/cassandra/result_format.h"
#include "partplay/cassandra/session.h"

namespace partplay {
namespace {

constexpr double kGiB = 1073741824.0;

TEST(CassandraApiTest, ReplicaSetsAndLimits) {
  EXPECT_EQ(CosmosCassandraApi::kReplicas, 4);
  EXPECT_EQ(CosmosCassandraApi::kQuorum, 3);
  EXPECT_EQ(CosmosCassandraApi::PhysicalPartitions(0, 0), 1);
  EXPECT_EQ(CosmosCassandraApi::PhysicalPartitions(31.0 * kGiB, 0), 2);
  EXPECT_EQ(CosmosCassandraApi::PhysicalPartitions(0, 25000), 5);  // ceil(25,000 / 6,000)
  EXPECT_EQ(CosmosCassandraApi::PhysicalPartitions(0, 18000), 3);  // the scaling doc's example
  EXPECT_EQ(CosmosCassandraApi::PhysicalPartitionOf(INT64_MIN, 4), 0);
  EXPECT_EQ(CosmosCassandraApi::PhysicalPartitionOf(INT64_MAX, 4), 3);
  EXPECT_EQ(CosmosCassandraApi::PhysicalPartitionOf(-1, 2), 0);
  EXPECT_EQ(CosmosCassandraApi::PhysicalPartitionOf(0, 2), 1);
}

TEST(CassandraApiTest, PlanCountsStorageAndThroughput) {
  CassandraApiPlacement p = PlanCassandraApi(75.0 * kGiB, 6000);
  EXPECT_EQ(p.for_storage, 3);  // 30 GB each for the Cassandra API
  EXPECT_EQ(p.for_throughput, 1);
  EXPECT_EQ(p.physical_partitions, 3);
  p = PlanCassandraApi(0, 40000);
  EXPECT_EQ(p.for_storage, 0);
  EXPECT_EQ(p.for_throughput, 7);  // created with 40,000 RU/s manual: ceil(40,000 / 6,000)
  EXPECT_EQ(p.physical_partitions, 7);
  p = PlanCassandraApi(0, 0);
  EXPECT_EQ(p.physical_partitions, 1);
  ASSERT_EQ(p.ranges.size(), 1u);
  EXPECT_EQ(p.ranges[0].min_token, INT64_MIN);
  EXPECT_EQ(p.ranges[0].max_token, INT64_MAX);
}

TEST(CassandraApiTest, RangesTileTheTokenSpace) {
  for (int64_t ru : {10000, 30000, 40000, 70000, 1000000}) {
    CassandraApiPlacement p = PlanCassandraApi(0, ru);
    ASSERT_EQ(static_cast<int64_t>(p.ranges.size()), p.physical_partitions);
    EXPECT_EQ(p.ranges.front().min_token, INT64_MIN);
    EXPECT_EQ(p.ranges.back().max_token, INT64_MAX);
    for (size_t i = 0; i < p.ranges.size(); ++i) {
      const CassandraApiRange& r = p.ranges[i];
      EXPECT_EQ(r.id, static_cast<int64_t>(i));
      EXPECT_LE(r.min_token, r.max_token);
      if (i > 0) EXPECT_EQ(r.min_token, p.ranges[i - 1].max_token + 1);
      // Both ends of a range are placed in it.
      EXPECT_EQ(CosmosCassandraApi::PhysicalPartitionOf(r.min_token, p.physical_partitions), r.id);
      EXPECT_EQ(CosmosCassandraApi::PhysicalPartitionOf(r.max_token, p.physical_partitions), r.id);
    }
  }
  // Three ranges (18,000 RU/s): width ceil(2^64 / 3) = 6148914691236517206.
  CassandraApiPlacement three = PlanCassandraApi(0, 18000);
  EXPECT_EQ(three.ranges[1].min_token, INT64_MIN + 6148914691236517206);
  EXPECT_EQ(three.ranges[2].min_token, INT64_MIN + 6148914691236517206 + 6148914691236517206);
}

TEST(CassandraApiTest, PlaceSumsEachRange) {
  CassandraApiPlacement p = PlanCassandraApi(0, 12000);  // 2 physical partitions
  EXPECT_EQ(p.Place(-5, 2, 100), 0);
  EXPECT_EQ(p.Place(INT64_MIN, 1, 10), 0);
  EXPECT_EQ(p.Place(5, 3, 7), 1);
  EXPECT_EQ(p.ranges[0].partitions, 2);
  EXPECT_EQ(p.ranges[0].rows, 3);
  EXPECT_EQ(p.ranges[0].bytes, 110);
  EXPECT_EQ(p.ranges[1].partitions, 1);
  EXPECT_EQ(p.ranges[1].bytes, 7);
}

// The table layout carries the placement: each listed partition's physical partition, and the
// ranges summing every partition of the table, listed or not.
TEST(CassandraApiTest, TableLayoutCarriesThePlacement) {
  cql::Session s;
  s.Execute(
      "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};"
      "CREATE TABLE ks.t (k int PRIMARY KEY, v text);"
      "INSERT INTO ks.t (k, v) VALUES (1, 'abc');"    // token -4069959284402364209
      "INSERT INTO ks.t (k, v) VALUES (2, 'abc');"    // token -3248873570005575792
      "INSERT INTO ks.t (k, v) VALUES (3, 'abc');");  // token 9010454139840013625
  cql::Table* table = s.FindTable("ks.t").value();
  cql::TableLayoutOptions o;
  o.ru_per_second = 12000;  // created so: 2 physical partitions of 6,000 RU/s
  o.max_partitions = 1;
  std::string layout =
      cql::TableLayoutToJson(*table, s.ring(), s.FindKeyspace("ks").value()->schema, o);
  EXPECT_NE(layout.find("\"partitions_scanned\":3,\"sample_every\":3"), std::string::npos)
      << layout;
  EXPECT_NE(layout.find("\"bytes\":15,\"tombstones\":0,\"physical_partition\":0,"), std::string::npos) << layout;
  EXPECT_NE(layout.find("\"ru_per_second\":12000,\"ru_per_physical_partition\":10000,"
                        "\"initial_ru_per_physical_partition\":6000,"
                        "\"for_storage\":1,\"for_throughput\":2,\"physical_partitions\":2,"
                        "\"ranges\":[{\"id\":0,\"min\":\"-9223372036854775808\","
                        "\"max\":\"-1\",\"partitions\":2,\"rows\":2,\"bytes\":30},"
                        "{\"id\":1,\"min\":\"0\",\"max\":\"9223372036854775807\","
                        "\"partitions\":1,\"rows\":1,\"bytes\":15}]"),
            std::string::npos)
      << layout;

  StatusOr<cql::TableLayoutOptions> parsed = cql::ParseTableLayoutOptionsJson(
      "{\"scan_partitions\": 10, \"max_partitions\": -1, \"ru_per_second\": 40000}");
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(parsed->scan_partitions, 10);
  EXPECT_EQ(parsed->ru_per_second, 40000);
  EXPECT_FALSE(cql::ParseTableLayoutOptionsJson("{\"ru\": 1}").ok());
  EXPECT_FALSE(cql::ParseTableLayoutOptionsJson("{\"ru_per_second\": -5}").ok());
}

}  // namespace
}  // namespace partplay
