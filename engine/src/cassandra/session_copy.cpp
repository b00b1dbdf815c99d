// COPY t (c1, c2, ...) FROM 'file.csv' WITH HEADER = true AND DELIMITER = ',' ...: cqlsh's CSV
// load, with the options people use (HEADER, DELIMITER, QUOTE, ESCAPE, NULL, DATETIMEFORMAT).
// The options, the reading of values and the loading of rows are csv_load.h's, which the CSV bulk
// load shares. A bad row is counted and listed with its line and column; the good rows are
// loaded.
#include <fmt/format.h>

#include "partplay/cassandra/csv_load.h"
#include "partplay/cassandra/session.h"
#include "partplay/core/limits.h"

namespace partplay::cql {

StatementResult Session::CopyFrom(const CopyStatement& s, StatementResult result) {
  auto fail = [&](Status status) {
    result.kind = StatementResult::Kind::kError;
    result.status = std::move(status);
    return result;
  };
  StatusOr<Table*> found = ResolveTable(s.table);
  if (!found.ok()) return fail(found.status());
  Table& table = *found.value();
  const TableSchema& t = table.schema();
  if (t.is_view()) {
    return fail(Status(ErrorCode::kCqlInvalidRequest, "Cannot directly modify a materialized view",
                       s.table.where));
  }
  CsvLoadOptions options;
  std::vector<std::string> unknown;
  for (const Property& p : s.options) {
    StatusOr<bool> known = SetCsvLoadOption(options, p.name.text, p.value.text, p.value.where);
    if (!known.ok()) return fail(known.status());
    if (!known.value()) unknown.push_back(p.name.text);
  }
  if (!unknown.empty()) {
    std::string names;
    for (const std::string& n : unknown) names += (names.empty() ? "" : ", ") + n;
    return fail(Status(ErrorCode::kCqlInvalidRequest,
                       fmt::format("Unrecognized COPY FROM options: {}", names), s.table.where));
  }
  std::vector<SourceLocation> column_where;
  for (const Name& n : s.columns) {
    options.columns.push_back(n.text);
    column_where.push_back(n.where);
  }
  StatusOr<std::vector<int>> columns = ResolveCsvColumns(t, options.columns, column_where);
  if (!columns.ok()) return fail(columns.status());
  if (!options_.read_file) {
    return fail(Status(ErrorCode::kCqlInvalidRequest,
                       "COPY FROM reads a file, which `partplay cql` does; on the page, load "
                       "the CSV with the bulk load",
                       s.file_where));
  }
  StatusOr<std::string> data = options_.read_file(s.file);
  if (!data.ok()) return fail(Status(data.status().code(), data.status().message(), s.file_where));
  CsvReader reader(data.value(), options.csv);
  CsvRowLoader loader(options, std::move(columns).value());
  // A reader error is one of the listed failures: the statement still reports what loaded.
  (void)loader.LoadAvailable(reader, table, generator_);
  SyncViews(table);
  int64_t loaded = loader.rows(), failed = loader.failed();
  result.kind = StatementResult::Kind::kVoid;
  result.message = fmt::format("{} row{} imported from {} into {}; {} row{} failed", loaded,
                               loaded == 1 ? "" : "s", s.file, t.QualifiedName(), failed,
                               failed == 1 ? "" : "s");
  for (const CsvLoadFailure& f : loader.failures()) {
    result.warnings.push_back(
        fmt::format("{} line {}, column {}: {}", s.file, f.where.line, f.where.column, f.message));
  }
  if (failed > static_cast<int64_t>(result.warnings.size())) {
    result.warnings.push_back(fmt::format("... and {} more failed rows",
                                          failed - static_cast<int64_t>(kCsvMaxListedFailures)));
  }
  return result;
}

}  // namespace partplay::cql
