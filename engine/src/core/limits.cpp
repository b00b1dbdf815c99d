#include "partplay/core/limits.h"

#include <fmt/format.h>

#include <array>

#include "partplay/core/defaults.h"
#include "partplay/core/json_writer.h"

namespace partplay {
namespace {

constexpr std::string_view kOverview = "Cosmos DB docs, Partitioning and horizontal scaling";
constexpr std::string_view kCassandraApi =
    "Cosmos DB docs, Partitioning in Azure Cosmos DB for Apache Cassandra";
// The capacity rules' documents (limits.h, "Capacity as the service sizes it").
constexpr std::string_view kScaling =
    "Cosmos DB docs, Best practices for scaling provisioned throughput "
    "(azure-databases-docs, articles/cosmos-db/scaling-provisioned-throughput-best-practices.md)";
constexpr std::string_view kQuotas =
    "Cosmos DB docs, Service quotas (azure-databases-docs, articles/cosmos-db/concepts-limits.md)";
constexpr std::string_view kServerless =
    "Cosmos DB docs, Serverless performance (azure-databases-docs, "
    "articles/cosmos-db/serverless-performance.md)";
constexpr std::string_view kSizing = "Cassandra data modelling guide, partition size";

constexpr std::string_view kEngine = "Partition Playground's own bound on parsed input";
// Rows of kind "default" (what a run assumes when not told) and "threshold" (where a verdict
// changes) come from core/defaults.h.
constexpr std::string_view kPlayground = "playground default";

constexpr std::array<Limit, 87> kLimits{{
    {"cosmos_logical_partition_bytes", kCosmosLogicalPartitionBytes, "bytes", "quota",
     "20 GB per logical partition", kOverview},
    {"cosmos_physical_partition_bytes", kCosmosPhysicalPartitionBytes, "bytes", "quota",
     "50 GB per physical partition", kOverview},
    {"cosmos_physical_partition_ru_per_second", kCosmosPhysicalPartitionRuPerSecond, "RU/s",
     "quota", "10,000 RU/s per physical partition (and so per logical partition)", kOverview},
    {"cosmos_manual_initial_ru_per_partition", kCosmosManualInitialRuPerPartition, "RU/s", "quota",
     "6,000 RU/s per physical partition when a container is created with manual RU/s", kScaling},
    {"cosmos_autoscale_initial_ru_per_partition", kCosmosAutoscaleInitialRuPerPartition, "RU/s",
     "quota",
     "10,000 RU/s per physical partition when a container is created with autoscale (or shared) "
     "RU/s",
     kScaling},
    {"cosmos_ru_step", kCosmosRuStep, "RU/s", "quota", "RU/s are set in steps of 100",
     "Cosmos DB resource provider and portal (throughput in multiples of 100 RU/s)"},
    {"cosmos_min_manual_ru_per_second", kCosmosMinManualRuPerSecond, "RU/s", "quota",
     "400 RU/s at least (manual throughput)", kQuotas},
    {"cosmos_min_manual_ru_per_gb", kCosmosMinManualRuPerGb, "RU/s per GB", "quota",
     "1 RU/s at least per GB stored (manual throughput)", kQuotas},
    {"cosmos_min_manual_highest_divisor", kCosmosMinManualHighestDivisor, "divisor", "quota",
     "the highest RU/s ever provisioned / 100 at least (manual throughput)", kQuotas},
    {"cosmos_min_autoscale_max_ru_per_second", kCosmosMinAutoscaleMaxRuPerSecond, "RU/s", "quota",
     "1,000 RU/s at least as the autoscale maximum", kQuotas},
    {"cosmos_min_autoscale_ru_per_gb", kCosmosMinAutoscaleRuPerGb, "RU/s per GB", "quota",
     "10 RU/s of autoscale maximum at least per GB stored", kQuotas},
    {"cosmos_min_autoscale_highest_divisor", kCosmosMinAutoscaleHighestDivisor, "divisor", "quota",
     "the highest autoscale maximum ever / 10 at least", kQuotas},
    {"cosmos_autoscale_floor_divisor", kCosmosAutoscaleFloorDivisor, "divisor", "quota",
     "autoscale scales between its maximum / 10 (10%) and the maximum", kQuotas},
    {"cosmos_max_ru_per_container", kCosmosMaxRuPerContainer, "RU/s", "quota",
     "1,000,000 RU/s per container or shared database (more through a support ticket)", kQuotas},
    {"cosmos_serverless_base_ru_per_second", kCosmosServerlessBaseRuPerSecond, "RU/s", "quota",
     "5,000 RU/s per serverless container up to 5 physical partitions (250 GB)", kServerless},
    {"cosmos_serverless_base_partitions", kCosmosServerlessBasePartitions, "physical partitions",
     "quota", "5 physical partitions a serverless container's 5,000 RU/s cover", kServerless},
    {"cosmos_serverless_ru_per_extra_partition", kCosmosServerlessRuPerExtraPartition, "RU/s",
     "quota", "1,000 RU/s more per serverless physical partition beyond 5", kServerless},
    {"cosmos_serverless_max_bytes", kCosmosServerlessMaxBytes, "bytes", "quota",
     "1 TB per serverless container (20 physical partitions, 20,000 RU/s)", kQuotas},
    {"cosmos_redistribute_max_partitions", kCosmosRedistributeMaxPartitions, "physical partitions",
     "quota", "20 physical partitions per throughput redistribution request",
     "Cosmos DB docs, Frequently asked questions on distributing throughput across partitions"},
    {"cosmos_shared_database_max_containers", kCosmosSharedDatabaseMaxContainers, "containers",
     "quota", "25 containers share a shared-throughput database's RU/s",
     "Cosmos DB docs, Introduction to provisioned throughput (azure-databases-docs, "
     "articles/cosmos-db/set-throughput.md)"},
    {"cosmos_merge_max_ru_per_partition", kCosmosMergeMaxRuPerPartition, "RU/s", "quota",
     "under 3,000 RU/s per physical partition: with the next, a container likely to gain from a merge",
     "Cosmos DB docs, Merge partitions (azure-databases-docs, articles/cosmos-db/merge.md)"},
    {"cosmos_merge_max_average_bytes_per_partition", kCosmosMergeMaxAverageBytesPerPartition, "bytes",
     "quota", "under 20 GB per physical partition on average: the merge's second condition",
     "Cosmos DB docs, Merge partitions (azure-databases-docs, articles/cosmos-db/merge.md)"},
    {"cosmos_burst_bank_minutes", kCosmosBurstBankMinutes, "minutes", "quota",
     "5 minutes of idle RU/s banked per physical partition (burst capacity)",
     "Cosmos DB docs, Burst capacity (azure-databases-docs, articles/cosmos-db/burst-capacity.md)"},
    {"cosmos_burst_max_ru_per_second", kCosmosBurstMaxRuPerSecond, "RU/s", "quota",
     "3,000 RU/s: burst capacity is spent at up to it, by partitions with less",
     "Cosmos DB docs, Burst capacity (azure-databases-docs, articles/cosmos-db/burst-capacity.md)"},
    {"cosmos_item_bytes", kCosmosItemBytes, "bytes", "quota", "2 MB per item",
     "Cosmos DB docs, service quotas"},
    {"cosmos_key_bytes_large", kCosmosKeyBytesLarge, "bytes", "quota",
     "2,048 bytes per partition key value (large partition keys)", kOverview},
    {"cosmos_key_bytes_classic", kCosmosKeyBytesClassic, "bytes", "quota",
     "101 bytes per partition key value (without large partition keys)", kOverview},
    {"cosmos_max_safe_integer", kCosmosMaxSafeInteger, "integer", "quota",
     "integer keys exact up to 2^53", "IEEE-754 double precision, as the service reads numbers"},
    {"cosmos_cassandra_physical_partition_bytes", kCosmosCassandraPhysicalPartitionBytes, "bytes",
     "quota", "30 GB per physical partition (Cassandra API)", kCassandraApi},
    {"cassandra_cells_per_partition", kCassandraCellsPerPartition, "cells", "quota",
     "2 billion cells per partition", kSizing},
    {"cassandra_recommended_values_per_partition", kCassandraRecommendedValuesPerPartition,
     "values", "recommendation", "100,000 values per partition", kSizing},
    {"cassandra_recommended_partition_bytes", kCassandraRecommendedPartitionBytes, "bytes",
     "recommendation", "100 MB per partition", kCassandraApi},
    {"cassandra_max_ttl_seconds", kCassandraMaxTtlSeconds, "seconds", "quota",
     "630,720,000 s (20 years) per TTL", "Cassandra, Attributes.MAX_TTL"},
    {"cassandra_batch_size_warn_bytes", kCassandraBatchSizeWarnBytes, "bytes", "threshold",
     "5 KiB per batch before a warning (batch_size_warn_threshold)", "cassandra.yaml (4.x)"},
    {"cassandra_batch_size_fail_bytes", kCassandraBatchSizeFailBytes, "bytes", "threshold",
     "50 KiB per batch before it is refused (batch_size_fail_threshold)", "cassandra.yaml (4.x)"},
    {"cassandra_unlogged_batch_partitions_warn", kCassandraUnloggedBatchPartitionsWarn,
     "partitions", "threshold",
     "10 partitions per unlogged batch before a warning "
     "(unlogged_batch_across_partitions_warn_threshold)",
     "cassandra.yaml (4.x)"},
    {"cql_max_nesting_depth", kCqlMaxNestingDepth, "levels", "input",
     "64 levels of nested CQL terms, collections, function calls or types", kEngine},
    {"cql_max_in_cartesian_product", kCqlMaxInCartesianProduct, "keys", "input",
     "10,000 keys per statement from the product of its IN lists",
     "Cassandra 4.1 guardrail in_select_cartesian_product (off by default); the number is "
     "Partition Playground's"},
    {"cql_max_numeric_digits", kCqlMaxNumericDigits, "digits", "input",
     "1,000 digits per varint, decimal, float or double value", kEngine},
    {"cql_max_tuple_components", kCqlMaxTupleComponents, "components", "input",
     "1,024 components per tuple type or fields per user-defined type", kEngine},
    {"cql_max_batch_statements", kCqlMaxBatchStatements, "statements", "input",
     "65,535 statements per BATCH", "the native protocol's BATCH message (a [short] count)"},
    {"csv_max_field_bytes", kCsvMaxFieldBytes, "bytes", "input", "16 MiB per CSV field", kEngine},
    {"csv_max_fields_per_record", kCsvMaxFieldsPerRecord, "fields", "input",
     "4,096 fields per CSV record", kEngine},
    {"sizing_max_rows_per_partition", kSizingMaxRowsPerPartition, "rows", "input",
     "2^53 rows per partition in the sizing formulas", "IEEE-754 doubles count exactly to 2^53"},
    {"page_listed_partitions", kPageListedPartitions, "partitions", "default",
     "2,000 largest logical partitions listed on the page", kPlayground},
    {"cql_view_scan_partitions", kCqlViewScanPartitions, "partitions", "input",
     "50,000 partitions of a CQL table read in token order to draw its ring", kPlayground},
    {"cql_view_max_partitions", kCqlViewMaxPartitions, "partitions", "input",
     "4,000 partitions of a CQL table drawn on its ring", kPlayground},
    {"compare_max_keys", kCompareMaxKeys, "keys", "input", "8 keys per key comparison", kEngine},
    {"compare_max_queries", kCompareMaxQueries, "queries", "input", "16 queries per key comparison",
     kEngine},
    {"cosmos_max_modelled_physical_partitions", kCosmosMaxModelledPhysicalPartitions,
     "physical partitions", "input",
     "10,000 physical partitions per modelled container (100,000,000 RU/s)",
     "Partition Playground's own bound on the container model (Cosmos DB sets none)"},
    // The Cosmos DB for NoSQL query parser (cosmos/query.h).
    {"cosmos_query_max_text_bytes", kCosmosQueryMaxTextBytes, "bytes", "quota",
     "512 KB per query text", kQuotas},
    {"cosmos_query_max_joins", kCosmosQueryMaxJoins, "joins", "quota", "10 JOINs per query",
     kQuotas},
    {"cosmos_query_max_nesting_depth", kCosmosQueryMaxNestingDepth, "levels", "input",
     "64 levels of nested query expressions", kEngine},
    {"cosmos_query_max_in_items", kCosmosQueryMaxInItems, "values", "input",
     "6,000 values per IN list",
     "Partition Playground's own bound at the figure an earlier revision of the Cosmos DB service "
     "quotas (articles/cosmos-db/concepts-limits.md) listed per IN expression"},
    {"cosmos_query_max_parameters", kCosmosQueryMaxParameters, "parameters", "input",
     "1,000 parameters per query", kEngine},
    {"cosmos_query_max_numeric_digits", kCosmosQueryMaxNumericDigits, "digits", "input",
     "300 digits per numeric literal of a query", kEngine},
    {"cosmos_query_max_join_rows_per_item", kCosmosQueryMaxJoinRowsPerItem, "rows", "input",
     "100,000 rows per item through a query's JOINs", kEngine},
    // The Cassandra mode: the Cassandra API's fixed replica set, the ring and throughput it starts
    // with (cassandra/ring.h, cassandra/cosmos_cassandra_api.h).
    {"cosmos_cassandra_api_replicas", kCosmosCassandraApiReplicas, "replicas", "quota",
     "4 replicas per physical partition (Cassandra API)", kCassandraApi},
    {"cosmos_cassandra_api_quorum", kCosmosCassandraApiQuorum, "replicas", "quota",
     "3 replicas acknowledge each write (Cassandra API quorum)", kCassandraApi},
    {"cassandra_default_ring_nodes", kCassandraDefaultRingNodes, "nodes", "default",
     "3 nodes in one datacenter in a new session's ring",
     "Partition Playground's default ring (Cassandra's quick-start cluster size)"},
    {"cassandra_default_num_tokens", kCassandraDefaultNumTokens, "tokens", "default",
     "16 vnode tokens per node", "Cassandra 4.0 cassandra.yaml, num_tokens"},
    {"cassandra_ring_max_nodes", kCassandraRingMaxNodes, "nodes", "input",
     "1,000 nodes per modelled ring", "Partition Playground's own bound on the ring model"},
    {"cassandra_ring_max_num_tokens", kCassandraRingMaxNumTokens, "tokens", "input",
     "256 vnode tokens per node", "Partition Playground's own bound on the ring model"},
    {"cassandra_ring_form_max_datacenters", kCassandraRingFormMaxDatacenters, "datacenters",
     "input", "8 datacenters in the page's ring form", "Partition Playground's ring form"},
    {"cassandra_ring_form_max_racks", kCassandraRingFormMaxRacks, "racks", "input",
     "64 racks per datacenter in the page's ring form", "Partition Playground's ring form"},
    {"cosmos_cassandra_api_default_ru_per_second", kCosmosCassandraApiDefaultRuPerSecond, "RU/s",
     "default", "40,000 RU/s modelled for a table on the Cassandra API",
     "Partition Playground's default (4 physical partitions for throughput)"},
    {"cosmos_cassandra_api_max_ru_per_second", kCosmosCassandraApiMaxModelledRuPerSecond, "RU/s",
     "input", "1,000,000 RU/s at most modelled for a table on the Cassandra API",
     "Partition Playground's own bound on the Cassandra API model"},
    // The sizing mode's defaults (sizing/formulas.h).
    {"sizing_default_t_avg_bytes", kSizingDefaultTAvgBytes, "bytes", "default",
     "8 bytes of metadata per value (t_avg)", kSizing},
    {"sizing_default_horizon_days", kSizingDefaultHorizonDays, "days", "default",
     "3,650 days of growth drawn (or the retention and a year)",
     "Partition Playground's default growth horizon"},
    // Defaults and thresholds of the Cosmos DB mode (the page reads them from here).
    {"cosmos_default_ru_per_second", kCosmosDefaultRuPerSecond, "RU/s", "default",
     "400 RU/s manual throughput (the service's minimum)", kOverview},
    {"cosmos_default_query_ru", kCosmosDefaultQueryRu, "RU", "default",
     "3 RU per query, per physical partition it touches", kPlayground},
    {"cosmos_default_top_per_range", kCosmosDefaultTopPerRange, "logical partitions", "default",
     "20 logical partitions listed per physical partition", kPlayground},
    {"cosmos_default_synthetic_buckets", kCosmosDefaultSyntheticBuckets, "suffixes", "default",
     "400 suffixes per synthetic key", kPlayground},
    {"spread_even_max_gini", kSpreadEvenMaxGini, "Gini", "threshold",
     "Gini 0.5: below it sizes are fairly even", kPlayground},
    {"spread_strong_skew_gini", kSpreadStrongSkewGini, "Gini", "threshold",
     "Gini 0.6: from it sizes are strongly skewed", kPlayground},
    {"largest_partition_warn_share", kLargestPartitionWarnShare, "share", "threshold",
     "half of the 20 GB quota: a larger logical partition is a warning", kPlayground},
    {"top_share_warn", kTopShareWarn, "share", "threshold",
     "50% of the bytes in the largest 1% of partitions: a warning", kPlayground},
    {"top_share_min_partitions", kTopShareMinPartitions, "partitions", "threshold",
     "100 partitions at least before the largest 1% is judged", kPlayground},
    {"monotonic_share", kMonotonicShare, "share", "threshold",
     "90% of a key's changes rising (or falling) with the input's order or time: monotonic",
     kPlayground},
    {"monotonic_min_changes", kMonotonicMinChanges, "changes", "threshold",
     "20 changes of a key's value at least before its monotonicity is judged", kPlayground},
    {"write_spread_min_items_per_window", kWriteSpreadMinItemsPerWindow, "items", "threshold",
     "100 writes per window on average: the automatic write window's width", kPlayground},
    {"throttled_bad_fraction", kThrottledBadFraction, "share", "threshold",
     "5% of requests throttled (429): past it the layout is bad, any is a warning", kPlayground},
    {"storage_balance_warn", kStorageBalanceWarn, "ratio", "threshold",
     "1.5 x the mean: above it physical partitions are unevenly filled", kPlayground},
    {"candidate_max_hierarchical_paths", kCandidateMaxHierarchicalPaths, "paths", "quota",
     "3 paths per hierarchical partition key", kOverview},
    {"candidate_min_concat_paths", kCandidateMinConcatPaths, "paths", "input",
     "2 paths at least per joined synthetic key", kEngine},
    {"candidate_max_concat_paths", kCandidateMaxConcatPaths, "paths", "input",
     "5 paths per joined synthetic key", kEngine},
    {"candidate_max_buckets", kCandidateMaxBuckets, "suffixes", "input",
     "1,000,000 suffixes per synthetic key", kEngine},
}};

}  // namespace

std::span<const Limit> AllLimits() { return kLimits; }

const Limit* FindLimit(std::string_view id) {
  for (const Limit& l : kLimits) {
    if (l.id == id) return &l;
  }
  return nullptr;
}

std::string LimitsToJson() {
  std::string out = "{\"limits\":[";
  bool first = true;
  for (const Limit& l : kLimits) {
    if (!first) out += ',';
    first = false;
    out += "{\"id\":";
    AppendJsonString(l.id, out);
    out += ",\"value\":";
    AppendJsonNumber(l.value, out);
    for (auto [name, text] : {std::pair{"unit", l.unit}, std::pair{"kind", l.kind},
                              std::pair{"label", l.label}, std::pair{"source", l.source}}) {
      out += fmt::format(",\"{}\":", name);
      AppendJsonString(text, out);
    }
    out += '}';
  }
  out += "]}";
  return out;
}

std::string LimitBytesText(double bytes) {
  if (bytes == kCassandraRecommendedPartitionBytes) return "100 MB";
  if (bytes >= kBytesPerGigabyte) return fmt::format("{:g} GB", bytes / kBytesPerGigabyte);
  return fmt::format("{:g} MB", bytes / 1048576.0);
}

}  // namespace partplay
