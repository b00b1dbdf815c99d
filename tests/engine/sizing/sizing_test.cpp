// Partition sizing: each term of Nv and St, the CQL fixed sizes, the hotel example of the
// Cassandra data-modelling guide, and the thresholds exactly at their boundaries.
#include "partplay/sizing/formulas.h"

#include <gtest/gtest.h>

namespace partplay {
namespace {

SizingInput Hotel() {
  SizingInput in;
  in.columns = {{"hotel_id", "text", ColumnRole::kPartitionKey, 5},
                {"date", "date", ColumnRole::kClustering},
                {"room_number", "smallint", ColumnRole::kClustering},
                {"is_available", "boolean", ColumnRole::kRegular}};
  in.rows_per_partition = 100 * 730;
  return in;
}

TEST(Sizing, HotelExampleComesOutExactly) {
  auto t = ComputePartitionSize(Hotel());
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(t->nc, 4);
  EXPECT_EQ(t->npk, 3);
  EXPECT_EQ(t->ns, 0);
  EXPECT_EQ(t->nr, 73000);
  EXPECT_EQ(t->nv, 73000);  // Nr (4 - 3 - 0) + 0
  EXPECT_EQ(t->sum_partition_key, 5);
  EXPECT_EQ(t->sum_static, 0);
  EXPECT_EQ(t->sum_clustering, 6);  // date 4 + smallint 2
  EXPECT_EQ(t->sum_regular, 1);     // boolean
  EXPECT_EQ(t->rows_term, 511000);
  EXPECT_EQ(t->metadata_term, 584000);
  EXPECT_EQ(t->st_bytes, 1095005);  // about 1.1 MB
  EXPECT_EQ(t->estimated_columns, std::vector<std::string>{"hotel_id"});
}

TEST(Sizing, TableTotalMultipliesPartitionsAndReplicas) {
  SizingInput in = Hotel();
  in.partitions = 5000;
  in.replication_factor = 3;
  auto t = ComputePartitionSize(in);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->table_bytes, 1095005.0 * 5000 * 3);
}

TEST(Sizing, StaticColumnsCountOncePerPartition) {
  SizingInput in;
  in.columns = {{"sensor", "uuid", ColumnRole::kPartitionKey},
                {"ts", "timestamp", ColumnRole::kClustering},
                {"location", "text", ColumnRole::kStatic, 20},
                {"owner", "int", ColumnRole::kStatic},
                {"value", "double", ColumnRole::kRegular},
                {"flags", "set<text>", ColumnRole::kRegular, 30}};
  in.rows_per_partition = 1000;
  in.t_avg = 10;
  auto t = ComputePartitionSize(in);
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(t->nc, 6);
  EXPECT_EQ(t->npk, 2);
  EXPECT_EQ(t->ns, 2);
  EXPECT_EQ(t->nv, 1000 * (6 - 2 - 2) + 2);
  EXPECT_EQ(t->sum_partition_key, 16);
  EXPECT_EQ(t->sum_static, 24);
  EXPECT_EQ(t->sum_clustering, 8);
  EXPECT_EQ(t->sum_regular, 38);
  EXPECT_EQ(t->st_bytes, 16 + 24 + 1000 * (38 + 8) + 2002 * 10);
}

TEST(Sizing, FixedTypeSizes) {
  struct Case { const char* type; double size; };
  for (Case c : {Case{"boolean", 1}, {"tinyint", 1}, {"smallint", 2}, {"int", 4}, {"date", 4},
                 {"float", 4}, {"bigint", 8}, {"counter", 8}, {"timestamp", 8}, {"time", 8},
                 {"double", 8}, {"uuid", 16}, {"timeuuid", 16}, {"INT", 4}}) {
    auto size = FixedCqlTypeSize(c.type);
    ASSERT_TRUE(size.has_value()) << c.type;
    EXPECT_EQ(*size, c.size) << c.type;
  }
  for (const char* v : {"text", "varchar", "ascii", "blob", "varint", "decimal", "inet",
                        "list<int>", "map<text,int>"}) {
    EXPECT_FALSE(FixedCqlTypeSize(v).has_value()) << v;
  }
}

TEST(Sizing, BadInputsAreNamed) {
  SizingInput in = Hotel();
  in.columns[0].avg_bytes = -1;  // text without an average
  auto missing = ComputePartitionSize(in);
  EXPECT_EQ(missing.status().code(), ErrorCode::kBadOption);
  EXPECT_NE(missing.status().message().find("hotel_id"), std::string::npos);
  in = Hotel();
  in.columns[1].type = "datetime";
  auto unknown = ComputePartitionSize(in);
  EXPECT_NE(unknown.status().message().find("datetime"), std::string::npos);
  in = Hotel();
  in.columns.erase(in.columns.begin());
  EXPECT_EQ(ComputePartitionSize(in).status().code(), ErrorCode::kBadOption);
  in = Hotel();
  in.rows_per_partition = -5;
  EXPECT_EQ(ComputePartitionSize(in).status().code(), ErrorCode::kBadOption);
}

TEST(SizingLimits, ExactlyAtALimitIsFine) {
  EXPECT_TRUE(CheckPartitionLimits(100000, 100e6).empty());
  auto over_values = CheckPartitionLimits(100001, 100e6);
  ASSERT_EQ(over_values.size(), 1u);
  EXPECT_EQ(over_values[0].code, "values_over_100k");
  auto over_bytes = CheckPartitionLimits(1, 100e6 + 1);
  ASSERT_EQ(over_bytes.size(), 1u);
  EXPECT_EQ(over_bytes[0].code, "size_over_100mb");
  auto at_hard = CheckPartitionLimits(2e9, 1);
  ASSERT_EQ(at_hard.size(), 1u);  // only the 100,000 recommendation
  auto over_hard = CheckPartitionLimits(2e9 + 1, 1);
  ASSERT_EQ(over_hard.size(), 2u);
  EXPECT_EQ(over_hard[0].code, "cells_over_2_billion");
  EXPECT_EQ(over_hard[0].severity, "error");
  double gb20 = 20.0 * 1073741824;
  EXPECT_EQ(CheckPartitionLimits(1, gb20).size(), 1u);  // 100 MB only
  auto over_cosmos = CheckPartitionLimits(1, gb20 + 1);
  ASSERT_EQ(over_cosmos.size(), 2u);
  EXPECT_EQ(over_cosmos[1].code, "cosmos_logical_over_20gb");
}

}  // namespace
}  // namespace partplay
