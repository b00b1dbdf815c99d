// Sizing a CQL table from its schema and estimates, and advice when its partitions are too big.
// The script's CREATE KEYSPACE / USE / CREATE TABLE statements give the table (and the default
// replication factor); the caller gives rows per partition (a product of named factors), average
// sizes of the variable-width columns, the partition count. SizeTable computes every term of the
// formulas of sizing/formulas.h for the average case, the worst case and the grown partition,
// checks the limits, and evaluates splits (a clustering column moved into the partition key, a time
// bucket, a hash bucket), each recomputed in full with its CREATE TABLE and its query cost.
// docs/sizing.md documents the JSON.
//
//   TableSizingRequest r;
//   r.cql = "CREATE TABLE hotel.rooms (hotel_id text, date date, room_number smallint, "
//           "is_available boolean, PRIMARY KEY (hotel_id, date, room_number));";
//   r.table = "hotel.rooms";
//   r.rows_per_partition = ParseRowsFormula("100*730").value();
//   r.avg_sizes = {{"hotel_id", 5}};
//   StatusOr<TableSizingReport> s = SizeTable(r);  // s->average.terms.st_bytes == 1095005
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "partplay/core/status.h"
#include "partplay/sizing/formulas.h"

namespace partplay {

struct TableSizingRequest {
  std::string cql;    // the script: CREATE KEYSPACE, USE, CREATE TABLE (other statements skipped)
  std::string table;  // "name" or "keyspace.name"; unquoted names are lower-cased as in CQL
  RowsEstimate rows_per_partition;                        // the average case
  std::optional<RowsEstimate> worst_rows_per_partition;   // the worst case, if given
  std::vector<std::pair<std::string, double>> avg_sizes;  // variable-width column -> bytes
  double partitions = 1;
  std::optional<double> replication_factor;  // default: the keyspace's (see replication_source)
  double t_avg = kSizingDefaultTAvgBytes;
  std::vector<PartitionSplit> splits;  // the splits to evaluate
  std::optional<GrowthOptions> growth;
  // When a partition breaks a limit and no hash bucket is asked for, also propose the smallest
  // hash bucket count that clears every limit in every case.
  bool suggest_splits = true;
};

// One case of the sizing: its rows, every term, the limits it breaks.
struct SizingScenario {
  std::string name;             // "average", "worst_case" or "growth"
  std::string rows_expression;  // how Nr came about: "100 × 730", "⌈73,000 / 24⌉"
  SizingTerms terms;
  std::vector<SizingFinding> findings;  // CheckSizingLimits
  // Partitions a query for every row of one original partition touches (1 before a split).
  double partitions_per_query = 1;
};

struct RedesignOption {
  PartitionSplit split;    // as asked (the new column's name resolved)
  bool suggested = false;  // proposed by the advisor rather than asked for
  std::string title;       // "time bucket: month from date (24 per partition)"
  std::string added_column, added_type, moved_column;
  std::string primary_key;   // "PRIMARY KEY ((hotel_id, month), date, room_number)"
  std::string create_table;  // the redesigned CREATE TABLE
  SizingInput input;         // the redesigned table in the average case
  SizingScenario average;
  std::optional<SizingScenario> worst_case;
  std::optional<SizingScenario> growth;
  bool clears_limits = false;  // no finding in any case
  std::string query_cost;      // how many partitions the typical query now touches
  std::string trade_off;       // what the split costs
  std::string cosmos;          // the same split as a Cosmos DB synthetic or hierarchical key
};

struct TableSizingReport {
  std::string keyspace, table;
  std::string create_table;  // the CREATE TABLE statement as written in the script
  std::vector<std::string> partition_key, clustering;
  SizingInput input;  // the columns with their roles and sizes, Nr of the average case
  RowsEstimate rows;
  std::optional<RowsEstimate> worst_rows;
  // Where the replication factor came from: "option", "keyspace hotel: SimpleStrategy", ...
  std::string replication_source;
  SizingScenario average;
  std::optional<SizingScenario> worst_case;
  std::optional<GrowthSeries> growth;
  std::optional<SizingScenario> grown;  // the grown partition at the growth horizon
  bool needs_redesign = false;          // some case breaks a limit
  std::vector<std::string> redesign_reasons;
  std::vector<RedesignOption> options;
  std::vector<std::string> notes;  // inputs ignored or worth a second look
};

// Errors: the script's own located CQL errors (a statement of the table that does not parse or
// build, or its keyspace's), kCqlUnknown for a table not in the script (naming those it holds) or
// an ambiguous name, kBadOption for an average size of an unknown column, a variable-width column
// without one (naming it), a bad count or split.
StatusOr<TableSizingReport> SizeTable(const TableSizingRequest& request);

// A table a schema script creates, as the sizing form offers it: its name and its columns, each
// with its fixed size or none (a variable-width column needs an average size).
struct SizingTableInfo {
  std::string name;                           // "ks.table", or "table" when no keyspace is in use
  std::vector<SizedColumn> columns;           // avg_bytes unset
  std::vector<std::string> variable_columns;  // the columns that need an average size
};

// Every table the script's CREATE TABLE statements define (in script order, the keyspace from
// the statement or the USE before it), and their columns. Statements that do not parse or build
// are skipped; when no table is left, the first such error is returned.
StatusOr<std::vector<SizingTableInfo>> ListSizingTables(std::string_view cql);

// The request as JSON: sizing_request.h. The report as JSON and as text: table_sizing_writers.h.
// The redesign options: redesign_advice.h.

}  // namespace partplay
