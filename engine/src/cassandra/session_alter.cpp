// ALTER TABLE (ADD, DROP, RENAME, WITH) and ALTER KEYSPACE, with the checks and messages of
// Cassandra 4.1's AlterTableStatement and AlterKeyspaceStatement. A column added or dropped
// rebuilds the table's rows under the new schema: a dropped column's values are gone, and a row
// that held nothing else (and was never INSERTed) goes with them.
#include <fmt/format.h>

#include <algorithm>

#include "cassandra/session_results.h"
#include "partplay/cassandra/session.h"

namespace partplay::cql {

using internal::Changed;
using internal::Failed;
using internal::Invalid;
using internal::Nothing;

namespace {

// isValueCompatibleWith for non-collections: `now` reads every value of `before`.
bool ValueCompatible(const CqlType& now, const CqlType& before) {
  if (now.kind == before.kind) return true;
  switch (now.kind) {
    case TypeKind::kBlob:
      return true;  // BytesType reads anything
    case TypeKind::kText:
      return before.kind == TypeKind::kAscii;
    case TypeKind::kVarint:
      return before.kind == TypeKind::kInt || before.kind == TypeKind::kBigint ||
             before.kind == TypeKind::kSmallint || before.kind == TypeKind::kTinyint;
    case TypeKind::kBigint:
      return before.kind == TypeKind::kTimestamp;
    case TypeKind::kTimestamp:
      return before.kind == TypeKind::kBigint;
    default:
      return false;
  }
}

// AbstractType.isSerializationCompatibleWith, checked when a dropped column is added again: the
// same type, or one that reads the old values with the same fixed length; a collection only as
// the same kind of collection of compatible elements.
bool SerializationCompatible(const CqlType& now, const CqlType& before) {
  if (now.ToCql() == before.ToCql()) return true;
  if (now.is_collection() || before.is_collection()) {
    if (now.kind != before.kind || now.is_multi_cell() != before.is_multi_cell() ||
        now.params.size() != before.params.size()) {
      return false;
    }
    for (size_t i = 0; i < now.params.size(); ++i) {
      if (!SerializationCompatible(now.params[i], before.params[i])) return false;
    }
    return true;
  }
  if (!now.params.empty() || !before.params.empty()) return false;  // tuples, user types
  return ValueCompatible(now, before) && FixedValueSize(now) == FixedValueSize(before);
}

// The table's rows under a new schema (the same key columns): each column keeps its values by
// name, columns the schema no longer has lose theirs.
std::unique_ptr<Table> Rebuild(const Table& old, TableSchema schema) {
  auto table = std::make_unique<Table>(std::move(schema));
  const TableSchema& from = old.schema();
  const TableSchema& to = table->schema();
  auto old_slot = [&](int column) {
    int i = from.IndexOf(to.columns[static_cast<size_t>(column)].name);
    return i < 0 ? -1 : from.columns[static_cast<size_t>(i)].position;
  };
  auto take = [](const auto& cells, int slot) {
    using T = typename std::decay_t<decltype(cells)>::value_type;
    return slot >= 0 && static_cast<size_t>(slot) < cells.size() ? cells[static_cast<size_t>(slot)]
                                                                 : T();
  };
  for (const auto& [key, p] : old.partitions()) {
    Partition& np = table->Upsert(p.key);
    std::vector<Value> statics;
    std::vector<CellTime> static_times;
    for (int c : to.statics) {
      statics.push_back(take(p.statics, old_slot(c)));
      static_times.push_back(take(p.static_times, old_slot(c)));
    }
    table->RestoreStatics(np, statics, static_times);
    for (const auto& [clustering, row] : p.rows) {
      Row next = row;
      next.times.clear();
      const std::vector<Value> cells = row.cells.values();
      std::vector<Value> next_cells;
      for (int c : to.regular) next_cells.push_back(take(cells, old_slot(c)));
      next.cells.assign(next_cells);
      if (!row.times.empty()) {
        std::vector<CellTime> times;
        for (int c : to.regular) times.push_back(take(row.times, old_slot(c)));
        next.times.assign(times);
      }
      table->RestoreRow(np, clustering, next);
    }
    table->DropIfDead(Table::KeyOf(p.key));
  }
  table->set_track_writes(old.track_writes());
  return table;
}

std::vector<std::string> IndexColumnNames(const TableSchema& t) {
  std::vector<std::string> names;
  for (const IndexSpec& i : t.indexes) {
    names.push_back(i.column >= 0 ? t.columns[static_cast<size_t>(i.column)].name : "");
  }
  return names;
}

}  // namespace

StatementResult Session::AlterTable(const AlterTableStatement& s, StatementResult result) {
  const std::string ks_name = s.table.keyspace.empty() ? current_keyspace_ : s.table.keyspace;
  if (ks_name.empty()) {
    return Failed(std::move(result), ResolveKeyspace(s.table.keyspace, s.table.where).status());
  }
  auto ks_it = keyspaces_.find(ks_name);
  Table* table = nullptr;
  if (ks_it != keyspaces_.end()) {
    auto t = ks_it->second.tables.find(s.table.table);
    if (t != ks_it->second.tables.end()) table = t->second.get();
  }
  const std::string qualified = ks_name + "." + s.table.table;
  if (table == nullptr) {
    if (s.if_exists) return Nothing(std::move(result));
    return Failed(std::move(result), Invalid(fmt::format("Table '{}' doesn't exist", qualified),
                                             s.table.where));
  }
  Keyspace& ks = ks_it->second;
  const TableSchema& t = table->schema();
  if (t.is_view()) {
    return Failed(std::move(result), Invalid("Cannot use ALTER TABLE on a materialized view; use "
                                             "ALTER MATERIALIZED VIEW instead",
                                             s.where));
  }
  bool has_views = false;
  for (const auto& [name, view] : ks.views) has_views = has_views || view.base == t.name;
  TableSchema next = t;
  const std::vector<std::string> index_names = IndexColumnNames(t);
  const std::string changed = fmt::format("UPDATED TABLE {}", qualified);
  switch (s.kind) {
    case AlterTableStatement::Kind::kAlterColumn:
      return Failed(std::move(result),
                    Invalid("Altering column types is no longer supported", s.where));
    case AlterTableStatement::Kind::kDropCompactStorage:
      return Failed(std::move(result),
                    Invalid("DROP COMPACT STORAGE is disabled. Enable in cassandra.yaml to use.",
                            s.where));
    case AlterTableStatement::Kind::kWith: {
      Status st = ApplyTableOptions(s.properties, next);
      if (!st.ok()) return Failed(std::move(result), st);
      table->mutable_schema() = std::move(next);
      return Changed(std::move(result), changed);
    }
    case AlterTableStatement::Kind::kAdd: {
      for (const ColumnDefinition& c : s.added) {
        if (next.IndexOf(c.name.text) >= 0) {
          if (s.if_column_exists) continue;
          return Failed(std::move(result),
                        Invalid(fmt::format("Column with name '{}' already exists", c.name.text),
                                c.name.where));
        }
        CqlType type = c.type;
        Status resolved = ResolveType(type, ks, c.type_where);
        if (!resolved.ok()) return Failed(std::move(result), resolved);
        if (c.is_static && next.clustering.empty()) {
          return Failed(std::move(result),
                        Invalid("Static columns are only useful (and thus allowed) if the table "
                                "has at least one clustering column",
                                c.name.where));
        }
        for (const DroppedColumn& d : next.dropped) {
          if (d.name != c.name.text) continue;
          if (!SerializationCompatible(type, d.type)) {
            return Failed(std::move(result),
                          Invalid(fmt::format("Cannot re-add previously dropped column '{}' of "
                                              "type {}, incompatible with previous type {}",
                                              c.name.text, type.ToCql(), d.type.ToCql()),
                                  c.type_where));
          }
          if (d.is_static != c.is_static) {
            return Failed(std::move(result),
                          Invalid(fmt::format("Cannot re-add previously dropped column '{}' of "
                                              "kind {}, incompatible with previous kind {}",
                                              c.name.text, c.is_static ? "STATIC" : "REGULAR",
                                              d.is_static ? "STATIC" : "REGULAR"),
                                  c.name.where));
          }
          if (next.is_counter()) {
            return Failed(std::move(result),
                          Invalid(fmt::format("Cannot re-add previously dropped counter column {}",
                                              c.name.text),
                                  c.name.where));
          }
        }
        ColumnSpec spec;
        spec.name = c.name.text;
        spec.type = std::move(type);
        spec.kind = c.is_static ? ColumnKind::kStatic : ColumnKind::kRegular;
        next.columns.push_back(std::move(spec));
        next.Reindex(index_names);
      }
      break;
    }
    case AlterTableStatement::Kind::kDrop: {
      if (s.timestamp) {  // a bigint; the model keeps no write times (docs/cassandra-model.md)
        StatusOr<Value> v = LiteralToValue(CqlType::Native(TypeKind::kBigint), *s.timestamp,
                                           "timestamp", generator_);
        if (!v.ok()) return Failed(std::move(result), v.status());
      }
      for (const Name& n : s.dropped) {
        int index = next.IndexOf(n.text);
        if (index < 0) {
          if (s.if_column_exists) continue;
          return Failed(std::move(result),
                        Invalid(fmt::format("Column {} was not found in table '{}'", n.text,
                                            qualified),
                                n.where));
        }
        const ColumnSpec& c = next.columns[static_cast<size_t>(index)];
        if (c.is_primary_key()) {
          return Failed(std::move(result),
                        Invalid(fmt::format("Cannot drop PRIMARY KEY column {}", n.text), n.where));
        }
        if (c.type.kind == TypeKind::kUdt && c.type.is_multi_cell()) {
          return Failed(std::move(result),
                        Invalid(fmt::format("Cannot drop non-frozen column {} of user type {}",
                                            n.text, c.type.ToCql()),
                                n.where));
        }
        std::string dependent;
        for (const IndexSpec& i : next.indexes) {
          if (i.column == index) dependent += (dependent.empty() ? "" : ", ") + i.name;
        }
        if (!dependent.empty()) {
          return Failed(std::move(result),
                        Invalid(fmt::format("Cannot drop column {} because it has dependent "
                                            "secondary indexes ({})",
                                            n.text, dependent),
                                n.where));
        }
        if (has_views) {
          return Failed(std::move(result),
                        Invalid(fmt::format("Cannot drop column {} on base table {} with "
                                            "materialized views",
                                            n.text, t.name),
                                n.where));
        }
        next.dropped.erase(std::remove_if(next.dropped.begin(), next.dropped.end(),
                                          [&](const DroppedColumn& d) { return d.name == n.text; }),
                           next.dropped.end());
        next.dropped.push_back(DroppedColumn{c.name, c.type, c.kind == ColumnKind::kStatic});
        std::vector<std::string> names = IndexColumnNames(next);
        next.columns.erase(next.columns.begin() + index);
        next.Reindex(names);
      }
      break;
    }
    case AlterTableStatement::Kind::kRename: {
      for (const auto& [from, to] : s.renames) {
        int index = next.IndexOf(from.text);
        if (index < 0) {
          if (s.if_column_exists) continue;
          return Failed(std::move(result),
                        Invalid(fmt::format("Column {} was not found in table {}", from.text,
                                            qualified),
                                from.where));
        }
        ColumnSpec& c = next.columns[static_cast<size_t>(index)];
        if (!c.is_primary_key()) {
          return Failed(std::move(result),
                        Invalid(fmt::format("Cannot rename non PRIMARY KEY column {}", from.text),
                                from.where));
        }
        if (next.IndexOf(to.text) >= 0) {
          return Failed(std::move(result),
                        Invalid(fmt::format("Cannot rename column {} to {} in table '{}'; another "
                                            "column with that name already exists",
                                            from.text, to.text, qualified),
                                to.where));
        }
        std::string dependent;
        for (const IndexSpec& i : next.indexes) {
          if (i.column == index) dependent += (dependent.empty() ? "" : ", ") + i.name;
        }
        if (!dependent.empty()) {
          return Failed(std::move(result),
                        Invalid(fmt::format("Can't rename column {} because it has dependent "
                                            "secondary indexes ({})",
                                            from.text, dependent),
                                from.where));
        }
        // A view keeping the column renames it too (ViewMetadata.withRenamedPrimaryKeyColumn).
        for (auto& [view_name, view] : ks.views) {
          if (view.base != t.name) continue;
          auto v = ks.tables.find(view_name);
          if (v == ks.tables.end()) continue;
          for (ColumnSpec& vc : v->second->mutable_schema().columns) {
            if (vc.name == from.text) vc.name = to.text;
          }
        }
        c.name = to.text;
      }
      // The rows do not change: only names do.
      table->mutable_schema() = std::move(next);
      return Changed(std::move(result), changed);
    }
  }
  ks.tables[t.name] = Rebuild(*table, std::move(next));
  return Changed(std::move(result), changed);
}

StatementResult Session::AlterKeyspace(const AlterKeyspaceStatement& s, StatementResult result) {
  // KeyspaceAttributes.validate: a replication map names its class.
  for (const Property& p : s.properties) {
    if (p.name.text != "replication" || p.value.kind != LiteralKind::kMap) continue;
    bool has_class = p.value.elements.empty();
    for (size_t i = 0; i + 1 < p.value.elements.size(); i += 2) {
      has_class = has_class || p.value.elements[i].text == "class";
    }
    if (!has_class) {
      return Failed(std::move(result),
                    Invalid("Missing replication strategy class", p.value.where));
    }
  }
  auto ks_it = keyspaces_.find(s.keyspace.text);
  if (ks_it == keyspaces_.end()) {
    if (s.if_exists) return Nothing(std::move(result));
    return Failed(std::move(result),
                  Invalid(fmt::format("Keyspace '{}' doesn't exist", s.keyspace.text),
                          s.keyspace.where));
  }
  KeyspaceSchema next = ks_it->second.schema;
  bool have_replication = false;
  Status st = ApplyKeyspaceProperties(s.properties, next, have_replication);
  if (!st.ok()) return Failed(std::move(result), st);
  if (have_replication && replication_override_ > 0) {
    next.replication.replication_factor = replication_override_;
    for (auto& [dc, rf] : next.replication.datacenters) rf = replication_override_;
  }
  auto copies = [](const ReplicationStrategy& r) {
    if (r.strategy == ReplicationStrategy::Class::kSimple) return r.replication_factor;
    int n = 0;
    for (const auto& [dc, rf] : r.datacenters) n += rf;
    return n;
  };
  if (copies(next.replication) > copies(ks_it->second.schema.replication)) {
    result.warnings.push_back(
        "When increasing replication factor you need to run a full (-full) repair to distribute "
        "the data.");
  }
  ks_it->second.schema = std::move(next);
  return Changed(std::move(result), fmt::format("UPDATED KEYSPACE {}", s.keyspace.text));
}

}  // namespace partplay::cql
