// Embind bindings of what every domain shares: the engine's version and its error-code table
// (core/error_codes.h, the one table the CLI's exit codes and the JS PartplayError codes come
// from) and the table of limits and quotas (core/limits.h). Conversions only; every call answers
// in the shape of status_value.h. The other domains: ingest_bindings.cpp (Analysis),
// cosmos_bindings.cpp (effective partition key), compare_bindings.cpp (the key comparison, the
// --candidate grammar, and the vocabulary of the Cosmos DB controls, report/vocabulary.h), cassandra_bindings.cpp (CqlSession, tokens),
// sizing_bindings.cpp (sizing from a schema). crashForTesting is for the worker's healing tests
// only.
//
//   JSON.parse(Module.errorCodes().json);   // [{code, name, description}, ...]
#include <emscripten/bind.h>
#include <emscripten/val.h>
#include <fmt/format.h>

#include <cstdlib>
#include <string>

#include "partplay/core/error_codes.h"
#include "partplay/core/json_writer.h"
#include "partplay/core/limits.h"
#include "partplay/core/version.h"
#include "status_value.h"

namespace {

using emscripten::val;
using partplay::wasm::JsonAnswer;

val ErrorCodes() {
  std::string json = "[";
#define PARTPLAY_X(name, number, short_name, description) \
  if (json.size() > 1) json += ',';                       \
  json += fmt::format("{{\"code\":{},\"name\":", number); \
  partplay::AppendJsonString(short_name, json);           \
  json += ",\"description\":";                            \
  partplay::AppendJsonString(description, json);          \
  json += '}';
  PARTPLAY_ERROR_CODES(PARTPLAY_X)
#undef PARTPLAY_X
  json += ']';
  return JsonAnswer(json);
}

val Version() {
  std::string json;
  partplay::AppendJsonString(partplay::kVersion, json);
  return JsonAnswer(json);
}

// core/limits.h: every quota with its value, label and source, so the page labels from it.
val Limits() { return JsonAnswer(partplay::LimitsToJson()); }


// Recurses until the stack runs out; `depth` keeps the frames from being merged.
int OverflowStack(int depth) {
  volatile char frame[4096];
  frame[depth % sizeof frame] = static_cast<char>(depth);
  return OverflowStack(depth + 1) + frame[0];
}

// TEST ONLY (protocol.js "Engine failures"): breaks the module on purpose so the tests can check
// that the worker heals. "trap": a wasm trap; "abort": std::abort, as an uncaught C++ throw
// would; "stack": a stack overflow, which must trap (the stack sits first, -Wl,--stack-first).
void CrashForTesting(const std::string& kind) {
  if (kind == "abort") std::abort();
  if (kind == "stack") OverflowStack(0);
  __builtin_trap();
}

}  // namespace

EMSCRIPTEN_BINDINGS(partplay) {
  emscripten::function("errorCodes", &ErrorCodes);
  emscripten::function("version", &Version);
  emscripten::function("limits", &Limits);
  emscripten::function("crashForTesting", &CrashForTesting);
}
