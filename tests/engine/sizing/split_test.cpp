// Splitting a partition (no CQL): each split's redesigned table equals the one written by hand,
// sized the same by ComputePartitionSize; the split factor is the query fan-out.
#include <gtest/gtest.h>

#include "partplay/sizing/formulas.h"

namespace partplay {
namespace {

// available_rooms_by_hotel_date: 5,000 hotels of 100 rooms x 730 nights, 3 replicas.
SizingInput Hotel() {
  SizingInput in;
  in.columns = {{"hotel_id", "text", ColumnRole::kPartitionKey, 5},
                {"date", "date", ColumnRole::kClustering},
                {"room_number", "smallint", ColumnRole::kClustering},
                {"is_available", "boolean", ColumnRole::kRegular}};
  in.rows_per_partition = 73000;
  in.partitions = 5000;
  in.replication_factor = 3;
  return in;
}

void ExpectSameTerms(const SizingTerms& a, const SizingTerms& b) {
  EXPECT_EQ(a.nr, b.nr);
  EXPECT_EQ(a.nc, b.nc);
  EXPECT_EQ(a.npk, b.npk);
  EXPECT_EQ(a.ns, b.ns);
  EXPECT_EQ(a.nv, b.nv);
  EXPECT_EQ(a.sum_partition_key, b.sum_partition_key);
  EXPECT_EQ(a.sum_static, b.sum_static);
  EXPECT_EQ(a.sum_regular, b.sum_regular);
  EXPECT_EQ(a.sum_clustering, b.sum_clustering);
  EXPECT_EQ(a.st_bytes, b.st_bytes);
  EXPECT_EQ(a.partitions, b.partitions);
  EXPECT_EQ(a.table_bytes, b.table_bytes);
}

TEST(SizingSplit, MovingDateIntoThePartitionKey) {
  PartitionSplit split;
  split.kind = SplitKind::kMoveClusteringColumn;
  split.column = "date";
  split.distinct_values = 730;
  auto r = ApplySplit(Hotel(), split);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->split_factor, 730);
  EXPECT_EQ(r->moved_column, "date");
  EXPECT_EQ(r->added_column, "");

  // PRIMARY KEY ((hotel_id, date), room_number), written by hand.
  SizingInput by_hand;
  by_hand.columns = {{"hotel_id", "text", ColumnRole::kPartitionKey, 5},
                     {"date", "date", ColumnRole::kPartitionKey},
                     {"room_number", "smallint", ColumnRole::kClustering},
                     {"is_available", "boolean", ColumnRole::kRegular}};
  by_hand.rows_per_partition = 100;  // 100 rooms on one night
  by_hand.partitions = 5000 * 730;
  by_hand.replication_factor = 3;
  auto advisor = ComputePartitionSize(r->input);
  auto direct = ComputePartitionSize(by_hand);
  ASSERT_TRUE(advisor.ok() && direct.ok());
  ExpectSameTerms(advisor.value(), direct.value());
  // Nv = 100 (4 - 3 - 0) = 100; St = (5 + 4) + 0 + 100 (1 + 2) + 100 x 8 = 1,109
  EXPECT_EQ(advisor->nv, 100);
  EXPECT_EQ(advisor->st_bytes, 1109);
  EXPECT_EQ(advisor->table_bytes, 1109.0 * 3650000 * 3);
}

TEST(SizingSplit, MonthBucketAsTheGuideProposes) {
  PartitionSplit split;
  split.kind = SplitKind::kTimeBucket;
  split.column = "date";
  split.unit = TimeBucketUnit::kMonth;
  split.span_days = 730;
  auto r = ApplySplit(Hotel(), split);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->split_factor, 24);  // 730 / 30.4375 = 23.98 -> 24 months
  EXPECT_EQ(r->added_column, "month");
  EXPECT_EQ(r->added_type, "int");

