// Embind bindings of the Cassandra domain: the CQL session and partition-key tokens. Conversions
// only; every call answers in the shape of status_value.h, results as the engine's own JSON text
// (cassandra/result_format.h), because one string is far cheaper than building many objects
// through Embind. Options cross as JSON (ring options: ring.h ParseRingOptionsJson; layout
// options: result_format.h ParseTableLayoutOptionsJson). Tokens are decimal strings in that JSON
// (a JS number cannot hold every 64-bit token).
//
//   const s = new Module.CqlSession();
//   JSON.parse(s.execute("CREATE KEYSPACE ks WITH replication = {...}; ...").json);  // {results}
//   s.configureRing('{"nodes": 6, "num_tokens": 16}');           // {ok} | {ok: false, error}
//   JSON.parse(s.keyspaces().json);                              // [{name, replication, tables}]
//   JSON.parse(s.ring('ks').json);                               // nodes, vnode tokens, ownership
//   JSON.parse(s.tableLayout('ks.t', '{"ru_per_second": 40000}').json);  // partitions, placement
//   s.startLoad('ks.t', '{"format": "csv", "header": true}');   // options: bulk_load.h
//   const {pointer} = s.loadWritableChunk(n);  HEAPU8.set(bytes, pointer);  s.loadCommitChunk(n);
//   JSON.parse(s.finishLoad().json);  // {rows, failed, bytes_consumed, lines, failures}
//   JSON.parse(s.sizeFromRows('{"table": "ks.t"}').json);  // sizing/rows_sizing.h
//   JSON.parse(Module.cassandraToken(['text', 'int'], ["'hello'", '42']).json);   // "-..."
#include <emscripten/bind.h>
#include <emscripten/val.h>
#include <fmt/format.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

// PARTPLAY_ELEMENT_MODULE (partplay-cql-element, the element's module; CMakeLists.txt): no bulk
// load (the element loads no files), so neither simdjson nor the JSON and CSV loaders link in.
#if !PARTPLAY_ELEMENT_MODULE
#include "partplay/cassandra/bulk_load.h"
// The page's partplay-cql links the sizing library too (CMakeLists.txt): a table sized from the
// rows its session holds.
#include "partplay/sizing/rows_sizing.h"
#endif
#include "partplay/cassandra/parser.h"
#include "partplay/cassandra/result_format.h"
#include "partplay/cassandra/session.h"
#include "partplay/core/json_writer.h"
#include "status_value.h"

namespace {

using emscripten::val;
using partplay::ErrorCode;
using partplay::Status;
using partplay::StatusOr;
namespace cql = partplay::cql;

using partplay::wasm::JsonAnswer;
using partplay::wasm::PointerAnswer;
using partplay::wasm::StatusValue;

// A JS string, or a Uint8Array / ArrayBuffer of UTF-8 bytes.
std::string TextOf(const val& input) {
  if (input.isString()) return input.as<std::string>();
  val uint8 = val::global("Uint8Array");
  val bytes = input.instanceof (uint8) ? input : uint8.new_(input);
  std::string out(bytes["length"].as<size_t>(), '\0');
  val view(emscripten::typed_memory_view(out.size(), reinterpret_cast<uint8_t*>(out.data())));
  view.call<void>("set", bytes);
  return out;
}

std::string JsonString(std::string_view s) {
  std::string out;
  partplay::AppendJsonString(s, out);
  return out;
}

class CqlSession {
 public:
  // Statement errors are results (the script goes on, as in cqlsh), so this always answers ok.
  val execute(val script) {
    return JsonAnswer(cql::ResultsToJson(session_.Execute(TextOf(script))));
  }

  val configureRing(std::string options_json) {
    StatusOr<cql::RingOptions> o = cql::ParseRingOptionsJson(options_json);
    if (!o.ok()) return StatusValue(o.status());
    return StatusValue(session_.ConfigureRing(o.value()));
  }

  // 0 (as written) or the copies every keyspace created from now on keeps.
  val overrideReplicationFactor(int factor) {
    return StatusValue(session_.OverrideReplicationFactor(factor));
  }

  // The ring; with a keyspace name, each node's effective ownership under its replication.
  val ring(std::string keyspace) const {
    if (keyspace.empty()) return JsonAnswer(cql::RingToJson(session_.ring(), nullptr));
    auto ks = session_.FindKeyspace(keyspace);
    if (!ks.ok()) return StatusValue(ks.status());
    return JsonAnswer(cql::RingToJson(session_.ring(), &ks.value()->schema));
  }

  val keyspaces() const { return JsonAnswer(cql::KeyspacesToJson(session_.ListKeyspaces())); }

