// Growth over time: the partition's size day by day for an ingest rate and a retention (TTL),
// and the first day it breaks each threshold, checked on both sides of each boundary.
#include <gtest/gtest.h>

#include "partplay/sizing/formulas.h"

namespace partplay {
namespace {

// The hotel table: each day adds a night for 100 rooms; a row is 7 bytes + 8 of metadata, so
// Nv(d) = 100 d and St(d) = 5 + 1,500 d.
SizingInput Hotel() {
  SizingInput in;
  in.columns = {{"hotel_id", "text", ColumnRole::kPartitionKey, 5},
                {"date", "date", ColumnRole::kClustering},
                {"room_number", "smallint", ColumnRole::kClustering},
                {"is_available", "boolean", ColumnRole::kRegular}};
  return in;
}

const ThresholdCrossing& Crossing(const GrowthSeries& g, const std::string& code) {
  for (const ThresholdCrossing& c : g.crossings) {
    if (c.code == code) return c;
  }
  static ThresholdCrossing none;
  ADD_FAILURE() << "no crossing " << code;
  return none;
}

const GrowthPoint* PointAt(const GrowthSeries& g, int64_t day) {
  for (const GrowthPoint& p : g.points) {
    if (p.day == day) return &p;
  }
  return nullptr;
}

TEST(SizingGrowth, KeptForeverCrossesEachThresholdOnItsDay) {
  auto g = ComputeGrowth(Hotel(), {.rows_per_day = 100});
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  EXPECT_EQ(g->options.horizon_days, 3650);
  // 100 d > 100,000 first on day 1,001 (day 1,000 is exactly at the limit).
  const ThresholdCrossing& values = Crossing(g.value(), "values_over_100k");
  ASSERT_TRUE(values.day.has_value());
  EXPECT_EQ(*values.day, 1001);
  EXPECT_TRUE(values.within_horizon);
  EXPECT_EQ(values.measure, "nv");
  const GrowthPoint* at = PointAt(g.value(), 1001);
  ASSERT_NE(at, nullptr);  // crossing days are in the series
  EXPECT_EQ(at->nv, 100100);
  // 5 + 1,500 d > 100,000,000: d = 66,666 gives 99,999,005, d = 66,667 gives 100,000,505.
  const ThresholdCrossing& mb = Crossing(g.value(), "size_over_100mb");
  ASSERT_TRUE(mb.day.has_value());
  EXPECT_EQ(*mb.day, 66667);
  EXPECT_FALSE(mb.within_horizon);
  // 100 d > 2,000,000,000: day 20,000,001.
  EXPECT_EQ(Crossing(g.value(), "cells_over_2_billion").day, std::optional<int64_t>(20000001));
  // 5 + 1,500 d > 20 x 2^30 = 21,474,836,480: d = 14,316,557 gives 21,474,835,505.
  EXPECT_EQ(Crossing(g.value(), "cosmos_logical_over_20gb").day, std::optional<int64_t>(14316558));
  EXPECT_EQ(g->largest.day, 3650);
  EXPECT_EQ(g->largest.rows, 365000);
  EXPECT_EQ(g->largest.st_bytes, 5 + 1500.0 * 3650);
}

TEST(SizingGrowth, RetentionCapsThePartition) {
  auto g = ComputeGrowth(Hotel(), {.rows_per_day = 100, .retention_days = 730});
  ASSERT_TRUE(g.ok());
  for (const ThresholdCrossing& c : g->crossings) {
    EXPECT_FALSE(c.day.has_value()) << c.code;  // 73,000 values at most
    EXPECT_FALSE(c.within_horizon);
  }
  EXPECT_EQ(g->largest.rows, 73000);
  EXPECT_EQ(g->largest.nv, 73000);
  EXPECT_EQ(g->largest.st_bytes, 1095005);
  const GrowthPoint* flat = PointAt(g.value(), 730);  // the day it stops growing is in the series
  ASSERT_NE(flat, nullptr);
  EXPECT_EQ(flat->rows, 73000);
}

TEST(SizingGrowth, RetentionExactlyAtTheLimit) {
  // Kept 1,000 days: 100,000 values, exactly the recommendation, never over it.
  auto at = ComputeGrowth(Hotel(), {.rows_per_day = 100, .retention_days = 1000});
  ASSERT_TRUE(at.ok());
  EXPECT_FALSE(Crossing(at.value(), "values_over_100k").day.has_value());
  // Kept 1,001 days: over on the last one.
  auto over = ComputeGrowth(Hotel(), {.rows_per_day = 100, .retention_days = 1001});
  ASSERT_TRUE(over.ok());
  EXPECT_EQ(Crossing(over.value(), "values_over_100k").day, std::optional<int64_t>(1001));
  EXPECT_EQ(over->options.horizon_days, 3650);
}

TEST(SizingGrowth, SeriesDays) {
  auto g = ComputeGrowth(Hotel(), {.rows_per_day = 100, .retention_days = 730});
  ASSERT_TRUE(g.ok());
  // Every 10 days (3,650 / 365), plus the retention day; 0 and the horizon included.
  ASSERT_FALSE(g->points.empty());
  EXPECT_EQ(g->points.front().day, 0);
  EXPECT_EQ(g->points.front().rows, 0);
  EXPECT_EQ(g->points.back().day, 3650);
  for (size_t i = 1; i < g->points.size(); ++i) {
    EXPECT_LT(g->points[i - 1].day, g->points[i].day);
  }
  EXPECT_NE(PointAt(g.value(), 10), nullptr);
  EXPECT_EQ(PointAt(g.value(), 15), nullptr);
  EXPECT_EQ(g->points.size(), 366u);  // 0, 10, ..., 3,650 (730 is one of them)

  auto daily = ComputeGrowth(Hotel(), {.rows_per_day = 100, .horizon_days = 100});
  ASSERT_TRUE(daily.ok());
  EXPECT_EQ(daily->points.size(), 101u);  // every day
  EXPECT_EQ(daily->points[37].rows, 3700);
  EXPECT_EQ(daily->points[37].st_bytes, 5 + 1500 * 37);

  auto long_ttl = ComputeGrowth(Hotel(), {.rows_per_day = 1, .retention_days = 5000});
  ASSERT_TRUE(long_ttl.ok());
  EXPECT_EQ(long_ttl->options.horizon_days, 5365);  // retention + a year of plateau
}

TEST(SizingGrowth, AlreadyOverOnDayZeroAndNoGrowth) {
  SizingInput in;
  in.columns = {{"id", "uuid", ColumnRole::kPartitionKey},
                {"at", "timestamp", ColumnRole::kClustering},
                {"manual", "blob", ColumnRole::kStatic, 2e8},
                {"v", "int", ColumnRole::kRegular}};
  auto g = ComputeGrowth(in, {.rows_per_day = 0});
  ASSERT_TRUE(g.ok());
  // St(0) = 16 + 200,000,000 + 0 + 1 x 8: over 100 MB before any row; values never grow.
  EXPECT_EQ(Crossing(g.value(), "size_over_100mb").day, std::optional<int64_t>(0));
  EXPECT_TRUE(Crossing(g.value(), "size_over_100mb").within_horizon);
  EXPECT_FALSE(Crossing(g.value(), "values_over_100k").day.has_value());
  EXPECT_FALSE(Crossing(g.value(), "cosmos_logical_over_20gb").day.has_value());
}

TEST(SizingGrowth, BadInputs) {
  EXPECT_EQ(ComputeGrowth(Hotel(), {.rows_per_day = -1}).status().code(), ErrorCode::kBadOption);
  EXPECT_EQ(ComputeGrowth(Hotel(), {.rows_per_day = 1, .retention_days = -1}).status().code(),
            ErrorCode::kBadOption);
  SizingInput no_size = Hotel();
  no_size.columns[0].avg_bytes = -1;
  auto missing = ComputeGrowth(no_size, {.rows_per_day = 1});
  EXPECT_NE(missing.status().message().find("hotel_id"), std::string::npos);
}

}  // namespace
}  // namespace partplay
