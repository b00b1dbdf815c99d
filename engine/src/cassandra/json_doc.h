// Internal: JSON values for INSERT ... JSON and bulk loading, read by simdjson On Demand — the
// reader of the ingest stream, so the engine has one JSON parser. Numbers keep their exact text
// (simdjson's raw token, checked against the JSON number grammar) so bigint, varint and decimal
// values keep all their digits, where a DOM would have rounded them to a double; object members
// keep their order.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "simdjson.h"

namespace partplay::cql::internal {

struct JsonMember;

struct JsonNode {
  enum class Kind : uint8_t { kNull, kBool, kNumber, kString, kArray, kObject };
  Kind kind = Kind::kNull;
  bool boolean = false;
  std::string text;  // number text, or string content
  std::vector<JsonNode> items;
  // A named struct, not std::pair: a pair of an incomplete JsonNode does not compile with clang.
  std::vector<JsonMember> members;

  std::string_view KindName() const;
};

struct JsonMember {
  std::string name;
  JsonNode value;
};

// The value of a document the ingest stream framed (bulk_load.cpp). False with `error` on a bad
// value; the stream's strict checker then locates it.
bool JsonNodeOf(simdjson::ondemand::document_reference doc, JsonNode& out, std::string& error);

// Parses text[pos..] as exactly one JSON value; on success `pos` is the end of the text.
bool ParseJson(std::string_view text, size_t& pos, JsonNode& out, std::string& error);

}  // namespace partplay::cql::internal
