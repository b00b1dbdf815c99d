// JSON values for INSERT ... JSON and fromJson() (json_values.h): each CQL type read from the
// JSON kinds Cassandra accepts for it (numbers and their strings, blobs as 0x strings, collections,
// tuples and user types recursively), and a row's columns from a JSON object.
#include "cassandra/json_values.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace partplay::cql::internal {
namespace {

Status Invalid(std::string message, const SourceLocation& where) {
  return Status(ErrorCode::kCqlInvalidRequest, std::move(message), where);
}

}  // namespace

StatusOr<Value> JsonToValue(const CqlType& type, const JsonNode& n, std::string_view receiver,
                            const SourceLocation& where) {
  using K = JsonNode::Kind;
  if (n.kind == K::kNull) return Value();
  auto expected = [&](std::string_view what) {
    std::string shown = n.kind == K::kString ? n.text
                        : n.kind == K::kBool ? (n.boolean ? "true" : "false")
                                             : n.text;
    return Status(ErrorCode::kCqlBadLiteral,
                  fmt::format("Error decoding JSON value for {}: Expected {}, but got a {}: {}",
                              receiver, what, n.KindName(), shown),
                  where);
  };
  auto from_string = [&](std::string_view text) -> StatusOr<Value> {
    StatusOr<Bytes> b = ValueFromString(type, text, where);
    if (!b.ok()) {
      return Status(
          b.status().code(),
          fmt::format("Error decoding JSON value for {}: {}", receiver, b.status().message()),
          where);
    }
    return Value(std::move(b).value());
  };
  switch (type.kind) {
    case TypeKind::kAscii:
    case TypeKind::kText:
      if (n.kind != K::kString) {
        return expected(type.kind == TypeKind::kAscii ? "an ascii string" : "a UTF-8 string");
      }
      return from_string(n.text);
    case TypeKind::kBoolean:
      if (n.kind == K::kBool) return Value(EncodeBoolean(n.boolean));
      if (n.kind != K::kString) return expected("a boolean value");
      return from_string(n.text);
    case TypeKind::kTinyint:
    case TypeKind::kSmallint:
    case TypeKind::kInt:
    case TypeKind::kBigint:
    case TypeKind::kVarint:
    case TypeKind::kDecimal:
    case TypeKind::kFloat:
    case TypeKind::kDouble:
    case TypeKind::kTimestamp:
    case TypeKind::kDate:
    case TypeKind::kTime:
    case TypeKind::kCounter:
      if (n.kind != K::kNumber && n.kind != K::kString) {
        return expected(fmt::format("a {} value", NativeTypeName(type.kind)));
      }
      return from_string(n.text);
    case TypeKind::kUuid:
    case TypeKind::kTimeuuid:
    case TypeKind::kInet:
    case TypeKind::kBlob:
    case TypeKind::kDuration:
      if (n.kind != K::kString) return expected("a string representation");
      return from_string(n.text);
    case TypeKind::kTuple: {
      // TupleType.fromJSONObject: an array of the components, in order.
      if (n.kind != K::kArray) return expected("a list representation of a tuple");
      if (n.items.size() > type.params.size()) {
        return Status(ErrorCode::kCqlBadLiteral,
                      fmt::format("Error decoding JSON value for {}: Tuple contains extra items "
                                  "(expected {}, got {})",
                                  receiver, type.params.size(), n.items.size()),
                      where);
      }
      if (n.items.size() < type.params.size()) {
        return Status(ErrorCode::kCqlBadLiteral,
                      fmt::format("Error decoding JSON value for {}: Tuple is missing items "
                                  "(expected {}, got {})",
                                  receiver, type.params.size(), n.items.size()),
                      where);
      }
      std::vector<Value> parts;
      for (size_t i = 0; i < n.items.size(); ++i) {
        PARTPLAY_ASSIGN_OR_RETURN(Value v,
                                  JsonToValue(type.params[i], n.items[i], receiver, where));
        parts.push_back(std::move(v));
      }
      return Value(EncodeComposite(parts));
    }
    case TypeKind::kUdt: {
      // UserType.fromJSONObject: an object by field name (case-insensitive unless quoted).
      if (n.kind != K::kObject) return expected("a map");
      std::vector<Value> parts(type.params.size());
      for (const auto& [raw, value] : n.members) {
        std::string name = raw;
        if (name.size() >= 2 && name.front() == '"' && name.back() == '"') {
          name = name.substr(1, name.size() - 2);
        } else {
          for (char& ch : name)
            ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        }
        size_t f = 0;
        while (f < type.field_names.size() && type.field_names[f] != name) ++f;
        if (f == type.field_names.size()) {
          return Status(ErrorCode::kCqlBadLiteral,
                        fmt::format("Error decoding JSON value for {}: Unknown field '{}' in value "
                                    "of user defined type {}",
                                    receiver, raw, type.udt_name),
                        where);
        }
        PARTPLAY_ASSIGN_OR_RETURN(parts[f], JsonToValue(type.params[f], value, receiver, where));
      }
      return Value(EncodeComposite(parts));
    }
    case TypeKind::kVector: {
      // VectorType.fromJSONObject: a list of exactly `dimension` elements, none null.
      if (n.kind != K::kArray) return expected("a list");
      if (n.items.size() != static_cast<size_t>(type.dimension)) {
        return Status(ErrorCode::kCqlBadLiteral,
                      fmt::format("Error decoding JSON value for {}: List had incorrect size: "
                                  "expected {} but given {}",
                                  receiver, type.dimension, n.items.size()),
                      where);
      }
      std::vector<Bytes> items;
      for (const JsonNode& e : n.items) {
        if (e.kind == K::kNull) {
          return Status(
              ErrorCode::kCqlBadLiteral,
              fmt::format("Error decoding JSON value for {}: Invalid null element in list",
                          receiver),
              where);
        }
        PARTPLAY_ASSIGN_OR_RETURN(Value v, JsonToValue(type.element(), e, receiver, where));
        items.push_back(std::move(*v));
      }
      return Value(EncodeVector(type, items));
    }
    case TypeKind::kList:
    case TypeKind::kSet: {
      if (n.kind != K::kArray) return expected(type.kind == TypeKind::kList ? "a list" : "a set");
      std::vector<Bytes> items;
      for (const JsonNode& e : n.items) {
        if (e.kind == K::kNull) {
          return Status(ErrorCode::kCqlBadLiteral, "null is not supported inside collections",
                        where);
        }
        PARTPLAY_ASSIGN_OR_RETURN(Value v, JsonToValue(type.element(), e, receiver, where));
        items.push_back(std::move(*v));
      }
      return Value(EncodeCollectionOf(type, items));
    }
    case TypeKind::kMap: {
      if (n.kind != K::kObject) return expected("a map");
      std::vector<Bytes> items;
      for (const auto& [key, value] : n.members) {
        if (type.element().is_collection()) {
          return Status(ErrorCode::kCqlBadLiteral,
                        "maps with collection keys cannot be read from JSON here", where);
        }
        StatusOr<Bytes> k = ValueFromString(type.element(), key, where);
        if (!k.ok()) return k.status();
        if (value.kind == K::kNull) {
          return Status(ErrorCode::kCqlBadLiteral, "null is not supported inside collections",
                        where);
        }
        PARTPLAY_ASSIGN_OR_RETURN(Value v, JsonToValue(type.value(), value, receiver, where));
        items.push_back(std::move(k).value());
        items.push_back(std::move(*v));
      }
      return Value(EncodeCollectionOf(type, items));
    }
  }
  return Value();
}

