#include "partplay/report/report_builder.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "partplay/core/limits.h"
#include "partplay/ingest/analysis.h"

namespace partplay {
namespace {

// The built report's JSON for `input` keyed by /k, with a container of 400 RU/s.
std::string BuiltJson(std::string_view input) {
  AnalysisOptions options;
  options.key_paths = {"/k"};
  auto analyzer = Analyzer::Create(options);
  EXPECT_TRUE(analyzer.ok());
  Analyzer& a = *analyzer.value();
  EXPECT_TRUE(a.Feed(input).ok());
  EXPECT_TRUE(a.Finish().ok());
  ReportRequest request;
  request.container = ContainerOptions{};
  request.container->ru_per_second = 400;
  auto built = BuildFullReport(a, options, request);
  EXPECT_TRUE(built.ok()) << built.status().ToString();
  return built.ok() ? built->json : "";
}

TEST(ReportBuilder, GrowthToSplitIsTheSmallestGrowthPastOnePhysicalPartition) {
  const std::string input = "{\"id\": \"1\", \"k\": \"a\"}\n{\"id\": \"2\", \"k\": \"b\"}\n";
  const std::string json = BuiltJson(input);
  const double bytes = static_cast<double>(input.size() - 2);  // the two items, newlines aside
  const double expected = std::floor(kCosmosPhysicalPartitionBytes / bytes) + 1;
  ASSERT_GT(expected * bytes, kCosmosPhysicalPartitionBytes);
  ASSERT_LE((expected - 1) * bytes, kCosmosPhysicalPartitionBytes);
  EXPECT_NE(json.find(fmt::format("\"growth_to_split\":{}", static_cast<int64_t>(expected))),
            std::string::npos)
      << json;
}

}  // namespace
}  // namespace partplay
