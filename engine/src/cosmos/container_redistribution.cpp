// Throughput redistribution across physical partitions (container.h Redistribution), as
// "Redistribute throughput across partitions" (azure-databases-docs,
// articles/cosmos-db/nosql/distribute-throughput-across-partitions.md) describes it: RU/s set per
// physical partition, each at most 10,000, applied with `az cosmosdb sql container
// redistribute-partition-throughput --target-partition-info "0=5000 1=1000"` or PowerShell's
// Update-AzCosmosDBSqlContainerPerPartitionThroughput with
// New-AzCosmosDBPhysicalPartitionThroughputObject. Each partition first gets its demand (rounded up
// to whole RU/s); what is left of the container's RU/s is spread evenly (capped at 10,000), as the
// service spreads RU/s by default.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/message_format.h"
#include "cosmos/container_model.h"

namespace partplay::internal::container {

namespace {

constexpr std::string_view kAzurePrefix =
    "az cosmosdb sql container redistribute-partition-throughput --resource-group "
    "\"<resource-group-name>\" --account-name \"<cosmos-account-name>\" --database-name "
    "\"<cosmos-database-name>\" --name \"<cosmos-container-name>\" --target-partition-info ";

// The commands for `targets`, at most kCosmosRedistributeMaxPartitions per request.
void WriteCommands(Redistribution& r) {
  const size_t per = static_cast<size_t>(kCosmosRedistributeMaxPartitions);
  r.powershell.clear();
  for (size_t begin = 0; begin < r.targets.size(); begin += per) {
    const size_t end = std::min(r.targets.size(), begin + per);
    std::string pairs;
    r.powershell +=
        "$SourcePhysicalPartitionObjects = @()\n$TargetPhysicalPartitionObjects = @()\n";
    for (size_t i = begin; i < end; ++i) {
      const PartitionThroughput& t = r.targets[i];
      pairs += fmt::format("{}{}={:.0f}", pairs.empty() ? "" : " ", t.id, t.ru_per_second);
      r.powershell += fmt::format(
          "$TargetPhysicalPartitionObjects += New-AzCosmosDBPhysicalPartitionThroughputObject "
          "-Id \"{}\" -Throughput {:.0f}\n",
          t.id, t.ru_per_second);
    }
    r.azure_cli.push_back(fmt::format("{}\"{}\"", kAzurePrefix, pairs));
    r.powershell +=
        "Update-AzCosmosDBSqlContainerPerPartitionThroughput -ResourceGroupName "
        "\"<resource-group-name>\" -AccountName \"<cosmos-account-name>\" -DatabaseName "
        "\"<cosmos-database-name>\" -Name \"<cosmos-container-name>\" "
        "-SourcePhysicalPartitionThroughputObject $SourcePhysicalPartitionObjects "
        "-TargetPhysicalPartitionThroughputObject $TargetPhysicalPartitionObjects\n";
  }
}

// Spreads `spare` whole RU/s evenly over the targets below 10,000, none past it.
void Spread(std::vector<PartitionThroughput>& targets, double spare) {
  while (spare >= 1) {
    std::vector<PartitionThroughput*> open;
    for (PartitionThroughput& t : targets) {
      if (t.ru_per_second < kCosmosPhysicalPartitionRuPerSecond) open.push_back(&t);
    }
    if (open.empty()) return;
    const double each = std::floor(spare / static_cast<double>(open.size()));
    double given = 0;
    for (PartitionThroughput* t : open) {
      const double room = kCosmosPhysicalPartitionRuPerSecond - t->ru_per_second;
      // Less than one each: the first ones get one more RU/s.
      const double add = std::min(room, each > 0 ? each : (given < spare ? 1.0 : 0.0));
      t->ru_per_second += add;
      given += add;
    }
    if (given == 0) return;
    spare -= given;
  }
}

}  // namespace

Redistribution PlanRedistribution(const LayoutView& before, bool serverless) {
  Redistribution r;
  if (serverless || !(before.throttled_fraction > 0)) return r;
  r.judged = true;
  for (const PhysicalPartition& p : before.ranges) {
    if (p.demand_ru > kCosmosPhysicalPartitionRuPerSecond) {
      r.reason = fmt::format(
          "Physical partition {} needs {}, more than the {} a physical partition serves: no "
          "redistribution removes its throttling (a target above {} splits it, which helps only "
          "when its demand is not one logical partition's).",
          p.range.id, FormatRate(p.demand_ru), FormatRate(kCosmosPhysicalPartitionRuPerSecond),
          FormatRate(kCosmosPhysicalPartitionRuPerSecond));
      return r;
    }
  }
  r.possible = true;
  double need = 0, demand = 0;
  for (const PhysicalPartition& p : before.ranges) {
    PartitionThroughput t;
    t.id = p.range.id;
    t.demand_ru = p.demand_ru;
    t.ru_per_second = std::max(1.0, std::ceil(p.demand_ru - 1e-9));
    need += t.ru_per_second;
    demand += p.demand_ru;
    r.targets.push_back(t);
  }
  const double current = std::floor(before.ru_per_second);
  r.same_total = need <= current;
  r.total_ru_per_second =
      r.same_total ? current : std::ceil(need / kCosmosRuStep - 1e-9) * kCosmosRuStep;
  Spread(r.targets, r.total_ru_per_second - need);
  double over = 0;
  for (const PartitionThroughput& t : r.targets)
    over += std::max(0.0, t.demand_ru - t.ru_per_second);
  r.throttled_fraction = demand > 0 ? over / demand : 0;
  WriteCommands(r);
  r.reason = r.same_total
                 ? fmt::format(
                       "Within the container's {}: each physical partition gets at least its "
                       "demand and the rest is spread evenly, so none throttles.",
                       FormatRate(r.total_ru_per_second))
                 : fmt::format(
                       "The container's {} is less than the {} the partitions need: {} in all "
                       "(each partition its demand, the rest spread evenly) removes the "
                       "throttling.",
                       FormatRate(before.ru_per_second), FormatRate(need),
                       FormatRate(r.total_ru_per_second));
  r.reason +=
      " The ids are the model's physical partitions; the service's are listed by az "
      "cosmosdb sql container retrieve-partition-throughput --all-partitions.";
  return r;
}

}  // namespace partplay::internal::container
