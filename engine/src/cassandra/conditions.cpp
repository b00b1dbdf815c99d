// IF conditions on UPDATE and DELETE (Cassandra 4.1's ColumnCondition, ModificationStatement's
// checks, buildCasFailureResultSet's [applied] row) and what a conditional batch needs of its
// statements (BatchStatement.makeCasRequest: PlanCas, CasHolds).
#include <fmt/format.h>

#include <algorithm>
#include <memory>

#include "cassandra/json_doc.h"
#include "cassandra/json_values.h"
#include "cassandra/modify_internal.h"
#include "cassandra/restrictions.h"
#include "partplay/cassandra/modify.h"

namespace partplay::cql {
namespace {

using internal::Applied;
using internal::CheckKeyNotEmpty;
using internal::ClusteringKeys;
using internal::ColumnRestriction;
using internal::InsertValues;
using internal::JsonInsertValues;
using internal::JsonNode;
using internal::Restrictions;

Status Invalid(std::string message, const SourceLocation& where) {
  return Status(ErrorCode::kCqlInvalidRequest, std::move(message), where);
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

// Whether `row op value` holds for a comparison `cmp` of row with value (=, !=, slices).
bool Satisfies(Operator op, int cmp) {
  switch (op) {
    case Operator::kEq:
      return cmp == 0;
    case Operator::kNotEq:
      return cmp != 0;
    case Operator::kLt:
      return cmp < 0;
    case Operator::kLe:
      return cmp <= 0;
    case Operator::kGt:
      return cmp > 0;
    case Operator::kGe:
      return cmp >= 0;
    default:
      return false;
  }
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
  return Satisfies(op, Compare(type, *row, *value));
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
      bool holds = Satisfies(c.op, Compare(frozen, row, *v));
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

namespace {
// Adds the kind of the column named `name` (if it is a known non-key column).
void See(const TableSchema& t, const std::string& name, internal::Written& w) {
  const ColumnSpec* c = t.Find(name);
  if (c == nullptr || c->is_primary_key()) return;
  (c->kind == ColumnKind::kStatic ? w.statics : w.regular) = true;
}
}  // namespace

internal::Written internal::WrittenBy(const TableSchema& t, const UpdateStatement& s) {
  Written w;
  for (const Assignment& a : s.assignments) See(t, a.column.text, w);
  return w;
}

internal::Written internal::WrittenBy(const TableSchema& t, const DeleteStatement& s) {
  Written w;
  for (const Name& n : s.columns) See(t, n.text, w);
  w.regular |= !w.statics;
  return w;
}

bool internal::StaticsOnly(const TableSchema& t, Written ops,
                           const std::vector<Condition>& conditions) {
  Written conds;
  for (const Condition& c : conditions) See(t, c.column.text, conds);
  return !ops.regular && !conds.regular && (ops.statics || conds.statics);
}


namespace {

// UPDATE or DELETE ... IF conditions: Cassandra's checks, the conditions evaluated on the row
// as it is, then the statement applied ([applied] true) or not (the conditions' columns).
inline StatusOr<std::optional<ResultSet>> RunPlain(const UpdateStatement& s, Table& table,
                                                   ValueGenerator& gen, SourceLocation where) {
  return internal::UpdatePlain(s, table, gen, where);
}
inline StatusOr<std::optional<ResultSet>> RunPlain(const DeleteStatement& s, Table& table,
                                                   ValueGenerator& gen, SourceLocation where) {
  return internal::DeletePlain(s, table, gen, where);
}

template <class S>
StatusOr<std::optional<ResultSet>> Conditional(const S& s, Table& table,
                                                      ValueGenerator& gen, SourceLocation where) {
  constexpr bool kUpdate = std::is_same_v<S, UpdateStatement>;
  const std::string_view kind = kUpdate ? "updates" : "deletions";
  const TableSchema& t = table.schema();
  PARTPLAY_ASSIGN_OR_RETURN(std::vector<BoundCondition> conds,
                            BindConditions(t, s.conditions, s.using_clause, gen));
  internal::Written ops = internal::WrittenBy(t, s);
  bool statics_only = internal::StaticsOnly(t, ops, s.conditions);
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
      if (ops.regular) {
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
}  // namespace

StatusOr<std::optional<ResultSet>> internal::ExecuteConditional(const UpdateStatement& s,
                                                                Table& table, ValueGenerator& gen,
                                                                SourceLocation where) {
  return Conditional(s, table, gen, where);
}

StatusOr<std::optional<ResultSet>> internal::ExecuteConditional(const DeleteStatement& s,
                                                                Table& table, ValueGenerator& gen,
                                                                SourceLocation where) {
  return Conditional(s, table, gen, where);
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
  return internal::UpdatePlain(plain, table, gen, where);
}

StatusOr<std::optional<ResultSet>> ExecuteDeleteUnconditionally(const DeleteStatement& s,
                                                                Table& table, ValueGenerator& gen,
                                                                SourceLocation where) {
  DeleteStatement plain = s;
  plain.if_exists = false;
  return internal::DeletePlain(plain, table, gen, where);
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
  plan.statics_only = internal::StaticsOnly(t, internal::WrittenBy(t, s), s.conditions);
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
