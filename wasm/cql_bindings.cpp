// Embind bindings of the CQL session: conversions only, no logic. Results cross as the engine's
// own JSON text (cassandra/result_format.h: ResultsToJson, RingToJson, TableLayoutToJson), parsed by the
// JS side, because one string is far cheaper than building many objects through Embind. Tokens
// are decimal strings in that JSON (a JS number cannot hold every 64-bit token).
//
//   const s = new Module.CqlSession();
//   JSON.parse(s.execute("CREATE KEYSPACE ks WITH replication = {...}; ..."));  // {results: [...]}
//   s.configureRing({nodes: 6, num_tokens: 16, random_tokens: false, seed: 1,
//                    datacenters: [{name: 'dc1', nodes: 3, racks: 3}, ...]});   // {ok} | {ok,
//                    error}
//   JSON.parse(s.ring('ks'));                        // nodes, vnode tokens, ownership
//   JSON.parse(s.tableLayout('ks.t', 10000));        // partitions with token, size, replicas
//   s.token(['text', 'int'], ["'hello'", '42']);     // {ok: true, token: '-...'} | {ok: false,
//   error} s.loadJson('ks.t', ndjsonText);                  // {ok: true, rows: n} | {ok: false,
//   error}
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>
#include <string>
#include <vector>

#include "partplay/cassandra/parser.h"
#include "partplay/cassandra/result_format.h"
#include "partplay/cassandra/session.h"
#include "status_value.h"

namespace {

using emscripten::val;
using partplay::Status;
namespace cql = partplay::cql;

using partplay::wasm::StatusValue;

// A JS string, or a Uint8Array / ArrayBuffer of UTF-8 bytes.
std::string TextOf(const val& input) {
  if (input.isString()) return input.as<std::string>();
  val bytes = input.instanceof
      (val::global("Uint8Array")) ? input : val::global("Uint8Array").new_(input);
  std::string out(bytes["length"].as<size_t>(), '\0');
  val view(emscripten::typed_memory_view(out.size(), reinterpret_cast<uint8_t*>(out.data())));
  view.call<void>("set", bytes);
  return out;
}

template <typename T>
T Get(const val& o, const char* name, T fallback) {
  return o.hasOwnProperty(name) ? o[name].as<T>() : fallback;
}

class CqlSession {
 public:
  CqlSession() = default;

  std::string execute(val script) { return cql::ResultsToJson(session_.Execute(TextOf(script))); }

  val configureRing(val options) {
    cql::RingOptions o;
    o.nodes = Get<int>(options, "nodes", o.nodes);
    o.num_tokens = Get<int>(options, "num_tokens", o.num_tokens);
    o.random_tokens = Get<bool>(options, "random_tokens", o.random_tokens);
    o.seed = static_cast<uint64_t>(Get<double>(options, "seed", static_cast<double>(o.seed)));
    if (options.hasOwnProperty("datacenters")) {
      val dcs = options["datacenters"];
      for (size_t i = 0, n = dcs["length"].as<size_t>(); i < n; ++i) {
        val d = dcs[i];
        o.datacenters.push_back(cql::DatacenterSpec{
            Get<std::string>(d, "name", ""), Get<int>(d, "nodes", 1), Get<int>(d, "racks", 1)});
      }
    }
    return StatusValue(session_.ConfigureRing(o));
  }

  // The ring; with a keyspace name, each node's effective ownership under its replication.
  std::string ring(std::string keyspace) const {
    if (keyspace.empty()) return cql::RingToJson(session_.ring(), nullptr);
    auto ks = session_.FindKeyspace(keyspace);
    return cql::RingToJson(session_.ring(), ks.ok() ? &ks.value()->schema : nullptr);
  }

  // {"error": {...}} when the table is unknown.
  std::string tableLayout(std::string table, double max_partitions) {
    auto t = session_.FindTable(table);
    if (!t.ok()) return cql::ResultToJsonLine(ErrorResult(t.status()));
    auto ks = session_.FindKeyspace(t.value()->schema().keyspace);
    cql::TableLayoutOptions o;
    o.max_partitions = static_cast<int64_t>(max_partitions);
    return cql::TableLayoutToJson(*t.value(), session_.ring(), ks.value()->schema, o);
  }

  val token(val type_names, val literals) const {
    std::vector<cql::CqlType> types;
    for (const std::string& name : emscripten::vecFromJSArray<std::string>(type_names)) {
      auto t = cql::ParseType(name);
      if (!t.ok()) return StatusValue(t.status());
      types.push_back(t.value());
    }
    auto token = cql::TokenOfLiterals(types, emscripten::vecFromJSArray<std::string>(literals));
    if (!token.ok()) return StatusValue(token.status());
    val o = StatusValue(Status::Ok());
    o.set("token", std::to_string(token.value()));
    return o;
  }

  val loadJson(std::string table, val json) {
    auto rows = session_.LoadJson(table, TextOf(json));
    if (!rows.ok()) return StatusValue(rows.status());
    val o = StatusValue(Status::Ok());
    o.set("rows", static_cast<double>(rows.value()));
    return o;
  }

  std::string currentKeyspace() const { return session_.current_keyspace(); }

 private:
  static cql::StatementResult ErrorResult(const Status& s) {
    cql::StatementResult r;
    r.kind = cql::StatementResult::Kind::kError;
    r.status = s;
    return r;
  }

  cql::Session session_;
};

}  // namespace

EMSCRIPTEN_BINDINGS(partplay_cql) {
  emscripten::class_<CqlSession>("CqlSession")
      .constructor<>()
      .function("execute", &CqlSession::execute)
      .function("configureRing", &CqlSession::configureRing)
      .function("ring", &CqlSession::ring)
      .function("tableLayout", &CqlSession::tableLayout)
      .function("token", &CqlSession::token)
      .function("loadJson", &CqlSession::loadJson)
      .function("currentKeyspace", &CqlSession::currentKeyspace);
}
