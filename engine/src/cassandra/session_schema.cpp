// The session's schema objects beyond keyspaces and tables: user-defined types, secondary
// indexes and materialized views (CREATE / DROP), with Cassandra 4's messages.
#include <fmt/format.h>

#include <algorithm>

#include "cassandra/session_results.h"
#include "partplay/cassandra/session.h"
#include "partplay/core/limits.h"

namespace partplay::cql {

using internal::Changed;
using internal::Failed;
using internal::Invalid;
using internal::Nothing;

namespace {

// Whether `type` uses the user-defined type `name` anywhere inside it.
bool UsesType(const CqlType& type, const std::string& name) {
  if (type.kind == TypeKind::kUdt && type.udt_name == name) return true;
  for (const CqlType& p : type.params) {
    if (UsesType(p, name)) return true;
  }
  return false;
}

// Replaces every copy of the user-defined type ks.name inside `type` by `updated` (keeping
// whether each copy is frozen): a resolved type holds its user types by value.
void ReplaceUserType(CqlType& type, const std::string& keyspace, const std::string& name,
                     const CqlType& updated) {
  if (type.kind == TypeKind::kUdt && type.udt_name == name && type.udt_keyspace == keyspace) {
    bool frozen = type.frozen;
    type = updated;
    type.frozen = frozen;
    return;
  }
  for (CqlType& p : type.params) ReplaceUserType(p, keyspace, name, updated);
}

}  // namespace

Status Session::ResolveType(CqlType& type, const Keyspace& ks, const SourceLocation& where) const {
  return ResolveUserTypes(type, ks.schema.name, ks.types, where);
}

StatementResult Session::CreateType(const CreateTypeStatement& s, StatementResult result) {
  StatusOr<Keyspace*> found = ResolveKeyspace(s.type.keyspace, s.type.where);
  if (!found.ok()) return Failed(std::move(result), found.status());
  Keyspace& ks = *found.value();
  const std::string& name = s.type.table;
  if (ks.types.count(name)) {
    if (s.if_not_exists) return Nothing(std::move(result));
    return Failed(
        std::move(result),
        Invalid(fmt::format("A user type with name '{}' already exists", name), s.type.where));
  }
  StatusOr<CqlType> udt = BuildUserType(s, ks.schema.name, ks.types);
  if (!udt.ok()) return Failed(std::move(result), udt.status());
  ks.types.emplace(name, std::move(udt).value());
  ks.type_order.push_back(name);
  return Changed(std::move(result), fmt::format("CREATED TYPE {}.{}", ks.schema.name, name));
}

// AlterTypeStatement (Cassandra 4.x and 5.0): ADD a field (values written before it read it as
// null), RENAME fields; changing a field's type is refused. Every table, view and user type
// holding the type sees the change.
StatementResult Session::AlterType(const AlterTypeStatement& s, StatementResult result) {
  std::string ks_name = s.type.keyspace.empty() ? current_keyspace_ : s.type.keyspace;
  if (ks_name.empty()) {
    StatusOr<Keyspace*> none = ResolveKeyspace(s.type.keyspace, s.type.where);
    return Failed(std::move(result), none.status());
  }
  const std::string& name = s.type.table;
  auto ks_it = keyspaces_.find(ks_name);
  const CqlType* existing = nullptr;
  if (ks_it != keyspaces_.end()) {
    auto type_it = ks_it->second.types.find(name);
    if (type_it != ks_it->second.types.end()) existing = &type_it->second;
  }
  if (existing == nullptr) {
    if (s.if_exists) return Nothing(std::move(result));
    return Failed(std::move(result),
                  Invalid(fmt::format("Type {}.{} doesn't exist", ks_name, name), s.type.where));
  }
  Keyspace& ks = ks_it->second;
  CqlType updated = *existing;
  std::string cql_name = QuoteName(ks_name) + "." + QuoteName(name);
  auto position = [&](const std::vector<std::string>& names, const std::string& field) {
    return std::find(names.begin(), names.end(), field) - names.begin();
  };
  switch (s.kind) {
    case AlterTypeStatement::Kind::kAlterField:
      return Failed(std::move(result),
                    Invalid("Altering field types is no longer supported", s.field.where));
    case AlterTypeStatement::Kind::kAdd: {
      if (position(updated.field_names, s.field.text) <
          static_cast<std::ptrdiff_t>(updated.field_names.size())) {
        if (s.if_field_exists) return Nothing(std::move(result));
        return Failed(std::move(result),
                      Invalid(fmt::format("Cannot add field {} to type {}: a field with name {} "
                                          "already exists",
                                          QuoteName(s.field.text), cql_name,
                                          QuoteName(s.field.text)),
                              s.field.where));
      }
      if (updated.field_names.size() >= static_cast<size_t>(kCqlMaxTupleComponents)) {
        return Failed(std::move(result),
                      Invalid(fmt::format("a user-defined type has at most {} fields",
                                          kCqlMaxTupleComponents),
                              s.field.where));
      }
      CqlType field_type = s.field_type;
      if (UsesType(field_type, name)) {
        return Failed(std::move(result),
                      Invalid(fmt::format("Cannot add new field {} of type {} to user type {} as "
                                          "it would create a circular reference",
                                          QuoteName(s.field.text), field_type.ToCql(), cql_name),
                              s.field_type_where));
      }
      std::string raw_type = field_type.ToCql();
      Status resolved = ResolveUserTypes(field_type, ks_name, ks.types, s.field_type_where);
      if (!resolved.ok()) return Failed(std::move(result), resolved);
      if (field_type.References(TypeKind::kCounter)) {
        return Failed(std::move(result),
                      Invalid("A user type cannot contain counters", s.field_type_where));
      }
      if (field_type.kind == TypeKind::kUdt && !field_type.frozen) {
        return Failed(std::move(result), Invalid("A user type cannot contain non-frozen UDTs",
                                                 s.field_type_where));
      }
      std::vector<std::string> keyed;
      for (const auto& [table_name, table] : ks.tables) {
        for (const ColumnSpec& c : table->schema().columns) {
          if (c.kind == ColumnKind::kPartitionKey && UsesType(c.type, name)) {
            keyed.push_back(QuoteName(ks_name) + "." + QuoteName(table_name));
            break;
          }
        }
      }
      if (!keyed.empty()) {
        std::string list;
        for (const std::string& t : keyed) list += (list.empty() ? "" : ", ") + t;
        return Failed(std::move(result),
                      Invalid(fmt::format("Cannot add new field {} of type {} to user type {} as "
                                          "the type is being used in partition key by the "
                                          "following tables: {}",
                                          QuoteName(s.field.text), raw_type, cql_name, list),
                              s.type.where));
      }
      updated.field_names.push_back(s.field.text);
      updated.params.push_back(std::move(field_type));
      break;
    }
    case AlterTypeStatement::Kind::kRename: {
      std::vector<std::string> names = updated.field_names;
      for (const auto& [from, to] : s.renames) {
        auto at = position(updated.field_names, from.text);
        if (at == static_cast<std::ptrdiff_t>(updated.field_names.size())) {
          if (s.if_field_exists) continue;
          // Cassandra's own spelling, "Unkown", kept.
          return Failed(std::move(result),
                        Invalid(fmt::format("Unkown field {} in user type {}",
                                            QuoteName(from.text), cql_name),
                                from.where));
        }
        names[static_cast<size_t>(at)] = to.text;
      }
      for (size_t i = 0; i < names.size(); ++i) {
        if (std::count(names.begin(), names.end(), names[i]) > 1) {
          // RenameFields formats "Duplicate field name %s in type %s" with the keyspace as its
          // second argument, so Cassandra names the keyspace there.
          SourceLocation at = s.type.where;
          for (const auto& [from, to] : s.renames) {
            if (to.text == names[i]) at = to.where;
          }
          return Failed(std::move(result),
                        Invalid(fmt::format("Duplicate field name {} in type {}",
                                            QuoteName(names[i]), ks_name),
                                at));
        }
      }
      updated.field_names = std::move(names);
      break;
    }
  }
  for (auto& [type_name, type] : ks.types) {
    if (type_name == name) continue;
    for (CqlType& p : type.params) ReplaceUserType(p, ks_name, name, updated);
  }
  for (auto& [table_name, table] : ks.tables) {
    for (ColumnSpec& c : table->mutable_schema().columns) {
      ReplaceUserType(c.type, ks_name, name, updated);
    }
  }
  ks.types[name] = std::move(updated);
  return Changed(std::move(result), fmt::format("UPDATED TYPE {}.{}", ks_name, name));
}

StatementResult Session::CreateIndex(const CreateIndexStatement& s, StatementResult result) {
  StatusOr<Keyspace*> found = ResolveKeyspace(s.table.keyspace, s.table.where);
  if (!found.ok()) return Failed(std::move(result), found.status());
  Keyspace& ks = *found.value();
  auto table_it = ks.tables.find(s.table.table);
  if (table_it == ks.tables.end()) {
    return Failed(std::move(result),
                  Invalid(fmt::format("Table '{}' doesn't exist", s.table.table), s.table.where));
  }
  Table& table = *table_it->second;
  TableSchema& schema = table.mutable_schema();
  auto name_taken = [&](const std::string& n) {
    for (const auto& [tn, t] : ks.tables) {
      for (const IndexSpec& i : t->schema().indexes) {
        if (i.name == n) return true;
      }
    }
    return false;
  };
  if (!s.name.text.empty() && name_taken(s.name.text)) {
    if (s.if_not_exists) return Nothing(std::move(result));
    return Failed(std::move(result),
                  Invalid(fmt::format("Index '{}' already exists", s.name.text), s.name.where));
  }
  if (schema.is_counter()) {
    return Failed(std::move(result),
                  Invalid("Secondary indexes on counter tables aren't supported", s.table.where));
  }
  if (schema.is_view()) {
    return Failed(std::move(result), Invalid("Secondary indexes on materialized views aren't "
                                             "supported",
                                             s.table.where));
  }
  if (s.targets.empty() && !s.custom) {
    return Failed(std::move(result), Invalid("Only CUSTOM indexes can be created without "
                                             "specifying a target column",
                                             s.table.where));
  }
  if (s.targets.size() > 1 && !s.custom) {
    return Failed(std::move(result), Invalid("Only CUSTOM indexes support multiple columns",
                                             s.targets[1].column.where));
  }
  std::vector<IndexSpec> made;
  for (const IndexTarget& target : s.targets) {
    const SourceLocation& at = target.column.where;
    int column = schema.IndexOf(target.column.text);
    if (column < 0) {
      return Failed(std::move(result),
                    Invalid(fmt::format("Column '{}' doesn't exist", target.column.text), at));
    }
    for (const IndexSpec& m : made) {
      if (m.column == column) {
        return Failed(
            std::move(result),
            Invalid(fmt::format("Duplicate column '{}' in index target list", target.column.text),
                    at));
      }
    }
    const ColumnSpec& c = schema.columns[static_cast<size_t>(column)];
    const CqlType& type = c.type;
    if (type.References(TypeKind::kDuration)) {
      std::string_view what = type.is_collection()            ? "collections containing durations"
                              : type.kind == TypeKind::kTuple ? "tuples containing durations"
                              : type.kind == TypeKind::kUdt   ? "UDTs containing durations"
                                                              : "duration columns";
      return Failed(std::move(result),
                    Invalid(fmt::format("Secondary indexes are not supported on {}", what), at));
    }
    if (c.kind == ColumnKind::kPartitionKey && schema.partition_key.size() == 1) {
      return Failed(std::move(result),
                    Invalid(fmt::format("Cannot create secondary index on the only partition key "
                                        "column {}",
                                        c.name),
                            at));
    }
    IndexTarget::Kind kind = target.kind;
    // IndexTarget.Raw.simpleIndexOn: a non-frozen collection's plain target is its values.
    if (kind == IndexTarget::Kind::kSimple && type.is_collection() && !type.frozen) {
      kind = IndexTarget::Kind::kValues;
    }
    static constexpr std::string_view kKindNames[] = {"simple", "values", "keys", "entries",
                                                      "full"};
    std::string_view kind_name = kKindNames[static_cast<size_t>(kind)];
    bool frozen_collection = type.is_collection() && type.frozen;
    if (frozen_collection && kind != IndexTarget::Kind::kFull) {
      return Failed(std::move(result),
                    Invalid(fmt::format("Cannot create {}() index on frozen column {}. Frozen "
                                        "collections are immutable and must be fully indexed by "
                                        "using the 'full({})' modifier",
                                        kind_name, c.name, c.name),
                            at));
    }
    if (!frozen_collection && kind == IndexTarget::Kind::kFull) {
      return Failed(std::move(result),
                    Invalid("full() indexes can only be created on frozen collections", at));
    }
    if (!type.is_collection() && kind != IndexTarget::Kind::kSimple) {
      return Failed(std::move(result),
                    Invalid(fmt::format("Cannot create {}() index on {}. Non-collection columns "
                                        "only support simple indexes",
                                        kind_name, c.name),
                            at));
    }
    bool multi_cell_map = type.kind == TypeKind::kMap && !type.frozen;
    if (!multi_cell_map &&
        (kind == IndexTarget::Kind::kKeys || kind == IndexTarget::Kind::kEntries)) {
      return Failed(std::move(result),
                    Invalid(fmt::format("Cannot create index on {} of column {} with non-map type",
                                        kind_name, c.name),
                            at));
    }
    if (type.kind == TypeKind::kUdt && !type.frozen) {
      return Failed(
          std::move(result),
          Invalid(fmt::format("Cannot create index on non-frozen UDT column {}", c.name), at));
    }
    IndexSpec spec;
    spec.column = column;
    spec.target = kind;
    spec.class_name = s.using_class;
    spec.options = s.properties;
    made.push_back(std::move(spec));
  }
  std::string name = s.name.text;
  if (name.empty()) {
    // IndexMetadata.generateDefaultIndexName, then findAvailableIndexName's _1, _2 ...
    std::string base = s.table.table + "_" +
                       (made.size() == 1 ? schema.columns[static_cast<size_t>(made[0].column)].name
                                         : std::string()) +
                       "_idx";
    if (made.size() != 1) base = s.table.table + "_idx";
    name = base;
    for (int i = 1; name_taken(name); ++i) name = fmt::format("{}_{}", base, i);
  }
  for (IndexSpec& m : made) {
    m.name = name;
    for (const IndexSpec& existing : schema.indexes) {
      if (existing.column == m.column && existing.target == m.target &&
          existing.class_name == m.class_name) {
        if (s.if_not_exists) return Nothing(std::move(result));
        return Failed(std::move(result),
                      Invalid(fmt::format("Index {} is a duplicate of existing index {}", name,
                                          existing.name),
                              s.table.where));
      }
    }
  }
  for (IndexSpec& m : made) schema.indexes.push_back(std::move(m));
  return Changed(std::move(result),
                 fmt::format("UPDATED TABLE {}.{} (index {})", ks.schema.name, schema.name, name));
}

StatementResult Session::CreateView(const CreateViewStatement& s, StatementResult result) {
  StatusOr<Keyspace*> found = ResolveKeyspace(s.view.keyspace, s.view.where);
  if (!found.ok()) return Failed(std::move(result), found.status());
  Keyspace& ks = *found.value();
  if (!s.base.keyspace.empty() && s.base.keyspace != ks.schema.name) {
    return Failed(std::move(result), Invalid("Cannot create a materialized view on a table in a "
                                             "different keyspace",
                                             s.base.where));
  }
  auto base_it = ks.tables.find(s.base.table);
  if (base_it == ks.tables.end()) {
    return Failed(
        std::move(result),
        Invalid(fmt::format("Base table '{}' doesn't exist", s.base.table), s.base.where));
  }
  auto existing = ks.tables.find(s.view.table);
  if (existing != ks.tables.end()) {
    if (existing->second->schema().is_view()) {
      if (s.if_not_exists) return Nothing(std::move(result));
      return Failed(std::move(result),
                    Invalid(fmt::format("Cannot add already existing table \"{}\" to keyspace "
                                        "\"{}\"",
                                        s.view.table, ks.schema.name),
                            s.view.where));
    }
    return Failed(std::move(result),
                  Invalid(fmt::format("Cannot create materialized view '{}' - a table with the "
                                      "same name already exists",
                                      s.view.table),
                          s.view.where));
  }
  Table& base = *base_it->second;
  StatusOr<BuiltView> built = BuildView(s, base.schema(), ks.schema.name);
  if (!built.ok()) return Failed(std::move(result), built.status());
  auto view = std::make_unique<Table>(std::move(built.value().schema));
  ViewState& state = ks.views.emplace(s.view.table, std::move(built.value().state)).first->second;
  // The view is built from the rows already in the base table, then follows its writes.
  bool cleared = false;
  base.TakeTouched(cleared);
  base.set_track_writes(true);
  SyncView(base, {}, /*rebuild_all=*/true, *view, state);
  ks.tables.emplace(s.view.table, std::move(view));
  result.warnings.push_back(
      "Materialized views are experimental and are not recommended for production use.");
  return Changed(std::move(result),
                 fmt::format("CREATED MATERIALIZED VIEW {}.{}", ks.schema.name, s.view.table));
}

StatementResult Session::DropSchemaObject(const DropSchemaObjectStatement& s,
                                          StatementResult result) {
  StatusOr<Keyspace*> found = ResolveKeyspace(s.name.keyspace, s.name.where);
  if (!found.ok()) {
    if (s.if_exists && found.status().code() == ErrorCode::kCqlUnknown) {
      return Nothing(std::move(result));
    }
    return Failed(std::move(result), found.status());
  }
  Keyspace& ks = *found.value();
  const std::string& name = s.name.table;
  switch (s.kind) {
    case DropSchemaObjectStatement::Kind::kIndex:
      for (auto& [tn, t] : ks.tables) {
        std::vector<IndexSpec>& indexes = t->mutable_schema().indexes;
        auto gone = std::remove_if(indexes.begin(), indexes.end(),
                                   [&](const IndexSpec& i) { return i.name == name; });
        if (gone != indexes.end()) {
          indexes.erase(gone, indexes.end());
          return Changed(std::move(result), fmt::format("UPDATED TABLE {}.{} (index {} dropped)",
                                                        ks.schema.name, tn, name));
        }
      }
      if (s.if_exists) return Nothing(std::move(result));
      return Failed(
          std::move(result),
          Invalid(fmt::format("Index '{}.{}' doesn't exist'", ks.schema.name, name), s.name.where));
    case DropSchemaObjectStatement::Kind::kType: {
      if (!ks.types.count(name)) {
        if (s.if_exists) return Nothing(std::move(result));
        return Failed(
            std::move(result),
            Invalid(fmt::format("Type '{}.{}' doesn't exist", ks.schema.name, name), s.name.where));
      }
      for (const auto& [other, type] : ks.types) {
        for (const CqlType& f : type.params) {
          if (UsesType(f, name)) {
            return Failed(std::move(result),
                          Invalid(fmt::format("Cannot drop user type {}.{} as it is still used by "
                                              "user type {}",
                                              ks.schema.name, name, other),
                                  s.name.where));
          }
        }
      }
      for (const auto& [tn, t] : ks.tables) {
        for (const ColumnSpec& c : t->schema().columns) {
          if (UsesType(c.type, name)) {
            return Failed(std::move(result),
                          Invalid(fmt::format("Cannot drop user type {}.{} as it is still used by "
                                              "table {}.{}",
                                              ks.schema.name, name, ks.schema.name, tn),
                                  s.name.where));
          }
        }
      }
      ks.types.erase(name);
      ks.type_order.erase(std::find(ks.type_order.begin(), ks.type_order.end(), name));
      return Changed(std::move(result), fmt::format("DROPPED TYPE {}.{}", ks.schema.name, name));
    }
    case DropSchemaObjectStatement::Kind::kView: {
      auto it = ks.tables.find(name);
      if (it == ks.tables.end() || !it->second->schema().is_view()) {
        if (s.if_exists) return Nothing(std::move(result));
        return Failed(
            std::move(result),
            Invalid(fmt::format("Materialized view '{}.{}' doesn't exist", ks.schema.name, name),
                    s.name.where));
      }
      std::string base = it->second->schema().view_base;
      ks.tables.erase(it);
      ks.views.erase(name);
      bool still_viewed = false;
      for (const auto& [vn, state] : ks.views) still_viewed |= state.base == base;
      auto base_it = ks.tables.find(base);
      if (!still_viewed && base_it != ks.tables.end()) base_it->second->set_track_writes(false);
      return Changed(std::move(result),
                     fmt::format("DROPPED MATERIALIZED VIEW {}.{}", ks.schema.name, name));
    }
  }
  return Nothing(std::move(result));
}

void Session::SyncViews(Table& base) {
  if (!base.track_writes()) return;
  bool cleared = false;
  std::set<PartitionKey> touched = base.TakeTouched(cleared);
  if (touched.empty() && !cleared) return;
  auto ks = keyspaces_.find(base.schema().keyspace);
  if (ks == keyspaces_.end()) return;
  for (auto& [view_name, state] : ks->second.views) {
    if (state.base != base.schema().name) continue;
    auto view = ks->second.tables.find(view_name);
    if (view == ks->second.tables.end()) continue;
    SyncView(base, touched, cleared, *view->second, state);
  }
}

}  // namespace partplay::cql
