// The container model's working parts (container.h's ModelContainer, in container.cpp), shared
// by the files that implement it, one concern each: container_model.cpp (every partition's EPK
// and request demand, sorted by EPK once), container_ranges.cpp (physical partitions as slices
// of that order: the initial assignment, splits for storage and throughput, the partitions that
// moved), container_layout.cpp (a layout as the report shows it: sizes, shares, the hottest
// partitions) and container_findings.cpp (the findings and their messages).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "partplay/core/status.h"
#include "partplay/cosmos/container.h"
#include "partplay/cosmos/physical_partitions.h"

namespace partplay::internal::container {

using Version = PartitionKeyHashVersion;

// A key's JSON for a message, cut after 80 characters.
std::string KeyForMessage(const PartitionKey& key);

// EPK text to its bytes ("05C1" -> 0x05 0xC1; "FF" -> 0xFF, "" -> "").
std::string EpkBytes(std::string_view hex);
// EPK bytes to their text (upper-case hex), into `out` (replaced) or returned.
void EpkTextInto(std::string_view bytes, std::string& out);
std::string EpkText(std::string_view bytes);
// -1, 0 or 1 as the EPKs `a` and `b` (as bytes) order.
int CompareEpkBytes(std::string_view a, std::string_view b);

// The partitions with their EPKs as bytes, back to back (hex text only for what is shown).
struct Model {
  const PartitionList* parts = nullptr;
  EpkColumn epks;                 // every partition's EPK bytes, by list index
  std::vector<uint32_t> order;    // list indices in EPK order (ties: list order)
  // By position in `order`, so that a range's slice is read in sequence, not gathered from the
  // list at random: items, bytes and RU/s demand.
  std::vector<uint64_t> items_at, bytes_at;
  std::vector<double> demand_at;
  // The partitions whose key value is over the limit (KeyValueLimit), with its size in bytes.
  std::vector<std::pair<uint32_t, uint64_t>> long_keys;

