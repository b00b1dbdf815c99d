#include "partplay/cassandra/types.h"

#include "partplay/cassandra/schema.h"

namespace partplay::cql {
namespace {

struct NamedKind {
  std::string_view name;
  TypeKind kind;
};

constexpr NamedKind kNativeTypes[] = {
    {"ascii", TypeKind::kAscii},       {"bigint", TypeKind::kBigint},
    {"blob", TypeKind::kBlob},         {"boolean", TypeKind::kBoolean},
    {"date", TypeKind::kDate},         {"decimal", TypeKind::kDecimal},
    {"double", TypeKind::kDouble},     {"float", TypeKind::kFloat},
    {"inet", TypeKind::kInet},         {"int", TypeKind::kInt},
    {"smallint", TypeKind::kSmallint}, {"text", TypeKind::kText},
    {"time", TypeKind::kTime},         {"timestamp", TypeKind::kTimestamp},
    {"timeuuid", TypeKind::kTimeuuid}, {"tinyint", TypeKind::kTinyint},
    {"uuid", TypeKind::kUuid},         {"varint", TypeKind::kVarint},
    {"varchar", TypeKind::kText},      {"duration", TypeKind::kDuration},
    {"counter", TypeKind::kCounter},
};

}  // namespace

CqlType CqlType::List(CqlType element, bool frozen) {
  CqlType t = Native(TypeKind::kList);
  t.frozen = frozen;
  t.params.push_back(std::move(element));
  return t;
}
CqlType CqlType::Set(CqlType element, bool frozen) {
  CqlType t = Native(TypeKind::kSet);
  t.frozen = frozen;
  t.params.push_back(std::move(element));
  return t;
}
CqlType CqlType::Map(CqlType key, CqlType value, bool frozen) {
  CqlType t = Native(TypeKind::kMap);
  t.frozen = frozen;
  t.params.push_back(std::move(key));
  t.params.push_back(std::move(value));
  return t;
}

CqlType CqlType::Tuple(std::vector<CqlType> components) {
  CqlType t = Native(TypeKind::kTuple);
  t.frozen = true;
  t.params = std::move(components);
  return t;
}

CqlType CqlType::Vector(CqlType element, int32_t dimension) {
  CqlType t = Native(TypeKind::kVector);
  t.frozen = true;
  if (element.is_multi_cell()) element.frozen = true;
  t.params.push_back(std::move(element));
  t.dimension = dimension;
  return t;
}

bool CqlType::References(TypeKind k) const {
  if (kind == k) return true;
  for (const CqlType& p : params) {
    if (p.References(k)) return true;
  }
  return false;
}

std::optional<TypeKind> NativeTypeKind(std::string_view name) {
  for (const NamedKind& n : kNativeTypes) {
    if (n.name == name) return n.kind;
  }
  return std::nullopt;
}

std::string_view NativeTypeName(TypeKind kind) {
  switch (kind) {
    case TypeKind::kList:
      return "list";
    case TypeKind::kSet:
      return "set";
    case TypeKind::kMap:
      return "map";
    case TypeKind::kTuple:
      return "tuple";
    case TypeKind::kVector:
      return "vector";
    default:
      break;
  }
  for (const NamedKind& n : kNativeTypes) {
    if (n.kind == kind) return n.name;
  }
  return "?";
}

int FixedSize(TypeKind kind) {
  switch (kind) {
    case TypeKind::kBoolean:
    case TypeKind::kTinyint:
      return 1;
    case TypeKind::kSmallint:
      return 2;
    case TypeKind::kInt:
    case TypeKind::kFloat:
    case TypeKind::kDate:
      return 4;
    case TypeKind::kBigint:
    case TypeKind::kCounter:
    case TypeKind::kDouble:
    case TypeKind::kTime:
    case TypeKind::kTimestamp:
      return 8;
    case TypeKind::kUuid:
    case TypeKind::kTimeuuid:
      return 16;
    default:
      return 0;
  }
}

int64_t VectorElementFixedSize(const CqlType& element) {
  switch (element.kind) {
    case TypeKind::kBoolean:
      return 1;
    case TypeKind::kInt:
    case TypeKind::kFloat:
      return 4;
    case TypeKind::kBigint:
    case TypeKind::kDouble:
    case TypeKind::kTimestamp:
      return 8;
    case TypeKind::kUuid:
    case TypeKind::kTimeuuid:
      return 16;
    case TypeKind::kVector: {
      int64_t inner = VectorElementFixedSize(element.element());
      if (inner <= 0 || element.dimension <= 0) return 0;
      if (inner > (int64_t{1} << 40) / element.dimension) return 0;  // beyond any real value
      return inner * element.dimension;
    }
    default:
      return 0;
  }
}

std::string CqlType::ToCql() const {
  std::string inner;
  switch (kind) {
    case TypeKind::kList:
    case TypeKind::kSet:
      inner = std::string(NativeTypeName(kind)) + "<" + params[0].ToCql() + ">";
      break;
    case TypeKind::kMap:
      inner = "map<" + params[0].ToCql() + ", " + params[1].ToCql() + ">";
      break;
    case TypeKind::kTuple: {
      inner = "tuple<";
      for (size_t i = 0; i < params.size(); ++i) inner += (i ? ", " : "") + params[i].ToCql();
      inner += ">";
      break;
    }
    case TypeKind::kUdt:
      // A user type named like a native type (or `frozen`) is quoted, so it reads back as itself.
      inner = NativeTypeKind(udt_name) || udt_name == "frozen" ? QuotedName(udt_name)
                                                               : QuoteName(udt_name);
      break;
    case TypeKind::kVector:  // implicitly frozen: Cassandra never prints frozen<vector<...>>
      return "vector<" + params[0].ToCql() + ", " + std::to_string(dimension) + ">";
    default:
      return std::string(NativeTypeName(kind));
  }
  return frozen ? "frozen<" + inner + ">" : inner;
}

}  // namespace partplay::cql
