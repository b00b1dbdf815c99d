#include "partplay/cassandra/schema.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "cassandra/reserved_words.h"
#include "partplay/core/limits.h"
#include "partplay/core/numbers.h"
#include "partplay/core/utf8.h"

namespace partplay::cql {
namespace {

Status Invalid(std::string message, const SourceLocation& where) {
  return Status(ErrorCode::kCqlInvalidRequest, std::move(message), where);
}

std::string StripLocatorPrefix(std::string_view cls) {
  constexpr std::string_view kPrefix = "org.apache.cassandra.locator.";
  if (cls.substr(0, kPrefix.size()) == kPrefix) cls.remove_prefix(kPrefix.size());
  return std::string(cls);
}

bool NeedsQuotes(std::string_view name) {
  if (name.empty() || !(name[0] >= 'a' && name[0] <= 'z')) return true;
  for (char c : name) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return true;
  }
  return IsReservedKeyword(name);
}

}  // namespace

std::string QuoteName(std::string_view name) {
  if (!NeedsQuotes(name)) return std::string(name);
  return QuotedName(name);
}

std::string QuotedName(std::string_view name) {
  std::string out = "\"";
  for (char c : name) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string ReplicationStrategy::ToCql() const {
  if (strategy == Class::kSimple) {
    return fmt::format(
        "{{'class': 'org.apache.cassandra.locator.SimpleStrategy', 'replication_factor': '{}'}}",
        replication_factor);
  }
  std::string out = "{'class': 'org.apache.cassandra.locator.NetworkTopologyStrategy'";
  for (const auto& [dc, rf] : datacenters) out += fmt::format(", '{}': '{}'", dc, rf);
  return out + "}";
}

std::string KeyspaceSchema::Describe() const {
  return fmt::format("CREATE KEYSPACE {} WITH replication = {}  AND durable_writes = {};",
                     QuoteName(name), replication.ToCql(), durable_writes ? "true" : "false");
}

Status ApplyKeyspaceProperties(const std::vector<Property>& properties, KeyspaceSchema& ks,
                               bool& have_replication) {
  for (const Property& p : properties) {
    if (p.name.text == "replication") {
      if (p.value.kind != LiteralKind::kMap) {
        return Invalid("Invalid value for property 'replication'. It should be a map.",
                       p.value.where);
      }
      std::string cls;
      std::vector<std::pair<std::string, Literal>> options;
      for (size_t i = 0; i + 1 < p.value.elements.size(); i += 2) {
        const Literal& k = p.value.elements[i];
        const Literal& v = p.value.elements[i + 1];
        if (k.kind != LiteralKind::kString) {
          return Invalid("Replication option names must be strings", k.where);
        }
        for (size_t j = 0; j < i; j += 2) {
          if (p.value.elements[j].text == k.text) {
            return Status(ErrorCode::kCqlSyntax,
                          fmt::format("Multiple definition for property {}", k.text), k.where);
          }
        }
        if (k.text == "class") {
          cls = StripLocatorPrefix(v.text);
        } else {
          options.emplace_back(k.text, v);
        }
      }
      if (cls.empty()) {
        return Invalid("Missing replication strategy class", p.value.where);
      }
      auto factor = [&](const Literal& v, int& out) -> Status {
        if ((v.kind != LiteralKind::kString && v.kind != LiteralKind::kInteger) || v.text.empty() ||
            !std::all_of(v.text.begin(), v.text.end(),
                         [](char c) { return c >= '0' && c <= '9'; }) ||
            v.text.size() > 6) {
          return Invalid(fmt::format("Replication factor must be numeric; found {}", v.text),
                         v.where);
        }
        int64_t rf = 0;
        if (!ParseInt64(v.text, rf)) {  // 1 to 6 digits: always fits
          return Invalid(fmt::format("Replication factor must be numeric; found {}", v.text),
                         v.where);
        }
        out = static_cast<int>(rf);
        return Status::Ok();
      };
      if (cls == "SimpleStrategy") {
        ks.replication.strategy = ReplicationStrategy::Class::kSimple;
        bool have_rf = false;
        for (const auto& [name, v] : options) {
          if (name != "replication_factor") {
            return Invalid(fmt::format("Unrecognized strategy option {{{}}} passed to "
                                       "SimpleStrategy for keyspace {}",
                                       name, ks.name),
                           v.where);
          }
          PARTPLAY_RETURN_IF_ERROR(factor(v, ks.replication.replication_factor));
          have_rf = true;
        }
        if (!have_rf) {
          return Invalid("SimpleStrategy requires a replication_factor strategy option.",
                         p.value.where);
        }
      } else if (cls == "NetworkTopologyStrategy") {
        ks.replication.strategy = ReplicationStrategy::Class::kNetworkTopology;
        std::map<std::string, int> dcs;
        for (const auto& [name, v] : options) {
          int rf = 0;
          PARTPLAY_RETURN_IF_ERROR(factor(v, rf));
          if (name == "replication_factor") {
            return Invalid(
                "replication_factor is an option for SimpleStrategy, not "
                "NetworkTopologyStrategy (give a factor per datacenter)",
                v.where);
          }
          dcs[name] = rf;
        }
        ks.replication.datacenters.assign(dcs.begin(), dcs.end());
      } else {
        return Invalid(fmt::format("Unable to find replication strategy class "
                                   "'org.apache.cassandra.locator.{}'",
                                   cls),
                       p.value.where);
      }
      have_replication = true;
    } else if (p.name.text == "durable_writes") {
      ks.durable_writes = p.value.text != "false";
    } else {
      return Status(ErrorCode::kCqlSyntax, fmt::format("Unknown property '{}'", p.name.text),
                    p.name.where);
    }
  }
  return Status::Ok();
}

StatusOr<KeyspaceSchema> BuildKeyspace(const CreateKeyspaceStatement& s) {
  KeyspaceSchema ks;
  ks.name = s.keyspace.text;
  bool have_replication = false;
  PARTPLAY_RETURN_IF_ERROR(ApplyKeyspaceProperties(s.properties, ks, have_replication));
  if (!have_replication) {
    return Invalid("Missing mandatory option 'replication'", s.keyspace.where);
  }
  return ks;
}

void TableSchema::Reindex(const std::vector<std::string>& index_names) {
  partition_key.clear();
  clustering.clear();
  regular.clear();
  statics.clear();
  for (size_t i = 0; i < columns.size(); ++i) {
    ColumnSpec& c = columns[i];
    int index = static_cast<int>(i);
    if (c.kind == ColumnKind::kPartitionKey) {
      partition_key.push_back(index);
    } else if (c.kind == ColumnKind::kClustering) {
      clustering.push_back(index);
    } else if (c.kind == ColumnKind::kStatic) {
      c.position = static_cast<int>(statics.size());
      statics.push_back(index);
    } else {
      c.position = static_cast<int>(regular.size());
      regular.push_back(index);
    }
  }
  auto by_position = [&](int a, int b) {
    return columns[static_cast<size_t>(a)].position < columns[static_cast<size_t>(b)].position;
  };
  std::sort(partition_key.begin(), partition_key.end(), by_position);
  std::sort(clustering.begin(), clustering.end(), by_position);
  for (size_t i = 0; i < indexes.size() && i < index_names.size(); ++i) {
    indexes[i].column = IndexOf(index_names[i]);
  }
  select_order = partition_key;
  select_order.insert(select_order.end(), clustering.begin(), clustering.end());
  auto by_name = [&](int a, int b) {
    return columns[static_cast<size_t>(a)].name < columns[static_cast<size_t>(b)].name;
  };
  std::vector<int> s = statics, r = regular;
  std::sort(s.begin(), s.end(), by_name);
  std::sort(r.begin(), r.end(), by_name);
  select_order.insert(select_order.end(), s.begin(), s.end());
  select_order.insert(select_order.end(), r.begin(), r.end());
}

const ColumnSpec* TableSchema::Find(std::string_view n) const {
  int i = IndexOf(n);
  return i < 0 ? nullptr : &columns[static_cast<size_t>(i)];
}

int TableSchema::IndexOf(std::string_view n) const {
  for (size_t i = 0; i < columns.size(); ++i) {
    if (columns[i].name == n) return static_cast<int>(i);
  }
  return -1;
}

StatusOr<TableSchema> BuildTable(const CreateTableStatement& s, std::string keyspace) {
  TableSchema t;
  t.keyspace = std::move(keyspace);
  t.name = s.table.table;
  if (s.compact_storage) {
    return Invalid("COMPACT STORAGE tables are not supported starting with version 4.0",
                   s.table.where);
  }
  for (const ColumnDefinition& c : s.columns) {
    if (t.IndexOf(c.name.text) >= 0) {
      return Invalid(fmt::format("Multiple definition of identifier {}", c.name.text),
                     c.name.where);
    }
    ColumnSpec spec;
    spec.name = c.name.text;
    spec.type = c.type;
    spec.kind = c.is_static ? ColumnKind::kStatic : ColumnKind::kRegular;
    t.columns.push_back(std::move(spec));
  }
  if (s.primary_keys.empty()) {
    return Invalid(
        fmt::format("No PRIMARY KEY specifed for table '{}' (exactly one required)", t.name),
        s.table.where);
  }
  if (s.primary_keys.size() > 1) {
    return Invalid(fmt::format("Multiple PRIMARY KEYs specified for table '{}' (exactly one "
                               "required)",
                               t.name),
                   s.primary_keys[1].where);
  }
  const PrimaryKeyClause& pk = s.primary_keys[0];
  auto claim = [&](const Name& n, ColumnKind kind, std::vector<int>& into) -> Status {
    int i = t.IndexOf(n.text);
    if (i < 0) {
      return Invalid(fmt::format("Unknown definition {} referenced in PRIMARY KEY", n.text),
                     n.where);
    }
    ColumnSpec& c = t.columns[static_cast<size_t>(i)];
    if (c.is_primary_key()) {
      return Invalid(fmt::format("Duplicate column '{}' in PRIMARY KEY", n.text), n.where);
    }
    if (c.kind == ColumnKind::kStatic) {
      return Invalid(fmt::format("Static column {} cannot be part of the PRIMARY KEY", n.text),
                     n.where);
    }
    if (c.type.is_multi_cell()) {
      return Invalid(
          fmt::format("Invalid non-frozen {} type for PRIMARY KEY component {}",
                      c.type.kind == TypeKind::kUdt ? "user-defined" : "collection", n.text),
          n.where);
    }
    if (c.type.kind == TypeKind::kCounter) {
      return Invalid(
          fmt::format("counter type is not supported for PRIMARY KEY column '{}'", n.text),
          n.where);
    }
    if (c.type.References(TypeKind::kDuration)) {
      return Invalid(
          fmt::format("duration type is not supported for PRIMARY KEY column '{}'", n.text),
          n.where);
    }
    c.kind = kind;
    c.position = static_cast<int>(into.size());
    into.push_back(i);
    return Status::Ok();
  };
  for (const Name& n : pk.partition_key) {
    PARTPLAY_RETURN_IF_ERROR(claim(n, ColumnKind::kPartitionKey, t.partition_key));
  }
  for (const Name& n : pk.clustering) {
    PARTPLAY_RETURN_IF_ERROR(claim(n, ColumnKind::kClustering, t.clustering));
  }
  for (size_t i = 0; i < t.columns.size(); ++i) {
    ColumnSpec& c = t.columns[i];
    if (c.kind == ColumnKind::kStatic) {
      if (t.clustering.empty()) {
        return Invalid(
            "Static columns are only useful (and thus allowed) if the table has at "
            "least one clustering column",
            s.columns[i].name.where);
      }
      c.position = static_cast<int>(t.statics.size());
      t.statics.push_back(static_cast<int>(i));
    } else if (c.kind == ColumnKind::kRegular) {
      c.position = static_cast<int>(t.regular.size());
      t.regular.push_back(static_cast<int>(i));
    }
  }
  // CreateTableStatement: counters and other columns do not mix, and counters have no TTL.
  bool counters = false, others = false;
  for (size_t i = 0; i < t.columns.size(); ++i) {
    const ColumnSpec& c = t.columns[i];
    if (c.is_primary_key()) continue;
    (c.type.kind == TypeKind::kCounter ? counters : others) = true;
    if (c.type.kind != TypeKind::kCounter && c.type.References(TypeKind::kCounter)) {
      return Invalid("Counters are not allowed inside collections", s.columns[i].type_where);
    }
  }
  if (counters && others) {
    return Invalid("Cannot mix counter and non counter columns in the same table", s.table.where);
  }
  // WITH CLUSTERING ORDER BY names a prefix of the clustering columns, in their order.
  if (!s.clustering_order.empty()) {
    for (size_t i = 0; i < s.clustering_order.size(); ++i) {
      const OrderingTerm& o = s.clustering_order[i];
      const ColumnSpec* c = t.Find(o.column.text);
      if (c == nullptr || c->kind != ColumnKind::kClustering) {
        return Invalid(fmt::format("Only clustering key columns can be defined in CLUSTERING "
                                   "ORDER directive: {} is not a clustering column",
                                   o.column.text),
                       o.column.where);
      }
      if (static_cast<size_t>(c->position) != i) {
        const std::string& expected = t.clustering_column(i).name;
        bool named = std::any_of(s.clustering_order.begin(), s.clustering_order.end(),
                                 [&](const OrderingTerm& x) { return x.column.text == expected; });
        if (!named) {
          return Invalid(fmt::format("Missing CLUSTERING ORDER for column {}", expected),
                         o.column.where);
        }
        return Invalid(fmt::format("The order of columns in the CLUSTERING ORDER directive must "
                                   "match that of the clustering columns ({} must appear before "
                                   "{})",
                                   expected, o.column.text),
                       o.column.where);
      }
    }
    // A prefix is enough: the clustering columns after it keep ASC (CreateTableStatement checks
    // only the columns the directive names).
    for (size_t i = 0; i < s.clustering_order.size(); ++i) {
      t.columns[static_cast<size_t>(t.clustering[i])].descending = s.clustering_order[i].descending;
    }
  }
  PARTPLAY_RETURN_IF_ERROR(ApplyTableOptions(s.properties, t));
  // SELECT *: partition key, clustering, then the static columns and then the regular ones, each
  // group by name (Cassandra 4's RegularAndStaticColumns: statics before regulars).
  t.select_order = t.partition_key;
  t.select_order.insert(t.select_order.end(), t.clustering.begin(), t.clustering.end());
  auto by_name = [&](int a, int b) {
    return t.columns[static_cast<size_t>(a)].name < t.columns[static_cast<size_t>(b)].name;
  };
  std::vector<int> statics = t.statics, regular = t.regular;
  std::sort(statics.begin(), statics.end(), by_name);
  std::sort(regular.begin(), regular.end(), by_name);
  t.select_order.insert(t.select_order.end(), statics.begin(), statics.end());
  t.select_order.insert(t.select_order.end(), regular.begin(), regular.end());
  return t;
}

Status ResolveUserTypes(CqlType& type, const std::string& keyspace,
                        const std::map<std::string, CqlType>& types, const SourceLocation& where) {
  if (type.kind == TypeKind::kUdt && type.field_names.empty()) {
    if (!type.udt_keyspace.empty() && type.udt_keyspace != keyspace) {
      return Invalid(fmt::format("Statement on keyspace {} cannot refer to a user type in keyspace "
                                 "{}; user types can only be used in the keyspace they are "
                                 "defined in",
                                 keyspace, type.udt_keyspace),
                     where);
    }
    auto it = types.find(type.udt_name);
    if (it == types.end()) {
      return Status(ErrorCode::kCqlUnknown,
                    fmt::format("Unknown type {}.{}", keyspace, type.udt_name), where);
    }
    bool frozen = type.frozen;
    type = it->second;
    type.frozen = frozen;
    return Status::Ok();
  }
  for (CqlType& p : type.params) {
    PARTPLAY_RETURN_IF_ERROR(ResolveUserTypes(p, keyspace, types, where));
  }
  return Status::Ok();
}

StatusOr<CqlType> BuildUserType(const CreateTypeStatement& s, const std::string& keyspace,
                                const std::map<std::string, CqlType>& types) {
  const std::string& name = s.type.table;
  CqlType udt;
  udt.kind = TypeKind::kUdt;
  udt.udt_keyspace = keyspace;
  udt.udt_name = name;
  for (size_t i = 0; i < s.field_names.size(); ++i) {
    const Name& field = s.field_names[i];
    const SourceLocation& at = s.field_type_where[i];
    if (std::find(udt.field_names.begin(), udt.field_names.end(), field.text) !=
        udt.field_names.end()) {
      return Invalid(fmt::format("Duplicate field name '{}' in type '{}'", field.text, name),
                     field.where);
    }
    CqlType type = s.field_types[i];
    if (type.kind == TypeKind::kUdt && type.udt_name == name && type.field_names.empty()) {
      return Invalid(fmt::format("User type {}.{} cannot refer to itself", keyspace, name), at);
    }
    PARTPLAY_RETURN_IF_ERROR(ResolveUserTypes(type, keyspace, types, at));
    if (type.References(TypeKind::kCounter)) {
      return Invalid("A user type cannot contain counters", at);
    }
    if (type.kind == TypeKind::kUdt && !type.frozen) {
      return Invalid("A user type cannot contain non-frozen UDTs", at);
    }
    udt.field_names.push_back(field.text);
    udt.params.push_back(std::move(type));
  }
  return udt;
}

int64_t FixedValueSize(const CqlType& type) {
  if (type.is_vector()) return VectorElementFixedSize(type);  // elements with no length
  if (!type.is_composite()) return FixedSize(type.kind);
  int64_t total = 0;
  for (const CqlType& p : type.params) {
    int64_t field = FixedValueSize(p);
    if (field == 0) return 0;
    total += 4 + field;
  }
  return total;
}

bool IndexSpec::sai() const {
  return class_name == "StorageAttachedIndex" || class_name == "sai" ||
         class_name == "org.apache.cassandra.index.sai.StorageAttachedIndex";
}

bool IndexSpec::Supports(Operator op) const {
  switch (target) {
    case IndexTarget::Kind::kKeys:
      return op == Operator::kContainsKey;
    case IndexTarget::Kind::kValues:
      return op == Operator::kContains;
    case IndexTarget::Kind::kEntries:
      return false;  // m[key] = value: not part of the modelled WHERE clause
    case IndexTarget::Kind::kFull:
    case IndexTarget::Kind::kSimple:
      if (op == Operator::kEq) return true;
      // SAI (and SASI) answer ranges on non-collection columns too.
      return IsSlice(op) && !class_name.empty();
  }
  return false;
}

bool TableSchema::is_counter() const {
  for (const ColumnSpec& c : columns) {
    if (c.type.kind == TypeKind::kCounter) return true;
  }
  return false;
}

std::vector<const IndexSpec*> TableSchema::IndexesOn(int column) const {
  std::vector<const IndexSpec*> out;
  for (const IndexSpec& i : indexes) {
    if (i.column == column) out.push_back(&i);
  }
  return out;
}

std::string TableSchema::DescribeIndex(const IndexSpec& index) const {
  const std::string& column = QuoteName(columns[static_cast<size_t>(index.column)].name);
  std::string target = column;
  switch (index.target) {
    case IndexTarget::Kind::kKeys:
      target = "keys(" + column + ")";
      break;
    case IndexTarget::Kind::kEntries:
      target = "entries(" + column + ")";
      break;
    case IndexTarget::Kind::kFull:
      target = "full(" + column + ")";
      break;
    case IndexTarget::Kind::kValues:
      target = "values(" + column + ")";
      break;
    case IndexTarget::Kind::kSimple:
      break;
  }
  std::string out =
      fmt::format("CREATE {}INDEX {} ON {}.{} ({})", index.class_name.empty() ? "" : "CUSTOM ",
                  QuoteName(index.name), QuoteName(keyspace), QuoteName(name), target);
  if (!index.class_name.empty()) out += fmt::format(" USING '{}'", index.class_name);
  return out + ";";
}

std::string DescribeType(const CqlType& udt) {
  std::string out =
      fmt::format("CREATE TYPE {}.{} (\n", QuoteName(udt.udt_keyspace), QuoteName(udt.udt_name));
  for (size_t i = 0; i < udt.params.size(); ++i) {
    out += fmt::format("    {} {}{}\n", QuoteName(udt.field_names[i]), udt.params[i].ToCql(),
                       i + 1 < udt.params.size() ? "," : "");
  }
  return out + ");";
}

std::string TableSchema::Describe() const {
  std::string out = fmt::format("CREATE TABLE {}.{} (\n", QuoteName(keyspace), QuoteName(name));
  if (is_view()) {
    std::string selected;
    if (view_star) {
      selected = "*";
    } else {
      for (int i : select_order) {
        selected +=
            (selected.empty() ? "" : ", ") + QuoteName(columns[static_cast<size_t>(i)].name);
      }
    }
    out = fmt::format(
        "CREATE MATERIALIZED VIEW {}.{} AS\n    SELECT {}\n    FROM {}.{}\n    WHERE "
        "{}\n",
        QuoteName(keyspace), QuoteName(name), selected, QuoteName(keyspace), QuoteName(view_base),
        view_where);
  }
  bool inline_key = partition_key.size() == 1 && clustering.empty() && !is_view();
  for (int i : is_view() ? std::vector<int>{} : select_order) {
    const ColumnSpec& c = columns[static_cast<size_t>(i)];
    out += fmt::format("    {} {}", QuoteName(c.name), c.type.ToCql());
    if (c.kind == ColumnKind::kStatic) out += " static";
    if (inline_key && c.kind == ColumnKind::kPartitionKey) out += " PRIMARY KEY";
    out += ",\n";
  }
  if (inline_key) {
    out.erase(out.size() - 2, 1);  // the last comma
  } else {
    std::string key;
    if (partition_key.size() == 1) {
      key = QuoteName(partition_column(0).name);
    } else {
      key = "(";
      for (size_t i = 0; i < partition_key.size(); ++i) {
        key += (i ? ", " : "") + QuoteName(partition_column(i).name);
      }
      key += ")";
    }
    for (size_t i = 0; i < clustering.size(); ++i)
      key += ", " + QuoteName(clustering_column(i).name);
    out += fmt::format("    PRIMARY KEY ({})\n", key);
  }
  if (!is_view()) out += ")";
  std::vector<std::string> options;
  if (!clustering.empty()) {
    std::string order;
    for (size_t i = 0; i < clustering.size(); ++i) {
      const ColumnSpec& c = clustering_column(i);
      order +=
          fmt::format("{}{} {}", i ? ", " : "", QuoteName(c.name), c.descending ? "DESC" : "ASC");
    }
    options.push_back(fmt::format("CLUSTERING ORDER BY ({})", order));
  }
  if (!comment.empty()) {
    std::string quoted;
    for (char c : comment) quoted += c == '\'' ? std::string("''") : std::string(1, c);
    options.push_back(fmt::format("comment = '{}'", quoted));
  }
  if (!is_view()) options.push_back(fmt::format("default_time_to_live = {}", default_ttl));
  for (size_t i = 0; i < options.size(); ++i) {
    out += (i == 0 ? " WITH " : "\n    AND ") + options[i];
  }
  out += ";";
  for (const IndexSpec& index : indexes) out += "\n\n" + DescribeIndex(index);
  return out;
}

}  // namespace partplay::cql
