// Internal: a small JSON reader for INSERT ... JSON and bulk loading. Numbers keep their text so
// bigint and varint values keep all their digits; object members keep their order.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace partplay::cql::internal {

struct JsonNode {
  enum class Kind : uint8_t { kNull, kBool, kNumber, kString, kArray, kObject };
  Kind kind = Kind::kNull;
  bool boolean = false;
  std::string text;  // number text, or string content
  std::vector<JsonNode> items;
  std::vector<std::pair<std::string, JsonNode>> members;
  size_t offset = 0;  // where the value starts in the input

  std::string_view KindName() const;
};

// Parses one JSON value starting at `pos` (whitespace skipped on both sides); on success `pos` is
// after the value. On failure returns false with `error` and `pos` at the problem.
bool ParseJson(std::string_view text, size_t& pos, JsonNode& out, std::string& error);

}  // namespace partplay::cql::internal
