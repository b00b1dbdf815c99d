// Azure Cosmos DB's API for Apache Cassandra (Cosmos DB docs, "Partitioning in Azure Cosmos DB for
// Apache Cassandra", learn.microsoft.com/azure/cosmos-db/cassandra/partitioning): the same CQL
// table placed by Cosmos DB instead of a Cassandra ring. There are no nodes, only physical
// partitions, each a replica set of 4 that commits a write once 3 replicas have it, holding up to
// 30 GB and 10,000 RU/s; a logical partition (a Cassandra partition) holds at most 20 GB. GB here
// is 2^30 bytes, as in physical_partitions.h.
//
// Cosmos DB hashes keys with its own function into a larger internal ring, so which physical
// partition holds a key is modelled by splitting the Murmur3 token range evenly into as many
// ranges as there are physical partitions — an illustration of the layout, not the service's
// assignment. It lives with the Cassandra domain because it places a CQL table's partitions by
// their Murmur3 tokens; it needs nothing of the Cosmos DB container model (cosmos/), only the
// service's figures in core/limits.h.
//
//   CassandraApiPlacement p = PlanCassandraApi(/*total_bytes=*/45.0 * (1 << 30), 10000);
//   p.physical_partitions;          // 2 (for storage 2, for throughput 1)
//   p.Place(token, rows, bytes);    // the range index; p.ranges[i] sums what each range holds
#pragma once

#include <cstdint>
#include <vector>

#include "partplay/core/limits.h"

namespace partplay {

struct CosmosCassandraApi {
  static constexpr int kReplicas = kCosmosCassandraApiReplicas;
  static constexpr int kQuorum = kCosmosCassandraApiQuorum;
  static constexpr double kPhysicalPartitionBytes = kCosmosCassandraPhysicalPartitionBytes;
  static constexpr double kLogicalPartitionBytes = kCosmosLogicalPartitionBytes;
  static constexpr int64_t kRequestUnitsPerPhysicalPartition =
      static_cast<int64_t>(kCosmosPhysicalPartitionRuPerSecond);
  // A table created with manual throughput gets one physical partition per 6,000 RU/s (the
  // creation rule of "Best practices for scaling provisioned throughput", which applies to the
  // Cassandra API too); each can later serve up to kRequestUnitsPerPhysicalPartition.
  static constexpr int64_t kInitialRequestUnitsPerPhysicalPartition =
      static_cast<int64_t>(kCosmosManualInitialRuPerPartition);

  // Physical partitions of a table created with this data and manual throughput (at least 1):
  // max(ceil(bytes / 30 GB), ceil(RU/s / 6,000)).
  static int64_t PhysicalPartitions(double total_bytes, int64_t throughput_ru);
  // Which of `count` even token ranges holds the token (0-based).
  static int64_t PhysicalPartitionOf(int64_t token, int64_t count);
};

// One physical partition: its token range [min_token, max_token] and what the table puts there.
struct CassandraApiRange {
  int64_t id = 0;
  int64_t min_token = 0;
  int64_t max_token = 0;
  int64_t partitions = 0;
  int64_t rows = 0;
  int64_t bytes = 0;
};

// A table's placement on the Cassandra API: how many physical partitions storage and throughput
// need, and their token ranges with the partitions, rows and bytes placed in each.
struct CassandraApiPlacement {
  int64_t ru_per_second = 0;
  int64_t for_storage = 0;     // ceil(bytes / 30 GB)
  int64_t for_throughput = 0;  // ceil(RU/s / 10,000)
  int64_t physical_partitions = 1;
  std::vector<CassandraApiRange> ranges;  // physical_partitions of them, in token order

  // Counts one Cassandra partition into its range; returns the range's index.
  int64_t Place(int64_t token, int64_t rows, int64_t bytes);
};

// The empty placement for a table of `total_bytes` under `ru_per_second` (negative = 0).
CassandraApiPlacement PlanCassandraApi(double total_bytes, int64_t ru_per_second);

}  // namespace partplay
