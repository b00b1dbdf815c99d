#include "partplay/sizing.h"

#include <fmt/format.h>

#include "message_format.h"

#include <cctype>
#include <cmath>

namespace partplay {
namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool Finite(double v) { return std::isfinite(v) && v >= 0; }

}  // namespace

std::optional<double> FixedCqlTypeSize(std::string_view type) {
  std::string t = Lower(type);
  if (t == "boolean" || t == "tinyint") return 1;
  if (t == "smallint") return 2;
  if (t == "int" || t == "date" || t == "float") return 4;
  if (t == "bigint" || t == "counter" || t == "timestamp" || t == "time" || t == "double") {
    return 8;
  }
  if (t == "uuid" || t == "timeuuid") return 16;
  return std::nullopt;
}

namespace {

bool KnownVariableType(std::string_view type) {
  std::string t = Lower(type);
  if (t == "text" || t == "varchar" || t == "ascii" || t == "blob" || t == "varint" ||
      t == "decimal" || t == "inet" || t == "duration") {
    return true;
  }
  for (const char* prefix : {"list<", "set<", "map<", "frozen<", "tuple<"}) {
    if (t.rfind(prefix, 0) == 0 && t.back() == '>') return true;
  }
  return false;
}

}  // namespace

StatusOr<SizingTerms> ComputePartitionSize(const SizingInput& in) {
  if (!Finite(in.rows_per_partition)) {
    return Status(ErrorCode::kBadOption, "rows per partition must be 0 or more");
  }
  if (!Finite(in.partitions) || !Finite(in.replication_factor) || !Finite(in.t_avg)) {
    return Status(ErrorCode::kBadOption,
                  "partitions, replication factor and t_avg must be 0 or more");
  }
  SizingTerms t;
  t.nr = in.rows_per_partition;
  t.t_avg = in.t_avg;
  t.partitions = in.partitions;
  t.replication_factor = in.replication_factor;
  for (const SizedColumn& c : in.columns) {
    double size;
    if (auto fixed = FixedCqlTypeSize(c.type)) {
      size = *fixed;
    } else if (KnownVariableType(c.type)) {
      if (!(c.avg_bytes >= 0) || !std::isfinite(c.avg_bytes)) {
        return Status(ErrorCode::kBadOption,
                      fmt::format("column {} ({}) has no fixed size: give its average size in "
                                  "bytes",
                                  c.name, c.type));
      }
      size = c.avg_bytes;
      t.estimated_columns.push_back(c.name);
    } else {
      return Status(ErrorCode::kBadOption,
                    fmt::format("column {}: unknown CQL type {}", c.name, c.type));
    }
    ++t.nc;
    switch (c.role) {
      case ColumnRole::kPartitionKey:
        ++t.npk;
        t.sum_partition_key += size;
        break;
      case ColumnRole::kClustering:
        ++t.npk;
        t.sum_clustering += size;
        break;
      case ColumnRole::kStatic:
        ++t.ns;
        t.sum_static += size;
        break;
      case ColumnRole::kRegular:
        t.sum_regular += size;
        break;
    }
  }
  bool has_partition_key = false;
  for (const SizedColumn& c : in.columns) has_partition_key |= c.role == ColumnRole::kPartitionKey;
  if (!has_partition_key) {
    return Status(ErrorCode::kBadOption, "the table needs a partition key column");
  }
  t.nv = t.nr * (t.nc - t.npk - t.ns) + t.ns;
  t.rows_term = t.nr * (t.sum_regular + t.sum_clustering);
  t.metadata_term = t.nv * t.t_avg;
  t.st_bytes = t.sum_partition_key + t.sum_static + t.rows_term + t.metadata_term;
  t.table_bytes = t.st_bytes * t.partitions * t.replication_factor;
  return t;
}

std::vector<SizingFinding> CheckPartitionLimits(double nv, double st_bytes) {
  std::vector<SizingFinding> out;
  if (nv > kCassandraMaxCellsPerPartition) {
    out.push_back({"cells_over_2_billion", "error",
                   fmt::format("{} values in one partition: over Cassandra's hard limit of "
                               "2,000,000,000 cells per partition",
                               internal::GroupThousands(static_cast<uint64_t>(nv))),
                   nv, kCassandraMaxCellsPerPartition});
  }
  if (nv > kRecommendedMaxValuesPerPartition) {
    out.push_back({"values_over_100k", "warning",
                   fmt::format("{} values in one partition: over the recommended 100,000",
                               internal::GroupThousands(static_cast<uint64_t>(nv))),
                   nv, kRecommendedMaxValuesPerPartition});
  }
  if (st_bytes > kRecommendedMaxPartitionBytes) {
    out.push_back({"size_over_100mb", "warning",
                   fmt::format("{:.1f} MB in one partition: over the recommended 100 MB",
                               st_bytes / 1e6),
                   st_bytes, kRecommendedMaxPartitionBytes});
  }
  if (st_bytes > kCosmosLogicalPartitionBytes) {
    out.push_back({"cosmos_logical_over_20gb", "error",
                   fmt::format("{:.2f} GB in one partition: over Cosmos DB's 20 GB per logical "
                               "partition (Cassandra API included)",
                               st_bytes / 1073741824.0),
                   st_bytes, kCosmosLogicalPartitionBytes});
  }
  return out;
}

}  // namespace partplay
