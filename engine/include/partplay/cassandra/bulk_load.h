// Bulk loading JSON rows or CSV records into a CQL table, fed in chunks the way an Analysis is:
// the caller asks
// for writable space in the engine's one input buffer (WritableChunk), writes the bytes there
// (the browser copies a File slice into the wasm heap once) and commits them (CommitChunk). The
// input is framed by the ingest stream (ingest/item_stream.h: NDJSON or whitespace-separated
// objects through simdjson's iterate_many, a top-level array element by element), and each
// object is inserted as INSERT INTO table JSON '<object>' would. A row's JSON text is at most
// kMaxRowJsonBytes (Cassandra refuses a mutation over half its 32 MiB commit log segment).
//
// Errors are located in the whole input (byte offset, line, column, item index) and say how many
// rows were loaded before them; those rows stay loaded, as separate INSERTs would.
//
// CSV (BulkLoadOptions::format kCsv) is COPY ... FROM fed in chunks: the same options, and the
// same routine loads each record (csv_load.h), so the rows, counts and failures equal a COPY of
// the whole file whatever the chunks. The reader keeps only the bytes of the record under way. A
// bad record is counted and listed (failures()) and the load goes on; a reader error (an
// unterminated quote at the end, a record over the limits) is listed too, and CommitChunk /
// Finish return it: the load stops there.
//
//   auto load = BulkLoad::Start(session, "ks.t").value();
//   uint8_t* at = load->WritableChunk(n);  memcpy(at, bytes, n);  load->CommitChunk(n);  ...
//   load->Finish();  load->rows();
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "partplay/cassandra/csv_load.h"
#include "partplay/core/status.h"

namespace partplay::cql {

class Session;

inline constexpr size_t kMaxRowJsonBytes = 16u << 20;

struct BulkLoadOptions {
  enum class Format { kJson, kCsv };
  Format format = Format::kJson;
  CsvLoadOptions csv;  // format kCsv only
};

// {format: 'json'|'csv', header, delimiter, quote, escape, null, datetimeformat, columns: [...]}
// (every field optional; header a boolean, the others strings as COPY's WITH options take them;
// the CSV fields only with format 'csv'); an unknown field or a bad value is kBadOption naming
// the field. Empty text reads as {}.
StatusOr<BulkLoadOptions> ParseBulkLoadOptionsJson(std::string_view json);

class BulkLoad {
 public:
  // The table ("ks.table", or "table" in the current keyspace) must exist.
  static StatusOr<std::unique_ptr<BulkLoad>> Start(Session& session,
                                                   std::string_view qualified_table,
                                                   const BulkLoadOptions& options = {});
  ~BulkLoad();
  BulkLoad(const BulkLoad&) = delete;
  BulkLoad& operator=(const BulkLoad&) = delete;

  // Room for n more bytes (nullptr when out of memory); valid until the next call.
  uint8_t* WritableChunk(size_t n);
  // Inserts every object the committed bytes complete. The table is looked up again on every
  // call, so a table dropped between chunks is an error, never a dangling pointer.
  Status CommitChunk(size_t n);
  // WritableChunk + copy + CommitChunk, for native callers holding the bytes.
  Status Append(std::string_view bytes);
  // Ends the input: an object or array left open is an error (CSV: a quote left open).
  Status Finish();

  int64_t rows() const;
  uint64_t bytes_consumed() const;
  // CSV: records that failed (JSON stops at its first bad row: 0), the first
  // kCsvMaxListedFailures of them, and the lines read into records. JSON: the lines fed.
  int64_t failed() const;
  const std::vector<CsvLoadFailure>& failures() const;
  int64_t lines() const;
  const std::string& table() const { return table_; }
  // Whether error messages end with "(N rows were loaded before it)" (the default).
  void set_count_rows_in_errors(bool on) { count_rows_in_errors_ = on; }

 private:
  class Rows;
  struct CsvRows;
  BulkLoad(Session& session, std::string table);
  Status Bind();
  Status Explain(Status s) const;
  Status LoadCsv();  // loads the records the CSV fed so far completes

  Session* session_;
  std::string table_;              // "ks.table"
  std::unique_ptr<Rows> rows_;     // JSON
  std::unique_ptr<CsvRows> csv_;   // CSV
  uint8_t* json_chunk_ = nullptr;  // the last WritableChunk (JSON)
  int64_t json_lines_ = 0;         // newlines fed (JSON)
  bool json_line_open_ = false;    // bytes fed since the last newline (JSON)
  bool count_rows_in_errors_ = true;
};

// The progress of a load as JSON: {rows, failed, bytes_consumed, lines, failures: [{line, column,
// byte_offset, message}]}.
std::string BulkLoadProgressJson(const BulkLoad& load);

}  // namespace partplay::cql
