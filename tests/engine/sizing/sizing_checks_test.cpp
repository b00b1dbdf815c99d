// The sizing's check table (sizing_checks.h): every check names a limit of the limits table, its
// labels are the table's, and a case's judged checks agree with its findings.
#include "partplay/sizing/sizing_checks.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "partplay/core/limits.h"

namespace partplay {
namespace {

SizingInput Hotel(double rows) {
  SizingInput in;
  in.columns = {{"hotel_id", "text", ColumnRole::kPartitionKey, 5},
                {"date", "date", ColumnRole::kClustering},
                {"room_number", "smallint", ColumnRole::kClustering},
                {"is_available", "boolean", ColumnRole::kRegular}};
  in.rows_per_partition = rows;
  return in;
}

TEST(SizingChecks, EveryCheckNamesALimitOfTheTable) {
  std::set<std::string_view> codes;
  for (const SizingCheck& c : AllSizingChecks()) {
    EXPECT_TRUE(codes.insert(c.code).second) << c.code;
    ASSERT_NE(FindLimit(c.limit_id), nullptr) << c.limit_id;
    EXPECT_EQ(SizingCheckLimit(c), FindLimit(c.limit_id)->value);
    EXPECT_TRUE(c.severity == "error" || c.severity == "warning") << c.code;
    EXPECT_TRUE(c.measure == "nv" || c.measure == "st_bytes" || c.measure == "row_bytes");
    EXPECT_EQ(FindSizingCheck(c.code), &c);
  }
  EXPECT_EQ(codes.size(), 5u);
  EXPECT_EQ(FindSizingCheck("no_such_check"), nullptr);
}

TEST(SizingChecks, LabelsComeFromTheLimitsTable) {
  EXPECT_EQ(SizingCheckLabel(*FindSizingCheck("cells_over_2_billion")), "2 billion cells");
  EXPECT_EQ(SizingCheckLabel(*FindSizingCheck("values_over_100k")), "100,000 values");
  EXPECT_EQ(SizingCheckLabel(*FindSizingCheck("size_over_100mb")), "100 MB");
  EXPECT_EQ(SizingCheckLabel(*FindSizingCheck("cosmos_logical_over_20gb")), "20 GB");
  EXPECT_EQ(SizingCheckLabel(*FindSizingCheck("cosmos_row_over_2mb")), "2 MB per row");
}

TEST(SizingChecks, JudgedChecksAgreeWithTheFindings) {
  // Nv = Nr here (one regular column): 1,000 and 73,000 rows are within the recommended 100,000
  // values, 10^9 rows are over it (and over 100 MB).
  for (double rows : {1000.0, 73000.0, 1e9}) {
    StatusOr<SizingTerms> terms = ComputePartitionSize(Hotel(rows));
    ASSERT_TRUE(terms.ok()) << terms.status().ToString();
    std::set<std::string> broken;
    for (const SizingFinding& f : CheckSizingLimits(terms.value())) broken.insert(f.code);
    for (const SizingCheck& c : AllSizingChecks()) {
      const bool pass = !(SizingCheckValue(c, terms.value()) > SizingCheckLimit(c));
      EXPECT_EQ(pass, !broken.contains(std::string(c.code))) << c.code << " at " << rows;
    }
    const std::string json = SizingChecksJson(&terms.value());
    EXPECT_NE(json.find("\"code\":\"values_over_100k\",\"measure\":\"nv\",\"limit_id\":"
                        "\"cassandra_recommended_values_per_partition\",\"limit\":100000,"
                        "\"label\":\"100,000 values\",\"severity\":\"warning\""),
              std::string::npos)
        << json;
    const std::string verdict = rows > 100000 ? "\"pass\":false" : "\"pass\":true";
    const size_t at = json.find("\"values_over_100k\"");
    EXPECT_NE(json.find(verdict, at), std::string::npos) << json;
  }
  EXPECT_EQ(SizingChecksJson().find("\"pass\""), std::string::npos);
}

}  // namespace
}  // namespace partplay
