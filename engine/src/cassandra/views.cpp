#include "partplay/cassandra/views.h"

#include <fmt/format.h>

#include <algorithm>

namespace partplay::cql {
namespace {

Status Invalid(std::string message, const SourceLocation& where) {
  return Status(ErrorCode::kCqlInvalidRequest, std::move(message), where);
}

std::string Join(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

}  // namespace

StatusOr<BuiltView> BuildView(const CreateViewStatement& s, const TableSchema& base,
                              const std::string& keyspace) {
  const std::string& view_name = s.view.table;
  if (base.is_view()) {
    return Invalid("Materialized views cannot be created against other materialized views",
                   s.base.where);
  }
  if (base.is_counter()) {
    return Invalid("Materialized views are not supported on counter tables", s.base.where);
  }
  for (const Property& p : s.properties) {
    if (p.name.text == "gc_grace_seconds" && p.value.text == "0") {
      return Invalid(fmt::format("Cannot create materialized view '{}' for base table '{}' with "
                                 "gc_grace_seconds of 0, since this value is used to TTL "
                                 "undelivered updates. Setting gc_grace_seconds too low might "
                                 "cause undelivered updates to expire before being replayed.",
                                 view_name, base.name),
                     p.value.where);
    }
  }
  // SELECT: the columns copied (every base column for *).
  std::vector<int> selected;
  if (s.star) {
    for (size_t i = 0; i < base.columns.size(); ++i) selected.push_back(static_cast<int>(i));
  }
  for (const Name& n : s.columns) {
    int i = base.IndexOf(n.text);
    if (i < 0) return Invalid(fmt::format("Undefined column name {}", n.text), n.where);
    if (std::find(selected.begin(), selected.end(), i) == selected.end()) selected.push_back(i);
  }
  for (int i : selected) {
    const ColumnSpec& c = base.columns[static_cast<size_t>(i)];
    if (c.kind == ColumnKind::kStatic) {
      return Invalid(fmt::format("Cannot include static column '{}' in materialized view '{}'",
                                 c.name, view_name),
                     s.view.where);
    }
  }
  // PRIMARY KEY and CLUSTERING ORDER BY.
  std::vector<const Name*> key_names;
  for (const Name& n : s.primary_key.partition_key) key_names.push_back(&n);
  for (const Name& n : s.primary_key.clustering) key_names.push_back(&n);
  std::vector<int> key_columns;
  for (const Name* n : key_names) {
    int i = base.IndexOf(n->text);
    if (i < 0 || std::find(selected.begin(), selected.end(), i) == selected.end()) {
      return Invalid(fmt::format("Unknown column '{}' referenced in PRIMARY KEY for materialized "
                                 "view '{}'",
                                 n->text, view_name),
                     n->where);
    }
    if (std::find(key_columns.begin(), key_columns.end(), i) != key_columns.end()) {
      return Invalid(fmt::format("Duplicate column '{}' in PRIMARY KEY clause for materialized "
                                 "view '{}'",
                                 n->text, view_name),
                     n->where);
    }
    const CqlType& type = base.columns[static_cast<size_t>(i)].type;
    if (type.is_multi_cell()) {
      return Invalid(
          fmt::format("Invalid non-frozen {} type '{}' for PRIMARY KEY column '{}'",
                      type.is_collection() ? "collection" : "user-defined", type.ToCql(), n->text),
          n->where);
    }
    if (type.References(TypeKind::kDuration)) {
      return Invalid(
          fmt::format("duration type is not supported for PRIMARY KEY column '{}'", n->text),
          n->where);
    }
    key_columns.push_back(i);
  }
  if (!s.clustering_order.empty()) {
    bool same = s.clustering_order.size() == s.primary_key.clustering.size();
    for (size_t i = 0; same && i < s.clustering_order.size(); ++i) {
      same = s.clustering_order[i].column.text == s.primary_key.clustering[i].text;
    }
    if (!same) {
      return Invalid(
          "Clustering key columns must exactly match columns in CLUSTERING ORDER BY directive",
          s.clustering_order_where);
    }
  }
  std::vector<std::string> missing;
  for (size_t i = 0; i < base.columns.size(); ++i) {
    if (base.columns[i].is_primary_key() && std::find(key_columns.begin(), key_columns.end(),
                                                      static_cast<int>(i)) == key_columns.end()) {
      missing.push_back(base.columns[i].name);
    }
  }
  if (!missing.empty()) {
    return Invalid(fmt::format("Cannot create materialized view '{}' without primary key columns "
                               "{} from base table '{}'",
                               view_name, Join(missing), base.name),
                   s.primary_key.where);
  }
  std::vector<std::string> regular_in_key;
  for (int i : key_columns) {
    if (!base.columns[static_cast<size_t>(i)].is_primary_key()) {
      regular_in_key.push_back(base.columns[static_cast<size_t>(i)].name);
    }
  }
  if (regular_in_key.size() > 1) {
    return Invalid(fmt::format("Cannot include more than one non-primary key column in "
                               "materialized view primary key (got {})",
                               Join(regular_in_key)),
                   s.primary_key.where);
  }
  // WHERE: IS NOT NULL on every key column.
  std::vector<int> not_null;
  std::string where_text;
  for (const Relation& r : s.where) {
    if (r.on_token) {
      return Invalid("Cannot use token relation when defining a materialized view", r.where);
    }
    int i = base.IndexOf(r.columns[0].text);
    if (i < 0) {
      return Invalid(fmt::format("Undefined column name {}", r.columns[0].text),
                     r.columns[0].where);
    }
    if (r.op != Operator::kIsNotNull) {
      if (!base.columns[static_cast<size_t>(i)].is_primary_key()) {
        return Invalid(fmt::format("Non-primary key columns can only be restricted with 'IS NOT "
                                   "NULL' (got: {} restricted illegally)",
                                   r.columns[0].text),
                       r.where);
      }
      return Invalid(
          "Partition Playground's materialized views take only IS NOT NULL "
          "restrictions in their WHERE clause",
          r.where);
    }
    not_null.push_back(i);
    where_text += (where_text.empty() ? "" : " AND ") +
                  QuoteName(base.columns[static_cast<size_t>(i)].name) + " IS NOT NULL";
  }
  std::vector<std::string> unrestricted;
  for (int i : key_columns) {
    if (std::find(not_null.begin(), not_null.end(), i) == not_null.end()) {
      unrestricted.push_back(base.columns[static_cast<size_t>(i)].name);
    }
  }
  if (!unrestricted.empty()) {
    return Invalid(fmt::format("Primary key columns {} must be restricted with 'IS NOT NULL' or "
                               "otherwise",
                               Join(unrestricted)),
                   s.primary_key.where);
  }
  // The view as a table: key columns, then the other selected columns in base order.
  CreateTableStatement table;
  table.table = s.view;
  table.table.keyspace = keyspace;
  table.primary_keys.push_back(s.primary_key);
  table.clustering_order = s.clustering_order;
  table.clustering_order_where = s.clustering_order_where;
  std::vector<int> view_columns = key_columns;
  for (int i : selected) {
    if (std::find(key_columns.begin(), key_columns.end(), i) == key_columns.end()) {
      view_columns.push_back(i);
    }
  }
  for (int i : view_columns) {
    ColumnDefinition d;
    d.name = Name{base.columns[static_cast<size_t>(i)].name, s.view.where};
    d.type = base.columns[static_cast<size_t>(i)].type;
    table.columns.push_back(std::move(d));
  }
  for (const Property& p : s.properties) {
    if (p.name.text == "default_time_to_live") {
      if (p.value.text != "0") {
        return Invalid(
            "Cannot set default_time_to_live for a materialized view. Data in a "
            "materialized view always expire at the same time than the corresponding "
            "data in the parent table.",
            p.value.where);
      }
      continue;
    }
    table.properties.push_back(p);
  }
  PARTPLAY_ASSIGN_OR_RETURN(TableSchema schema, BuildTable(table, keyspace));
  // A clustering column without an explicit order keeps the base table's (CreateViewStatement
  // copies the base column's possibly reversed type).
  if (s.clustering_order.empty()) {
    for (int c : schema.clustering) {
      ColumnSpec& spec = schema.columns[static_cast<size_t>(c)];
      const ColumnSpec* in_base = base.Find(spec.name);
      if (in_base != nullptr && in_base->kind == ColumnKind::kClustering) {
        spec.descending = in_base->descending;
      }
    }
  }
  schema.view_base = base.name;
  schema.view_star = s.star;
  schema.view_where = where_text;
  BuiltView out;
  out.state.base = base.name;
  for (const ColumnSpec& c : schema.columns) out.state.base_column.push_back(base.IndexOf(c.name));
  out.schema = std::move(schema);
  return out;
}

namespace {

// The base row's value of base column `column` in partition `p`, row (clustering, row).
const Value* BaseValue(const TableSchema& base, const Partition& p, const Clustering& clustering,
                       const Row& row, int column, Value& scratch) {
  const ColumnSpec& c = base.columns[static_cast<size_t>(column)];
  size_t at = static_cast<size_t>(c.position);
  switch (c.kind) {
    case ColumnKind::kPartitionKey:
      scratch = p.key[at];
      return &scratch;
    case ColumnKind::kClustering:
      scratch = clustering[at];
      return &scratch;
    case ColumnKind::kStatic:
      return &p.statics[at];
    case ColumnKind::kRegular:
      scratch = row.cells[at];  // the row's cells are packed (cells.h): a copy
      return &scratch;
  }
  return &scratch;
}

void RefreshPartition(const Table& base, const PartitionKey& key, Table& view, ViewState& state) {
  auto old = state.derived.find(key.key);
  if (old != state.derived.end()) {
    for (const auto& [view_key, clustering] : old->second) {
      PartitionKey vk = Table::KeyOf(view_key);
      Partition* vp = view.Find(vk);
      if (vp == nullptr) continue;
      auto row = vp->rows.find(clustering);
      if (row != vp->rows.end()) view.EraseRow(*vp, row);
      view.DropIfDead(vk);
    }
    state.derived.erase(old);
  }
  const Partition* bp = base.Find(key);
  if (bp == nullptr) return;
  const TableSchema& vs = view.schema();
  std::vector<std::pair<std::vector<Bytes>, Clustering>> made;
  std::vector<int> regular_columns(vs.regular.begin(), vs.regular.end());
  for (const auto& [clustering, row] : bp->rows) {
    if (!row.live()) continue;
    Value scratch;
    std::vector<Bytes> view_key;
    Clustering view_clustering;
    bool null_key = false;
    for (int c : vs.partition_key) {
      const Value* v = BaseValue(base.schema(), *bp, clustering, row,
                                 state.base_column[static_cast<size_t>(c)], scratch);
      if (!*v) {
        null_key = true;
        break;
      }
      view_key.push_back(**v);
    }
    for (size_t k = 0; !null_key && k < vs.clustering.size(); ++k) {
      const Value* v = BaseValue(base.schema(), *bp, clustering, row,
                                 state.base_column[static_cast<size_t>(vs.clustering[k])], scratch);
      if (!*v) {
        null_key = true;
        break;
      }
      view_clustering.push_back(**v);
    }
    if (null_key) continue;  // a row whose view key has a null is not in the view
    std::vector<Value> values;
    for (int c : regular_columns) {
      values.push_back(*BaseValue(base.schema(), *bp, clustering, row,
                                  state.base_column[static_cast<size_t>(c)], scratch));
    }
    Partition& vp = view.Upsert(view_key);
    // The view row lives as its base row does: the base's latest write time, its marker's TTL.
    CellTime time = row.marker_time;
    for (size_t i = 0; i < row.cells.size(); ++i) {
      time.timestamp = std::max(time.timestamp, row.TimeOf(i).timestamp);
    }
    view.WriteRow(vp, view_clustering, regular_columns, values, /*marker=*/true, time);
    made.emplace_back(std::move(view_key), std::move(view_clustering));
  }
  if (!made.empty()) state.derived.emplace(key.key, std::move(made));
}

}  // namespace

void SyncView(const Table& base, const std::set<PartitionKey>& touched, bool rebuild_all,
              Table& view, ViewState& state) {
  if (rebuild_all) {
    view.Clear();
    state.derived.clear();
    for (const auto& [key, partition] : base.partitions()) RefreshPartition(base, key, view, state);
    return;
  }
  for (const PartitionKey& key : touched) RefreshPartition(base, key, view, state);
}

}  // namespace partplay::cql