// Column values of one INSERT: columns (indexes) and their values.

StatusOr<InsertValues> JsonInsertValues(const TableSchema& t, const JsonNode& object,
                                        bool default_unset, const SourceLocation& where) {
  if (object.kind != JsonNode::Kind::kObject) {
    return Invalid("Could not decode JSON string as a map: not a JSON object", where);
  }
  InsertValues out;
  std::vector<bool> seen(t.columns.size(), false);
  for (const auto& [raw, value] : object.members) {
    // Member names are case-insensitive unless written in double quotes, like identifiers.
    std::string name = raw;
    if (name.size() >= 2 && name.front() == '"' && name.back() == '"') {
      name = name.substr(1, name.size() - 2);
    } else {
      std::transform(name.begin(), name.end(), name.begin(),
                     [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    }
    int i = t.IndexOf(name);
    if (i < 0) {
      return Invalid(fmt::format("JSON values map contains unrecognized column: {}", raw), where);
    }
    PARTPLAY_ASSIGN_OR_RETURN(
        Value v, JsonToValue(t.columns[static_cast<size_t>(i)].type, value, name, where));
    seen[static_cast<size_t>(i)] = true;
    out.columns.push_back(i);
    out.values.push_back(std::move(v));
    out.where.push_back(where);
  }
  if (!default_unset) {
    for (size_t i = 0; i < t.columns.size(); ++i) {
      if (seen[i]) continue;
      out.columns.push_back(static_cast<int>(i));
      out.values.push_back(Value());
      out.where.push_back(where);
    }
  }
  return out;
}

}  // namespace partplay::cql::internal
