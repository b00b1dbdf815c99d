// Hostile sizing requests (issue 12): row counts past 2^53 are located errors, and the hash
// bucket search is an integer search that ends for every row count it accepts.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "partplay/core/limits.h"
#include "partplay/sizing/formulas.h"
#include "partplay/sizing/sizing_request.h"
#include "partplay/sizing/table_sizing.h"

namespace partplay {
namespace {

constexpr char kEvents[] =
    "CREATE TABLE events (k int, at timestamp, v bigint, PRIMARY KEY (k, at));";

TEST(SizingHostileInput, AProductOfRowsPast2To53IsAnErrorAtItsColumn) {
  auto r = ParseRowsFormula("99999999999*99999999999");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kBadOption);
  EXPECT_EQ(r.status().where().column, 1);
  EXPECT_EQ(r.status().message(),
            "rows per partition \"99999999999*99999999999\": the product 1e+22 is past 2^53 "
            "(9,007,199,254,740,992), the most rows the sizing counts exactly at column 1 (a "
            "number, or numbers joined by *, x or ×, such as 100*730)");
  auto one = ParseRowsFormula("2 x 1e300");
  ASSERT_FALSE(one.ok());
  EXPECT_EQ(one.status().where().column, 5);  // the number itself is past 2^53
  auto digits = ParseRowsFormula(std::string(200000, '9'));
  ASSERT_FALSE(digits.ok());
  EXPECT_EQ(digits.status().where().column, 1);
  auto at_limit = ParseRowsFormula("4503599627370496*2");  // exactly 2^53
  ASSERT_TRUE(at_limit.ok()) << at_limit.status().ToString();
  EXPECT_EQ(at_limit->value(), kSizingMaxRowsPerPartition);
}

TEST(SizingHostileInput, TheJsonRequestNamesTheRowsField) {
  for (std::string rows : {R"("99999999999*99999999999")", "1e22", "[99999999999, 99999999999]",
                           R"([{"value": 1e10}, {"value": 1e10}])"}) {
    std::string json = std::string(R"({"cql": ")") + kEvents + R"(", "table": "events", )" +
                       R"("rows_per_partition": )" + rows + "}";
    auto r = SizeTableJson(json);
    ASSERT_FALSE(r.ok()) << rows;
    EXPECT_EQ(r.status().code(), ErrorCode::kBadOption) << rows;
    EXPECT_EQ(r.status().field(), "/rows_per_partition") << rows;
    EXPECT_NE(r.status().message().find("past 2^53"), std::string::npos) << r.status().message();
  }
}

TEST(SizingHostileInput, TheHashBucketSearchEndsNearTheLargestRowCount) {
  // 2^53 rows per partition: the bucket count that clears every limit is found by an integer
  // search (a double midpoint stops moving here, and the old search never ended).
  TableSizingRequest req;
  req.cql = kEvents;
  req.table = "events";
  req.rows_per_partition = ParseRowsFormula("9007199254740992").value();
  auto r = SizeTable(req);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_FALSE(r->options.empty());
  const RedesignOption& o = r->options.back();
  EXPECT_EQ(o.split.kind, SplitKind::kHashBucket);
  EXPECT_TRUE(o.clears_limits);
  // The smallest count: one fewer bucket leaves a partition over a limit.
  PartitionSplit fewer = o.split;
  fewer.buckets = o.split.buckets - 1;
  req.suggest_splits = false;
  req.splits = {fewer};
  auto again = SizeTable(req);
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_FALSE(again->options[0].clears_limits);
}

TEST(SizingHostileInput, GrowthPast2To53RowsIsAnError) {
  TableSizingRequest req;
  req.cql = kEvents;
  req.table = "events";
  req.rows_per_partition = ParseRowsFormula("1").value();
  req.growth = GrowthOptions{1e15, 0, 100000};
  auto r = SizeTable(req);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kBadOption);
  EXPECT_NE(r.status().message().find("is past 2^53"), std::string::npos) << r.status().message();
}

TEST(SizingHostileInput, SizesPastTheLargestDoubleAreAnErrorNotNull) {
  std::string json = std::string(R"({"cql": ")") + kEvents +
                     R"(", "table": "events", "rows_per_partition": 1000, "partitions": 1e300, )"
                     R"("replication_factor": 1e300})";
  auto r = SizeTableJson(json);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kBadOption);
  EXPECT_NE(r.status().message().find("the sizes overflow"), std::string::npos)
      << r.status().message();
}

}  // namespace
}  // namespace partplay
