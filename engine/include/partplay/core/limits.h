// Every quota and limit the playground judges data against, defined once, each with its source.
// The engine's checks, findings and messages use these constants; the page receives the same
// table as JSON (LimitsToJson, through the wasm module's limits()) and labels its charts from it.
//
// "GB" is 2^30 bytes throughout: Cosmos DB reports its per-partition storage quota as
// collectionSize=52428800 KB in the x-ms-resource-quota header, i.e. 50 * 2^30 bytes
// (github.com/MicrosoftDocs/azure-docs/issues/107600); the 20 GB and 30 GB quotas are read alike.
//
//   if (bytes > kCosmosLogicalPartitionBytes) ...          // over 20 GB
//   FindLimit("cosmos_logical_partition_bytes")->label;    // "20 GB per logical partition"
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace partplay {

inline constexpr double kBytesPerGigabyte = 1073741824.0;  // 2^30

// Azure Cosmos DB (cosmos-partitioning-overview.md, "Logical partitions" and "Physical
// partitions").
inline constexpr double kCosmosLogicalPartitionBytes = 20 * kBytesPerGigabyte;
inline constexpr double kCosmosPhysicalPartitionBytes = 50 * kBytesPerGigabyte;
inline constexpr double kCosmosPhysicalPartitionRuPerSecond = 10000;
// The largest item Cosmos DB stores: 2 MB (2^21 bytes), also the largest Cassandra API row.
inline constexpr double kCosmosItemBytes = 2 * 1048576.0;
// The largest partition key value: 2,048 bytes with large partition keys, 101 bytes without
// (cosmos-partitioning-overview.md, "Choose a partition key"; reference README).
inline constexpr double kCosmosKeyBytesLarge = 2048;
inline constexpr double kCosmosKeyBytesClassic = 101;
// Integer keys beyond +-2^53 cannot all be told apart once the service reads them as doubles.
inline constexpr double kCosmosMaxSafeInteger = 9007199254740992.0;

// Capacity as the service sizes it (issue 37). The sources are the Cosmos DB docs in the
// MicrosoftDocs azure-databases-docs repository, articles/cosmos-db/:
// - scaling-provisioned-throughput-best-practices.md, "How to optimize RU/s for large data
//   ingestion", step 3 "Initial throughput per physical partition": a new container gets
//   RU/s / 6,000 physical partitions with manual throughput, RU/s / 10,000 with autoscale or a
//   shared-throughput database (rounded up), and at least storage / 50 GB; "Background on scaling
//   RU/s": a raise up to partitions x 10,000 RU/s (instantMaximumThroughput) is instant, beyond it
//   partitions split until there are ROUNDUP(RU/s / 10,000).
// - concepts-limits.md, "Minimum throughput limits" and "Provisioned throughput": the lowest
//   RU/s a container may be set to, and the 1,000,000 RU/s a container has until a support ticket
//   raises it.
// - serverless-performance.md, "Request unit changes": a serverless container's capacity.
// RU/s are set in steps of 100 (the portal's and the resource provider's granularity).
inline constexpr double kCosmosManualInitialRuPerPartition = 6000;
inline constexpr double kCosmosAutoscaleInitialRuPerPartition = 10000;
inline constexpr double kCosmosRuStep = 100;
// Manual: max(400 RU/s, 1 RU/s per GB stored, the highest RU/s ever provisioned / 100).
inline constexpr double kCosmosMinManualRuPerSecond = 400;
inline constexpr double kCosmosMinManualRuPerGb = 1;
inline constexpr double kCosmosMinManualHighestDivisor = 100;
// Autoscale (its maximum): max(1,000 RU/s, 10 RU/s per GB, the highest maximum ever / 10); it
// scales between the maximum / 10 (10%) and the maximum.
inline constexpr double kCosmosMinAutoscaleMaxRuPerSecond = 1000;
inline constexpr double kCosmosMinAutoscaleRuPerGb = 10;
inline constexpr double kCosmosMinAutoscaleHighestDivisor = 10;
inline constexpr double kCosmosAutoscaleFloorDivisor = 10;
// The most RU/s a container (or shared-throughput database) has without a support ticket.
inline constexpr double kCosmosMaxRuPerContainer = 1000000;
// Serverless: 5,000 RU/s per container up to 5 physical partitions (250 GB), then 1,000 RU/s more
// per physical partition; 1 TB (20 partitions, 20,000 RU/s) per container (concepts-limits.md).
inline constexpr double kCosmosServerlessBaseRuPerSecond = 5000;
inline constexpr double kCosmosServerlessBasePartitions = 5;
inline constexpr double kCosmosServerlessRuPerExtraPartition = 1000;
inline constexpr double kCosmosServerlessMaxBytes = 20 * 50 * kBytesPerGigabyte;
// Throughput redistribution: at most 20 target (and 20 source) physical partitions per request
// (distribute-throughput-across-partitions-faq.md).
inline constexpr double kCosmosRedistributeMaxPartitions = 20;
// Shared-throughput databases (set-throughput.md, "Set throughput on a database"): at most 25
// containers share a database's RU/s.
inline constexpr int kCosmosSharedDatabaseMaxContainers = 25;
// Merge (merge.md, "How to identify containers to merge"): a provisioned container is likely to
// benefit from merging partitions when both hold: under 3,000 RU/s per physical partition, and
// under 20 GB of storage per physical partition on average.
inline constexpr double kCosmosMergeMaxRuPerPartition = 3000;
inline constexpr double kCosmosMergeMaxAverageBytesPerPartition = 20 * kBytesPerGigabyte;
// Burst capacity (burst-capacity.md): a physical partition with less than 3,000 RU/s banks up to
// 5 minutes of its idle RU/s and spends them at up to 3,000 RU/s.
inline constexpr double kCosmosBurstBankMinutes = 5;
inline constexpr double kCosmosBurstMaxRuPerSecond = 3000;

// Azure Cosmos DB for Apache Cassandra (cosmos-cassandra-api-partitioning.md).
inline constexpr double kCosmosCassandraPhysicalPartitionBytes = 30 * kBytesPerGigabyte;
// Each physical partition is a replica set of 4 that commits a write once 3 have it (fixed by the
// service, whatever the keyspace's replication says).
inline constexpr int kCosmosCassandraApiReplicas = 4;
inline constexpr int kCosmosCassandraApiQuorum = 3;

// Apache Cassandra (cassandra-partition-sizing.md): a hard limit and two rules of thumb.
inline constexpr double kCassandraCellsPerPartition = 2e9;
inline constexpr double kCassandraRecommendedValuesPerPartition = 100000;
inline constexpr double kCassandraRecommendedPartitionBytes = 100e6;  // "100 MB"

// Apache Cassandra's largest TTL, for USING TTL and default_time_to_live: 20 years in seconds
// (Attributes.MAX_TTL; TableParams rejects a larger default_time_to_live).
inline constexpr int64_t kCassandraMaxTtlSeconds = 20 * 365 * 24 * 60 * 60;  // 630,720,000

// cassandra.yaml's batch checks (BatchStatement.verifyBatchSize / verifyBatchType), as Cassandra
// 4.x ships them: a batch of more than one mutation over batch_size_warn_threshold (5 KiB) gets a
// client warning, over batch_size_fail_threshold (50 KiB) is refused ("Batch too large"); an
// unlogged batch over more than unlogged_batch_across_partitions_warn_threshold partition keys
// gets a warning.
inline constexpr int64_t kCassandraBatchSizeWarnBytes = 5 * 1024;
inline constexpr int64_t kCassandraBatchSizeFailBytes = 50 * 1024;
inline constexpr int64_t kCassandraUnloggedBatchPartitionsWarn = 10;

// The engine's own bounds on what it parses, so that no input can exhaust its stack, memory or
// time. Each check names the construct and where it is; none is reached by a real schema or query.
// CQL terms, collection literals, function calls and types nest at most this deep (Cassandra's
// ANTLR parser has no bound of its own and recurses until its stack runs out).
inline constexpr int kCqlMaxNestingDepth = 64;
// The partition keys (or clustering keys, or rows) that the IN lists of one statement may
// multiply out to. Cassandra 4.1 has this as the guardrail in_select_cartesian_product
// (cassandra.yaml in_select_cartesian_product_fail_threshold; off by default, 25 on DataStax
// Astra); the number is the playground's.
inline constexpr double kCqlMaxInCartesianProduct = 10000;
// Digits of one varint, decimal, float or double value (before any exponent): converting them is
// quadratic, and Java's BigInteger/BigDecimal would take them all.
inline constexpr double kCqlMaxNumericDigits = 1000;
// Components of one tuple type and fields of one user-defined type (Cassandra sets no bound; a
// real schema has a handful).
inline constexpr int kCqlMaxTupleComponents = 1024;
// Statements in one BATCH: the native protocol's BATCH message counts its statements in a
// [short] (65,535 at most); a script's batch travels as one query and has no such count.
inline constexpr int kCqlMaxBatchStatements = 65535;
// One CSV field (COPY FROM) and the fields of one CSV record: a field is read into memory whole.
inline constexpr double kCsvMaxFieldBytes = 16 * 1024 * 1024;
inline constexpr int kCsvMaxFieldsPerRecord = 4096;
// The failed rows a COPY FROM lists by line (all are counted).
inline constexpr int kCsvMaxListedFailures = 20;
// Rows per partition in the sizing formulas: counted in doubles, which are exact up to 2^53.
inline constexpr double kSizingMaxRowsPerPartition = 9007199254740992.0;
// Physical partitions the container model lays out, initially or after growth and splits: at
// most 100,000,000 RU/s (Cosmos DB sets no bound). Every range is modelled and listed, so a
// larger layout would only cost memory and time (100,000 took 0.6 s natively and 5.7 s under the
// sanitizers, for a 29 MB report).
inline constexpr int kCosmosMaxModelledPhysicalPartitions = 10000;

// The Cosmos DB for NoSQL query parser (cosmos/query.h). Two quotas of the service
// (concepts-limits.md, "SQL query limits"): a query's text is at most 512 KB (read as 512 KiB)
// and holds at most 10 JOINs (both raised by a support request). The rest are the engine's own
// bounds on what it parses and evaluates.
inline constexpr double kCosmosQueryMaxTextBytes = 512 * 1024;
inline constexpr int kCosmosQueryMaxJoins = 10;
// Expressions nest at most this deep (parentheses, operators, calls, literals, subqueries); a
// chain of one operator (a AND b AND c ...) is one level.
inline constexpr int kCosmosQueryMaxNestingDepth = 64;
// Values in one IN list. An earlier revision of concepts-limits.md listed 6,000 arguments per IN
// expression as a quota; the current one lists none, so this is the engine's bound at that figure.
inline constexpr int kCosmosQueryMaxInItems = 6000;
// Distinct @parameters one query uses, and parameters given with it.
inline constexpr int kCosmosQueryMaxParameters = 1000;
// Digits of one numeric literal (its mantissa and exponent together).
inline constexpr int kCosmosQueryMaxNumericDigits = 300;
// Rows one item may produce through its JOINs (every combination enumerated): past it the item is
// an error naming its index, not hours of work.
inline constexpr double kCosmosQueryMaxJoinRowsPerItem = 100000;

// The Cassandra ring a session starts with (cassandra/ring.h RingOptions): one datacenter of 3
// nodes, each with Cassandra 4's default of 16 vnode tokens (cassandra.yaml num_tokens).
inline constexpr int kCassandraDefaultRingNodes = 3;
inline constexpr int kCassandraDefaultNumTokens = 16;
// The largest ring the engine builds: 1,000 nodes in all, 256 vnode tokens per node (the most
// Cassandra's token allocation is tuned for). The page's ring form also offers at most 8
// datacenters and 64 racks per datacenter.
inline constexpr int kCassandraRingMaxNodes = 1000;
inline constexpr int kCassandraRingMaxNumTokens = 256;
inline constexpr int kCassandraRingFormMaxDatacenters = 8;
inline constexpr int kCassandraRingFormMaxRacks = 64;
// The throughput the Cassandra API placement of a table is modelled at until the user sets one,
// and the most the page offers to model (100 physical partitions for throughput).
inline constexpr double kCosmosCassandraApiDefaultRuPerSecond = 40000;
inline constexpr double kCosmosCassandraApiMaxModelledRuPerSecond = 1000000;

// The sizing's defaults (sizing/formulas.h): t_avg, the metadata bytes per value, as the Cassandra
// data-modelling guide takes it, and the days a growth series runs when no horizon is given.
inline constexpr double kSizingDefaultTAvgBytes = 8;
inline constexpr int kSizingDefaultHorizonDays = 3650;

struct Limit {
  std::string_view id;  // stable name, e.g. "cosmos_logical_partition_bytes"
  double value;
  std::string_view unit;    // "bytes", "RU/s", "cells", "values"
  std::string_view kind;    // "quota" (set by the service: it refuses past it, or fixes it, as
                            // the Cassandra API's replica set), "recommendation", "input" (the
                            // engine's own bound on what it parses) or "default" (what the
                            // engine assumes until told otherwise)
  std::string_view label;   // for charts and messages: "20 GB per logical partition"
  std::string_view source;  // where the number comes from
};

// The whole table, in a fixed order.
std::span<const Limit> AllLimits();
// The entry named `id`, or nullptr.
const Limit* FindLimit(std::string_view id);
// {"limits": [{"id", "value", "unit", "kind", "label", "source"}, ...]}
std::string LimitsToJson();
// A byte quota as people say it: "20 GB", "2 MB", "100 MB" (GB and MB of 2^30 and 2^20 bytes,
// except the decimal "100 MB" recommendation, which is said as written).
std::string LimitBytesText(double bytes);

}  // namespace partplay