  // PRIMARY KEY ((hotel_id, month), date, room_number) with month int, by hand.
  SizingInput by_hand;
  by_hand.columns = {{"hotel_id", "text", ColumnRole::kPartitionKey, 5},
                     {"month", "int", ColumnRole::kPartitionKey},
                     {"date", "date", ColumnRole::kClustering},
                     {"room_number", "smallint", ColumnRole::kClustering},
                     {"is_available", "boolean", ColumnRole::kRegular}};
  by_hand.rows_per_partition = 3042;  // ceil(73,000 / 24)
  by_hand.partitions = 120000;
  by_hand.replication_factor = 3;
  auto advisor = ComputePartitionSize(r->input);
  auto direct = ComputePartitionSize(by_hand);
  ASSERT_TRUE(advisor.ok() && direct.ok());
  ExpectSameTerms(advisor.value(), direct.value());
  EXPECT_EQ(r->input.columns[1].name, "month");  // right after the partition key
  // Nv = 3,042 (5 - 4 - 0); St = 9 + 0 + 3,042 x 7 + 3,042 x 8 = 9 + 21,294 + 24,336
  EXPECT_EQ(advisor->nv, 3042);
  EXPECT_EQ(advisor->st_bytes, 45639);
}

TEST(SizingSplit, WeekAndDayBuckets) {
  PartitionSplit week;
  week.kind = SplitKind::kTimeBucket;
  week.column = "date";
  week.unit = TimeBucketUnit::kWeek;
  week.span_days = 730;
  auto w = ApplySplit(Hotel(), week);
  ASSERT_TRUE(w.ok());
  EXPECT_EQ(w->split_factor, 105);              // 730 / 7 = 104.3
  EXPECT_EQ(w->input.rows_per_partition, 696);  // ceil(73,000 / 105) = ceil(695.2)
  EXPECT_EQ(w->added_column, "week");
  EXPECT_EQ(w->added_type, "date");

  // A day bucket of a date column is the date itself, moved.
  PartitionSplit day = week;
  day.unit = TimeBucketUnit::kDay;
  auto d = ApplySplit(Hotel(), day);
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->split_factor, 730);
  EXPECT_EQ(d->moved_column, "date");
  EXPECT_EQ(d->added_column, "");
  EXPECT_EQ(d->input.rows_per_partition, 100);
  EXPECT_EQ(d->input.columns.size(), 4u);

  // Of a timestamp column it is a new `day date` column.
  SizingInput events;
  events.columns = {{"device", "uuid", ColumnRole::kPartitionKey},
                    {"at", "timestamp", ColumnRole::kClustering},
                    {"reading", "double", ColumnRole::kRegular}};
  events.rows_per_partition = 86400 * 30;  // one a second for 30 days
  PartitionSplit daily;
  daily.kind = SplitKind::kTimeBucket;
  daily.column = "at";
  daily.unit = TimeBucketUnit::kDay;
  daily.span_days = 30;
  auto e = ApplySplit(events, daily);
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  EXPECT_EQ(e->added_column, "day");
  EXPECT_EQ(e->added_type, "date");
  EXPECT_EQ(e->input.rows_per_partition, 86400);
  auto t = ComputePartitionSize(e->input);
  ASSERT_TRUE(t.ok());
  // Nv = 86,400 (4 - 3 - 0); St = (16 + 4) + 86,400 x (8 + 8) + 86,400 x 8
  EXPECT_EQ(t->nv, 86400);
  EXPECT_EQ(t->st_bytes, 20 + 86400.0 * 16 + 86400.0 * 8);
}

TEST(SizingSplit, HashBucket) {
  PartitionSplit split;
  split.kind = SplitKind::kHashBucket;
  split.buckets = 4;
  auto r = ApplySplit(Hotel(), split);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->split_factor, 4);
  EXPECT_EQ(r->added_column, "bucket");
  SizingInput by_hand;
  by_hand.columns = {{"hotel_id", "text", ColumnRole::kPartitionKey, 5},
                     {"bucket", "int", ColumnRole::kPartitionKey},
                     {"date", "date", ColumnRole::kClustering},
                     {"room_number", "smallint", ColumnRole::kClustering},
                     {"is_available", "boolean", ColumnRole::kRegular}};
  by_hand.rows_per_partition = 18250;
  by_hand.partitions = 20000;
  by_hand.replication_factor = 3;
  auto advisor = ComputePartitionSize(r->input);
  auto direct = ComputePartitionSize(by_hand);
  ASSERT_TRUE(advisor.ok() && direct.ok());
  ExpectSameTerms(advisor.value(), direct.value());
  EXPECT_EQ(advisor->st_bytes, 9 + 18250 * 7 + 18250 * 8);  // 273,759
}

