// Internal: the JSON shape of CQL's structured values, shared by partplay's result JSON
// (AppendJson, value.h) and Cassandra's toJSONString (json_out.h), which differ only in their
// scalars and field names: tuples, vectors, lists and sets as arrays, user types as objects by
// field, maps as objects whose keys are the keys' JSON, quoted when not already a string.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "partplay/cassandra/types.h"
#include "partplay/cassandra/value.h"
#include "partplay/core/json_writer.h"

namespace partplay::cql::internal {

// Appends the value if its type is structured (true), else nothing (false). `element(type,
// value, out)` writes a component (a null one too); `field(name, out)` a user type's key.
template <typename Element, typename Field>
bool AppendStructuredJson(const CqlType& type, std::string_view b, std::string& out,
                          Element element, Field field) {
  switch (type.kind) {
    case TypeKind::kTuple:
    case TypeKind::kUdt: {
      std::vector<Value> parts;
      CompositeComponents(b, parts);
      bool udt = type.kind == TypeKind::kUdt;
      out += udt ? '{' : '[';
      for (size_t i = 0; i < type.params.size(); ++i) {
        if (i > 0) out += ", ";
        if (udt) {
          field(type.field_names[i], out);
          out += ": ";
        }
        element(type.params[i], i < parts.size() ? parts[i] : Value(), out);
      }
      out += udt ? '}' : ']';
      return true;
    }
    case TypeKind::kVector:
    case TypeKind::kList:
    case TypeKind::kSet: {
      std::vector<std::string_view> e;
      if (type.kind == TypeKind::kVector) {
        VectorElements(type, b, e);
      } else {
        e = CollectionElements(b);
      }
      out += '[';
      for (size_t i = 0; i < e.size(); ++i) {
        if (i > 0) out += ", ";
        element(type.element(), Value(Bytes(e[i])), out);
      }
      out += ']';
      return true;
    }
    case TypeKind::kMap: {
      std::vector<std::string_view> e = CollectionElements(b);
      out += '{';
      for (size_t i = 0; i + 1 < e.size(); i += 2) {
        if (i > 0) out += ", ";
        std::string key;
        element(type.element(), Value(Bytes(e[i])), key);
        if (!key.empty() && key[0] == '"') {
          out += key;
        } else {
          AppendJsonString(key, out);
        }
        out += ": ";
        element(type.value(), Value(Bytes(e[i + 1])), out);
      }
      out += '}';
      return true;
    }
    default:
      return false;
  }
}

}  // namespace partplay::cql::internal
