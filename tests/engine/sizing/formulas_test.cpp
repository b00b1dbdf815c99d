// Sizing without CQL: rows per partition as a product of factors, the arithmetic shown with the
// numbers plugged in, number and size formatting, the Cosmos DB row limit.
#include <gtest/gtest.h>

#include "partplay/sizing/formulas.h"

namespace partplay {
namespace {

SizingInput Hotel() {
  SizingInput in;
  in.columns = {{"hotel_id", "text", ColumnRole::kPartitionKey, 5},
                {"date", "date", ColumnRole::kClustering},
                {"room_number", "smallint", ColumnRole::kClustering},
                {"is_available", "boolean", ColumnRole::kRegular}};
  in.rows_per_partition = 73000;
  return in;
}

TEST(SizingRows, PlainNumber) {
  auto rows = ParseRowsFormula("73000");
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  ASSERT_EQ(rows->factors.size(), 1u);
  EXPECT_EQ(rows->value(), 73000);
  EXPECT_EQ(rows->Expression(), "73,000");
}

TEST(SizingRows, ProductsWithEverySign) {
  for (const char* text : {"100*730", "100 x 730", "100X730", " 100 × 730 ", "100\t*\t730"}) {
    auto rows = ParseRowsFormula(text);
    ASSERT_TRUE(rows.ok()) << text << ": " << rows.status().ToString();
    ASSERT_EQ(rows->factors.size(), 2u) << text;
    EXPECT_EQ(rows->factors[0].value, 100) << text;
    EXPECT_EQ(rows->factors[1].value, 730) << text;
    EXPECT_EQ(rows->value(), 73000) << text;
    EXPECT_EQ(rows->Expression(), "100 × 730") << text;
  }
  auto three = ParseRowsFormula("24*60*2.5e1");
  ASSERT_TRUE(three.ok());
  EXPECT_EQ(three->value(), 24 * 60 * 25);
  auto fraction = ParseRowsFormula("0.5*30");
  ASSERT_TRUE(fraction.ok());
  EXPECT_EQ(fraction->value(), 15);
  EXPECT_EQ(fraction->Expression(), "0.5 × 30");
}

TEST(SizingRows, NamedFactorsInTheExpression) {
  RowsEstimate rows{{{"rooms per hotel", 100}, {"nights", 730}}};
  EXPECT_EQ(rows.value(), 73000);
  EXPECT_EQ(rows.Expression(), "100 (rooms per hotel) × 730 (nights)");
}

TEST(SizingRows, ErrorsPointAtTheByte) {
  struct Case {
    const char* text;
    int64_t offset;
    const char* words;
  };
  for (Case c : {Case{"100*", 4, "a number is missing"}, Case{"abc", 0, "expected a number"},
                 Case{"100 730", 4, "expected *"}, Case{"-5", 0, "expected a number"},
                 Case{"", 0, "a number is missing"}, Case{"100*/730", 4, "expected a number"}}) {
    auto rows = ParseRowsFormula(c.text);
    ASSERT_FALSE(rows.ok()) << c.text;
    EXPECT_EQ(rows.status().code(), ErrorCode::kBadOption) << c.text;
    EXPECT_EQ(rows.status().where().byte_offset, c.offset) << c.text;
    EXPECT_EQ(rows.status().where().column, c.offset + 1) << c.text;
    EXPECT_NE(rows.status().message().find(c.words), std::string::npos)
        << c.text << ": " << rows.status().message();
  }
  EXPECT_FALSE(ParseRowsFormula("1e300*1e300").ok());  // the product overflows
}

TEST(SizingArithmetic, HotelExampleAsTheGuideWritesIt) {
  SizingInput in = Hotel();
  in.partitions = 5000;
  in.replication_factor = 3;
  auto t = ComputePartitionSize(in);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(NvArithmetic(t.value()), "Nv = 73,000 × (4 − 3 − 0) + 0 = 73,000");
  EXPECT_EQ(StArithmetic(t.value()),
            "St = 5 + 0 + 73,000 × (1 + 6) + 73,000 × 8 = 5 + 0 + 511,000 + 584,000 = "
            "1,095,005 bytes (1.1 MB)");
  // 1,095,005 x 5,000 x 3 = 16,425,075,000
  EXPECT_EQ(TableArithmetic(t.value()),
            "table = 1,095,005 × 5,000 × 3 = 16,425,075,000 bytes (16.4 GB)");
}

TEST(SizingArithmetic, StaticColumnsAndFractions) {
  SizingInput in;
  in.columns = {{"sensor", "uuid", ColumnRole::kPartitionKey},
                {"ts", "timestamp", ColumnRole::kClustering},
                {"site", "text", ColumnRole::kStatic, 12.5},
                {"value", "double", ColumnRole::kRegular}};
  in.rows_per_partition = 10;
  in.t_avg = 8;
  auto t = ComputePartitionSize(in);
  ASSERT_TRUE(t.ok());
  // Nv = 10 (4 - 2 - 1) + 1 = 11; St = 16 + 12.5 + 10 (8 + 8) + 11 x 8 = 276.5
  EXPECT_EQ(NvArithmetic(t.value()), "Nv = 10 × (4 − 2 − 1) + 1 = 11");
  EXPECT_EQ(StArithmetic(t.value()),
            "St = 16 + 12.5 + 10 × (8 + 8) + 11 × 8 = 16 + 12.5 + 160 + 88 = 276.5 bytes "
            "(276.5 bytes)");
}

TEST(SizingFormat, Quantities) {
  EXPECT_EQ(FormatQuantity(0), "0");
  EXPECT_EQ(FormatQuantity(999), "999");
  EXPECT_EQ(FormatQuantity(1234567), "1,234,567");
  EXPECT_EQ(FormatQuantity(12.5), "12.5");
  EXPECT_EQ(FormatQuantity(0.25), "0.25");
  EXPECT_EQ(FormatQuantity(1234.126), "1,234.13");  // 2 decimals at most
  EXPECT_EQ(FormatQuantity(2.999), "3");
}

TEST(SizingFormat, DecimalSizes) {
  EXPECT_EQ(FormatDecimalBytes(999), "999 bytes");
  EXPECT_EQ(FormatDecimalBytes(1000), "1.0 KB");
  EXPECT_EQ(FormatDecimalBytes(511000), "511.0 KB");
  EXPECT_EQ(FormatDecimalBytes(1095005), "1.1 MB");
  EXPECT_EQ(FormatDecimalBytes(999960), "1.0 MB");  // not "1,000.0 KB"
  EXPECT_EQ(FormatDecimalBytes(100e6), "100.0 MB");
  EXPECT_EQ(FormatDecimalBytes(16425075000), "16.4 GB");
}

TEST(SizingLimits, RowBytesAndTheCosmosRowLimit) {
  auto hotel = ComputePartitionSize(Hotel());
  ASSERT_TRUE(hotel.ok());
  EXPECT_EQ(RowBytes(hotel.value()), 5 + 4 + 2 + 1);
  EXPECT_TRUE(CheckRowLimits(2097152).empty());  // exactly 2 MB is allowed
  auto over = CheckRowLimits(2097153);
  ASSERT_EQ(over.size(), 1u);
  EXPECT_EQ(over[0].code, "cosmos_row_over_2mb");
  EXPECT_EQ(over[0].severity, "error");
  EXPECT_EQ(over[0].limit, 2097152);

  SizingInput blob;
  blob.columns = {{"id", "uuid", ColumnRole::kPartitionKey},
                  {"payload", "blob", ColumnRole::kRegular, 3e6}};
  auto t = ComputePartitionSize(blob);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->st_bytes, 16 + 3e6 + 8);  // one row, one value: under 100 MB
  auto findings = CheckSizingLimits(t.value());
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].code, "cosmos_row_over_2mb");
  EXPECT_EQ(findings[0].value, 16 + 3e6);
}

