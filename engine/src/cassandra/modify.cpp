// INSERT, UPDATE and DELETE against a table (modify.h): the key and clustering checks, TTL and
// timestamps, collection operations, IF [NOT] EXISTS's [applied] rows. The IF conditions and
// conditional batches are conditions.cpp's; the values of INSERT ... JSON are json_values.cpp's.
#include "partplay/cassandra/modify.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "cassandra/json_doc.h"
#include "cassandra/json_values.h"
#include "cassandra/modify_internal.h"
#include "cassandra/restrictions.h"
#include "partplay/core/limits.h"

namespace partplay::cql {
namespace internal {

Status CheckKeyNotEmpty(const std::vector<Bytes>& key, const SourceLocation& where) {
  if (key.size() == 1 && key[0].empty()) {
    return Status(ErrorCode::kCqlInvalidRequest, "Key may not be empty", where);
  }
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
      rs.columns.push_back(spec.name);
      rs.types.push_back(spec.type);
      values.push_back(CellValue(spec, *p, c, row));
    }
  }
  rs.rows.push_back(std::move(values));
  rs.row_partition.push_back(-1);
  return rs;
}

// Cartesian product of the = / IN values of clustering columns (all of them restricted).
std::vector<Clustering> ClusteringKeys(const Restrictions& r) {
  std::vector<Clustering> keys;
  for (const std::vector<Bytes>& k : internal::ClusteringPrefixes(r)) keys.emplace_back(k);
  if (!keys.empty() && keys[0].size() != r.clustering.size()) return {};
  return keys;
}

}  // namespace internal

namespace {

using internal::Applied;
using internal::CheckKeyNotEmpty;
using internal::ClusteringKeys;
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

}  // namespace

// The statement's write time: USING TIMESTAMP, or the session's write clock; USING TTL, or the
// table's default_time_to_live, expiring from the clock's second, refused past 2038-01-19 as
// 4.1's default expiration date overflow policy (REJECT) does.
StatusOr<CellTime> internal::WriteTimeOf(const UsingClause& u, const TableSchema& t,
                                         ValueGenerator& gen, const SourceLocation& where) {
  PARTPLAY_ASSIGN_OR_RETURN(int32_t ttl, Ttl(u, t, gen));
  CellTime time;
  if (u.timestamp) {
    PARTPLAY_ASSIGN_OR_RETURN(Value v, LiteralToValue(CqlType::Native(TypeKind::kBigint),
                                                      *u.timestamp, "[timestamp]", gen));
    if (!v) return Invalid("Invalid null value of timestamp", u.timestamp->where);
    time.timestamp = DecodeSigned(*v);
  } else {
    time.timestamp = gen.NextWriteTimestamp();
  }
  if (ttl > 0) {
    int64_t now = gen.NowSeconds();
    if (now + ttl > INT32_MAX) {  // ExpirationDateOverflowHandling: the int overflows
      return Invalid(fmt::format("Request on table {}.{} with {}ttl of {} seconds exceeds maximum "
                                 "supported expiration date of 2038-01-19T03:14:06+00:00. In order "
                                 "to avoid this use a lower TTL, change the expiration date "
                                 "overflow policy or upgrade to a version where this limitation "
                                 "is fixed. See CASSANDRA-14092 for more details.",
                                 t.keyspace, t.name, u.ttl ? "" : "default ", ttl),
                     where);
    }
    time.ttl = ttl;
    time.expires = static_cast<int32_t>(now + ttl);
  }
  return time;
}

