#include "cassandra/json_doc.h"

#include <fmt/format.h>

namespace partplay::cql::internal {
namespace {

namespace od = simdjson::ondemand;

constexpr int kMaxDepth = 256;

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// The JSON number grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? (simdjson's raw token
// is not validated, and parsing it as a double would refuse 1e400, a valid decimal).
bool IsJsonNumber(std::string_view s) {
  size_t i = 0;
  auto digits = [&]() {
    size_t d = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    return i - d;
  };
  if (i < s.size() && s[i] == '-') ++i;
  if (i < s.size() && s[i] == '0') {
    ++i;
  } else if (digits() == 0) {
    return false;
  }
  if (i < s.size() && s[i] == '.') {
    ++i;
    if (digits() == 0) return false;
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (digits() == 0) return false;
  }
  return i == s.size();
}

bool Fail(simdjson::error_code e, std::string& error) {
  if (error.empty()) error = simdjson::error_message(e);
  return false;
}

// Builds `out` from an On Demand value or document (they share these calls).
template <typename V>
bool Build(V&& v, JsonNode& out, std::string& error, int depth) {
  if (depth > kMaxDepth) {
    error = "nesting too deep";
    return false;
  }
  od::json_type type;
  if (auto e = v.type().get(type)) return Fail(e, error);
  switch (type) {
    case od::json_type::object: {
      out.kind = JsonNode::Kind::kObject;
      od::object object;
      if (auto e = v.get_object().get(object)) return Fail(e, error);
      for (auto field : object) {
        std::string_view key;
        if (auto e = field.unescaped_key().get(key)) return Fail(e, error);
        JsonNode value;
        od::value inner;
        if (auto e = field.value().get(inner)) return Fail(e, error);
        if (!Build(inner, value, error, depth + 1)) return false;
        out.members.push_back({std::string(key), std::move(value)});
      }
      return true;
    }
    case od::json_type::array: {
      out.kind = JsonNode::Kind::kArray;
      od::array array;
      if (auto e = v.get_array().get(array)) return Fail(e, error);
      for (auto element : array) {
        od::value inner;
        if (auto e = element.get(inner)) return Fail(e, error);
        JsonNode item;
        if (!Build(inner, item, error, depth + 1)) return false;
        out.items.push_back(std::move(item));
      }
      return true;
    }
    case od::json_type::string: {
      out.kind = JsonNode::Kind::kString;
      std::string_view s;
      if (auto e = v.get_string().get(s)) return Fail(e, error);
      out.text = std::string(s);
      return true;
    }
    case od::json_type::number: {
      out.kind = JsonNode::Kind::kNumber;
      std::string_view token;
      if (auto e = simdjson::simdjson_result<std::string_view>(v.raw_json_token()).get(token)) {
        return Fail(e, error);
      }
      while (!token.empty() && IsSpace(token.back())) token.remove_suffix(1);
      if (!IsJsonNumber(token)) {
        error = fmt::format("invalid number {}", token);
        return false;
      }
      out.text = std::string(token);
      return true;
    }
    case od::json_type::boolean: {
      out.kind = JsonNode::Kind::kBool;
      if (auto e = v.get_bool().get(out.boolean)) return Fail(e, error);
      return true;
    }
    case od::json_type::null: {
      bool is_null = false;
      if (auto e = v.is_null().get(is_null)) return Fail(e, error);
      if (!is_null) {
        error = "invalid literal";
        return false;
      }
      out.kind = JsonNode::Kind::kNull;
      return true;
    }
  }
  error = "unknown JSON value";
  return false;
}

}  // namespace

bool JsonNodeOf(od::document_reference doc, JsonNode& out, std::string& error) {
  return Build(doc, out, error, 0);
}

bool ParseJson(std::string_view text, size_t& pos, JsonNode& out, std::string& error) {
  std::string_view rest = text.substr(pos);
  size_t begin = 0;
  while (begin < rest.size() && IsSpace(rest[begin])) ++begin;
  if (begin == rest.size()) {
    error = "unexpected end of JSON";
    return false;
  }
  simdjson::padded_string padded(rest);
  od::parser parser;
  od::document doc;
  if (auto e = parser.iterate(padded).get(doc)) return Fail(e, error);
  if (!Build(doc, out, error, 0)) return false;
  if (!doc.at_end()) {
    error = "trailing characters";
    return false;
  }
  pos = text.size();
  return true;
}

std::string_view JsonNode::KindName() const {
  switch (kind) {
    case Kind::kNull:
      return "null";
    case Kind::kBool:
      return "Boolean";
    case Kind::kNumber:
      return "Number";
    case Kind::kString:
      return "String";
    case Kind::kArray:
      return "List";
    case Kind::kObject:
      return "Map";
  }
  return "?";
}

}  // namespace partplay::cql::internal
