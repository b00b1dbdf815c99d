// JSON values for INSERT ... JSON and fromJson() (json_values.h): each CQL type read from the
// JSON kinds Cassandra accepts for it (numbers and their strings, blobs as 0x strings, collections,
// tuples and user types recursively), and a row's columns from a JSON object.
#include "cassandra/json_values.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "cassandra/json_out.h"
#include "partplay/core/numbers.h"

namespace partplay::cql::internal {
namespace {

Status Invalid(std::string message, const SourceLocation& where) {
  return Status(ErrorCode::kCqlInvalidRequest, std::move(message), where);
}

}  // namespace

namespace {

Status Marshal(std::string message, const SourceLocation& where) {
  return Status(ErrorCode::kCqlBadLiteral, std::move(message), where);
}

bool IntegerSyntax(std::string_view t) {
  return t.find_first_of(".eE") == std::string_view::npos;
}

// The Java class Jackson (JsonUtils.JSON_OBJECT_MAPPER) reads a JSON value as.
std::string_view JavaClass(const JsonNode& n) {
  using K = JsonNode::Kind;
  switch (n.kind) {
    case K::kNull:
      return "null";
    case K::kBool:
      return "Boolean";
    case K::kString:
      return "String";
    case K::kArray:
      return "ArrayList";
    case K::kObject:
      return "LinkedHashMap";
    case K::kNumber: {
      if (!IntegerSyntax(n.text)) return "Double";
      int64_t v = 0;
      if (!ParseInt64(n.text, v)) return "BigInteger";
      return v >= INT32_MIN && v <= INT32_MAX ? "Integer" : "Long";
    }
  }
  return "?";
}

// Its toString(): numbers as Java prints them, lists [a, b], maps {k=v}.
std::string JavaText(const JsonNode& n) {
  using K = JsonNode::Kind;
  switch (n.kind) {
    case K::kNull:
      return "null";
    case K::kBool:
      return n.boolean ? "true" : "false";
    case K::kString:
      return n.text;
    case K::kNumber: {
      if (IntegerSyntax(n.text)) {
        int64_t v = 0;
        return ParseInt64(n.text, v) ? std::to_string(v) : n.text;
      }
      double d = 0;
      if (!ParseFiniteDouble(n.text, d)) return n.text[0] == '-' ? "-Infinity" : "Infinity";
      return JavaDoubleString(d);
    }
    case K::kArray: {
      std::string out = "[";
      for (size_t i = 0; i < n.items.size(); ++i) out += (i ? ", " : "") + JavaText(n.items[i]);
      return out + "]";
    }
    case K::kObject: {
      std::string out = "{";
      for (size_t i = 0; i < n.members.size(); ++i) {
        out += (i ? ", " : "") + n.members[i].name + "=" + JavaText(n.members[i].value);
      }
      return out + "}";
    }
  }
  return "";
}

// A string where a collection, tuple or user type is expected holds its JSON (Json.decodeJson).
StatusOr<JsonNode> DecodeNested(const JsonNode& n, const SourceLocation& where) {
  if (n.kind != JsonNode::Kind::kString) return n;
  JsonNode array;
  size_t pos = 0;
  std::string error;
  std::string wrapped = "[" + n.text + "]";
  if (!ParseJson(wrapped, pos, array, error) || array.items.size() != 1) {
    return Marshal(fmt::format("Error decoding JSON string: {}",
                               error.empty() ? "trailing characters" : error),
                   where);
  }
  return std::move(array.items[0]);
}

// AbstractType.fromJSONObject of each type, with its MarshalException messages.
StatusOr<Value> ReadJson(const CqlType& type, const JsonNode& given, const SourceLocation& where) {
  using K = JsonNode::Kind;
  if (given.kind == K::kNull) return Value();
  JsonNode decoded;
  const bool structured = type.is_collection() || type.kind == TypeKind::kTuple ||
                          type.kind == TypeKind::kUdt || type.kind == TypeKind::kVector;
  if (structured && given.kind == K::kString) {
    PARTPLAY_ASSIGN_OR_RETURN(decoded, DecodeNested(given, where));
  }
  const JsonNode& n = structured && given.kind == K::kString ? decoded : given;
  const std::string_view cls = JavaClass(n);
  auto expected = [&](std::string_view what) {
    return Marshal(fmt::format("Expected {}, but got a {}: {}", what, cls, JavaText(n)), where);
  };
  auto from_string = [&](std::string_view text) -> StatusOr<Value> {
    PARTPLAY_ASSIGN_OR_RETURN(Bytes b, ValueFromString(type, text, where));
    return Value(std::move(b));
  };
  const bool is_string = n.kind == K::kString;
  const bool is_number = n.kind == K::kNumber;
  switch (type.kind) {
    case TypeKind::kAscii: {
      if (!is_string) return expected("an ascii string");
      for (char c : n.text) {
        if (static_cast<unsigned char>(c) >= 0x80) {
          return Marshal("Invalid ASCII character in string literal: "
                         "java.nio.charset.UnmappableCharacterException: Input length = 1",
                         where);
        }
      }
      return from_string(n.text);
    }
    case TypeKind::kText:
      if (!is_string) return expected("a UTF-8 string");
      return from_string(n.text);
    case TypeKind::kBoolean:
      if (n.kind == K::kBool) return Value(EncodeBoolean(n.boolean));
      if (!is_string) return expected("a boolean value");
      return from_string(n.text);
    case TypeKind::kInt:
      if (is_string || cls == "Integer") return from_string(n.text);
      return expected("an int value");
    case TypeKind::kBigint:
    case TypeKind::kCounter:
      if (is_string || cls == "Integer" || cls == "Long") return from_string(n.text);
      return expected("a bigint value");
    case TypeKind::kSmallint:
    case TypeKind::kTinyint:
      // ShortType / ByteType: any number or string, through its text.
      if (is_string || is_number) return from_string(JavaText(n));
      return expected(type.kind == TypeKind::kSmallint ? "a short value" : "a byte value");
    case TypeKind::kVarint:
    case TypeKind::kDecimal: {
      // new BigInteger(parsed.toString()) / new BigDecimal(parsed.toString()).
      std::string text = JavaText(n);
      StatusOr<Bytes> b = ValueFromString(type, text, where);
      if (!b.ok() || n.kind == K::kArray || n.kind == K::kObject ||
          (type.kind == TypeKind::kVarint && !is_string && cls == "Double")) {
        return Marshal(fmt::format("Value '{}' is not a valid representation of a {} value", text,
                                   type.kind == TypeKind::kVarint ? "varint" : "decimal"),
                       where);
      }
      return Value(std::move(b).value());
    }
    case TypeKind::kFloat:
    case TypeKind::kDouble:
      if (is_string) return from_string(n.text);
      if (is_number) return from_string(JavaText(n));
      return expected(type.kind == TypeKind::kFloat ? "a float value" : "a double value");
    case TypeKind::kBlob: {
      if (!is_string) {
        return Marshal(fmt::format("Value '{}' is not a valid blob representation: class "
                                   "java.lang.{} cannot be cast to class java.lang.String",
                                   JavaText(n), cls),
                       where);
      }
      if (n.text.compare(0, 2, "0x") != 0) {
        return Marshal(fmt::format("Value '{}' is not a valid blob representation: String "
                                   "representation of blob is missing 0x prefix: {}",
                                   n.text, n.text),
                       where);
      }
      StatusOr<Value> v = from_string(n.text);
      if (!v.ok()) {
        return Marshal(fmt::format("Value '{}' is not a valid blob representation: cannot parse "
                                   "'{}' as hex bytes",
                                   n.text, n.text.substr(2)),
                       where);
      }
      return v;
    }
    case TypeKind::kTimestamp: {
      if (cls == "Long") return from_string(n.text);
      if (!is_string) {
        return expected("a long or a datestring representation of a timestamp value");
      }
      StatusOr<Value> v = from_string(n.text);
      if (!v.ok()) {
        return Marshal(fmt::format("Unable to parse a date/time from '{}'", n.text), where);
      }
      return v;
    }
    case TypeKind::kDate:
      if (!is_string) return expected("a string representation of a date value");
      return from_string(n.text);
    case TypeKind::kTime:
      if (!is_string) return expected("a string representation of a time value");
      return from_string(n.text);
    case TypeKind::kUuid:
      if (!is_string) return expected("a string representation of a uuid");
      return from_string(n.text);
    case TypeKind::kTimeuuid:
      if (!is_string) return expected("a string representation of a timeuuid");
      return from_string(n.text);
    case TypeKind::kInet:
      if (!is_string) return expected("a string representation of an inet value");
      return from_string(n.text);
    case TypeKind::kDuration:
      if (!is_string) return expected("a string representation of a duration");
      return from_string(n.text);
    case TypeKind::kTuple: {
      // TupleType.fromJSONObject: an array of the components, in order.
      if (n.kind != K::kArray) return expected("a list representation of a tuple");
      if (n.items.size() != type.params.size()) {
        return Marshal(fmt::format("Tuple {} items (expected {}): {}",
                                   n.items.size() > type.params.size() ? "contains extra"
                                                                       : "is missing",
                                   type.params.size(), JavaText(n)),
                       where);
      }
      std::vector<Value> parts;
      for (size_t i = 0; i < n.items.size(); ++i) {
        PARTPLAY_ASSIGN_OR_RETURN(Value v, ReadJson(type.params[i], n.items[i], where));
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
          return Marshal(fmt::format("Unknown field '{}' in value of user defined type {}", raw,
                                     type.udt_name),
                         where);
        }
        PARTPLAY_ASSIGN_OR_RETURN(parts[f], ReadJson(type.params[f], value, where));
      }
      return Value(EncodeComposite(parts));
    }
    case TypeKind::kVector: {
      // VectorType.fromJSONObject: a list of exactly `dimension` elements, none null.
      if (n.kind != K::kArray) return expected("a list");
      if (n.items.size() != static_cast<size_t>(type.dimension)) {
        return Marshal(fmt::format("List had incorrect size: expected {} but given {}",
                                   type.dimension, n.items.size()),
                       where);
      }
      std::vector<Bytes> items;
      for (const JsonNode& e : n.items) {
        if (e.kind == K::kNull) return Marshal("Invalid null element in list", where);
        PARTPLAY_ASSIGN_OR_RETURN(Value v, ReadJson(type.element(), e, where));
        items.push_back(std::move(*v));
      }
      return Value(EncodeVector(type, items));
    }
    case TypeKind::kList:
    case TypeKind::kSet: {
      bool list = type.kind == TypeKind::kList;
      if (n.kind != K::kArray) return expected(list ? "a list" : "a list (representing a set)");
      std::vector<Bytes> items;
      for (const JsonNode& e : n.items) {
        if (e.kind == K::kNull) {
          return Marshal(list ? "Invalid null element in list" : "Invalid null element in set",
                         where);
        }
        PARTPLAY_ASSIGN_OR_RETURN(Value v, ReadJson(type.element(), e, where));
        items.push_back(std::move(*v));
      }
      return Value(EncodeCollectionOf(type, items));
    }
    case TypeKind::kMap: {
      if (n.kind != K::kObject) return expected("a map");
      std::vector<Bytes> items;
      for (const auto& [key, value] : n.members) {
        if (value.kind == K::kNull) return Marshal("Invalid null value in map", where);
        JsonNode key_node;
        key_node.kind = K::kString;
        key_node.text = key;
        PARTPLAY_ASSIGN_OR_RETURN(Value k, ReadJson(type.element(), key_node, where));
        PARTPLAY_ASSIGN_OR_RETURN(Value v, ReadJson(type.value(), value, where));
        items.push_back(std::move(*k));
        items.push_back(std::move(*v));
      }
      return Value(EncodeCollectionOf(type, items));
    }
  }
  return Value();
}

}  // namespace

