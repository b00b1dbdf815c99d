// INSERT, UPDATE and DELETE against a table (modify.h): the key and clustering checks, TTL and
// timestamps, collection operations, conditional statements' [applied] rows. The values of
// INSERT ... JSON are read by json_values.cpp.
#include "partplay/cassandra/modify.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "cassandra/json_doc.h"
#include "cassandra/json_values.h"
#include "cassandra/restrictions.h"
#include "partplay/core/limits.h"

namespace partplay::cql {
namespace {

using internal::ColumnRestriction;
using internal::InsertValues;
using internal::JsonInsertValues;
using internal::JsonNode;
using internal::JsonToValue;
using internal::Restrictions;

constexpr int64_t kMaxTtl = kCassandraMaxTtlSeconds;  // core/limits.h

Status Invalid(std::string message, const SourceLocation& where) {
  return Status(ErrorCode::kCqlInvalidRequest, std::move(message), where);
}

StatusOr<int32_t> Ttl(const UsingClause& u, const TableSchema& t, ValueGenerator& gen) {
  if (!u.ttl) return static_cast<int32_t>(t.default_ttl);
  PARTPLAY_ASSIGN_OR_RETURN(Value v,
                            LiteralToValue(CqlType::Native(TypeKind::kInt), *u.ttl, "[ttl]", gen));
  if (!v) return Invalid("Invalid null value of TTL", u.ttl->where);
  int64_t ttl = DecodeSigned(*v);
  if (ttl < 0) {
    return Invalid(fmt::format("A TTL must be greater or equal to 0, but was {}", ttl),
                   u.ttl->where);
  }
  if (ttl > kMaxTtl) {
    return Invalid(fmt::format("ttl is too large. requested ({}) maximum ({})", ttl, kMaxTtl),
                   u.ttl->where);
  }
  return static_cast<int32_t>(ttl);
}

Status CheckTimestamp(const UsingClause& u, ValueGenerator& gen) {
  if (!u.timestamp) return Status::Ok();
  StatusOr<Value> v =
      LiteralToValue(CqlType::Native(TypeKind::kBigint), *u.timestamp, "[timestamp]", gen);
  return v.ok() ? Status::Ok() : v.status();
}

std::string JoinNames(const TableSchema& t, const std::vector<int>& columns) {
  std::string out;
  for (size_t i = 0; i < columns.size(); ++i) {
    out += (i ? ", " : "") + t.columns[static_cast<size_t>(columns[i])].name;
  }
  return out;
}

Status CheckKeyNotEmpty(const std::vector<Bytes>& key, const SourceLocation& where) {
  if (key.size() == 1 && key[0].empty()) return Invalid("Key may not be empty", where);
  return Status::Ok();
}

// The [applied] row of a conditional statement: [applied], then the existing row when not applied.
ResultSet Applied(bool applied, const TableSchema& t, const Partition* p, const Clustering* c,
                  const Row* row) {
  ResultSet rs;
  rs.columns.push_back("[applied]");
  rs.types.push_back(CqlType::Native(TypeKind::kBoolean));
  std::vector<Value> values{EncodeBoolean(applied)};
  if (!applied && p != nullptr) {
    for (int i : t.select_order) {
      const ColumnSpec& spec = t.columns[static_cast<size_t>(i)];
      size_t pos = static_cast<size_t>(spec.position);
      rs.columns.push_back(spec.name);
      rs.types.push_back(spec.type);
      switch (spec.kind) {
        case ColumnKind::kPartitionKey:
          values.push_back(p->key[pos]);
          break;
        case ColumnKind::kClustering:
          values.push_back(c ? Value((*c)[pos]) : Value());
          break;
        case ColumnKind::kStatic:
          values.push_back(p->statics[pos]);
          break;
        case ColumnKind::kRegular:
          values.push_back(row ? row->cells[pos] : Value());
          break;
      }
    }
  }
  rs.rows.push_back(std::move(values));
  rs.row_partition.push_back(-1);
  return rs;
}

// An empty non-frozen collection is no value at all.
Value Normalize(const CqlType& type, Value v) {
  if (v && type.is_collection() && !type.frozen && CollectionElements(*v).empty()) return Value();
  if (v && type.kind == TypeKind::kUdt && !type.frozen) {
    // A non-frozen user type is one cell per field: with every field null, nothing is left.
    std::vector<Value> fields;
    if (CompositeComponents(*v, fields) &&
        std::none_of(fields.begin(), fields.end(), [](const Value& f) { return f.has_value(); })) {
      return Value();
    }
  }
  return v;
}

StatusOr<std::optional<ResultSet>> Insert(Table& table, const InsertValues& in, bool if_not_exists,
                                          int32_t ttl, const SourceLocation& where) {
  const TableSchema& t = table.schema();
  std::vector<Bytes> key(t.partition_key.size());
  Clustering clustering(t.clustering.size());
  std::vector<bool> have_key(t.partition_key.size()), have_clustering(t.clustering.size());
  std::vector<int> regular_cols, static_cols;
  std::vector<Value> regular_vals, static_vals;
  for (size_t i = 0; i < in.columns.size(); ++i) {
    const ColumnSpec& c = t.columns[static_cast<size_t>(in.columns[i])];
    size_t pos = static_cast<size_t>(c.position);
    const Value& v = in.values[i];
    if (c.is_primary_key()) {
      if (!v) {
        return Invalid(fmt::format("Invalid null value in condition for column {}", c.name),
                       in.where[i]);
      }
      if (c.kind == ColumnKind::kPartitionKey) {
        key[pos] = *v;
        have_key[pos] = true;
      } else {
        clustering[pos] = *v;
        have_clustering[pos] = true;
      }
    } else if (c.kind == ColumnKind::kStatic) {
      static_cols.push_back(in.columns[i]);
      static_vals.push_back(Normalize(c.type, v));
    } else {
      regular_cols.push_back(in.columns[i]);
      regular_vals.push_back(Normalize(c.type, v));
    }
  }
  std::vector<int> missing;
  for (size_t i = 0; i < key.size(); ++i) {
    if (!have_key[i]) missing.push_back(t.partition_key[i]);
  }
  if (!missing.empty()) {
    return Invalid(fmt::format("Some partition key parts are missing: {}", JoinNames(t, missing)),
                   where);
  }
  for (size_t i = 0; i < clustering.size(); ++i) {
    if (!have_clustering[i]) missing.push_back(t.clustering[i]);
  }
  // Only static columns (besides the partition key): the clustering columns may be left out.
  bool statics_only =
      regular_cols.empty() && !static_cols.empty() && missing.size() == clustering.size();
  if (!missing.empty() && !statics_only) {
    return Invalid(fmt::format("Some clustering keys are missing: {}", JoinNames(t, missing)),
                   where);
  }
  PARTPLAY_RETURN_IF_ERROR(CheckKeyNotEmpty(key, where));
  PartitionKey pk = Table::KeyOf(key);
  if (if_not_exists) {
    const Partition* existing = table.Find(pk);
    if (existing != nullptr) {
      if (statics_only && existing->has_static()) {
        return std::optional<ResultSet>(Applied(false, t, existing, nullptr, nullptr));
      }
      if (!statics_only) {
        auto it = existing->rows.find(clustering);
        if (it != existing->rows.end()) {
          return std::optional<ResultSet>(Applied(false, t, existing, &it->first, &it->second));
        }
      }
    }
  }
  Partition& p = table.Upsert(key);
  if (!static_cols.empty()) table.WriteStatics(p, static_cols, static_vals);
  if (!statics_only) table.WriteRow(p, clustering, regular_cols, regular_vals, true, ttl);
  table.DropIfDead(pk);
  if (if_not_exists) return std::optional<ResultSet>(Applied(true, t, nullptr, nullptr, nullptr));
  return std::optional<ResultSet>();
}

// --- collection operations (UPDATE)
// ----------------------------------------------------------------

std::vector<Bytes> Elements(const Value& v) {
  std::vector<Bytes> out;
  if (!v) return out;
  for (std::string_view e : CollectionElements(*v)) out.emplace_back(e);
  return out;
}

StatusOr<Value> ApplyAssignment(const ColumnSpec& c, const Assignment& a, const Value& old,
                                ValueGenerator& gen) {
  const CqlType& type = c.type;
  using Op = Assignment::Op;
  if (type.kind == TypeKind::kCounter) {
    // Counters are only incremented or decremented (Operation.Addition/Substraction on a
    // CounterColumnType), wrapping as Java's long does.
    if (a.op == Op::kSet) {
      return Invalid(fmt::format("Cannot set the value of counter column {} (counters can only be "
                                 "incremented/decremented, not set)",
                                 c.name),
                     a.value.where);
    }
    if (a.op != Op::kAppend && a.op != Op::kRemove) {
      return Invalid(fmt::format("Invalid operation ({} = {} + {}) for non list column {}", c.name,
                                 a.value.Describe(), c.name, c.name),
                     a.value.where);
    }
    PARTPLAY_ASSIGN_OR_RETURN(Value v, LiteralToValue(type, a.value, c.name, gen));
    if (!v) return Invalid("Invalid null value for counter increment", a.value.where);
    uint64_t now = old ? static_cast<uint64_t>(DecodeSigned(*old)) : 0;
    uint64_t delta = static_cast<uint64_t>(DecodeSigned(*v));
    uint64_t next = a.op == Op::kAppend ? now + delta : now - delta;
    return Value(EncodeInt64(static_cast<int64_t>(next)));
  }
  if (a.op == Op::kSet) {
    PARTPLAY_ASSIGN_OR_RETURN(Value v, LiteralToValue(type, a.value, c.name, gen));
    return Normalize(type, std::move(v));
  }
  if (!type.is_collection()) {
    std::string_view sign = a.op == Op::kRemove ? "-" : "+";
    return Invalid(fmt::format("Invalid operation ({} = {} {} {}) for non counter column {}",
                               c.name, c.name, sign, a.value.Describe(), c.name),
                   a.value.where);
  }
  if (!type.is_multi_cell() && a.op == Op::kSetElement) {
    auto cql = [](const Literal& l) {
      if (l.kind != LiteralKind::kString) return l.Describe();
      std::string out = "'";
      for (char ch : l.text) out += ch == '\'' ? std::string("''") : std::string(1, ch);
      return out + "'";
    };
    return Invalid(fmt::format("Invalid operation ({}[{}] = {}) for frozen collection column {}",
                               c.name, cql(a.element), cql(a.value), c.name),
                   a.element.where);
  }
  if (!type.is_multi_cell()) {
    return Invalid(fmt::format("Invalid operation ({} = {} + ...) for frozen collection column {}",
                               c.name, c.name, c.name),
                   a.value.where);
  }
  std::vector<Bytes> current = Elements(old);
  if (a.op == Op::kSetElement) {
    if (type.kind == TypeKind::kSet) {
      return Invalid(fmt::format("Invalid operation ({}[{}] = {}) for set column {}", c.name,
                                 a.element.Describe(), a.value.Describe(), c.name),
                     a.element.where);
    }
    if (type.kind == TypeKind::kMap) {
      PARTPLAY_ASSIGN_OR_RETURN(
          Value k, LiteralToValue(type.element(), a.element, fmt::format("key({})", c.name), gen));
      if (!k) return Invalid("Invalid null value for map key", a.element.where);
      PARTPLAY_ASSIGN_OR_RETURN(
          Value v, LiteralToValue(type.value(), a.value, fmt::format("value({})", c.name), gen));
      std::vector<Bytes> next;
      for (size_t i = 0; i + 1 < current.size(); i += 2) {
        if (Compare(type.element(), current[i], *k) == 0) continue;
        next.push_back(current[i]);
        next.push_back(current[i + 1]);
      }
      if (v) {
        next.push_back(*k);
        next.push_back(*v);
      }
      return Normalize(type, Value(EncodeCollectionOf(type, next)));
    }
    PARTPLAY_ASSIGN_OR_RETURN(Value idx, LiteralToValue(CqlType::Native(TypeKind::kInt), a.element,
                                                        fmt::format("idx({})", c.name), gen));
    if (!idx) return Invalid("Invalid null value for list index", a.element.where);
    int64_t i = DecodeSigned(*idx);
    if (i < 0 || static_cast<size_t>(i) >= current.size()) {
      return Invalid(fmt::format("List index {} out of bound, list has size {}", i, current.size()),
                     a.element.where);
    }
    PARTPLAY_ASSIGN_OR_RETURN(
        Value v, LiteralToValue(type.element(), a.value, fmt::format("value({})", c.name), gen));
    if (v) {
      current[static_cast<size_t>(i)] = *v;
    } else {
      current.erase(current.begin() + i);
    }
    return Normalize(type, Value(EncodeCollection(current, current.size())));
  }
  // +, - : the operand is a collection literal (for map removal, a set of keys).
  CqlType operand = type;
  if (type.kind == TypeKind::kMap && a.op == Op::kRemove) operand = CqlType::Set(type.element());
  PARTPLAY_ASSIGN_OR_RETURN(Value v, LiteralToValue(operand, a.value, c.name, gen));
  std::vector<Bytes> items = Elements(v);
  std::vector<Bytes> next;
  if (a.op == Op::kRemove) {
    size_t stride = type.kind == TypeKind::kMap ? 2 : 1;
    const CqlType& key_type = type.element();
    for (size_t i = 0; i + stride <= current.size(); i += stride) {
      bool drop = false;
      for (const Bytes& x : items) drop = drop || Compare(key_type, current[i], x) == 0;
      if (drop) continue;
      for (size_t j = 0; j < stride; ++j) next.push_back(current[i + j]);
    }
  } else if (a.op == Op::kPrepend) {
    if (type.kind != TypeKind::kList) {
      return Invalid(fmt::format("Invalid operation ({} = {} + {}) for non list column {}", c.name,
                                 a.value.Describe(), c.name, c.name),
                     a.value.where);
    }
    next = items;
    next.insert(next.end(), current.begin(), current.end());
  } else {
    next = current;
    next.insert(next.end(), items.begin(), items.end());
  }
  return Normalize(type, Value(EncodeCollectionOf(type, next)));
}

// DELETE c[element] as the assignment with the same effect (Operation.ElementDeletion): a map's
// key or a set's element removed (c = c - {element}), a list's index dropped.
StatusOr<Value> DeleteElement(const ColumnSpec& c, const Literal& element, const Value& old,
                              ValueGenerator& gen) {
  if (!c.type.is_collection()) {
    return Invalid(fmt::format("Invalid deletion operation for non collection column {}", c.name),
                   element.where);
  }
  if (!c.type.is_multi_cell()) {
    return Invalid(
        fmt::format("Invalid deletion operation for frozen collection column {}", c.name),
        element.where);
  }
  Assignment a;
  a.column.text = c.name;
  if (c.type.kind == TypeKind::kList) {
    if (element.kind == LiteralKind::kNull) {
      return Invalid("Invalid null value for list index", element.where);
    }
    if (!old) {
      return Invalid("Attempted to delete an element from a list which is null", element.where);
    }
    a.op = Assignment::Op::kSetElement;
    a.element = element;
    a.value.kind = LiteralKind::kNull;
    a.value.where = element.where;
  } else {
    if (element.kind == LiteralKind::kNull) {
      return Invalid(
          c.type.kind == TypeKind::kMap ? "Invalid null map key" : "Invalid null set element",
          element.where);
    }
    a.op = Assignment::Op::kRemove;
    a.value.kind = LiteralKind::kSet;
    a.value.elements.push_back(element);
    a.value.where = element.where;
  }
  return ApplyAssignment(c, a, old, gen);
}

// Cartesian product of the = / IN values of clustering columns (all of them restricted).
std::vector<Clustering> ClusteringKeys(const Restrictions& r) {
  std::vector<Clustering> keys(1);
  for (const ColumnRestriction& c : r.clustering) {
    if (c.column < 0) return {};
    std::vector<Clustering> next;
    for (const Clustering& prefix : keys) {
      for (const Bytes& v : c.values) {
        next.push_back(prefix);
        next.back().push_back(v);
      }
    }
    keys = std::move(next);
  }
  return keys;
}

bool FullClusteringEqIn(const Restrictions& r) {
  for (const ColumnRestriction& c : r.clustering) {
    if (c.column < 0 || !c.is_eq_or_in()) return false;
  }
  return true;
}

// --- IF conditions (UPDATE, DELETE): Cassandra's ColumnCondition, bound to values.
struct BoundCondition {
  int column = -1;
  const ColumnSpec* spec = nullptr;
  Operator op = Operator::kEq;  // IN is checked as = against each value
  bool in = false;
  enum class Target : uint8_t { kColumn, kElement, kField } target = Target::kColumn;
  Value element;        // kElement: the list index (int) or the map key
  size_t field = 0;     // kField
  CqlType value_type;   // what the values are compared as
  std::vector<Value> values;
};

// ModificationStatement.Parsed.prepareConditions and ColumnCondition.Raw.prepare.
StatusOr<std::vector<BoundCondition>> BindConditions(const TableSchema& t,
                                                     const std::vector<Condition>& conditions,
                                                     const UsingClause& using_clause,
                                                     ValueGenerator& gen) {
  std::vector<BoundCondition> out;
  if (conditions.empty()) return out;
  if (using_clause.timestamp) {
    return Invalid("Cannot provide custom timestamp for conditional updates",
                   using_clause.timestamp->where);
  }
  for (const Condition& c : conditions) {
    int index = t.IndexOf(c.column.text);
    if (index < 0) {
      return Status(ErrorCode::kCqlUnknown, "Undefined column name " + c.column.text,
                    c.column.where);
    }
    const ColumnSpec& spec = t.columns[static_cast<size_t>(index)];
    BoundCondition b;
    b.column = index;
    b.spec = &spec;
    b.in = c.op == Operator::kIn;
    b.op = b.in ? Operator::kEq : c.op;
    const CqlType& type = spec.type;
    if (type.kind == TypeKind::kCounter) {
      return Invalid("Conditions on counters are not supported", c.where);
    }
    std::string receiver = spec.name;
    b.value_type = type;
    if (c.element) {
      if (!type.is_collection()) {
        return Invalid(fmt::format("Invalid element access syntax for non-collection column {}",
                                   spec.name),
                       c.element->where);
      }
      if (type.kind == TypeKind::kSet) {
        return Invalid(fmt::format("Invalid element access syntax for set column {}", spec.name),
                       c.element->where);
      }
      b.target = BoundCondition::Target::kElement;
      if (type.kind == TypeKind::kList) {
        PARTPLAY_ASSIGN_OR_RETURN(b.element,
                                  LiteralToValue(CqlType::Native(TypeKind::kInt), *c.element,
                                                 fmt::format("idx({})", spec.name), gen));
        b.value_type = type.element();
      } else {
        PARTPLAY_ASSIGN_OR_RETURN(b.element, LiteralToValue(type.element(), *c.element,
                                                             fmt::format("key({})", spec.name),
                                                             gen));
        b.value_type = type.value();
      }
      receiver = fmt::format("value({})", spec.name);
    } else if (c.field) {
      if (type.kind != TypeKind::kUdt) {
        return Invalid(fmt::format("Invalid field selection: {} of type {} is not a user type",
                                   spec.name, type.ToCql()),
                       c.field->where);
      }
      size_t f = 0;
      while (f < type.field_names.size() && type.field_names[f] != c.field->text) ++f;
      if (f == type.field_names.size()) {
        return Invalid(fmt::format("Unknown field {} for column {}", c.field->text, spec.name),
                       c.field->where);
      }
      b.target = BoundCondition::Target::kField;
      b.field = f;
      b.value_type = type.params[f];
      receiver = spec.name + "." + c.field->text;
    }
    if (b.value_type.References(TypeKind::kDuration) && IsSlice(c.op)) {
      const CqlType& v = b.value_type;
      if (v.is_collection()) {
        return Invalid("Slice conditions are not supported on collections containing durations",
                       c.where);
      }
      if (v.kind == TypeKind::kTuple) {
        return Invalid("Slice conditions are not supported on tuples containing durations", c.where);
      }
      if (v.kind == TypeKind::kUdt) {
        return Invalid("Slice conditions are not supported on UDTs containing durations", c.where);
      }
      return Invalid(fmt::format("Slice conditions ( {} ) are not supported on durations",
                                 OperatorText(c.op)),
                     c.where);
    }
    CqlType literal_type = b.value_type;
    if (c.op == Operator::kContainsKey) {
      if (b.value_type.kind != TypeKind::kMap) {
        return Invalid(fmt::format("Cannot use CONTAINS KEY on non-map column {}", spec.name),
                       c.where);
      }
      literal_type = b.value_type.element();
      receiver = fmt::format("key({})", spec.name);
    } else if (c.op == Operator::kContains) {
      if (!b.value_type.is_collection()) {
        return Invalid(fmt::format("Cannot use CONTAINS on non-collection column {}", spec.name),
                       c.where);
      }
      literal_type = b.value_type.kind == TypeKind::kMap ? b.value_type.value()
                                                         : b.value_type.element();
      receiver = fmt::format("value({})", spec.name);
    }
    for (const Literal& l : c.values) {
      PARTPLAY_ASSIGN_OR_RETURN(Value v, LiteralToValue(literal_type, l, receiver, gen));
      b.values.push_back(std::move(v));
    }
    if (spec.is_primary_key()) {
      return Invalid(fmt::format("PRIMARY KEY column '{}' cannot have IF conditions", spec.name),
                     c.column.where);
    }
    out.push_back(std::move(b));
  }
  return out;
}

bool AppliesToRegular(const std::vector<BoundCondition>& cs) {
  for (const BoundCondition& c : cs) {
    if (c.spec->kind == ColumnKind::kRegular) return true;
  }
  return false;
}
bool AppliesToStatic(const std::vector<BoundCondition>& cs) {
  for (const BoundCondition& c : cs) {
    if (c.spec->kind == ColumnKind::kStatic) return true;
  }
  return false;
}

// ModificationStatement.appliesOnlyToStaticColumns(operations, conditions): no regular column
// written or conditioned, and some static one.
bool StaticsOnly(const TableSchema& t, bool ops_regular, bool ops_static,
                 const std::vector<Condition>& conditions) {
  bool conds_regular = false, conds_static = false;
  for (const Condition& c : conditions) {
    const ColumnSpec* spec = t.Find(c.column.text);
    if (spec == nullptr) continue;
    conds_regular |= spec->kind == ColumnKind::kRegular;
    conds_static |= spec->kind == ColumnKind::kStatic;
  }
  return !ops_regular && !conds_regular && (ops_static || conds_static);
}

// Bound.compareWithOperator: `row op value`, with Cassandra's rules for nulls.
StatusOr<bool> CompareWithOperator(Operator op, const CqlType& type, const Value& value,
                                   const Value& row) {
  if (!value) {
    if (op == Operator::kEq) return !row.has_value();
    if (op == Operator::kNotEq) return row.has_value();
    return Status(ErrorCode::kCqlInvalidRequest,
                  fmt::format("Invalid comparison with null for operator \"{}\"", OperatorText(op)));
  }
  if (!row) return op == Operator::kNotEq;
  if (op == Operator::kContains || op == Operator::kContainsKey) {
    std::vector<std::string_view> items = CollectionElements(*row);
    bool is_map = type.kind == TypeKind::kMap;
    const CqlType& item_type = op == Operator::kContainsKey || !is_map ? type.element() : type.value();
    for (size_t i = 0; i < items.size(); ++i) {
      if (is_map && (i % 2 == 0) != (op == Operator::kContainsKey)) continue;
      if (Compare(item_type, items[i], *value) == 0) return true;
    }
    return false;
  }
  int c = Compare(type, *row, *value);
  switch (op) {
    case Operator::kEq:
      return c == 0;
    case Operator::kNotEq:
      return c != 0;
    case Operator::kLt:
      return c < 0;
    case Operator::kLe:
      return c <= 0;
    case Operator::kGt:
      return c > 0;
    case Operator::kGe:
      return c >= 0;
    default:
      return false;
  }
}

// Whether the condition holds for the column's current value (null: no cell).
StatusOr<bool> ConditionHolds(const BoundCondition& c, const Value& current,
                              const SourceLocation& where) {
  Value target = current;
  if (c.target == BoundCondition::Target::kElement) {
    bool is_map = c.spec->type.kind == TypeKind::kMap;
    if (!c.element) {
      return Invalid(fmt::format("Invalid null value for {} element access", is_map ? "map" : "list"),
                     where);
    }
    target = Value();
    if (is_map) {
      if (current) {
        std::vector<std::string_view> items = CollectionElements(*current);
        for (size_t i = 0; i + 1 < items.size(); i += 2) {
          if (Compare(c.spec->type.element(), items[i], *c.element) == 0) {
            target = Value(std::string(items[i + 1]));
          }
        }
      }
    } else {
      int64_t idx = DecodeSigned(*c.element);
      if (idx < 0) return Invalid(fmt::format("Invalid negative list index {}", idx), where);
      if (current) {
        std::vector<std::string_view> items = CollectionElements(*current);
        if (static_cast<size_t>(idx) < items.size()) {
          target = Value(std::string(items[static_cast<size_t>(idx)]));
        }
      }
    }
  } else if (c.target == BoundCondition::Target::kField) {
    target = Value();
    std::vector<Value> fields;
    if (current && CompositeComponents(*current, fields) && c.field < fields.size()) {
      target = fields[c.field];
    }
  }
  if (c.target == BoundCondition::Target::kColumn && c.spec->type.is_collection() &&
      c.spec->type.is_multi_cell()) {
    // MultiCellCollectionBound: no cells is the empty collection, compared element by element.
    const CqlType& type = c.spec->type;
    Bytes row = current ? *current : EncodeCollection({}, 0);
    bool empty = CollectionElements(row).empty();
    for (const Value& v : c.values) {
      if (!v) {
        if (c.op == Operator::kEq) {
          if (empty) return true;
          continue;
        }
        if (c.op == Operator::kNotEq) return !empty;
        return Invalid(fmt::format("Invalid comparison with null for operator \"{}\"",
                                   OperatorText(c.op)),
                       where);
      }
      if (c.op == Operator::kContains || c.op == Operator::kContainsKey) {
        StatusOr<bool> holds = CompareWithOperator(c.op, type, v, Value(row));
        if (!holds.ok()) return Status(holds.status().code(), holds.status().message(), where);
        if (holds.value()) return true;
        continue;
      }
      CqlType frozen = type;
      frozen.frozen = true;
      int cmp = Compare(frozen, row, *v);
      bool holds = false;
      switch (c.op) {
        case Operator::kEq: holds = cmp == 0; break;
        case Operator::kNotEq: holds = cmp != 0; break;
        case Operator::kLt: holds = cmp < 0; break;
        case Operator::kLe: holds = cmp <= 0; break;
        case Operator::kGt: holds = cmp > 0; break;
        case Operator::kGe: holds = cmp >= 0; break;
        default: break;
      }
      if (holds) return true;
    }
    return false;
  }
  for (const Value& v : c.values) {
    StatusOr<bool> holds = CompareWithOperator(c.op, c.value_type, v, target);
    if (!holds.ok()) return Status(holds.status().code(), holds.status().message(), where);
    if (holds.value()) return true;
  }
  return false;
}

// The row a failed condition answers with (buildCasFailureResultSet): [applied] false, then the
// conditions' columns (each once, in IF order) as the row holds them, when the read found the row
// (or, for conditions on static columns, the partition's static row); [applied] alone otherwise.
ResultSet CasFailure(const TableSchema& t, const std::vector<BoundCondition>& cs,
                     const Partition* p, const Row* row) {
  ResultSet rs;
  rs.columns.push_back("[applied]");
  rs.types.push_back(CqlType::Native(TypeKind::kBoolean));
  std::vector<int> columns;
  for (const BoundCondition& c : cs) {
    if (std::find(columns.begin(), columns.end(), c.column) == columns.end()) {
      columns.push_back(c.column);
    }
  }
  bool statics = p != nullptr && AppliesToStatic(cs);
  std::vector<Value> values{EncodeBoolean(false)};
  if (row != nullptr || statics) {
    for (int i : columns) {
      const ColumnSpec& spec = t.columns[static_cast<size_t>(i)];
      rs.columns.push_back(spec.name);
      rs.types.push_back(spec.type);
      size_t pos = static_cast<size_t>(spec.position);
      values.push_back(spec.kind == ColumnKind::kStatic ? p->statics[pos]
                       : row != nullptr               ? row->cells[pos]
                                                      : Value());
    }
  }
  rs.rows.push_back(std::move(values));
  rs.row_partition.push_back(-1);
  return rs;
}

}  // namespace

// UPDATE or DELETE ... IF conditions: Cassandra's checks, the conditions evaluated on the row
// as it is, then the statement applied ([applied] true) or not (the conditions' columns).
StatusOr<std::optional<ResultSet>> UpdatePlain(const UpdateStatement& s, Table& table,
                                               ValueGenerator& gen, SourceLocation where);
StatusOr<std::optional<ResultSet>> DeletePlain(const DeleteStatement& s, Table& table,
                                               ValueGenerator& gen, SourceLocation where);
inline StatusOr<std::optional<ResultSet>> RunPlain(const UpdateStatement& s, Table& table,
                                                   ValueGenerator& gen, SourceLocation where) {
  return UpdatePlain(s, table, gen, where);
}
inline StatusOr<std::optional<ResultSet>> RunPlain(const DeleteStatement& s, Table& table,
                                                   ValueGenerator& gen, SourceLocation where) {
  return DeletePlain(s, table, gen, where);
}

template <class S>
StatusOr<std::optional<ResultSet>> ExecuteConditional(const S& s, Table& table,
                                                      ValueGenerator& gen, SourceLocation where) {
  constexpr bool kUpdate = std::is_same_v<S, UpdateStatement>;
  const std::string_view kind = kUpdate ? "updates" : "deletions";
  const TableSchema& t = table.schema();
  PARTPLAY_ASSIGN_OR_RETURN(std::vector<BoundCondition> conds,
                            BindConditions(t, s.conditions, s.using_clause, gen));
  bool ops_regular = false, ops_static = false;
  auto see = [&](const std::string& name) {
    const ColumnSpec* c = t.Find(name);
    if (c == nullptr) return;
    (c->kind == ColumnKind::kStatic ? ops_static : ops_regular) |= !c->is_primary_key();
  };
  if constexpr (kUpdate) {
    for (const Assignment& a : s.assignments) see(a.column.text);
  } else {
    for (const Name& n : s.columns) see(n.text);
    ops_regular |= !ops_static;  // a DELETE without static columns deletes regular ones
  }
  // appliesOnlyToStaticColumns(operations, conditions)
  bool statics_only = !ops_regular && !AppliesToRegular(conds) && (ops_static || AppliesToStatic(conds));
  PARTPLAY_ASSIGN_OR_RETURN(
      Restrictions r,
      internal::BuildRestrictions(t, s.where,
                                  kUpdate ? internal::StatementKind::kUpdate
                                          : internal::StatementKind::kDelete,
                                  false, statics_only, gen, where));
  std::vector<std::vector<Bytes>> keys = internal::PartitionKeys(t, r);
  if (t.is_counter()) return Invalid("Conditional updates are not supported on counter tables", where);
  bool all_eq = r.partition_fully_eq_in() && !r.token.present;
  for (const ColumnRestriction& c : r.clustering) all_eq = all_eq && c.column >= 0 && c.is_eq_or_in();
  if constexpr (!kUpdate) {
    if (!all_eq) {
      if (ops_regular) {
        return Invalid("DELETE statements must restrict all PRIMARY KEY columns with equality "
                       "relations in order to delete non static columns",
                       where);
      }
      if (AppliesToRegular(conds)) {
        return Invalid("DELETE statements must restrict all PRIMARY KEY columns with equality "
                       "relations in order to use IF condition on non static columns",
                       where);
      }
    }
  }
  if (r.has_partition_in() || keys.size() != 1) {
    return Invalid(fmt::format("IN on the partition key is not supported with conditional {}", kind),
                   where);
  }
  bool clustering_in = false;
  for (const ColumnRestriction& c : r.clustering) clustering_in |= c.column >= 0 && c.has_in;
  if (clustering_in) {
    return Invalid(
        fmt::format("IN on the clustering key columns is not supported with conditional {}", kind),
        where);
  }
  PARTPLAY_RETURN_IF_ERROR(CheckKeyNotEmpty(keys[0], where));
  const Table& read = table;
  const Partition* p = read.Find(Table::KeyOf(keys[0]));
  const Row* row = nullptr;
  bool full_clustering = !t.clustering.empty() && all_eq && r.has_clustering();
  if (p != nullptr && (t.clustering.empty() || full_clustering)) {
    std::vector<Clustering> cs = ClusteringKeys(r);
    Clustering c = t.clustering.empty() ? Clustering() : (cs.empty() ? Clustering() : cs[0]);
    auto it = p->rows.find(c);
    if (it != p->rows.end()) row = &it->second;
  }
  bool holds = true;
  if (s.if_exists) {
    // IF EXISTS: the row (or, without the full clustering, the partition) is there.
    if (p == nullptr || !p->live()) {
      holds = false;
    } else if (statics_only) {
      holds = true;
    } else if (t.clustering.empty() || full_clustering) {
      holds = row != nullptr;
    }
  }
  for (const BoundCondition& c : conds) {
    size_t pos = static_cast<size_t>(c.spec->position);
    Value current = c.spec->kind == ColumnKind::kStatic ? (p ? p->statics[pos] : Value())
                                                        : (row ? row->cells[pos] : Value());
    PARTPLAY_ASSIGN_OR_RETURN(bool h, ConditionHolds(c, current, where));
    holds = holds && h;
  }
  if (!holds) {
    // Not applied; the statement must still be valid: it runs on a copy of its partition.
    std::vector<PartitionKey> pks;
    for (const auto& k : keys) pks.push_back(Table::KeyOf(k));
    std::unique_ptr<Table> scratch = table.CopyOf(pks);
    S plain = s;
    plain.if_exists = false;
    StatusOr<std::optional<ResultSet>> dry = RunPlain(plain, *scratch, gen, where);
    if (!dry.ok()) return dry.status();
    return std::optional<ResultSet>(CasFailure(t, conds, p, row));
  }
  S plain = s;
  plain.if_exists = false;
  StatusOr<std::optional<ResultSet>> done = RunPlain(plain, table, gen, where);
  if (!done.ok()) return done.status();
  return std::optional<ResultSet>(Applied(true, t, nullptr, nullptr, nullptr));
}

StatusOr<std::optional<ResultSet>> ExecuteInsert(const InsertStatement& s, Table& table,
                                                 ValueGenerator& gen, SourceLocation where) {
  const TableSchema& t = table.schema();
  if (t.is_counter()) {
    return Invalid("INSERT statements are not allowed on counter tables, use UPDATE instead",
                   where);
  }
  PARTPLAY_ASSIGN_OR_RETURN(int32_t ttl, Ttl(s.using_clause, t, gen));
  PARTPLAY_RETURN_IF_ERROR(CheckTimestamp(s.using_clause, gen));
  InsertValues in;
  if (s.json) {
    internal::JsonNode object;
    size_t pos = 0;
    std::string error;
    if (!internal::ParseJson(s.json_value.text, pos, object, error) ||
        pos != s.json_value.text.size()) {
      return Invalid(fmt::format("Could not decode JSON string as a map: {}",
                                 error.empty() ? "trailing characters" : error),
                     s.json_value.where);
    }
    PARTPLAY_ASSIGN_OR_RETURN(in, JsonInsertValues(t, object, s.default_unset, s.json_value.where));
  } else {
    if (s.columns.size() != s.values.size()) return Invalid("Unmatched column names/values", where);
    // ParsedInsert checks the names for duplicates before resolving any of them.
    for (size_t i = 0; i < s.columns.size(); ++i) {
      for (size_t j = 0; j < i; ++j) {
        if (s.columns[j].text == s.columns[i].text) {
          return Invalid("The column names contains duplicates", s.columns[i].where);
        }
      }
    }
    for (size_t i = 0; i < s.columns.size(); ++i) {
      const Name& n = s.columns[i];
      int index = t.IndexOf(n.text);
      if (index < 0)
        return Status(ErrorCode::kCqlUnknown, "Undefined column name " + n.text, n.where);
      const ColumnSpec& c = t.columns[static_cast<size_t>(index)];
      PARTPLAY_ASSIGN_OR_RETURN(Value v, LiteralToValue(c.type, s.values[i], c.name, gen));
      in.columns.push_back(index);
      in.values.push_back(std::move(v));
      in.where.push_back(s.values[i].where);
    }
  }
  return Insert(table, in, s.if_not_exists, ttl, where);
}

StatusOr<std::optional<ResultSet>> ExecuteUpdate(const UpdateStatement& s, Table& table,
                                                 ValueGenerator& gen, SourceLocation where) {
  if (!s.conditions.empty() || s.if_exists) return ExecuteConditional(s, table, gen, where);
  return UpdatePlain(s, table, gen, where);
}

// The UPDATE without evaluating its IF conditions (which still count for the static-only rule).
StatusOr<std::optional<ResultSet>> UpdatePlain(const UpdateStatement& s, Table& table,
                                               ValueGenerator& gen, SourceLocation where) {
  const TableSchema& t = table.schema();
  std::vector<int> columns;
  bool statics_only = true;
  for (const Assignment& a : s.assignments) {
    int index = t.IndexOf(a.column.text);
    if (index < 0) {
      return Status(ErrorCode::kCqlUnknown, "Undefined column name " + a.column.text,
                    a.column.where);
    }
    const ColumnSpec& c = t.columns[static_cast<size_t>(index)];
    if (c.is_primary_key()) {
      return Invalid(fmt::format("PRIMARY KEY part {} found in SET part", c.name), a.column.where);
    }
    if (std::find(columns.begin(), columns.end(), index) != columns.end() &&
        a.op != Assignment::Op::kSetElement) {
      return Invalid(fmt::format("Multiple incompatible setting of column {}", c.name),
                     a.column.where);
    }
    columns.push_back(index);
    statics_only = statics_only && c.kind == ColumnKind::kStatic;
  }
  statics_only = StaticsOnly(t, !statics_only, !s.assignments.empty(), s.conditions);
  PARTPLAY_ASSIGN_OR_RETURN(
      Restrictions r, internal::BuildRestrictions(t, s.where, internal::StatementKind::kUpdate,
                                                  false, statics_only, gen, where));
  PARTPLAY_ASSIGN_OR_RETURN(int32_t ttl, Ttl(s.using_clause, t, gen));
  PARTPLAY_RETURN_IF_ERROR(CheckTimestamp(s.using_clause, gen));
  std::vector<Clustering> clusterings =
      statics_only ? std::vector<Clustering>{} : ClusteringKeys(r);
  std::optional<bool> applied;
  for (const std::vector<Bytes>& key : internal::PartitionKeys(t, r)) {
    PARTPLAY_RETURN_IF_ERROR(CheckKeyNotEmpty(key, where));
    PartitionKey pk = Table::KeyOf(key);
    if (s.if_exists) {
      const Partition* existing = table.Find(pk);
      bool exists =
          existing != nullptr &&
          (statics_only
               ? existing->live()
               : std::any_of(clusterings.begin(), clusterings.end(),
                             [&](const Clustering& c) { return existing->rows.count(c) > 0; }));
      applied = exists;
      if (!exists) continue;
    }
    Partition& p = table.Upsert(key);
    if (statics_only) {
      std::vector<Value> values;
      for (size_t i = 0; i < s.assignments.size(); ++i) {
        const ColumnSpec& c = t.columns[static_cast<size_t>(columns[i])];
        PARTPLAY_ASSIGN_OR_RETURN(
            Value v,
            ApplyAssignment(c, s.assignments[i], p.statics[static_cast<size_t>(c.position)], gen));
        table.WriteStatics(p, {columns[i]}, {v});
      }
    } else {
      for (const Clustering& c : clusterings) {
        std::vector<int> regular_cols;
        std::vector<Value> regular_vals;
        for (size_t i = 0; i < s.assignments.size(); ++i) {
          const ColumnSpec& spec = t.columns[static_cast<size_t>(columns[i])];
          if (spec.kind == ColumnKind::kStatic) {
            PARTPLAY_ASSIGN_OR_RETURN(
                Value v, ApplyAssignment(spec, s.assignments[i],
                                         p.statics[static_cast<size_t>(spec.position)], gen));
            table.WriteStatics(p, {columns[i]}, {v});
            continue;
          }
          // The current cell, including values assigned earlier in this statement.
          Value old;
          auto found = std::find(regular_cols.begin(), regular_cols.end(), columns[i]);
          if (found != regular_cols.end()) {
            old = regular_vals[static_cast<size_t>(found - regular_cols.begin())];
          } else {
            auto row = p.rows.find(c);
            if (row != p.rows.end()) old = row->second.cells[static_cast<size_t>(spec.position)];
          }
          PARTPLAY_ASSIGN_OR_RETURN(Value v, ApplyAssignment(spec, s.assignments[i], old, gen));
          if (found != regular_cols.end()) {
            regular_vals[static_cast<size_t>(found - regular_cols.begin())] = std::move(v);
          } else {
            regular_cols.push_back(columns[i]);
            regular_vals.push_back(std::move(v));
          }
        }
        table.WriteRow(p, c, regular_cols, regular_vals, false, ttl);
      }
    }
    table.DropIfDead(pk);
  }
  if (s.if_exists) {
    return std::optional<ResultSet>(Applied(applied.value_or(false), t, nullptr, nullptr, nullptr));
  }
  return std::optional<ResultSet>();
}

StatusOr<std::optional<ResultSet>> ExecuteDelete(const DeleteStatement& s, Table& table,
                                                 ValueGenerator& gen, SourceLocation where) {
  if (!s.conditions.empty() || s.if_exists) return ExecuteConditional(s, table, gen, where);
  return DeletePlain(s, table, gen, where);
}

// The DELETE without evaluating its IF conditions (which still count for the static-only rule).
StatusOr<std::optional<ResultSet>> DeletePlain(const DeleteStatement& s, Table& table,
                                               ValueGenerator& gen, SourceLocation where) {
  const TableSchema& t = table.schema();
  std::vector<int> columns;
  bool statics_only = !s.columns.empty();
  for (const Name& n : s.columns) {
    int index = t.IndexOf(n.text);
    if (index < 0)
      return Status(ErrorCode::kCqlUnknown, "Undefined column name " + n.text, n.where);
    const ColumnSpec& c = t.columns[static_cast<size_t>(index)];
    if (c.is_primary_key()) {
      return Invalid(fmt::format("Invalid identifier {} for deletion (should not be a PRIMARY KEY "
                                 "part)",
                                 n.text),
                     n.where);
    }
    columns.push_back(index);
    statics_only = statics_only && c.kind == ColumnKind::kStatic;
  }
  {
    // Operations.appliesToRegularColumns: a DELETE without static columns deletes regular ones.
    bool any_regular = false, any_static = false;
    for (int c : columns) {
      (t.columns[static_cast<size_t>(c)].kind == ColumnKind::kStatic ? any_static : any_regular) = true;
    }
    statics_only = StaticsOnly(t, any_regular || !any_static, any_static, s.conditions);
  }
  PARTPLAY_ASSIGN_OR_RETURN(
      Restrictions r, internal::BuildRestrictions(t, s.where, internal::StatementKind::kDelete,
                                                  false, statics_only, gen, where));
  PARTPLAY_RETURN_IF_ERROR(CheckTimestamp(s.using_clause, gen));
  bool full_clustering = FullClusteringEqIn(r);
  if (!columns.empty() && !statics_only && !full_clustering) {
    return Invalid("Range deletions are not supported for specific columns", where);
  }
  std::optional<bool> applied;
  for (const std::vector<Bytes>& key : internal::PartitionKeys(t, r)) {
    PARTPLAY_RETURN_IF_ERROR(CheckKeyNotEmpty(key, where));
    PartitionKey pk = Table::KeyOf(key);
    Partition* p = table.Find(pk);
    if (s.if_exists) {
      applied = p != nullptr;
      if (p == nullptr) continue;
    }
    if (p == nullptr) continue;
    if (columns.empty()) {
      if (!r.has_clustering()) {
        table.ErasePartition(pk);
        continue;
      }
      for (auto it = p->rows.begin(); it != p->rows.end();) {
        bool match = true;
        for (const ColumnRestriction& c : r.clustering) {
          if (c.column < 0) continue;
          const ColumnSpec& spec = t.columns[static_cast<size_t>(c.column)];
          match = match &&
                  internal::Matches(spec.type, it->first[static_cast<size_t>(spec.position)], c);
        }
        auto next = std::next(it);
        if (match) table.EraseRow(*p, it);
        it = next;
      }
    } else {
      // Each named column becomes null, or loses the named element.
      std::vector<int> statics, regular;
      std::vector<size_t> static_at, regular_at;  // their places in the statement
      for (size_t i = 0; i < columns.size(); ++i) {
        bool is_static = t.columns[static_cast<size_t>(columns[i])].kind == ColumnKind::kStatic;
        (is_static ? statics : regular).push_back(columns[i]);
        (is_static ? static_at : regular_at).push_back(i);
      }
      auto new_values = [&](const std::vector<int>& cols, const std::vector<size_t>& at,
                            auto old_of) -> StatusOr<std::vector<Value>> {
        std::vector<Value> values(cols.size());
        for (size_t i = 0; i < cols.size(); ++i) {
          if (at[i] >= s.elements.size() || !s.elements[at[i]]) continue;
          const Literal& element = *s.elements[at[i]];
          const ColumnSpec& spec = t.columns[static_cast<size_t>(cols[i])];
          PARTPLAY_ASSIGN_OR_RETURN(values[i], DeleteElement(spec, element, old_of(spec), gen));
        }
        return values;
      };
      if (!statics.empty()) {
        PARTPLAY_ASSIGN_OR_RETURN(std::vector<Value> values,
                                  new_values(statics, static_at, [&](const ColumnSpec& spec) {
                                    return p->statics[static_cast<size_t>(spec.position)];
                                  }));
        table.WriteStatics(*p, statics, values);
      }
      if (!regular.empty()) {
        for (const Clustering& c : ClusteringKeys(r)) {
          auto row = p->rows.find(c);
          if (row == p->rows.end()) continue;
          PARTPLAY_ASSIGN_OR_RETURN(std::vector<Value> values,
                                    new_values(regular, regular_at, [&](const ColumnSpec& spec) {
                                      return row->second.cells[static_cast<size_t>(spec.position)];
                                    }));
          table.WriteRow(*p, c, regular, values, false, 0);
        }
      }
    }
    table.DropIfDead(pk);
  }
  if (s.if_exists) {
    return std::optional<ResultSet>(Applied(applied.value_or(false), t, nullptr, nullptr, nullptr));
  }
  return std::optional<ResultSet>();
}

Status InsertJsonObject(const JsonNode& object, Table& table, const SourceLocation& where) {
  if (object.kind != JsonNode::Kind::kObject) {
    return Status(ErrorCode::kNotAnObject, "each item must be a JSON object", where);
  }
  PARTPLAY_ASSIGN_OR_RETURN(InsertValues in,
                            JsonInsertValues(table.schema(), object, false, where));
  StatusOr<std::optional<ResultSet>> done = Insert(table, in, false, 0, where);
  if (!done.ok()) return Status(done.status().code(), done.status().message(), where);
  return Status::Ok();
}

StatusOr<Value> JsonTextToValue(const CqlType& type, std::string_view json,
                                std::string_view receiver, const SourceLocation& where) {
  JsonNode node;
  size_t pos = 0;
  std::string error;
  if (!internal::ParseJson(json, pos, node, error) || pos != json.size()) {
    return Status(ErrorCode::kCqlBadLiteral,
                  fmt::format("not JSON: {}", error.empty() ? "trailing characters" : error),
                  where);
  }
  return JsonToValue(type, node, receiver, where);
}

Status InsertRow(Table& table, const std::vector<int>& columns, std::vector<Value> values,
                 const SourceLocation& where) {
  InsertValues in;
  in.columns = columns;
  in.values = std::move(values);
  in.where.assign(columns.size(), where);
  StatusOr<std::optional<ResultSet>> done = Insert(table, in, false, 0, where);
  if (!done.ok()) return Status(done.status().code(), done.status().message(), where);
  return Status::Ok();
}

// --- conditional batches (BatchStatement.makeCasRequest)
struct CasConditions {
  std::vector<BoundCondition> bound;
};

StatusOr<std::optional<ResultSet>> ExecuteUpdateUnconditionally(const UpdateStatement& s,
                                                                Table& table, ValueGenerator& gen,
                                                                SourceLocation where) {
  UpdateStatement plain = s;
  plain.if_exists = false;
  return UpdatePlain(plain, table, gen, where);
}

StatusOr<std::optional<ResultSet>> ExecuteDeleteUnconditionally(const DeleteStatement& s,
                                                                Table& table, ValueGenerator& gen,
                                                                SourceLocation where) {
  DeleteStatement plain = s;
  plain.if_exists = false;
  return DeletePlain(plain, table, gen, where);
}

StatusOr<CasPlan> PlanCas(const InsertStatement& s, const Table& table, ValueGenerator& gen,
                          SourceLocation where) {
  const TableSchema& t = table.schema();
  CasPlan plan;
  plan.exists = s.if_not_exists ? CasPlan::Exists::kNotExists : CasPlan::Exists::kNone;
  InsertValues in;
  if (s.json) {
    JsonNode object;
    size_t pos = 0;
    std::string error;
    if (!internal::ParseJson(s.json_value.text, pos, object, error)) {
      return Invalid(fmt::format("Could not decode JSON string as a map: {}", error),
                     s.json_value.where);
    }
    PARTPLAY_ASSIGN_OR_RETURN(in, JsonInsertValues(t, object, s.default_unset, s.json_value.where));
  } else {
    for (size_t i = 0; i < s.columns.size() && i < s.values.size(); ++i) {
      int index = t.IndexOf(s.columns[i].text);
      if (index < 0) {
        return Status(ErrorCode::kCqlUnknown, "Undefined column name " + s.columns[i].text,
                      s.columns[i].where);
      }
      const ColumnSpec& c = t.columns[static_cast<size_t>(index)];
      PARTPLAY_ASSIGN_OR_RETURN(Value v, LiteralToValue(c.type, s.values[i], c.name, gen));
      in.columns.push_back(index);
      in.values.push_back(std::move(v));
    }
  }
  plan.key.resize(t.partition_key.size());
  plan.clustering.resize(t.clustering.size());
  bool regular = false, any_clustering = false, any_static = false;
  for (size_t i = 0; i < in.columns.size(); ++i) {
    const ColumnSpec& c = t.columns[static_cast<size_t>(in.columns[i])];
    size_t pos = static_cast<size_t>(c.position);
    if (c.kind == ColumnKind::kPartitionKey && in.values[i]) plan.key[pos] = *in.values[i];
    if (c.kind == ColumnKind::kClustering && in.values[i]) {
      plan.clustering[pos] = *in.values[i];
      any_clustering = true;
    }
    regular |= c.kind == ColumnKind::kRegular;
    any_static |= c.kind == ColumnKind::kStatic;
  }
  plan.statics_only = !regular && any_static && !any_clustering && !t.clustering.empty();
  (void)where;
  return plan;
}

namespace {
template <class S>
StatusOr<CasPlan> PlanModification(const S& s, const Table& table, ValueGenerator& gen,
                                   SourceLocation where) {
  constexpr bool kUpdate = std::is_same_v<S, UpdateStatement>;
  const TableSchema& t = table.schema();
  CasPlan plan;
  auto conditions = std::make_shared<CasConditions>();
  PARTPLAY_ASSIGN_OR_RETURN(conditions->bound,
                            BindConditions(t, s.conditions, s.using_clause, gen));
  plan.exists = s.if_exists ? CasPlan::Exists::kExists : CasPlan::Exists::kNone;
  for (const BoundCondition& c : conditions->bound) {
    if (std::find(plan.condition_columns.begin(), plan.condition_columns.end(), c.column) ==
        plan.condition_columns.end()) {
      plan.condition_columns.push_back(c.column);
    }
  }
  plan.conditions = conditions;
  bool ops_regular = false, ops_static = false;
  auto see = [&](const std::string& name) {
    const ColumnSpec* c = t.Find(name);
    if (c == nullptr || c->is_primary_key()) return;
    (c->kind == ColumnKind::kStatic ? ops_static : ops_regular) = true;
  };
  if constexpr (kUpdate) {
    for (const Assignment& a : s.assignments) see(a.column.text);
  } else {
    for (const Name& n : s.columns) see(n.text);
    ops_regular |= !ops_static;
  }
  plan.statics_only = StaticsOnly(t, ops_regular, ops_static, s.conditions);
  PARTPLAY_ASSIGN_OR_RETURN(
      Restrictions r,
      internal::BuildRestrictions(t, s.where,
                                  kUpdate ? internal::StatementKind::kUpdate
                                          : internal::StatementKind::kDelete,
                                  false, plan.statics_only, gen, where));
  std::vector<std::vector<Bytes>> keys = internal::PartitionKeys(t, r);
  plan.key_in = r.has_partition_in() || keys.size() != 1;
  if (!keys.empty()) plan.key = keys[0];
  for (const ColumnRestriction& c : r.clustering) plan.clustering_in |= c.column >= 0 && c.has_in;
  bool full = true;
  for (const ColumnRestriction& c : r.clustering) full = full && c.column >= 0 && c.is_eq_or_in();
  if (!plan.statics_only && !t.clustering.empty()) {
    if (!full && r.has_clustering()) {
      plan.slices = true;
    } else if (full) {
      std::vector<Clustering> cs = ClusteringKeys(r);
      if (!cs.empty()) plan.clustering = cs[0];
    }
  }
  return plan;
}
}  // namespace

StatusOr<CasPlan> PlanCas(const UpdateStatement& s, const Table& table, ValueGenerator& gen,
                          SourceLocation where) {
  return PlanModification(s, table, gen, where);
}

StatusOr<CasPlan> PlanCas(const DeleteStatement& s, const Table& table, ValueGenerator& gen,
                          SourceLocation where) {
  return PlanModification(s, table, gen, where);
}

StatusOr<bool> CasHolds(const CasPlan& plan, const Table& table, SourceLocation where) {
  const Partition* p = table.Find(Table::KeyOf(plan.key));
  const Row* row = nullptr;
  if (p != nullptr && !plan.statics_only) {
    auto it = p->rows.find(plan.clustering);
    if (it != p->rows.end()) row = &it->second;
  }
  bool exists = plan.statics_only ? (p != nullptr && p->has_static()) : row != nullptr;
  if (plan.exists == CasPlan::Exists::kExists && !exists) return false;
  if (plan.exists == CasPlan::Exists::kNotExists && exists) return false;
  if (plan.conditions != nullptr) {
    for (const BoundCondition& c : plan.conditions->bound) {
      size_t pos = static_cast<size_t>(c.spec->position);
      Value current = c.spec->kind == ColumnKind::kStatic ? (p ? p->statics[pos] : Value())
                                                          : (row ? row->cells[pos] : Value());
      PARTPLAY_ASSIGN_OR_RETURN(bool h, ConditionHolds(c, current, where));
      if (!h) return false;
    }
  }
  return true;
}

}  // namespace partplay::cql
