// The container model (container.h). One pass computes every logical partition's EPK and request
// demand; the partitions are sorted by EPK once, so each physical partition holds a contiguous
// slice of that order and a split only binary-searches its slice for the midpoint. Growth splits
// compute midpoints with MidpointEffectivePartitionKey and number the children as SplitAtMidpoint
// does (left = next_id, right = next_id + 1) without its linear search and vector insert, so a
// growth to many thousands of ranges stays linear.
#include "partplay/cosmos/container.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <numeric>
#include <queue>
#include <utility>

#include "core/hex.h"
#include "core/huge_pages.h"
#include "core/message_format.h"
#include "cosmos/container_model.h"
#include "cosmos/container_options.h"
#include "partplay/core/tasks.h"
#include "partplay/cosmos/request_charges.h"

namespace partplay {

using namespace internal::container;  // NOLINT: the model's parts (container_model.h)

namespace {

// After the storage splits: the throughput splits up to the count RU/s and storage need (a raise
// past partitions x 10,000 RU/s; serverless: storage alone), the "after" view and the partitions
// that changed range.
Status GrowThroughput(const Model& m, const std::vector<WorkRange>& before, double ru, double scale,
                      const ContainerOptions& options, int& next_id, std::vector<WorkRange>& ranges,
                      ContainerReport& report) {
  PARTPLAY_ASSIGN_OR_RETURN(
      int64_t target,
      PhysicalPartitionCount(options.serverless ? 0 : ru, SliceBytes(m, 0, m.order.size(), scale)));
  PARTPLAY_RETURN_IF_ERROR(
      SplitForThroughput(ranges, target, m, scale, options.version, next_id, report.splits));
  if (options.serverless) ru = ServerlessRuPerSecond(static_cast<int64_t>(ranges.size()));
  PARTPLAY_ASSIGN_OR_RETURN(
      report.after, FillLayout(m, ranges, ru, scale, options.top_per_range, options.version));
  RecordMoves(m, before, ranges, report);
  return Status::Ok();
}

// The id each overfull range is named by: its own in the grown layout, or without growth the
// id of the "before" range holding it.
std::vector<int> OverfullIds(const std::vector<WorkRange>& overfull,
                             const std::vector<WorkRange>& before, bool grown) {
  std::vector<int> ids;
  for (const WorkRange& r : overfull) {
    int id = r.range.id;
    if (!grown) {
      for (const WorkRange& b : before) {
        if (b.begin <= r.begin && r.end <= b.end) id = b.range.id;
      }
    }
    ids.push_back(id);
  }
  return ids;
}

}  // namespace

StatusOr<RouteResult> RouteQuery(const PartitionKey& filter, PartitionKeyHashVersion version,
                                 size_t key_levels, const LayoutView& layout) {
  PARTPLAY_RETURN_IF_ERROR(internal::ValidateRoute(filter, version, key_levels));
  RouteResult route;
  route.filter = filter;
  if (filter.components.empty()) {  // no partition key filter: every physical partition
    route.kind = "all";
    route.epk_min = std::string(kMinEffectivePartitionKey);
    route.epk_max = std::string(kMaxEffectivePartitionKey);
    for (const PhysicalPartition& p : layout.ranges) route.range_ids.push_back(p.range.id);
    return route;
  }
  PARTPLAY_ASSIGN_OR_RETURN(std::string epk, EffectivePartitionKey(filter, version));
  const bool prefix = version == Version::kMultiHash && filter.components.size() < key_levels;
  route.kind = prefix ? "range" : "single";
  route.epk_min = epk;
  // A prefix addresses every EPK that starts with it: [prefix, prefix + "FF").
  route.epk_max = prefix ? epk + std::string(kMaxEffectivePartitionKey) : epk;
  for (const PhysicalPartition& p : layout.ranges) {
    const EpkRange& r = p.range;
    const bool touched = prefix
                             ? CompareEffectivePartitionKeys(r.min_inclusive, route.epk_max) < 0 &&
                                   CompareEffectivePartitionKeys(route.epk_min, r.max_exclusive) < 0
                             : r.Contains(epk);
    if (touched) route.range_ids.push_back(r.id);
  }
  return route;
}

namespace {

// ModelContainer over `all`; `omitted`: partitions the caller could not list (refused).
StatusOr<ContainerReport> ModelOver(const AnalysisReport& analysis, const PartitionList& all,
                                    const ContainerOptions& options, size_t epks_listed,
                                    uint64_t omitted, bool keep_all_epks) {
  PARTPLAY_RETURN_IF_ERROR(internal::ValidateContainerOptions(analysis, options, omitted));
  PARTPLAY_ASSIGN_OR_RETURN(Model m, BuildModel(all, options));
  const Version version = options.version;

  ContainerReport report;
  report.version = version;
  const double bytes = SliceBytes(m, 0, m.order.size(), 1);
  PARTPLAY_RETURN_IF_ERROR(ValidateSharedDatabase(options));
  // A shared database's partitions and minimum RU/s count every container's data.
  const double others = SharedStorageBytes(options);
  PARTPLAY_RETURN_IF_ERROR(
      ValidateCapacity(options, bytes + others, bytes * options.growth + others));
  // The creation rule, then the change to the current RU/s.
  const double created = options.serverless                  ? 0
                         : options.created_ru_per_second > 0 ? options.created_ru_per_second
                                                             : options.ru_per_second;
  // A shared-throughput database is created by the autoscale rule (10,000 RU/s per partition).
  const int64_t n = options.serverless
                        ? ServerlessPartitionCount(bytes)
                        : CreationPartitionCount(created, options.autoscale || options.shared_database,
                                                 bytes + others);
  if (n > kMaxInitialPartitions) {
    return TooManyRanges("the throughput and storage need", static_cast<size_t>(n));
  }
  const double ru_now = options.serverless ? ServerlessRuPerSecond(n) : options.ru_per_second;
  PARTPLAY_ASSIGN_OR_RETURN(PhysicalLayout initial, InitialLayout(static_cast<int>(n), version));
  int next_id = initial.next_id;
  std::vector<WorkRange> before = AssignToRanges(initial, m);
  if (!options.serverless) {
    PARTPLAY_ASSIGN_OR_RETURN(int64_t target, PhysicalPartitionCount(ru_now, 0));
    if (target > kMaxInitialPartitions) {
      return TooManyRanges("the throughput and storage need", static_cast<size_t>(target));
    }
    PARTPLAY_RETURN_IF_ERROR(
        SplitForThroughput(before, target, m, 1, version, next_id, report.before_splits));
  }
  PARTPLAY_ASSIGN_OR_RETURN(report.before,
                            FillLayout(m, before, ru_now, 1, options.top_per_range, version));
  const char* mode = options.serverless ? "serverless" : options.autoscale ? "autoscale" : "manual";
  report.before.throughput_mode = mode;
  report.before.created_ru_per_second = options.serverless ? ru_now : created;
  report.before.partitions_at_creation = n;
  report.before.change = DescribeChange(report.before.created_ru_per_second, ru_now, n,
                                        static_cast<int64_t>(before.size()), options.serverless);
  report.before.highest_ru_per_second = std::max(created, ru_now);
  if (!options.serverless) {
    report.before.minimum_ru_per_second =
        MinimumRuPerSecond(options.autoscale, bytes + others, report.before.highest_ru_per_second,
                           &report.before.minimum_rule);
  }
  for (const PhysicalPartition& p : report.before.ranges) {
    if (p.keyspace_fraction > 1.5 * report.before.ranges[0].keyspace_fraction ||
        report.before.ranges[0].keyspace_fraction > 1.5 * p.keyspace_fraction) {
      report.before.change.uneven = report.before.change.kind == "splits";
    }
  }

  const double ru2 = options.grown_ru_per_second > 0 ? options.grown_ru_per_second : ru_now;
  report.grown = options.growth > 1 || ru2 != ru_now;
  const double scale = report.grown ? options.growth : 1;
  // Without growth the storage splits are only a check: a range above 50 GB that a split would
  // fix is what the service splits as data arrives; what no split fixes is a finding.
  PARTPLAY_ASSIGN_OR_RETURN(
      StorageSplitResult storage,
      SplitForStorage(before, m, scale, version, next_id, report.grown ? &report.splits : nullptr));
  std::vector<WorkRange> grown_ranges;
  if (report.grown) {
    grown_ranges = std::move(storage.ranges);
    PARTPLAY_RETURN_IF_ERROR(
        GrowThroughput(m, before, ru2, scale, options, next_id, grown_ranges, report));
    LayoutView& after = report.after;
    after.throughput_mode = mode;
    after.created_ru_per_second = report.before.created_ru_per_second;
    after.partitions_at_creation = n;
    after.change = DescribeChange(ru_now, after.ru_per_second, static_cast<int64_t>(before.size()),
                                  static_cast<int64_t>(grown_ranges.size()), options.serverless);
    after.highest_ru_per_second =
        std::max(report.before.highest_ru_per_second, after.ru_per_second);
    if (!options.serverless) {
      after.minimum_ru_per_second = MinimumRuPerSecond(
          options.autoscale, after.storage_bytes, after.highest_ru_per_second, &after.minimum_rule);
    }
    for (const PhysicalPartition& p : after.ranges) {
      if (p.keyspace_fraction > 1.5 * after.ranges[0].keyspace_fraction ||
          after.ranges[0].keyspace_fraction > 1.5 * p.keyspace_fraction) {
        after.change.uneven = after.change.kind == "splits";
      }
    }
  }
  PARTPLAY_ASSIGN_OR_RETURN(report.ru_needed, ComputeRuNeeded(m, version, bytes));
  ApplySharedDatabase(options, bytes, report.before, report.shared);
  report.redistribution = PlanRedistribution(report.before, options.serverless);
  PARTPLAY_ASSIGN_OR_RETURN(report.merge,
                            PlanMerge(m, report.before, options.top_per_range, version));
  if (options.autoscale) {
    FillAutoscaleBilling(report.before);
    if (report.grown) FillAutoscaleBilling(report.after);
  }
  if (options.serverless) {  // burst capacity is for provisioned throughput only
    for (LayoutView* v : {&report.before, &report.after}) {
      for (PhysicalPartition& p : v->ranges) {
        p.burst_eligible = false;
        p.burst_bank_ru = p.burst_seconds = 0;
      }
    }
  }
  const std::vector<WorkRange>& last = report.grown ? grown_ranges : before;
  const LayoutView& last_view = report.grown ? report.after : report.before;
  const double share = last_view.ranges.empty() ? 0 : last_view.ranges[0].ru_share;

  report.split_cannot_help =
      !storage.overfull.empty() || !DemandAbove(m, kCosmosPhysicalPartitionRuPerSecond).empty();
  report.hot = HotPartitions(m, last, share, scale, report.hot_count);
  FindingContext context{analysis,
                         options,
                         m,
                         scale,
                         last_view,
                         storage.overfull,
                         OverfullIds(storage.overfull, before, report.grown)};
  report.findings = BuildFindings(context);

  if (options.route) {
    PARTPLAY_ASSIGN_OR_RETURN(RouteResult route, RouteQuery(*options.route, version,
                                                            analysis.key_paths.size(), report.before));
    report.route = std::move(route);
    if (report.grown) {
      PARTPLAY_ASSIGN_OR_RETURN(RouteResult after, RouteQuery(*options.route, version,
                                                              analysis.key_paths.size(), report.after));
      report.route_after = std::move(after);
    }
  }
  epks_listed = std::min(epks_listed, all.size());
  report.partition_epks.reserve(epks_listed);
  for (uint32_t i = 0; i < epks_listed; ++i) report.partition_epks.push_back(EpkText(m.epk(i)));
  if (keep_all_epks) report.all_epks = std::move(m.epks);
  return report;
}

}  // namespace

StatusOr<ContainerReport> ModelContainer(const AnalysisReport& analysis,
                                         const ContainerOptions& options) {
  const LogicalPartitionList all(analysis.partitions);
  return ModelOver(analysis, all, options, all.size(), analysis.partitions_omitted, false);
}

StatusOr<ContainerReport> ModelContainer(const AnalysisReport& summary, const PartitionList& all,
                                         const ContainerOptions& options, size_t epks_listed,
                                         bool keep_all_epks) {
  return ModelOver(summary, all, options, epks_listed,
                   summary.partition_count > all.size() ? summary.partition_count - all.size() : 0,
                   keep_all_epks);
}

void EpkColumn::HexInto(size_t i, std::string& hex) const { EpkTextInto(Epk(i), hex); }

}  // namespace partplay

