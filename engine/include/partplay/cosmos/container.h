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
// Capacity as the service documents it (core/limits.h has each rule with its document): a new
// container's partitions (manual RU/s / 6,000, autoscale / 10,000, storage / 50 GB), a raise
// that is instant up to partitions x 10,000 RU/s and splits beyond, the minimum RU/s, serverless
// capacity, and the least RU/s at which a workload is not throttled (RuNeeded).
//
//   StatusOr<ContainerReport> c = ModelContainer(report, {.ru_per_second = 18000});
//   // c->before.ranges.size() == 3 (3 x 6,000 RU/s), c->findings lists the quotas the data breaks
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

// Another container of a shared-throughput database: its name, its storage and the RU/s its
// requests ask for (spread evenly over the database's physical partitions).
struct SharedContainer {
  std::string name;
  double storage_bytes = 0;
  double demand_ru = 0;
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
  // The throughput the container was created with (0 = created at ru_per_second): the creation
  // rule gives its partitions, and ru_per_second is a later change to it (a raise past
  // partitions x 10,000 RU/s splits; a lower figure is a scale-down).
  double created_ru_per_second = 0;
  // A serverless container: no provisioned RU/s (ru_per_second, created_ru_per_second,
  // grown_ru_per_second and autoscale are not set); its capacity follows its storage.
  bool serverless = false;
  // A shared-throughput database (set-throughput.md): ru_per_second (and autoscale) are the
  // database's, shared by this container and `shared_with` (at most 24 others: 25 in all). The
  // database is created by the autoscale rule (ceil(RU/s / 10,000) physical partitions, and at
  // least ceil(storage / 50 GB) for all its containers' data).
  bool shared_database = false;
  std::vector<SharedContainer> shared_with;
  // Why a throughput above the 1,000,000 RU/s per container quota is modelled (the support
  // ticket that raised it); empty = such a throughput is refused.
  std::string quota_increase_reason;
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
  double keyspace_fraction = 0;      // the share of the hash space its range covers (0..1)
  double demand_ru = 0;              // the workload's RU/s that land here
  double throttled_fraction = 0;     // max(0, 1 - share / demand): requests expected to get 429
  // Burst capacity (burst-capacity.md): a partition with less than 3,000 RU/s (burst_eligible)
  // banks up to 300 s of its share (burst_bank_ru, after 5 idle minutes) and spends it at up to
  // 3,000 RU/s; burst_seconds: how long a spike of this partition's demand is absorbed before
  // throttling starts, bank / min(demand, 3,000) as the docs' example computes it (0 when it does
  // not throttle or cannot burst); above 3,000 RU/s of demand some requests throttle even then.
  bool burst_eligible = false;
  double burst_bank_ru = 0;
  double burst_seconds = 0;
  std::vector<PlacedPartition> top;  // the largest logical partitions, then the hottest ones
  uint64_t others_partitions = 0;    // logical partitions not in `top`
  double others_bytes = 0;
};

// A change of throughput on an existing layout (best practices for scaling provisioned
// throughput): instant up to partitions x 10,000 RU/s; beyond, the service splits partitions
// (each into two) until there are ceil(RU/s / 10,000) of them.
struct ThroughputChange {
  double from_ru_per_second = 0;
  double to_ru_per_second = 0;
  int64_t partitions_before = 0;
  // partitions_before x 10,000: the most RU/s reachable without a split (instantMaximumThroughput)
  double instant_maximum_ru_per_second = 0;
  // "none" (unchanged), "instant" (a raise within the instant maximum), "splits" (a raise past
  // it: asynchronous, typically 4-6 hours), "down" (a scale-down: instant, less RU/s per partition)
  std::string kind = "none";
  int64_t partitions_after = 0;
  int64_t splits = 0;  // partitions split by the change
  // Some partitions split and others not: the unsplit ones hold twice the keyspace of the halves.
  bool uneven = false;
  // kind "splits": the docs' recipe, 10,000 x P x 2^ceil(log2(RU/s / (10,000 x P))): raise to
  // this first so that every partition splits, then lower to to_ru_per_second.
  double even_split_ru_per_second = 0;
};

