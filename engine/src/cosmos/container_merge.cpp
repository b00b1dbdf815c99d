// Merging partitions (container.h MergeView), from "Merge partitions in Azure Cosmos DB"
// (azure-databases-docs, articles/cosmos-db/merge.md): its two conditions for a container that is
// likely to benefit, the layout a merge leaves (the target count is our assumption, stated in
// container.h) and the commands, `az cosmosdb sql container merge` and PowerShell's
// Invoke-AzCosmosDBSqlContainerMerge (run with -WhatIf first: the service's own simulation).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/message_format.h"
#include "cosmos/container_model.h"

namespace partplay::internal::container {

namespace {

constexpr std::string_view kAzureCommand =
    "az cosmosdb sql container merge --resource-group \"<resource-group-name>\" --account-name "
    "\"<cosmos-account-name>\" --database-name \"<cosmos-database-name>\" --name "
    "\"<cosmos-container-name>\"";
constexpr std::string_view kPowerShell =
    "Invoke-AzCosmosDBSqlContainerMerge -ResourceGroupName \"<resource-group-name>\" -AccountName "
    "\"<cosmos-account-name>\" -DatabaseName \"<cosmos-database-name>\" -Name "
    "\"<cosmos-container-name>\" -WhatIf";

}  // namespace

StatusOr<MergeView> PlanMerge(const Model& m, const LayoutView& before, int top_per_range,
                              Version version) {
  MergeView v;
  if (before.throughput_mode == "serverless" || before.ranges.empty()) return v;
  v.judged = true;
  const double n = static_cast<double>(before.ranges.size());
  v.partitions_before = static_cast<int64_t>(before.ranges.size());
  v.ru_per_partition = before.ru_per_second / n;
  v.average_bytes_per_partition = before.storage_bytes / n;
  v.low_throughput = v.ru_per_partition < kCosmosMergeMaxRuPerPartition;
  v.low_storage = v.average_bytes_per_partition < kCosmosMergeMaxAverageBytesPerPartition;
  v.throttled_fraction_before = before.throttled_fraction;
  PARTPLAY_ASSIGN_OR_RETURN(int64_t target,
                            PhysicalPartitionCount(before.ru_per_second, before.storage_bytes));
  v.partitions_after = std::min(target, v.partitions_before);
  v.ru_per_partition_after = before.ru_per_second / static_cast<double>(v.partitions_after);
  v.eligible = v.low_throughput && v.low_storage && v.partitions_after < v.partitions_before;
  v.throttled_fraction_after = v.throttled_fraction_before;
  if (v.eligible) {
    PARTPLAY_ASSIGN_OR_RETURN(PhysicalLayout merged,
                              InitialLayout(static_cast<int>(v.partitions_after), version));
    PARTPLAY_ASSIGN_OR_RETURN(LayoutView after, FillLayout(m, AssignToRanges(merged, m),
                                                           before.ru_per_second, 1, top_per_range,
                                                           version));
    v.throttled_fraction_after = after.throttled_fraction;
    v.azure_cli = std::string(kAzureCommand);
    v.powershell = std::string(kPowerShell);
    v.reason = fmt::format(
        "{} per physical partition (under {}) and {} per partition on average (under {}): a "
        "merge is likely to help. Merged to {} physical partition{} (the fewest the RU/s and the "
        "data need: our assumption, the docs publish no count), each gets {} instead of {}",
        FormatRate(v.ru_per_partition), FormatRate(kCosmosMergeMaxRuPerPartition),
        FormatSize(v.average_bytes_per_partition), FormatSize(kCosmosMergeMaxAverageBytesPerPartition),
        v.partitions_after, v.partitions_after == 1 ? "" : "s", FormatRate(v.ru_per_partition_after),
        FormatRate(v.ru_per_partition));
    if (v.throttled_fraction_before > 0) {
      v.reason += fmt::format("; the workload's throttled share goes from {} to {}",
                              FormatPercent(v.throttled_fraction_before),
                              FormatPercent(v.throttled_fraction_after));
    }
    v.reason += ".";
  } else if (!v.low_throughput) {
    v.reason = fmt::format(
        "{} per physical partition, not under {}: a merge is unlikely to help.",
        FormatRate(v.ru_per_partition), FormatRate(kCosmosMergeMaxRuPerPartition));
  } else if (!v.low_storage) {
    v.reason = fmt::format(
        "{} per physical partition on average, not under {}: a merge is unlikely to help.",
        FormatSize(v.average_bytes_per_partition),
        FormatSize(kCosmosMergeMaxAverageBytesPerPartition));
  } else {
    v.reason = fmt::format(
        "Both merge conditions hold, but {} physical partitions are already the fewest the RU/s "
        "and the data need: a merge leaves the layout as it is.",
        v.partitions_before);
  }
  return v;
}

}  // namespace partplay::internal::container
