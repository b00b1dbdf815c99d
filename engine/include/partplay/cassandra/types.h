// CQL column types: the native types Cassandra 4 offers for table columns (duration and counter
// included), the collections list<T>, set<T>, map<K, V>, tuples tuple<A, B, ...> and user-defined
// types (CREATE TYPE), each optionally frozen<...>. A type knows its CQL spelling; values of a
// type are handled in value.h. A user-defined type named in a statement is first a reference
// (kind kUdt, no fields); the session resolves it against its keyspace's types.
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
  kTuple,     // params: the component types (always frozen, as in Cassandra)
  kUdt,       // udt_keyspace.udt_name; params: the field types, field_names: their names
  kDuration,  // months, days, nanoseconds as three zig-zag vints
  kCounter,   // a 64-bit count, serialized as a bigint
  kVector,    // Cassandra 5.0 vector<element, dimension>; params: {element}, always frozen
};

struct CqlType {
  TypeKind kind = TypeKind::kInt;
  bool frozen = false;
  std::vector<CqlType> params;  // list/set: {element}; map: {key, value}; tuple, udt: fields
  std::string udt_keyspace;     // kUdt: empty until resolved (or when written unqualified)
  std::string udt_name;
  std::vector<std::string> field_names;  // kUdt, resolved: one per param
  int32_t dimension = 0;                 // kVector: the number of elements (> 0)

  static CqlType Native(TypeKind kind) {
    CqlType t;
    t.kind = kind;
    return t;
  }
  static CqlType List(CqlType element, bool frozen = false);
  static CqlType Set(CqlType element, bool frozen = false);
  static CqlType Map(CqlType key, CqlType value, bool frozen = false);
  static CqlType Tuple(std::vector<CqlType> components);
  // vector<element, dimension>: the element is frozen (as VectorType.getInstance freezes it).
  static CqlType Vector(CqlType element, int32_t dimension);

  bool is_collection() const {
    return kind == TypeKind::kList || kind == TypeKind::kSet || kind == TypeKind::kMap;
  }
  // A collection or user-defined type that is not frozen (cannot be part of a primary key).
  bool is_multi_cell() const { return (is_collection() || kind == TypeKind::kUdt) && !frozen; }
  // Tuples and user-defined types: values are their fields, each length-prefixed.
  bool is_composite() const { return kind == TypeKind::kTuple || kind == TypeKind::kUdt; }
  bool is_vector() const { return kind == TypeKind::kVector; }
  // Whether the type is, or holds anywhere inside it, `kind` (duration, counter).
  bool References(TypeKind kind) const;
  const CqlType& element() const { return params[0]; }  // list/set element, map key
  const CqlType& value() const { return params[1]; }    // map value

  // Cassandra's spelling: "text", "list<int>", "frozen<map<text, int>>".
  std::string ToCql() const;

  friend bool operator==(const CqlType& a, const CqlType& b) {
    return a.kind == b.kind && a.frozen == b.frozen && a.params == b.params &&
           a.udt_keyspace == b.udt_keyspace && a.udt_name == b.udt_name &&
           a.field_names == b.field_names && a.dimension == b.dimension;
  }
};

// The native type named `name` (lower-case; "varchar" is text), or nullopt.
std::optional<TypeKind> NativeTypeKind(std::string_view name);
std::string_view NativeTypeName(TypeKind kind);

// Whether values of the type have a fixed serialized size (int: 4, counter: 8 ...), and that
// size; 0 if not.
int FixedSize(TypeKind kind);

// The size of one element of a vector<kind, n> when Cassandra serializes that element type with
// a fixed length (AbstractType.valueLengthIfFixed: int, bigint, float, double, boolean, uuid,
// timeuuid, timestamp), elements then concatenated with no length; 0 for any other element type,
// whose elements are each preceded by their length as an unsigned vint. Not FixedSize: smallint,
// tinyint, date and time have a fixed size but Cassandra does not declare it.
int64_t VectorElementFixedSize(const CqlType& element);

}  // namespace partplay::cql
