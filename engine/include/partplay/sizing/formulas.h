// Partition sizing from a table's shape, the way the Cassandra data-modelling guide computes it
// (Apache Cassandra docs, "Evaluating and refining data models", cassandra.apache.org/doc/latest/
// cassandra/developing/data-modeling/data-modeling_refining.html):
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
// replica on disk before compression, without per-row and per-partition overheads
// (docs/sizing.md). Also here, all without CQL: the limits (Cassandra's, Cosmos DB's), rows per
// partition as a product of factors, splitting a partition (ApplySplit), growth over time
// (ComputeGrowth) and the arithmetic as text.
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

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "partplay/core/limits.h"
#include "partplay/core/status.h"

namespace partplay {

enum class ColumnRole { kPartitionKey, kClustering, kStatic, kRegular };

struct SizedColumn {
  std::string name;
  std::string type;  // a CQL type: "int", "text", "list<int>", "frozen<set<text>>", ...
  ColumnRole role = ColumnRole::kRegular;
  // The average size in bytes of a variable-width column (text, blob, varint, collections...);
  // ignored for fixed-width types. Negative = not given (an error for a variable-width type).
  double avg_bytes = -1;
  // From a schema whose types are resolved: the fixed size of a tuple or user-defined type made
  // of fixed-width fields (each field a 4-byte length and its value), and whether the type is a
  // user-defined one (its name alone says nothing to the formulas).
  std::optional<double> fixed_bytes;
  bool user_type = false;
};

// The fixed size of the column: its type's (FixedCqlTypeSize), or fixed_bytes; nullopt when it
// varies.
std::optional<double> ColumnFixedSize(const SizedColumn& c);

// The size in bytes of a fixed-width CQL type (boolean 1, tinyint 1, smallint 2, int 4, date 4,
// float 4, bigint 8, counter 8, timestamp 8, time 8, double 8, uuid 16, timeuuid 16), or nullopt
// for a variable-width one (text, varchar, ascii, blob, varint, decimal, inet, collections).
std::optional<double> FixedCqlTypeSize(std::string_view type);

struct SizingInput {
  std::vector<SizedColumn> columns;
  double rows_per_partition = 1;  // Nr
  double partitions = 1;          // for the table total
  double replication_factor = 1;  // for the table total
  double t_avg = kSizingDefaultTAvgBytes;  // bytes of metadata per cell
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
  double table_bytes = 0;                      // st_bytes * partitions * replication_factor
  std::vector<std::string> estimated_columns;  // variable-width columns sized by avg_bytes
};

// Errors: kBadOption for no partition key column, a negative or non-finite count, an unknown
// type, or a variable-width column without avg_bytes (naming the column).
StatusOr<SizingTerms> ComputePartitionSize(const SizingInput& input);

// The limits a partition is checked against are in core/limits.h.

struct SizingFinding {
  std::string code;      // "cells_over_2_billion", "values_over_100k", "size_over_100mb",
                         // "cosmos_logical_over_20gb", "cosmos_row_over_2mb"
  std::string severity;  // "error" or "warning"
  std::string message;
  double value = 0, limit = 0;
};

// The thresholds a partition of `nv` values and `st_bytes` bytes breaks (a value exactly at a
// limit does not break it).
std::vector<SizingFinding> CheckPartitionLimits(double nv, double st_bytes);

// Whether a column of CQL type `type` can give a time bucket (date, timestamp, timeuuid).
bool CanTimeBucket(std::string_view type);

// One row's bytes: every column's size once (partition key, static, clustering, regular), the
// upper bound of what a Cassandra API row holds as a Cosmos DB item.
double RowBytes(const SizingTerms& terms);
// The Cosmos DB row (item) limit: cosmos_row_over_2mb when `row_bytes` > 2 MB.
std::vector<SizingFinding> CheckRowLimits(double row_bytes);
// CheckPartitionLimits(nv, st_bytes) followed by CheckRowLimits(RowBytes(terms)).
std::vector<SizingFinding> CheckSizingLimits(const SizingTerms& terms);

// ---- Rows per partition as a product of named factors ----------------------------------------

struct RowsFactor {
  std::string name;  // "rooms per hotel"; empty when not named
  double value = 0;
};

// Nr as the product of its factors: {100 "rooms per hotel"} x {730 "nights"} = 73,000.
struct RowsEstimate {
  std::vector<RowsFactor> factors;

