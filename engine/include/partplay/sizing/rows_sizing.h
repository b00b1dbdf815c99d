// Sizing a CQL table from the rows a session holds (cassandra/session.h): the rows a script
// INSERTed or a bulk load loaded, measured partition by partition as the store keeps them, with
// the terms of the sizing formulas (formulas.h) — Nr its rows, Nv = Nr (Nc − Npk − Ns) + Ns its
// values, St = its values' serialized bytes (partition key once, static values once, each row's
// clustering and regular values) + Nv × 8 bytes of cell metadata, as cql::Table::SizeOf counts
// them — then their distribution and the limits (data_sizing.h SizeFromData), and the largest
// partitions by bytes. It also measures what the schema form asks for (table_sizing.h): the
// table's schema as DESCRIBE writes it (its keyspace, the keyspace's user types, the base table of
// a view), rows per partition (the mean; the largest partition's rows as the worst case), each
// variable-width column's average bytes and the partition count, written as a sizing request
// (sizing_request.h) that SizeTableJson reads, so the formulas, the advice and the growth run on
// the measured figures.
//
//   cql::Session s;
//   s.Execute("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
//             "'replication_factor': 1}; CREATE TABLE ks.t (k text, c int, v text, "
//             "PRIMARY KEY (k, c)); INSERT INTO ks.t (k, c, v) VALUES ('a', 1, 'xy');");
//   StatusOr<TableRowsSizing> m = SizeTableFromRows(s, {.table = "ks.t"});
//   // m->measured.nr.max == 1, m->largest[0].st_bytes == 1 + 4 + 2 + 1 × 8,
//   // m->request.avg_sizes == {{"k", 1}, {"v", 2}}
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "partplay/cassandra/session.h"
#include "partplay/core/status.h"
#include "partplay/sizing/data_sizing.h"
#include "partplay/sizing/formulas.h"
#include "partplay/sizing/table_sizing.h"

namespace partplay {

struct TableRowsRequest {
  // "ks.t" as the session names them (ListKeyspaces: a quoted name as it is, dots included), or
  // a name as CQL reads it ("t" in the session's current keyspace, "ks"."T").
  std::string table;
  size_t max_examples = 10;  // partitions listed per threshold, and the largest listed
};

// {"table": "ks.t", "max_examples": 0..10000}; table required, unknown fields are errors
// (kBadOption naming the field), bad JSON a located kMalformedJson.
StatusOr<TableRowsRequest> ParseTableRowsRequestJson(std::string_view json);

// One column of the table as its rows hold it.
struct MeasuredColumn {
  std::string name, type;
  ColumnRole role = ColumnRole::kRegular;
  std::optional<double> fixed_bytes;  // the type's fixed size (ColumnFixedSize); none: it varies
  // Partition key and static columns are counted once per partition, the others once per row.
  bool per_partition = false;
  uint64_t values = 0;  // values held (not null)
  uint64_t nulls = 0;   // rows (or partitions, for a static column) where it is null
  double bytes = 0;     // the serialized bytes of its values
  // bytes / (partitions or rows): a null counts 0 bytes, as the store's St counts it, so the
  // formulas given these averages and the mean rows give the measured mean St.
  double avg_bytes = 0;
};

// One partition as the store holds it.
struct PartitionFigures {
  std::string key;  // its key components as cqlsh prints them, as a JSON array: ["s1", "2024"]
  int64_t token = 0;
  double rows = 0, nv = 0, st_bytes = 0;
};

struct TableRowsSizing {
  std::string keyspace, table;
  bool view = false;  // a materialized view
  uint64_t partitions = 0, rows = 0;
  int nc = 0, npk = 0, ns = 0;  // columns, primary key columns, static columns
  std::vector<MeasuredColumn> columns;
  DataSizingReport measured;  // values_per_row = Nc − Npk − Ns; Nv of a partition adds Ns
  std::vector<PartitionFigures> largest;  // the largest by St first, up to max_examples
  // The schema form's inputs, measured: cql (CREATE KEYSPACE, its types, CREATE TABLE), table,
  // rows_per_partition (the mean, to 2 decimals), worst_rows_per_partition (the largest
  // partition's rows, when above the mean), avg_sizes (each variable-width column's avg_bytes, to
  // 2 decimals), partitions; the replication factor is the keyspace's.
  TableSizingRequest request;
  std::vector<std::string> notes;  // where the formulas will not give the measured figures
};

// Errors: kCqlUnknown for a table the session does not hold, kInvalidState for a table that holds
// no rows.
StatusOr<TableRowsSizing> SizeTableFromRows(cql::Session& session, const TableRowsRequest& request);

// docs/sizing.md "From a table's rows": one object with a trailing newline; `request` is the
// sizing request as JSON (its fields as docs/sizing.md "Request (JSON)" names them).
std::string TableRowsSizingToJson(const TableRowsSizing& sizing);

// The wasm module's one call: the request JSON in, the JSON above out.
StatusOr<std::string> SizeTableFromRowsJson(cql::Session& session, std::string_view request_json);

}  // namespace partplay
