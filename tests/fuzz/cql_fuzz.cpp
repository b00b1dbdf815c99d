// The CQL script runner: cql::Session parses and executes the input as a script on a small ring
// (3 nodes of 4 vnodes, a fixed clock), then every writer the CLI and the page use reads the
// results: the details JSON, the CLI's lines, cqlsh's text, the keyspaces, the ring and every
// table's layout with its Cosmos DB Cassandra API placement, and every table sized from its rows
// (sizing/rows_sizing.h): measured when it holds some, invalid_state when it holds none.
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_common.h"
#include "partplay/cassandra/result_format.h"
#include "partplay/cassandra/session.h"
#include "partplay/sizing/rows_sizing.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace partplay;
  std::string_view script(reinterpret_cast<const char*>(data), size);
  cql::SessionOptions options;
  options.ring.nodes = 3;
  options.ring.num_tokens = 4;
  options.now_millis = 1700000000000;
  cql::Session session(options);
  std::vector<cql::StatementResult> results = session.Execute(script);
  std::string sink = cql::ResultsToJson(results);
  for (const cql::StatementResult& r : results) {
    sink += cql::ResultToJsonLine(r);
    sink += cql::ResultToCqlsh(r, "fuzz.cql");
    if (r.kind == cql::StatementResult::Kind::kError) {
      fuzz::Check(!r.status.ok(), "an error result carries an error status");
      sink += cql::ErrorToJson(r.status);
    }
  }
  sink += cql::KeyspacesToJson(session.ListKeyspaces());
  sink += cql::RingToJson(session.ring(), nullptr);
  cql::TableLayoutOptions layout{
      .scan_partitions = 200, .max_partitions = 50, .ru_per_second = 40000};
  for (const auto& [name, keyspace] : session.keyspaces()) {
    sink += cql::RingToJson(session.ring(), &keyspace.schema);
    for (const auto& [table_name, table] : keyspace.tables) {
      sink += cql::TableLayoutToJson(*table, session.ring(), keyspace.schema, layout);
    }
  }
  std::vector<std::pair<std::string, size_t>> tables;
  for (const auto& [name, keyspace] : session.keyspaces()) {
    for (const auto& [table_name, table] : keyspace.tables) {
      tables.emplace_back(name + "." + table_name, table->partitions().size());
    }
  }
  for (const auto& [name, partitions] : tables) {
    StatusOr<TableRowsSizing> sized =
        SizeTableFromRows(session, {.table = name, .max_examples = 3});
    if (sized.ok()) sink += TableRowsSizingToJson(sized.value());
    // Names holding a dot or a quote can name two tables alike ("a"."b.c" and "a.b"."c").
    if (name.find('"') != std::string::npos || name.find('.') != name.rfind('.')) continue;
    if (partitions == 0) {
      fuzz::Check(!sized.ok() && sized.status().code() == ErrorCode::kInvalidState,
                  "a table without rows is not measured");
    } else {
      fuzz::Check(sized.ok() && sized.value().partitions == partitions,
                  "a table with rows is measured, every partition");
    }
  }
  return sink.empty() ? 0 : 0;
}
