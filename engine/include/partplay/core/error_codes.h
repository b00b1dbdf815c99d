// The one table of error codes. The engine's Status, the CLI's exit codes (exit code = the code's
// number) and the one JS error class (wasm/partplay-api.mjs `PartplayError`, its `code`) all use
// it; a Node test checks the wasm module exports exactly this table. Codes 50-55 are raised by
// the page's engine worker and its client (web/worker/), never by the engine itself: they are
// here so that every error the page shows has one code from one table.
#pragma once

// X(Name, number, "short_name", "what it means")
#define PARTPLAY_ERROR_CODES(X)                                                          \
  X(kOk, 0, "ok", "no error")                                                            \
  X(kUsage, 2, "usage", "bad command-line usage or option value")                        \
  X(kIo, 3, "io", "a file could not be read or written")                                 \
  X(kEmptyInput, 10, "empty_input", "the input holds no JSON value")                     \
  X(kMalformedJson, 11, "malformed_json", "the input is not valid JSON")                 \
  X(kInvalidUtf8, 12, "invalid_utf8", "the input is not valid UTF-8")                    \
  X(kNotAnObject, 13, "not_an_object",                                                   \
    "a top-level value (or an array element) is not a JSON object")                      \
  X(kTooDeep, 14, "too_deep", "nesting deeper than the parser's depth limit")            \
  X(kTruncatedInput, 15, "truncated_input", "the input ends inside a JSON value")        \
  X(kItemTooLarge, 16, "item_too_large",                                                 \
    "one item is larger than the engine can buffer")                                     \
  X(kBadPartial, 17, "bad_partial",                                                      \
    "a partial-state file is corrupt, from another version, or does not merge")          \
  X(kBadKeyPath, 20, "bad_key_path", "a partition key path is not a valid JSON pointer") \
  X(kBadOption, 21, "bad_option", "an analysis option is out of range")                  \
  X(kInvalidState, 30, "invalid_state", "a call out of order (e.g. feed after finish)")  \
  X(kOutOfMemory, 31, "out_of_memory", "memory could not be allocated")                  \
  X(kCqlSyntax, 40, "cql_syntax", "a CQL statement does not parse")                      \
  X(kCqlInvalidRequest, 41, "cql_invalid_request",                                       \
    "a CQL statement Cassandra would reject (its own message)")                          \
  X(kCqlBadLiteral, 42, "cql_bad_literal", "a CQL literal does not fit its column type") \
  X(kCqlUnknown, 43, "cql_unknown", "an unknown keyspace, table, column or type")        \
  X(kCqlUnavailable, 45, "cql_unavailable",                                             \
    "the consistency level needs more replicas than the ring holds (Cassandra's Unavailable)") \
  X(kQuerySyntax, 44, "query_syntax",                                                   \
    "a Cosmos DB NoSQL query does not parse or uses what the model does not evaluate")     \
  X(kCancelled, 50, "cancelled", "the page cancelled the request before it finished")    \
  X(kBadRequest, 51, "bad_request",                                                      \
    "a request to the engine worker is malformed (a missing or mistyped field)")         \
  X(kNoSource, 52, "no_source", "nothing was analysed yet to read again or compare")     \
  X(kNoAnalysis, 53, "no_analysis",                                                      \
    "the worker holds no finished analysis, comparison or part for this request")        \
  X(kEngineLoad, 54, "engine_load",                                                      \
    "the engine worker or its wasm module could not start")                              \
  X(kEngineFailed, 55, "engine_failed",                                                  \
    "the engine stopped (a wasm trap or abort) and was restarted; what it held is gone") \
  X(kInternal, 99, "internal", "a bug in the engine")                                    \
  X(kInterrupted, 130, "interrupted",                                                    \
    "stopped by Ctrl-C (SIGINT) before the end; its partial work was dropped")