// One layout: before growth (the data as analysed) or after growth.
struct LayoutView {
  // "manual", "autoscale" (ru_per_second is the maximum) or "serverless" (ru_per_second is the
  // capacity its partitions give).
  std::string throughput_mode = "manual";
  double ru_per_second = 0;
  // The creation rule (before only): the RU/s the container was created with and the physical
  // partitions that gave it (manual / 6,000, autoscale / 10,000, storage / 50 GB, at least 1).
  double created_ru_per_second = 0;
  int64_t partitions_at_creation = 0;
  // partitions x 10,000 RU/s of this layout: the most it is raised to without a split.
  double instant_maximum_ru_per_second = 0;
  // The change that led to this layout: creation to ru_per_second (before), or before to the
  // grown RU/s (after).
  ThroughputChange change;
  // The lowest RU/s (autoscale: maximum) the container may be set to with this storage and this
  // history: max(400, GB x 1, highest / 100), autoscale max(1,000, GB x 10, highest / 10); 0 for
  // serverless. `minimum_rule` says which term gave it: "least" (400 RU/s, autoscale
  // 1,000), "storage" or "highest".
  double minimum_ru_per_second = 0;
  std::string minimum_rule;
  double highest_ru_per_second = 0;  // the highest RU/s this history provisioned
  double storage_bytes = 0;
  int64_t partitions_for_throughput = 0;  // ceil(RU/s / 10,000): what this RU/s needs at least
  int64_t partitions_for_storage = 0;     // ceil(storage / 50 GB)
  int64_t partitions_needed = 1;          // max(both, 1): the fewest that serve both
  std::vector<PhysicalPartition> ranges;  // in EPK order
  double demand_ru = 0;
  double throttled_fraction = 0;  // over all requests
  // Autoscale, with a workload: the RU/s billed for an hour of it (the highest RU/s the
  // container scaled to, at least max / 10). `autoscale_billed_ru_per_second`: the service's
  // default, every partition scaled alike to what the busiest needs (partitions x the busiest
  // demand, between max / 10 and max); `autoscale_dynamic_billed_ru_per_second`: dynamic scaling
  // (per partition), each partition scaled to its own demand between (max / 10) / partitions and
  // max / partitions, summed. 0 without autoscale or workload.
  double autoscale_billed_ru_per_second = 0;
  double autoscale_dynamic_billed_ru_per_second = 0;
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

// The least throughput at which no physical partition throttles for the workload, on the data as
// analysed (before growth), under the creation rule, in steps of 100 RU/s. 0 = no such figure.
struct RuNeeded {
  bool judged = false;            // a workload was given (otherwise nothing below is set)
  bool possible = false;          // false: some logical partition alone needs > 10,000 RU/s
  std::string reason;             // one sentence: why not, or what the figures mean
  double hottest_logical_ru = 0;  // the busiest logical partition's demand
  // A container created with this manual RU/s (and left there): its partitions get at most
  // 6,000 RU/s each, so a logical partition over 6,000 RU/s makes this 0.
  double manual_ru_per_second = 0;
  int64_t manual_partitions = 0;
  // Manual, created at `manual_rescaled_created_ru_per_second` (which gives it its partitions)
  // and then set to `manual_rescaled_ru_per_second` (a raise within partitions x 10,000 RU/s is
  // instant; a lower figure keeps the partitions): at most the figure above, and the only one
  // when a logical partition needs over 6,000 RU/s. Searched over containers of at most as many
  // partitions as the manual and autoscale figures have.
  double manual_rescaled_ru_per_second = 0;
  double manual_rescaled_created_ru_per_second = 0;
  int64_t manual_rescaled_partitions = 0;
  // Autoscale maximum (partitions of 10,000 RU/s at creation), judged at the maximum.
  double autoscale_max_ru_per_second = 0;
  int64_t autoscale_partitions = 0;
};

// Throughput redistribution across physical partitions ("Redistribute throughput across
// partitions", azure-databases-docs articles/cosmos-db/nosql/distribute-throughput-across-
// partitions.md): from the workload's demand on each physical partition of the "before" layout,
// RU/s per partition (each at most 10,000) that removes the throttling, within the container's
// RU/s when they suffice, else with the least total (a multiple of 100) that does.
struct PartitionThroughput {
  int id = 0;                // the physical partition (the layout's range id)
  double ru_per_second = 0;  // its target
  double demand_ru = 0;
};

struct Redistribution {
  // Set when the workload throttles some physical partition of a provisioned container.
  bool judged = false;
  // false: some physical partition needs more than 10,000 RU/s (`reason`).
  bool possible = false;
  bool same_total = false;                   // the targets sum to the container's RU/s
  double total_ru_per_second = 0;            // the targets' sum
  std::vector<PartitionThroughput> targets;  // every physical partition, in EPK order
  double throttled_fraction = 0;  // the modelled throttling under the targets (0 when possible)
  std::string reason;
  // The commands that apply it: Azure CLI (at most 20 partitions per request: one command per 20)
  // and Azure PowerShell, with placeholders for the account's names.
  std::vector<std::string> azure_cli;
  std::string powershell;
};

// Merging partitions (merge.md): whether the container meets the docs' two conditions (under
// 3,000 RU/s per physical partition, under 20 GB per physical partition on average; provisioned
// throughput only), the layout a merge leaves and what each partition then gets. The docs do not
// publish the count a merge targets ("an efficient partition layout" for the RU/s set when it
// runs); the model assumes the fewest that serve the RU/s and the data: max(ceil(RU/s / 10,000),
// ceil(storage / 50 GB), 1), as even EPK ranges.
struct MergeView {
  bool judged = false;  // a provisioned container (merge does not apply to serverless)
  double ru_per_partition = 0;           // RU/s per physical partition now
  double average_bytes_per_partition = 0;
  bool low_throughput = false;           // condition 1
  bool low_storage = false;              // condition 2
  bool eligible = false;                 // both, and a merge would leave fewer partitions
  int64_t partitions_before = 0;
  int64_t partitions_after = 0;
  double ru_per_partition_after = 0;
  double throttled_fraction_before = 0;  // the workload's throttled share, now and after
  double throttled_fraction_after = 0;
  std::string reason;
  std::string azure_cli;   // az cosmosdb sql container merge ... (placeholders for the names)
  std::string powershell;  // Invoke-AzCosmosDBSqlContainerMerge ... -WhatIf first
};

// A shared-throughput database (ContainerOptions::shared_database): every container's keys are
// spread over the database's physical partitions (the docs' picture: a physical partition hosts
// logical partitions of different containers), each partition has the database's RU/s / P, and a
// partition's requests from every container throttle together once they pass its share. The other
// containers' requests are assumed even over the partitions (our assumption; the docs give no
// placement). `containers` lists this container first.
struct SharedContainerView {
  std::string name;  // "this container" for the analysed one
  double storage_bytes = 0;
  double demand_ru = 0;
  double throttled_fraction = 0;
};

struct SharedDatabaseView {
  bool judged = false;
  double ru_per_second = 0;
  int64_t partitions = 0;
  double ru_per_partition = 0;
  std::vector<SharedContainerView> containers;
  std::string reason;
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
  // The splits of the change from the creation RU/s to ru_per_second (before.change): the
  // partitions the service splits first (the widest ranges, then the lowest EPK).
  std::vector<Split> before_splits;
  std::vector<Split> splits;          // the growth's
  std::vector<MovedPartition> moved;  // at most kMaxFindingExamples; moved_count is complete
  uint64_t moved_count = 0;
  // Of moved_count, those now in a child (or grandchild) of the partition they were in: a split
  // copies its partition's logical partitions, whole, into two children with new ids.
  uint64_t moved_into_split_children = 0;
  bool split_cannot_help = false;    // one logical partition alone breaks a physical limit
  std::vector<PlacedPartition> hot;  // hot logical partitions, hottest first (at most
                                     // kMaxFindingExamples)
  uint64_t hot_count = 0;            // all of them
  std::vector<Finding> findings;
  RuNeeded ru_needed;
  Redistribution redistribution;
  MergeView merge;
  SharedDatabaseView shared;
  // Where the query goes on `before` (the layout drawn first), and on `after` when grown.
  std::optional<RouteResult> route;
  std::optional<RouteResult> route_after;
  // The EPK of the first logical partitions (all of analysis.partitions, or the first
  // `epks_listed` of a PartitionList), in that order.
  std::vector<std::string> partition_epks;
  // Every partition's EPK as bytes, in the list's order, when asked (keep_all_epks): a streamed
  // listing then shows them all without hashing every key again.
  EpkColumn all_epks;
};

// Models the container. `analysis` must list every partition (BuildReport with
// max_partitions = -1). Errors: kBadOption for options out of range (negative RU/s, growth < 1,
// several key paths with V1/V2, a route of the wrong number of components, Zipf s <= 0), RU/s
// below the container's minimum or above 1,000,000 without a quota_increase_reason, serverless
// with RU/s; each names its field (Status::field(), e.g. "/ru_per_second").
StatusOr<ContainerReport> ModelContainer(const AnalysisReport& analysis,
                                         const ContainerOptions& options);
// The same over `all` (every partition, largest first, e.g. Analyzer::AllPartitions()), with
// `summary` for the key paths, counts and item findings (its own partition list is not read).
// The model keeps each EPK as bytes (8 + 16 per V2 key), hex text only for what it lists.
StatusOr<ContainerReport> ModelContainer(const AnalysisReport& summary, const PartitionList& all,
                                         const ContainerOptions& options, size_t epks_listed,
                                         bool keep_all_epks = false);

// The physical partitions a new container gets (the creation rule): ceil(RU/s / 6,000) with manual
// throughput, ceil(max RU/s / 10,000) with autoscale, and at least ceil(storage / 50 GB) and 1.
int64_t CreationPartitionCount(double ru_per_second, bool autoscale, double storage_bytes);
// A serverless container's physical partitions for its storage (ceil(storage / 50 GB), at least
// 1) and the RU/s they give: 5,000 up to 5 partitions, then 1,000 per partition.
int64_t ServerlessPartitionCount(double storage_bytes);
double ServerlessRuPerSecond(int64_t partitions);
// The lowest RU/s (autoscale: maximum) a container with this storage and highest-ever RU/s may be
// set to; `rule` (optional) gets which term gave it: "least" (400 RU/s, autoscale 1,000),
// "storage" or "highest".
double MinimumRuPerSecond(bool autoscale, double storage_bytes, double highest_ru,
                          std::string* rule = nullptr);
// The docs' recipe: from P partitions, the RU/s that splits every partition evenly on the way to
// `target`: 10,000 x P x 2^ceil(log2(target / (10,000 x P))).
double EvenSplitRuPerSecond(int64_t partitions, double target);

// Where a query filtered on `filter` goes on `layout` (ModelContainer's route step, exposed for
// tests and callers with their own layout): a full key (V1/V2: one component; MultiHash:
// key_levels components) is "single", epk_min = epk_max = its EPK, in the one range holding it; a
// MultiHash prefix is "range", [EPK of the prefix, that + "FF"), in every range overlapping it.
// Errors: kBadOption for a wrong number of components, the EPK's errors.
StatusOr<RouteResult> RouteQuery(const PartitionKey& filter, PartitionKeyHashVersion version,
                                 size_t key_levels, const LayoutView& layout);

}  // namespace partplay
