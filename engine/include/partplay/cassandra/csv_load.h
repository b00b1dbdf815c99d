// Loading CSV records into a table, the one routine behind COPY ... FROM (session_copy.cpp) and
// the CSV bulk load (bulk_load.h), so both read the same options, load the same rows and fail
// the same ones at the same places. Values are read as cqlsh COPY TO and dsbulk unload write
// them: text as it is, collections, tuples and user-defined types as CQL literals or JSON, blobs
// as 0x..., timestamps as cqlsh's "2024-01-31 13:45:00.000000+0000" or ISO 8601, booleans in any
// case; an unquoted field equal to the NULL option is null. A bad record is counted (the first
// kCsvMaxListedFailures listed with their location) and the next one goes on; an error of the
// reader itself (an unterminated quote at the end of the input, a record over the limits) is a
// failure too, and it stops the load: the rest of the input cannot be split into records.
//
//   CsvLoadOptions o;  SetCsvLoadOption(o, "header", "true", where);
//   std::vector<int> columns = ResolveCsvColumns(table.schema(), o.columns, {}).value();
//   CsvRowLoader loader(o, columns);  CsvReader reader(text, o.csv);
//   loader.LoadAvailable(reader, table, session.generator());  loader.rows();  loader.failures();
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "partplay/cassandra/csv.h"
#include "partplay/cassandra/literal.h"
#include "partplay/cassandra/schema.h"
#include "partplay/cassandra/store.h"
#include "partplay/core/status.h"

namespace partplay::cql {

struct InsertScratch;

struct CsvLoadOptions {
  CsvOptions csv;
  bool header = false;               // the first record names the columns and is skipped
  std::string null_text;             // an unquoted field equal to this is null
  std::vector<std::string> columns;  // empty: every column, in the table's SELECT * order
  // With a header and no column list: the header's names say which column each field fills, as
  // dsbulk maps them (the page's bulk load). COPY FROM follows cqlsh: the header is skipped.
  bool columns_from_header = false;
};

// Sets the option `name` (lower case: header, delimiter, quote, escape, null, datetimeformat) to
// `value` as COPY's WITH name = 'value' does: false for an unknown name, a kCqlInvalidRequest
// located at `where` for a bad value (HEADER not true/false, a DELIMITER, QUOTE or ESCAPE of
// other than one character, a DATETIMEFORMAT that is not read).
StatusOr<bool> SetCsvLoadOption(CsvLoadOptions& options, std::string_view name,
                                std::string_view value, const SourceLocation& where);

// The indexes of the named columns in `table` (every column in SELECT * order when `names` is
// empty); an unknown one is kCqlUnknown located at where[i] when given.
StatusOr<std::vector<int>> ResolveCsvColumns(const TableSchema& table,
                                             const std::vector<std::string>& names,
                                             const std::vector<SourceLocation>& where);

struct CsvLoadFailure {
  SourceLocation where;  // whole-input line, column and byte offset
  std::string message;
};

class CsvRowLoader {
 public:
  CsvRowLoader(const CsvLoadOptions& options, std::vector<int> columns);
  ~CsvRowLoader();
  CsvRowLoader(const CsvRowLoader&) = delete;
  CsvRowLoader& operator=(const CsvRowLoader&) = delete;

  // Reads every record `reader` can give now and loads it into `table`. Returns the reader's
  // error when it stopped the load (it is also counted and listed); once stopped, nothing more
  // is read.
  Status LoadAvailable(CsvReader& reader, Table& table, ValueGenerator& generator);

  int64_t rows() const { return rows_; }
  int64_t failed() const { return failed_; }
  // The first kCsvMaxListedFailures failures, in input order.
  const std::vector<CsvLoadFailure>& failures() const { return failures_; }
  bool stopped() const { return stopped_; }

 private:
  void LoadRecord(const std::vector<CsvField>& fields, Table& table, ValueGenerator& generator);
  void Fail(const SourceLocation& where, std::string message);

  // columns_from_header: the header's names as the table's columns, or why not.
  Status MapHeader(const std::vector<CsvField>& fields, const TableSchema& table);

  CsvLoadOptions options_;
  std::vector<int> columns_;
  Status stop_error_;  // why the load stopped, when a record (the header) stopped it
  std::vector<CsvField> fields_;
  // A record's values and its insert's buffers, reused from record to record.
  std::vector<Value> values_;
  std::unique_ptr<InsertScratch> insert_;  // modify.h
  bool first_ = true;
  bool stopped_ = false;
  int64_t rows_ = 0;
  int64_t failed_ = 0;
  std::vector<CsvLoadFailure> failures_;
};

}  // namespace partplay::cql