TEST(SizingLimits, MessagesShowTheNumbers) {
  auto just_over = CheckPartitionLimits(100001, 100e6 + 1);
  ASSERT_EQ(just_over.size(), 2u);
  EXPECT_EQ(just_over[0].message, "100,001 values in one partition: over the recommended 100,000");
  // One decimal would read "100.0 MB", the limit itself: the exact bytes are added.
  EXPECT_EQ(just_over[1].message,
            "100.0 MB (100,000,001 bytes) in one partition: over the recommended 100 MB");
  auto big = CheckPartitionLimits(1, 2649024048);
  ASSERT_EQ(big.size(), 1u);
  EXPECT_EQ(big[0].message, "2.6 GB in one partition: over the recommended 100 MB");
  auto cosmos = CheckPartitionLimits(1, 21474836481.0);
  ASSERT_EQ(cosmos.size(), 2u);
  EXPECT_EQ(cosmos[1].message,
            "20.0 GB (21,474,836,481 bytes) in one partition: over Cosmos DB's 20 GB per logical "
            "partition (Cassandra API included)");
}

TEST(SizingLimits, PartitionAndRowFindingsTogether) {
  SizingInput in = Hotel();
  in.rows_per_partition = 100001;  // one value over the recommendation
  auto t = ComputePartitionSize(in);
  ASSERT_TRUE(t.ok());
  auto findings = CheckSizingLimits(t.value());
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].code, "values_over_100k");
  EXPECT_EQ(findings[0].value, 100001);
}

}  // namespace
}  // namespace partplay