  val tableLayout(std::string table, std::string options_json) {
    StatusOr<cql::TableLayoutOptions> o = cql::ParseTableLayoutOptionsJson(options_json);
    if (!o.ok()) return StatusValue(o.status());
    auto t = session_.FindTable(table);
    if (!t.ok()) return StatusValue(t.status());
    auto ks = session_.FindKeyspace(t.value()->schema().keyspace);
    if (!ks.ok()) return StatusValue(ks.status());
    return JsonAnswer(
        cql::TableLayoutToJson(*t.value(), session_.ring(), ks.value()->schema, o.value()));
  }

  val currentKeyspace() const { return JsonAnswer(JsonString(session_.current_keyspace())); }

#if !PARTPLAY_ELEMENT_MODULE
  // One bulk load at a time (bulk_load.h); a new one replaces the one in progress. `options_json`:
  // ParseBulkLoadOptionsJson ('' is JSON rows).
  val startLoad(std::string table, std::string options_json) {
    load_.reset();
    StatusOr<cql::BulkLoadOptions> options = cql::ParseBulkLoadOptionsJson(options_json);
    if (!options.ok()) return StatusValue(options.status());
    auto load = cql::BulkLoad::Start(session_, table, options.value());
    if (!load.ok()) return StatusValue(load.status());
    load_ = std::move(load).value();
    return StatusValue(Status::Ok());
  }
  val loadWritableChunk(size_t n) {
    if (!load_) return StatusValue(NoLoad());
    return PointerAnswer(load_->WritableChunk(n), n);
  }
  val loadCommitChunk(size_t n) {
    if (!load_) return StatusValue(NoLoad());
    Status s = load_->CommitChunk(n);
    if (!s.ok()) return StatusValue(s);
    return JsonAnswer(LoadProgress());
  }
  // The progress so far (after an error too: the rows loaded and the failures listed).
  val loadProgress() {
    if (!load_) return StatusValue(NoLoad());
    return JsonAnswer(LoadProgress());
  }
  // Ends the load; the rows stay loaded whatever the answer. After an error the load is kept
  // for loadProgress until cancelLoad or the next startLoad.
  val finishLoad() {
    if (!load_) return StatusValue(NoLoad());
    Status s = load_->Finish();
    if (!s.ok()) return StatusValue(s);
    std::string progress = LoadProgress();
    load_.reset();
    return JsonAnswer(progress);
  }
  val cancelLoad() {
    load_.reset();
    return StatusValue(Status::Ok());
  }

  // The rows a table holds, measured and sized (sizing/rows_sizing.h; docs/sizing.md "From a
  // table's rows"): {"table": "ks.t", "max_examples": n}.
  val sizeFromRows(std::string request_json) {
    return JsonAnswer(partplay::SizeTableFromRowsJson(session_, request_json));
  }

 private:
  static Status NoLoad() { return Status(ErrorCode::kInvalidState, "no bulk load was started"); }
  std::string LoadProgress() const { return cql::BulkLoadProgressJson(*load_); }

  cql::Session session_;
  std::unique_ptr<cql::BulkLoad> load_;  // declared after the session it points into
#else
 private:
  cql::Session session_;
#endif
};

// The token (a decimal string, as JSON) of a partition key given as CQL literals of the given
// types (several = a composite key), as `partplay token` prints it.
val CassandraToken(val type_names, val literals) {
  std::vector<cql::CqlType> types;
  for (const std::string& name : emscripten::vecFromJSArray<std::string>(type_names)) {
    auto t = cql::ParseType(name);
    if (!t.ok()) return StatusValue(t.status());
    types.push_back(t.value());
  }
  auto token = cql::TokenOfLiterals(types, emscripten::vecFromJSArray<std::string>(literals));
  if (!token.ok()) return StatusValue(token.status());
  return JsonAnswer(JsonString(std::to_string(token.value())));
}

}  // namespace

EMSCRIPTEN_BINDINGS(partplay_cassandra) {
  emscripten::class_<CqlSession>("CqlSession")
      .constructor<>()
      .function("execute", &CqlSession::execute)
      .function("configureRing", &CqlSession::configureRing)
      .function("overrideReplicationFactor", &CqlSession::overrideReplicationFactor)
      .function("ring", &CqlSession::ring)
      .function("keyspaces", &CqlSession::keyspaces)
      .function("tableLayout", &CqlSession::tableLayout)
      .function("currentKeyspace", &CqlSession::currentKeyspace)
#if !PARTPLAY_ELEMENT_MODULE
      .function("startLoad", &CqlSession::startLoad)
      .function("loadWritableChunk", &CqlSession::loadWritableChunk)
      .function("loadCommitChunk", &CqlSession::loadCommitChunk)
      .function("loadProgress", &CqlSession::loadProgress)
      .function("finishLoad", &CqlSession::finishLoad)
      .function("cancelLoad", &CqlSession::cancelLoad)
      .function("sizeFromRows", &CqlSession::sizeFromRows)
#endif
      ;
  emscripten::function("cassandraToken", &CassandraToken);
}