TEST(SizingSplit, NewColumnNamesAvoidExistingOnes) {
  SizingInput in = Hotel();
  in.columns.push_back({"month", "int", ColumnRole::kRegular});
  in.columns.push_back({"month_2", "int", ColumnRole::kRegular});
  PartitionSplit split;
  split.kind = SplitKind::kTimeBucket;
  split.column = "date";
  split.span_days = 365;
  auto r = ApplySplit(in, split);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->added_column, "month_3");
  EXPECT_EQ(r->split_factor, 12);  // 365 / 30.4375 = 11.99

  split.new_column = "month";  // asked for, but taken
  auto taken = ApplySplit(in, split);
  EXPECT_EQ(taken.status().code(), ErrorCode::kBadOption);
  EXPECT_NE(taken.status().message().find("month"), std::string::npos);
  split.new_column = "yyyymm";
  auto named = ApplySplit(in, split);
  ASSERT_TRUE(named.ok());
  EXPECT_EQ(named->added_column, "yyyymm");
}

TEST(SizingSplit, RoundsRowsUpAndNeverBelowOne) {
  SizingInput in = Hotel();
  in.rows_per_partition = 10;
  PartitionSplit split;
  split.kind = SplitKind::kHashBucket;
  split.buckets = 16;
  auto r = ApplySplit(in, split);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->input.rows_per_partition, 1);  // ceil(10 / 16)
  EXPECT_EQ(r->input.partitions, 5000 * 16);
}

TEST(SizingSplit, BadSplitsAreNamed) {
  struct Case {
    PartitionSplit split;
    const char* words;
  };
  PartitionSplit move_regular{SplitKind::kMoveClusteringColumn, "is_available", 2};
  PartitionSplit move_unknown{SplitKind::kMoveClusteringColumn, "floor", 2};
  PartitionSplit move_zero{SplitKind::kMoveClusteringColumn, "date", 0};
  PartitionSplit time_smallint{SplitKind::kTimeBucket, "room_number", 0, TimeBucketUnit::kMonth,
                               730};
  PartitionSplit time_no_span{SplitKind::kTimeBucket, "date", 0, TimeBucketUnit::kMonth, 0};
  PartitionSplit hash_one{SplitKind::kHashBucket, "", 0, TimeBucketUnit::kMonth, 0, 1};
  PartitionSplit hash_fraction{SplitKind::kHashBucket, "", 0, TimeBucketUnit::kMonth, 0, 2.5};
  for (const Case& c :
       {Case{move_regular, "is_available is not a clustering column"},
        Case{move_unknown, "no column floor"}, Case{move_zero, "distinct values"},
        Case{time_smallint, "room_number is smallint, not a date"}, Case{time_no_span, "days"},
        Case{hash_one, "2 or more"}, Case{hash_fraction, "whole number"}}) {
    auto r = ApplySplit(Hotel(), c.split);
    ASSERT_FALSE(r.ok()) << c.words;
    EXPECT_EQ(r.status().code(), ErrorCode::kBadOption);
    EXPECT_NE(r.status().message().find(c.words), std::string::npos) << r.status().message();
  }
}

TEST(SizingSplit, UnitNames) {
  EXPECT_EQ(TimeBucketDays(TimeBucketUnit::kMonth), 30.4375);
  EXPECT_EQ(ParseTimeBucketUnit("Week").value(), TimeBucketUnit::kWeek);
  EXPECT_FALSE(ParseTimeBucketUnit("year").ok());
  EXPECT_EQ(SplitKindName(SplitKind::kMoveClusteringColumn), "move_clustering_column");
  EXPECT_EQ(TimeBucketUnitName(TimeBucketUnit::kDay), "day");
}

}  // namespace
}  // namespace partplay