  double value() const;  // the product (1 for no factor)
  // "100 × 730", or "100 (rooms per hotel) × 730 (nights)" with names; one factor: "73,000".
  std::string Expression() const;
};

// "73000", "100*730", "100 x 730", "100 × 730" (UTF-8), "2.5e3 * 4": numbers of 0 or more
// joined by '*', 'x', 'X' or '×'. Errors: kBadOption naming the text and the byte where it fails
// (SourceLocation::byte_offset and column, 1-based).
StatusOr<RowsEstimate> ParseRowsFormula(std::string_view text);

// ---- Splitting a partition ------------------------------------------------------------------

// The ways to split a partition that is too big (the guide's "add a column to the partition key").
enum class SplitKind {
  kMoveClusteringColumn,  // an existing clustering column joins the partition key
  kTimeBucket,            // a new day / week / month column derived from a time clustering column
  kHashBucket,            // a new bucket column (0..N-1) the application computes
};
enum class TimeBucketUnit { kDay, kWeek, kMonth };

// "day" (1), "week" (7), "month" (365.25 / 12 = 30.4375 days, a mean month).
std::string_view TimeBucketUnitName(TimeBucketUnit unit);
double TimeBucketDays(TimeBucketUnit unit);
StatusOr<TimeBucketUnit> ParseTimeBucketUnit(std::string_view name);
std::string_view SplitKindName(SplitKind kind);  // "move_clustering_column", "time_bucket", ...

struct PartitionSplit {
  SplitKind kind = SplitKind::kHashBucket;
  std::string column;          // the moved column, or the time bucket's source column
  double distinct_values = 0;  // kMoveClusteringColumn: its distinct values per partition
  TimeBucketUnit unit = TimeBucketUnit::kMonth;  // kTimeBucket
  double span_days = 0;                          // kTimeBucket: the time one partition's rows span
  double buckets = 0;                            // kHashBucket: N (2 or more)
  std::string new_column;  // the added column's name; empty = "month", "week", "day" or
                           // "bucket" ("month_2", "month_3"... when taken)
};

// The redesigned table of a split, ready for ComputePartitionSize.
struct RedesignedInput {
  SizingInput input;
  // New partitions per original partition: distinct values, ceil(span / bucket days), or N. It is
  // also how many partitions a query for all the rows of one original partition now touches.
  double split_factor = 1;
  std::string added_column, added_type;  // empty when the split adds no column
  std::string moved_column;              // the column now in the partition key, if any
};

// Applies `split` to `base`: rows per partition = ceil(Nr / split_factor), partitions x
// split_factor; a moved column changes role (clustering -> partition key); a time bucket adds
// `month int` (yyyymm), `week date` (its Monday) or `day date` as a partition key column, except a
// day bucket of a `date` column, which is that column moved; a hash bucket adds `bucket int`.
// Errors (kBadOption): the column is not a clustering column (of type date, timestamp or
// timeuuid for a time bucket), distinct values < 1, span <= 0, fewer than 2 buckets.
StatusOr<RedesignedInput> ApplySplit(const SizingInput& base, const PartitionSplit& split);

// ---- Growth over time -----------------------------------------------------------------------

struct GrowthOptions {
  double rows_per_day = 0;     // rows added to the partition each day
  int64_t retention_days = 0;  // TTL: rows older than this expire; 0 = kept forever
  int64_t horizon_days = 0;    // how far the series goes; 0 = 3,650 days, or retention + 365
                               // when that is longer
};

struct GrowthPoint {
  int64_t day = 0;  // after `day` days of ingest
  double rows = 0;  // rows_per_day x min(day, retention)
  double nv = 0;
  double st_bytes = 0;
};

// The first day the partition breaks a threshold: the smallest whole day whose value is over the
// limit, computed exactly (also beyond the horizon), or none when the retention caps it below.
struct ThresholdCrossing {
  std::string code;     // as SizingFinding::code
  std::string measure;  // "nv" or "st_bytes"
  double limit = 0;
  std::optional<int64_t> day;
  bool within_horizon = false;
};

struct GrowthSeries {
  GrowthOptions options;  // horizon_days resolved
  // Day 0, then every ceil(horizon / 365) days up to the horizon, plus the retention day and the
  // crossing days within the horizon, in order.
  std::vector<GrowthPoint> points;
  std::vector<ThresholdCrossing> crossings;  // one per partition threshold
  GrowthPoint largest;                       // at the horizon (the series never shrinks)
};

// The partition of `table` (its columns and t_avg; its rows are ignored) growing by
// rows_per_day. Errors: kBadOption for a negative rate or day count, or bad columns.
StatusOr<GrowthSeries> ComputeGrowth(const SizingInput& table, const GrowthOptions& options);

// ---- Formatting shared by the sizing outputs --------------------------------------------------

// The arithmetic with the numbers plugged into each term, as the guide writes it:
//   NvArithmetic:    "Nv = 73,000 × (4 − 3 − 0) + 0 = 73,000"
//   StArithmetic:    "St = 5 + 0 + 73,000 × (1 + 6) + 73,000 × 8
//                         = 5 + 0 + 511,000 + 584,000 = 1,095,005 bytes (1.1 MB)"  (one line)
//   TableArithmetic: "table = 1,095,005 × 5,000 × 3 = 16,425,075,000 bytes (16.4 GB)"
std::string NvArithmetic(const SizingTerms& t);
std::string StArithmetic(const SizingTerms& t);
std::string TableArithmetic(const SizingTerms& t);

// "73,000", "12.5", "0.25": whole numbers grouped, others with up to 2 decimals.
std::string FormatQuantity(double x);
// Decimal units as the guide writes them: "512 bytes", "511.0 KB", "1.1 MB", "16.4 GB".
std::string FormatDecimalBytes(double bytes);

}  // namespace partplay