StatusOr<Value> JsonToValue(const CqlType& type, const JsonNode& n, std::string_view receiver,
                            const SourceLocation& where) {
  StatusOr<Value> v = ReadJson(type, n, where);
  if (v.ok()) return v;
  return Status(v.status().code(),
                fmt::format("Error decoding JSON value for {}: {}", receiver, v.status().message()),
                where);
}

StatusOr<Value> FromJsonCall(const CqlType& type, const Literal& call, std::string_view receiver) {
  if (call.elements.size() != 1) {
    return Invalid(fmt::format("Invalid number of arguments in call to function system.fromjson: "
                               "1 required but {} provided",
                               call.elements.size()),
                   call.where);
  }
  const Literal& arg = call.elements[0];
  if (arg.kind == LiteralKind::kNull) return Value();
  if (arg.kind == LiteralKind::kFunction && arg.text == "tojson") {
    return Invalid("toJson() may only be used within the selection clause of SELECT statements",
                   arg.where);
  }
  if (arg.kind != LiteralKind::kString) {
    return Invalid(fmt::format("Type error: {} cannot be passed as argument 0 of function "
                               "system.fromjson of type text",
                               arg.Describe()),
                   arg.where);
  }
  constexpr std::string_view kFailed = "execution of 'system.fromjson[text]' failed: ";
  // Read as the one element of an array: a bare scalar (fromJson('123')) is a whole document.
  JsonNode array;
  size_t pos = 0;
  std::string error;
  std::string wrapped = "[" + arg.text + "]";
  bool parsed = ParseJson(wrapped, pos, array, error) && pos == wrapped.size();
  if (parsed && array.items.size() != 1) {
    parsed = false;
    error = array.items.empty() ? "unexpected end of JSON" : "trailing characters";
  }
  JsonNode node = parsed ? array.items[0] : JsonNode();
  if (!parsed) {
    return Status(ErrorCode::kCqlInvalidRequest,
                  fmt::format("{}Could not decode JSON string '{}': {}", kFailed, arg.text,
                              error.empty() ? "trailing characters" : error),
                  arg.where);
  }
  (void)receiver;
  StatusOr<Value> v = ReadJson(type, node, arg.where);
  if (v.ok()) return v;
  // A MarshalException from fromJSONObject (FunctionExecutionException.create).
  std::string message = v.status().message();
  return Status(ErrorCode::kCqlInvalidRequest,
                fmt::format("{}org.apache.cassandra.serializers.MarshalException: {}", kFailed,
                            message),
                arg.where);
}

// Column values of one INSERT: columns (indexes) and their values.

StatusOr<InsertValues> JsonInsertValues(const TableSchema& t, const JsonNode& object,
                                        bool default_unset, const SourceLocation& where) {
  if (object.kind == JsonNode::Kind::kNull) return Invalid("Got null for INSERT JSON values", where);
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
