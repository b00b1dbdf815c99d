// CQL column types: the native types Cassandra 4 offers for table columns (counter and duration
// aside) and the collections list<T>, set<T>, map<K, V>, each optionally frozen<...>. A type knows
// its CQL spelling; values of a type are handled in value.h.
//
//   CqlType t = CqlType::List(CqlType::Native(TypeKind::kText));   // list<text>
//   t.ToCql();                                                      // "list<text>"
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace partplay::cql {

enum class TypeKind : uint8_t {
  kAscii,
  kBigint,
  kBlob,
  kBoolean,
  kDate,
  kDecimal,
  kDouble,
  kFloat,
  kInet,
  kInt,
  kSmallint,
  kText,  // also spelled varchar
  kTime,
  kTimestamp,
  kTimeuuid,
  kTinyint,
  kUuid,
  kVarint,
  kList,
  kSet,
  kMap,
};

struct CqlType {
  TypeKind kind = TypeKind::kInt;
  bool frozen = false;
  std::vector<CqlType> params;  // list/set: {element}; map: {key, value}

  static CqlType Native(TypeKind kind) { return CqlType{kind, false, {}}; }
  static CqlType List(CqlType element, bool frozen = false);
  static CqlType Set(CqlType element, bool frozen = false);
  static CqlType Map(CqlType key, CqlType value, bool frozen = false);

  bool is_collection() const {
    return kind == TypeKind::kList || kind == TypeKind::kSet || kind == TypeKind::kMap;
  }
  // A collection that is not frozen (cannot be part of a primary key).
  bool is_multi_cell() const { return is_collection() && !frozen; }
  const CqlType& element() const { return params[0]; }  // list/set element, map key
  const CqlType& value() const { return params[1]; }    // map value

  // Cassandra's spelling: "text", "list<int>", "frozen<map<text, int>>".
  std::string ToCql() const;

  friend bool operator==(const CqlType& a, const CqlType& b) {
    return a.kind == b.kind && a.frozen == b.frozen && a.params == b.params;
  }
};

// The native type named `name` (lower-case; "varchar" is text), or nullopt.
std::optional<TypeKind> NativeTypeKind(std::string_view name);
std::string_view NativeTypeName(TypeKind kind);

// Whether values of the type have a fixed serialized size (int: 4 ...), and that size; 0 if not.
int FixedSize(TypeKind kind);

}  // namespace partplay::cql
