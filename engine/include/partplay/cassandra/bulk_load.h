// Bulk loading JSON rows into a CQL table, fed in chunks the way an Analysis is: the caller asks
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
//   auto load = BulkLoad::Start(session, "ks.t").value();
//   uint8_t* at = load->WritableChunk(n);  memcpy(at, bytes, n);  load->CommitChunk(n);  ...
//   load->Finish();  load->rows();
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "partplay/core/status.h"

namespace partplay::cql {

class Session;

inline constexpr size_t kMaxRowJsonBytes = 16u << 20;

class BulkLoad {
 public:
  // The table ("ks.table", or "table" in the current keyspace) must exist.
  static StatusOr<std::unique_ptr<BulkLoad>> Start(Session& session,
                                                   std::string_view qualified_table);
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
  // Ends the input: an object or array left open is an error.
  Status Finish();

  int64_t rows() const;
  uint64_t bytes_consumed() const;
  const std::string& table() const { return table_; }
  // Whether error messages end with "(N rows were loaded before it)" (the default).
  void set_count_rows_in_errors(bool on) { count_rows_in_errors_ = on; }

 private:
  class Rows;
  BulkLoad(Session& session, std::string table);
  Status Bind();
  Status Explain(Status s) const;

  Session* session_;
  std::string table_;  // "ks.table"
  std::unique_ptr<Rows> rows_;
  bool count_rows_in_errors_ = true;
};

}  // namespace partplay::cql
