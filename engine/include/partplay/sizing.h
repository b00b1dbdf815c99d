// Partition sizing from a table's shape, the way the Cassandra data-modelling guide computes it
// (/work/shared/reference/cassandra-partition-sizing.md):
//
//   number of values  Nv = Nr (Nc - Npk - Ns) + Ns
//   partition size    St = sum sizeOf(partition key columns) + sum sizeOf(static columns)
//                          + Nr * (sum sizeOf(regular columns) + sum sizeOf(clustering columns))
//                          + Nv * t_avg
//   table size        = St * partitions * replication factor
//
// Nc counts every column, Npk every primary key column (partition key and clustering), Ns the
// static ones; t_avg is the per-cell metadata (8 bytes by default). sizeOf is the CQL type's fixed
// size, or the average given for a variable-width column. The result is an estimate of one
// replica on disk before compression, without per-row and per-partition overheads (README).
//
//   SizingInput hotel;  // available_rooms_by_hotel_date: 100 rooms x 730 nights
//   hotel.columns = {{"hotel_id", "text", ColumnRole::kPartitionKey, 5},
//                    {"date", "date", ColumnRole::kClustering},
//                    {"room_number", "smallint", ColumnRole::kClustering},
//                    {"is_available", "boolean", ColumnRole::kRegular}};
//   hotel.rows_per_partition = 73000;
//   StatusOr<SizingTerms> t = ComputePartitionSize(hotel);
//   // t->nv == 73000, t->st_bytes == 5 + 0 + 511000 + 584000
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "partplay/status.h"

namespace partplay {

enum class ColumnRole { kPartitionKey, kClustering, kStatic, kRegular };

struct SizedColumn {
  std::string name;
  std::string type;  // a CQL type: "int", "text", "list<int>", "frozen<set<text>>", ...
  ColumnRole role = ColumnRole::kRegular;
  // The average size in bytes of a variable-width column (text, blob, varint, collections...);
  // ignored for fixed-width types. Negative = not given (an error for a variable-width type).
  double avg_bytes = -1;
};

// The size in bytes of a fixed-width CQL type (boolean 1, tinyint 1, smallint 2, int 4, date 4,
// float 4, bigint 8, counter 8, timestamp 8, time 8, double 8, uuid 16, timeuuid 16), or nullopt
// for a variable-width one (text, varchar, ascii, blob, varint, decimal, inet, collections).
std::optional<double> FixedCqlTypeSize(std::string_view type);

struct SizingInput {
  std::vector<SizedColumn> columns;
  double rows_per_partition = 1;  // Nr
  double partitions = 1;          // for the table total
  double replication_factor = 1;  // for the table total
  double t_avg = 8;               // bytes of metadata per cell
};

// Every term of the two formulas, so the page and the CLI can show the arithmetic.
struct SizingTerms {
  double nr = 0;
  int nc = 0, npk = 0, ns = 0;
  double nv = 0;
  double sum_partition_key = 0;
  double sum_static = 0;
  double sum_regular = 0;
  double sum_clustering = 0;
  double rows_term = 0;      // Nr * (sum_regular + sum_clustering)
  double metadata_term = 0;  // Nv * t_avg
  double t_avg = 0;
  double st_bytes = 0;
  double partitions = 0, replication_factor = 0;
  double table_bytes = 0;    // st_bytes * partitions * replication_factor
  std::vector<std::string> estimated_columns;  // variable-width columns sized by avg_bytes
};

// Errors: kBadOption for no partition key column, a negative or non-finite count, an unknown
// type, or a variable-width column without avg_bytes (naming the column).
StatusOr<SizingTerms> ComputePartitionSize(const SizingInput& input);

// The limits a partition is checked against.
inline constexpr double kCassandraMaxCellsPerPartition = 2e9;         // hard limit
inline constexpr double kRecommendedMaxValuesPerPartition = 100000;   // rule of thumb
inline constexpr double kRecommendedMaxPartitionBytes = 100e6;        // 100 MB rule of thumb
inline constexpr double kCosmosLogicalPartitionBytes = 20.0 * 1073741824;  // 20 GB (2^30)
inline constexpr double kCosmosCassandraPhysicalPartitionBytes = 30.0 * 1073741824;  // 30 GB

struct SizingFinding {
  std::string code;      // "cells_over_2_billion", "values_over_100k", "size_over_100mb",
                         // "cosmos_logical_over_20gb"
  std::string severity;  // "error" or "warning"
  std::string message;
  double value = 0, limit = 0;
};

// The thresholds a partition of `nv` values and `st_bytes` bytes breaks (a value exactly at a
// limit does not break it).
std::vector<SizingFinding> CheckPartitionLimits(double nv, double st_bytes);

}  // namespace partplay
