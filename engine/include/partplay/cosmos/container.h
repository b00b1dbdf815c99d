// The Cosmos DB container model: given the logical partitions an analysis found (analysis.h) and
// a container description (hash version, throughput, growth, workload), where every logical
// partition lands, what each physical partition holds and serves, what a growth splits, what is
// hot, which quotas break, and where a query filtered by the partition key is routed.
//
// Exact parts (tested against the SDKs): the EPK of every logical partition
// (effective_partition_key.h), the initial range layout and midpoint splits
// (physical_partitions.h). Modelled parts (documented assumptions, docs/cosmos-model.md):
// request costs, how requests spread over keys, which range the service splits first when
// throughput alone needs more partitions, throttling as the demand above a partition's share.
//
//   StatusOr<ContainerReport> c = ModelContainer(report, {.ru_per_second = 18000});
//   // c->before.ranges.size() == 2, c->findings lists the quotas the data breaks
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "partplay/core/defaults.h"
#include "partplay/core/limits.h"
#include "partplay/core/status.h"
#include "partplay/cosmos/effective_partition_key.h"
#include "partplay/cosmos/physical_partitions.h"
#include "partplay/cosmos/request_charges.h"
#include "partplay/ingest/analysis.h"

namespace partplay {

// The quotas the model checks (20 GB per logical partition, key sizes, 2^53) are in core/limits.h.

// How requests spread over the logical partitions.
enum class RequestSpread {
  kUniformItems,  // every item equally likely: a partition gets items / total items
  kField,         // proportional to the sum of a numeric field (LogicalPartition::weight)
  kZipf,          // the partition of size rank r (largest first, 1-based) gets 1 / r^s
};

// Request costs, each an editable assumption (defaults and sources: docs/cosmos-model.md).
struct RequestCosts {
  // Point read / write of an item of the partition's mean item size: interpolated linearly in
  // the published table of charges per item size (1 KB: 1.00 read, 4.95 write; up to 2,048 KB),
  // times these factors (1 = the table as published).
  double read_factor = 1;
  double write_factor = 1;
  // One query filtered on the partition key, per physical partition it touches.
  double query_ru = kCosmosDefaultQueryRu;
};

struct Workload {
  double point_reads_per_second = 0;
  double writes_per_second = 0;
  double queries_per_second = 0;  // each filtered by one partition key value (routed to one)
  RequestSpread spread = RequestSpread::kUniformItems;
  double zipf_exponent = 1;  // kZipf: s > 0
  RequestCosts costs;
};

struct ContainerOptions {
  // kV1 and kV2 need one key path, kMultiHash 1 to 3 (the analysis's key_paths).
  PartitionKeyHashVersion version = PartitionKeyHashVersion::kV2;
  // Only meaningful for V1: without large partition keys a key value may have 101 bytes.
  bool large_partition_keys = true;
  // Manual throughput, or with `autoscale` the autoscale maximum (the service sizes the
  // partitions for the maximum; the minimum it scales down to is 10% of it).
  double ru_per_second = kCosmosDefaultRuPerSecond;
  bool autoscale = false;
  // "Grow": the data multiplied by `growth` (every logical partition's items and bytes), and the
  // throughput raised to `grown_ru_per_second` (0 = unchanged). growth 1 and 0 = no growth step.
  double growth = 1;
  double grown_ru_per_second = 0;
  Workload workload;
  // Query routing: a full key, (MultiHash) a prefix of 1..levels-1 components, or no component
  // (a query without a partition key filter: every physical partition); nullopt = no routing.
  std::optional<PartitionKey> route;
  // How many logical partitions per physical partition `ranges[].top` lists (largest first).
  int top_per_range = kCosmosDefaultTopPerRange;
};

// A logical partition as placed: its key, EPK, sizes and demand.
struct PlacedPartition {
  PartitionKey key;
  std::string epk;
  uint64_t items = 0;
  double bytes = 0;  // after growth where it says so
  double demand_ru = 0;
  bool hot = false;  // its demand alone exceeds its physical partition's share
};

// One physical partition (partition key range).
struct PhysicalPartition {
  EpkRange range;
  uint64_t logical_partitions = 0;
  uint64_t items = 0;
  double bytes = 0;
  double ru_share = 0;               // throughput / number of physical partitions
  double demand_ru = 0;              // the workload's RU/s that land here
  double throttled_fraction = 0;     // max(0, 1 - share / demand): requests expected to get 429
  std::vector<PlacedPartition> top;  // the largest logical partitions, then the hottest ones
  uint64_t others_partitions = 0;    // logical partitions not in `top`
  double others_bytes = 0;
};

// One layout: before growth (the data as analysed) or after growth.
struct LayoutView {
  double ru_per_second = 0;
  double storage_bytes = 0;
  int64_t partitions_for_throughput = 0;  // ceil(RU/s / 10,000)
  int64_t partitions_for_storage = 0;     // ceil(storage / 50 GB)
  int64_t partitions_needed = 1;          // max(both, 1): what the container is created with
  std::vector<PhysicalPartition> ranges;  // in EPK order
  double demand_ru = 0;
  double throttled_fraction = 0;  // over all requests
};

struct Split {
  int parent = 0;
  int left = 0, right = 0;                         // child range ids
  std::string reason;                              // "storage" or "throughput"
  uint64_t moved_to_left = 0, moved_to_right = 0;  // logical partitions
  double bytes_left = 0, bytes_right = 0;
};

// A logical partition that changed range in the growth step.
struct MovedPartition {
  PartitionKey key;
  int from = 0, to = 0;
};

// A quota broken or a rule the data does not follow, with where.
struct Finding {
  std::string code;                // stable id, e.g. "logical_partition_over_20gb" (docs/report.md)
  std::string severity;            // "error" (the service would refuse or fail), "warning", "info"
  std::string message;             // one sentence with the numbers
  uint64_t count = 0;              // items or partitions concerned
  std::vector<PartitionKey> keys;  // partitions concerned (at most kMaxFindingExamples)
  std::vector<ItemFinding> items;  // items concerned, located (at most kMaxFindingExamples)
};

// EPKs as bytes, back to back (the hex's bytes: they order exactly as the hex does).
struct EpkColumn {
  std::string bytes;
  std::vector<uint64_t> end;  // where EPK i ends in `bytes` (unless width is set)
  size_t width = 0;           // when not 0: every EPK has this many bytes (V2: 16); `end` unused
  size_t size() const { return width ? bytes.size() / width : end.size(); }
  std::string_view Epk(size_t i) const {
    if (width) return std::string_view(bytes).substr(i * width, width);
    const uint64_t begin = i == 0 ? 0 : end[i - 1];
    return std::string_view(bytes).substr(begin, end[i] - begin);
  }
  // EPK i as the upper-case hex the SDK gives, into `hex` (its contents replaced).
  void HexInto(size_t i, std::string& hex) const;
};

struct RouteResult {
  PartitionKey filter;
  std::string kind;  // "single" (one EPK), "range" (a prefix: [min, max)), "all"
  std::string epk_min, epk_max;
  std::vector<int> range_ids;  // physical partitions touched, in EPK order
};

struct ContainerReport {
  PartitionKeyHashVersion version = PartitionKeyHashVersion::kV2;
  LayoutView before;
  bool grown = false;
  LayoutView after;  // when grown
  std::vector<Split> splits;
  std::vector<MovedPartition> moved;  // at most kMaxFindingExamples; moved_count is complete
  uint64_t moved_count = 0;
  bool split_cannot_help = false;    // one logical partition alone breaks a physical limit
  std::vector<PlacedPartition> hot;  // hot logical partitions, hottest first (at most
                                     // kMaxFindingExamples)
  uint64_t hot_count = 0;            // all of them
  std::vector<Finding> findings;
  std::optional<RouteResult> route;
  // The EPK of the first logical partitions (all of analysis.partitions, or the first
  // `epks_listed` of a PartitionList), in that order.
  std::vector<std::string> partition_epks;
  // Every partition's EPK as bytes, in the list's order, when asked (keep_all_epks): a streamed
  // listing then shows them all without hashing every key again.
  EpkColumn all_epks;
};

// Models the container. `analysis` must list every partition (BuildReport with
// max_partitions = -1). Errors: kBadOption for options out of range (negative RU/s, growth < 1,
// several key paths with V1/V2, a route of the wrong number of components, Zipf s <= 0).
StatusOr<ContainerReport> ModelContainer(const AnalysisReport& analysis,
                                         const ContainerOptions& options);
// The same over `all` (every partition, largest first, e.g. Analyzer::AllPartitions()), with
// `summary` for the key paths, counts and item findings (its own partition list is not read).
// The model keeps each EPK as bytes (8 + 16 per V2 key), hex text only for what it lists.
StatusOr<ContainerReport> ModelContainer(const AnalysisReport& summary, const PartitionList& all,
                                         const ContainerOptions& options, size_t epks_listed,
                                         bool keep_all_epks = false);

// Where a query filtered on `filter` goes on `layout` (ModelContainer's route step, exposed for
// tests and callers with their own layout): a full key (V1/V2: one component; MultiHash:
// key_levels components) is "single", epk_min = epk_max = its EPK, in the one range holding it; a
// MultiHash prefix is "range", [EPK of the prefix, that + "FF"), in every range overlapping it.
// Errors: kBadOption for a wrong number of components, the EPK's errors.
StatusOr<RouteResult> RouteQuery(const PartitionKey& filter, PartitionKeyHashVersion version,
                                 size_t key_levels, const LayoutView& layout);

}  // namespace partplay
