#include "partplay/cassandra/cosmos_cassandra_api.h"

#include <algorithm>
#include <cmath>

namespace partplay {

int64_t CosmosCassandraApi::PhysicalPartitions(double total_bytes, int64_t throughput_ru) {
  double for_storage = std::ceil(total_bytes / kPhysicalPartitionBytes);
  double for_throughput =
      std::ceil(static_cast<double>(throughput_ru) / kInitialRequestUnitsPerPhysicalPartition);
  return std::max<int64_t>(1, static_cast<int64_t>(std::max(for_storage, for_throughput)));
}

int64_t CosmosCassandraApi::PhysicalPartitionOf(int64_t token, int64_t count) {
  if (count <= 1) return 0;
  uint64_t offset = static_cast<uint64_t>(token) - static_cast<uint64_t>(INT64_MIN);
  // ceil(2^64 / count) without 128-bit arithmetic: (2^64 - 1) / count + 1.
  uint64_t width = UINT64_MAX / static_cast<uint64_t>(count) + 1;
  return std::min<int64_t>(count - 1, static_cast<int64_t>(offset / width));
}

CassandraApiPlacement PlanCassandraApi(double total_bytes, int64_t ru_per_second) {
  CassandraApiPlacement p;
  p.ru_per_second = std::max<int64_t>(0, ru_per_second);
  p.for_storage = static_cast<int64_t>(
      std::ceil(std::max(0.0, total_bytes) / CosmosCassandraApi::kPhysicalPartitionBytes));
  p.for_throughput = static_cast<int64_t>(
      std::ceil(static_cast<double>(p.ru_per_second) /
                static_cast<double>(CosmosCassandraApi::kInitialRequestUnitsPerPhysicalPartition)));
  p.physical_partitions = CosmosCassandraApi::PhysicalPartitions(total_bytes, p.ru_per_second);
  int64_t count = p.physical_partitions;
  uint64_t width = count <= 1 ? 0 : UINT64_MAX / static_cast<uint64_t>(count) + 1;
  p.ranges.reserve(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) {
    CassandraApiRange r;
    r.id = i;
    r.min_token =
        static_cast<int64_t>(static_cast<uint64_t>(INT64_MIN) + width * static_cast<uint64_t>(i));
    r.max_token = i == count - 1
                      ? INT64_MAX
                      : static_cast<int64_t>(static_cast<uint64_t>(r.min_token) + width - 1);
    p.ranges.push_back(r);
  }
  return p;
}

int64_t CassandraApiPlacement::Place(int64_t token, int64_t rows, int64_t bytes) {
  int64_t i = CosmosCassandraApi::PhysicalPartitionOf(token, physical_partitions);
  CassandraApiRange& r = ranges[static_cast<size_t>(i)];
  ++r.partitions;
  r.rows += rows;
  r.bytes += bytes;
  return i;
}

}  // namespace partplay