namespace {

std::string JoinNames(const TableSchema& t, const std::vector<int>& columns) {
  std::string out;
  for (size_t i = 0; i < columns.size(); ++i) {
    out += (i ? ", " : "") + t.columns[static_cast<size_t>(columns[i])].name;
  }
  return out;
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

// Which of a few slots were given: a bit each, no allocation for the first 64.
class SlotsSeen {
 public:
  void Set(size_t i) {
    if (i < 64) {
      bits_ |= uint64_t{1} << i;
      return;
    }
    if (more_.size() <= i - 64) more_.resize(i - 63);
    more_[i - 64] = true;
  }
  bool Get(size_t i) const {
    return i < 64 ? ((bits_ >> i) & 1) != 0 : i - 64 < more_.size() && more_[i - 64];
  }

 private:
  uint64_t bits_ = 0;
  std::vector<bool> more_;
};

// `values[i]` is column `columns[i]`'s, written at `wheres[i]` (all at `where` without
// `wheres`). The values are moved into the row (the caller is done with them) unless `copy`:
// then they are copied into `s`'s buffers (a load's, kept from row to row) and left as they are.
StatusOr<std::optional<ResultSet>> Insert(Table& table, const std::vector<int>& columns,
                                          std::vector<Value>& values,
                                          const std::vector<SourceLocation>* wheres,
                                          bool if_not_exists, const CellTime& time,
                                          const SourceLocation& where, InsertScratch& s,
                                          bool copy) {
  const TableSchema& t = table.schema();
  std::vector<Bytes>& key = s.key;
  key.resize(t.partition_key.size());
  Clustering clustering(t.clustering.size());
  SlotsSeen have_key, have_clustering;
  std::vector<int>& regular_cols = s.regular_cols;
  std::vector<int>& static_cols = s.static_cols;
  regular_cols.clear();
  static_cols.clear();
  size_t regular_n = 0, static_n = 0;  // the values written into s.regular_vals, s.static_vals
  auto put = [&](std::vector<Value>& into, size_t& n, const ColumnSpec& c, Value& v) {
    if (n == into.size()) into.emplace_back();
    Value& slot = into[n++];
    if (!copy) {
      slot = Normalize(c.type, std::move(v));
    } else if (c.type.is_collection() || c.type.kind == TypeKind::kUdt) {
      slot = Normalize(c.type, v);
    } else {
      slot = v;  // Normalize leaves it as it is; the slot's buffer reused
    }
  };
  for (size_t i = 0; i < columns.size(); ++i) {
    const ColumnSpec& c = t.columns[static_cast<size_t>(columns[i])];
    size_t pos = static_cast<size_t>(c.position);
    Value& v = values[i];
    if (c.is_primary_key()) {
      if (!v) {
        return Invalid(fmt::format("Invalid null value in condition for column {}", c.name),
                       wheres != nullptr ? (*wheres)[i] : where);
      }
      if (c.kind == ColumnKind::kPartitionKey) {
        if (copy) {
          key[pos] = *v;
        } else {
          key[pos] = std::move(*v);
        }
        have_key.Set(pos);
      } else {
        clustering[pos] = copy ? Bytes(*v) : std::move(*v);
        have_clustering.Set(pos);
      }
    } else if (c.kind == ColumnKind::kStatic) {
      static_cols.push_back(columns[i]);
      put(s.static_vals, static_n, c, v);
    } else {
      regular_cols.push_back(columns[i]);
      put(s.regular_vals, regular_n, c, v);
    }
  }
  s.regular_vals.resize(regular_n);
  s.static_vals.resize(static_n);
  std::vector<Value>& regular_vals = s.regular_vals;
  const std::vector<Value>& static_vals = s.static_vals;
  std::vector<int> missing;
  for (size_t i = 0; i < key.size(); ++i) {
    if (!have_key.Get(i)) missing.push_back(t.partition_key[i]);
  }
  if (!missing.empty()) {
    return Invalid(fmt::format("Some partition key parts are missing: {}", JoinNames(t, missing)),
                   where);
  }
  for (size_t i = 0; i < clustering.size(); ++i) {
    if (!have_clustering.Get(i)) missing.push_back(t.clustering[i]);
  }
  // Only static columns (besides the partition key): the clustering columns may be left out.
  bool statics_only =
      regular_cols.empty() && !static_cols.empty() && missing.size() == clustering.size();
  if (!missing.empty() && !statics_only) {
    return Invalid(fmt::format("Some clustering keys are missing: {}", JoinNames(t, missing)),
                   where);
  }
  PARTPLAY_RETURN_IF_ERROR(CheckKeyNotEmpty(key, where));
  Table::KeyOf(key, s.partition_key);
  const PartitionKey& pk = s.partition_key;
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
  Partition& p = table.Upsert(pk, key);
  if (!static_cols.empty()) table.WriteStatics(p, static_cols, static_vals, time);
  if (!statics_only) {
    table.WriteRowFrom(p, std::move(clustering), regular_cols, regular_vals, true, time);
  }
  if (!p.live()) table.DropIfDead(pk);
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

bool FullClusteringEqIn(const Restrictions& r) {
  for (const ColumnRestriction& c : r.clustering) {
    if (c.column < 0 || !c.is_eq_or_in()) return false;
  }
  return true;
}

}  // namespace

StatusOr<std::optional<ResultSet>> ExecuteInsert(const InsertStatement& s, Table& table,
                                                 ValueGenerator& gen, SourceLocation where) {
  const TableSchema& t = table.schema();
  if (t.is_counter()) {
    return Invalid("INSERT statements are not allowed on counter tables, use UPDATE instead",
                   where);
  }
  PARTPLAY_ASSIGN_OR_RETURN(CellTime time, internal::WriteTimeOf(s.using_clause, t, gen, where));
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
  InsertScratch scratch;
  return Insert(table, in.columns, in.values, &in.where, s.if_not_exists, time, where, scratch,
                false);
}

StatusOr<std::optional<ResultSet>> ExecuteUpdate(const UpdateStatement& s, Table& table,
                                                 ValueGenerator& gen, SourceLocation where) {
  if (!s.conditions.empty() || s.if_exists) return internal::ExecuteConditional(s, table, gen, where);
  return internal::UpdatePlain(s, table, gen, where);
}

// The UPDATE without evaluating its IF conditions (which still count for the static-only rule).
StatusOr<std::optional<ResultSet>> internal::UpdatePlain(const UpdateStatement& s, Table& table,
                                               ValueGenerator& gen, SourceLocation where) {
  const TableSchema& t = table.schema();
  std::vector<int> columns;
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
  }
  bool statics_only = internal::StaticsOnly(t, internal::WrittenBy(t, s), s.conditions);
  PARTPLAY_ASSIGN_OR_RETURN(
      Restrictions r, internal::BuildRestrictions(t, s.where, internal::StatementKind::kUpdate,
                                                  false, statics_only, gen, where));
  PARTPLAY_ASSIGN_OR_RETURN(CellTime time, internal::WriteTimeOf(s.using_clause, t, gen, where));
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
        table.WriteStatics(p, {columns[i]}, {v}, time);
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
            table.WriteStatics(p, {columns[i]}, {v}, time);
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
        table.WriteRow(p, c, regular_cols, regular_vals, false, time);
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
  if (!s.conditions.empty() || s.if_exists) return internal::ExecuteConditional(s, table, gen, where);
  return internal::DeletePlain(s, table, gen, where);
}

// The DELETE without evaluating its IF conditions (which still count for the static-only rule).
StatusOr<std::optional<ResultSet>> internal::DeletePlain(const DeleteStatement& s, Table& table,
                                               ValueGenerator& gen, SourceLocation where) {
  const TableSchema& t = table.schema();
  std::vector<int> columns;
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
  }
  bool statics_only = internal::StaticsOnly(t, internal::WrittenBy(t, s), s.conditions);
  PARTPLAY_ASSIGN_OR_RETURN(
      Restrictions r, internal::BuildRestrictions(t, s.where, internal::StatementKind::kDelete,
                                                  false, statics_only, gen, where));
  PARTPLAY_RETURN_IF_ERROR(CheckTimestamp(s.using_clause, gen));
  CellTime time;  // a deletion's: its timestamp, no TTL
  if (s.using_clause.timestamp) {
    PARTPLAY_ASSIGN_OR_RETURN(Value v, LiteralToValue(CqlType::Native(TypeKind::kBigint),
                                                      *s.using_clause.timestamp, "[timestamp]", gen));
    if (!v) return Invalid("Invalid null value of timestamp", s.using_clause.timestamp->where);
    time.timestamp = DecodeSigned(*v);
  } else {
    time.timestamp = gen.NextWriteTimestamp();
  }
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
        table.DeletePartition(pk, time.timestamp);
        continue;
      }
      // One row, or a range of them (one range tombstone).
      bool first = true;
      for (auto it = p->rows.begin(); it != p->rows.end();) {
        bool match = internal::ClusteringMatches(t, r, it->first);
        auto next = std::next(it);
        if (match) {
          table.DeleteRow(*p, it, time.timestamp, first);
          first = false;
        }
        it = next;
      }
      table.DropIfDead(pk);
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
        table.WriteStatics(*p, statics, values, time);
      }
      if (!regular.empty()) {
        for (const Clustering& c : ClusteringKeys(r)) {
          auto row = p->rows.find(c);
          if (row == p->rows.end()) continue;
          PARTPLAY_ASSIGN_OR_RETURN(std::vector<Value> values,
                                    new_values(regular, regular_at, [&](const ColumnSpec& spec) {
                                      return row->second.cells[static_cast<size_t>(spec.position)];
                                    }));
          table.WriteRow(*p, c, regular, values, false, time);
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

Status InsertJsonObject(const JsonNode& object, Table& table, ValueGenerator& gen,
                        const SourceLocation& where) {
  if (object.kind != JsonNode::Kind::kObject) {
    return Status(ErrorCode::kNotAnObject, "each item must be a JSON object", where);
  }
  PARTPLAY_ASSIGN_OR_RETURN(InsertValues in,
                            JsonInsertValues(table.schema(), object, false, where));
  PARTPLAY_ASSIGN_OR_RETURN(CellTime time,
                            internal::WriteTimeOf(UsingClause{}, table.schema(), gen, where));
  InsertScratch scratch;
  StatusOr<std::optional<ResultSet>> done =
      Insert(table, in.columns, in.values, &in.where, false, time, where, scratch, false);
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

Status InsertRow(Table& table, const std::vector<int>& columns, std::vector<Value>& values,
                 ValueGenerator& gen, const SourceLocation& where, InsertScratch& scratch) {
  PARTPLAY_ASSIGN_OR_RETURN(CellTime time,
                            internal::WriteTimeOf(UsingClause{}, table.schema(), gen, where));
  StatusOr<std::optional<ResultSet>> done =
      Insert(table, columns, values, nullptr, false, time, where, scratch, true);
  if (!done.ok()) return Status(done.status().code(), done.status().message(), where);
  return Status::Ok();
}

}  // namespace partplay::cql