  std::string_view epk(uint32_t i) const {
    return epks.Epk(i);
  }
  uint64_t items(uint32_t i) const { return parts->items(i); }
  uint64_t bytes(uint32_t i) const { return parts->bytes(i); }
  PartitionKey key(uint32_t i) const { return parts->key(i); }
};

// The largest key value (CanonicalValueBytes) Cosmos DB accepts with these options.
uint64_t KeyValueLimit(const ContainerOptions& options);

// Every partition's EPK and demand, sorted by EPK, with the keys over KeyValueLimit.
StatusOr<Model> BuildModel(const PartitionList& parts, const ContainerOptions& options);

// A physical partition while modelling: its range and the slice [begin, end) of Model::order
// it holds; depth counts the splits since the initial layout (each halves the width).
struct WorkRange {
  EpkRange range;
  size_t begin = 0, end = 0;
  int depth = 0;
  double keyspace = 0;  // the share of the hash space: 1/n initially, halved by each split (V1)
};

// Places the EPK-sorted partitions on the layout by one merge walk.
std::vector<WorkRange> AssignToRanges(const PhysicalLayout& layout, const Model& m);

// The bytes and items of the partition at position k of Model::order, after growth.
double ScaledBytesAt(const Model& m, size_t k, double scale);
uint64_t ScaledItemsAt(const Model& m, size_t k, double scale);
// The bytes of positions [begin, end) of Model::order, after growth.
double SliceBytes(const Model& m, size_t begin, size_t end, double scale);

// `what` needs `count` ranges, more than the model lays out (core/limits.h).
Status TooManyRanges(std::string_view what, size_t count);

struct StorageSplitResult {
  std::vector<WorkRange> ranges;    // in EPK order
  std::vector<WorkRange> overfull;  // ranges still above 50 GB: no split can help
};

// Splits every range above 50 GB at its midpoint, depth first and left to right, until each is
// at most 50 GB or holds one logical partition (or is too narrow to split: V1 keys that share a
// hash). A MultiHash range whose keys all share their first level (one prefix) is cut inside the
// prefix, at the full-key EPK that halves its bytes, as the service spreads a prefix's keys over
// several physical partitions (hierarchical partition keys: only a full key is bound to one).
StatusOr<StorageSplitResult> SplitForStorage(const std::vector<WorkRange>& ranges, const Model& m,
                                             double scale, Version version, int& next_id,
                                             std::vector<Split>* splits);

// Splits the widest range (fewest splits since the initial layout; ties: the lowest EPK) until
// there are `target` ranges. Returns the ranges in EPK order.
Status SplitForThroughput(std::vector<WorkRange>& ranges, int64_t target, const Model& m,
                          double scale, Version version, int& next_id, std::vector<Split>& splits);

// The share of `demand` RU/s a physical partition of `share` RU/s throttles (0 when it fits).
double ThrottledFraction(double demand, double share);

// The view of `ranges` under `ru` RU/s, sizes scaled by `scale`, with the `top_per_range`
// largest logical partitions of each range.
StatusOr<LayoutView> FillLayout(const Model& m, const std::vector<WorkRange>& ranges, double ru,
                                double scale, int top_per_range, Version version);

// An autoscale layout's billed RU/s for an hour of its workload, whole-container and dynamic
// (per partition) scaling (LayoutView).
void FillAutoscaleBilling(LayoutView& view);

// Capacity (container_capacity.cpp). The throughput options against the minimum RU/s, the
// 1,000,000 RU/s quota and serverless: kBadOption naming the field.
Status ValidateCapacity(const ContainerOptions& o, double storage_bytes, double grown_bytes);
// The share of the hash space `r` covers: from its EPKs (V2, MultiHash: the first 64 bits), or
// WorkRange::keyspace (V1).
double KeyspaceFraction(const WorkRange& r, Version version);
// The change from `from` to `to` RU/s on a layout of `partitions_before` partitions.
ThroughputChange DescribeChange(double from, double to, int64_t partitions_before,
                                int64_t partitions_after, bool serverless);
// The least RU/s at which no physical partition throttles (container.h RuNeeded), on the data as
// analysed.
StatusOr<RuNeeded> ComputeRuNeeded(const Model& m, Version version, double storage_bytes);
// Throughput redistribution over `before`'s physical partitions (container_redistribution.cpp).
Redistribution PlanRedistribution(const LayoutView& before, bool serverless);
// A kBadOption for `field` (a JSON pointer into the options: "/ru_per_second").
Status FieldError(std::string message, std::string field);

// A shared-throughput database (container_shared.cpp): the options' checks, the other
// containers' storage, and the shared partitions' throttling applied to `view` (this container's
// layout on the database's partitions; `own_bytes` its storage).
Status ValidateSharedDatabase(const ContainerOptions& o);
double SharedStorageBytes(const ContainerOptions& o);
void ApplySharedDatabase(const ContainerOptions& o, double own_bytes, LayoutView& view,
                         SharedDatabaseView& out);

// Merging partitions (container_merge.cpp): the docs' conditions on `before`, and the layout a
// merge leaves, modelled over `m`.
StatusOr<MergeView> PlanMerge(const Model& m, const LayoutView& before, int top_per_range,
                              Version version);

// The partitions whose range changed from `before` to `after`: report.moved and moved_count.
void RecordMoves(const Model& m, const std::vector<WorkRange>& before,
                 const std::vector<WorkRange>& after, ContainerReport& report);

// The context every finding shares.
struct FindingContext {
  const AnalysisReport& analysis;  // counts and item findings (its partition list may be cut)
  const ContainerOptions& options;
  const Model& m;
  double scale;  // growth applied to sizes in the last layout
  const LayoutView& last;
  const std::vector<WorkRange>& overfull;  // ranges above 50 GB that no split helps
  std::vector<int> overfull_ids;           // the ids they are named by (OverfullIds)
};

// Hottest first; ties: the earlier partition of the list.
void SortHottestFirst(const Model& m, std::vector<uint32_t>& positions);

// Positions in Model::order of the partitions whose demand exceeds `threshold`, hottest first.
std::vector<uint32_t> DemandAbove(const Model& m, double threshold);

// Every finding of the model, in the order the report lists them.
std::vector<Finding> BuildFindings(const FindingContext& c);

// Hot logical partitions of the last layout, hottest first.
std::vector<PlacedPartition> HotPartitions(const Model& m, const std::vector<WorkRange>& ranges,
                                           double share, double scale, uint64_t& count);

}  // namespace partplay::internal::container
