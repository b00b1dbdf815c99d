#include "partplay/sizing/table_sizing.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>

#include "core/message_format.h"
#include "partplay/cassandra/parser.h"
#include "partplay/cassandra/schema.h"
#include "partplay/cassandra/views.h"
#include "partplay/sizing/redesign_advice.h"
#include "sizing/table_sizing_internal.h"

namespace partplay {

using namespace sizing_internal;

namespace {

// ---- The table in the script ----------------------------------------------------------------

struct ScriptTable {
  cql::TableSchema schema;
  std::string create_text;
  std::optional<cql::KeyspaceSchema> keyspace;
};


// The keyspace a statement names, or the current one (USE).
std::string KeyspaceOf(const cql::TableName& name, const std::string& current) {
  return name.keyspace.empty() ? current : name.keyspace;
}

// Reads a script's schema as a session would, without running its other statements: keyspaces,
// USE, user-defined types (resolved in their keyspace), tables and materialized views.
class ScriptSchema {
 public:
  void Add(const cql::Statement& statement) {
    if (auto* ks = std::get_if<cql::CreateKeyspaceStatement>(&statement.body)) {
      if (!keyspaces_.count(ks->keyspace.text)) {
        keyspaces_.emplace(ks->keyspace.text, cql::BuildKeyspace(*ks));
      }
    } else if (auto* use = std::get_if<cql::UseStatement>(&statement.body)) {
      current_ = use->keyspace.text;
    } else if (auto* type = std::get_if<cql::CreateTypeStatement>(&statement.body)) {
      std::string keyspace = KeyspaceOf(type->type, current_);
      auto& types = types_[keyspace];
      if (types.count(type->type.table)) return;
      StatusOr<cql::CqlType> udt = cql::BuildUserType(*type, keyspace, types);
      if (udt.ok()) types.emplace(type->type.table, std::move(udt).value());
    } else if (auto* create = std::get_if<cql::CreateTableStatement>(&statement.body)) {
      Record(Qualified(KeyspaceOf(create->table, current_), create->table.table), statement,
             KeyspaceOf(create->table, current_));
    } else if (auto* view = std::get_if<cql::CreateViewStatement>(&statement.body)) {
      Record(Qualified(KeyspaceOf(view->view, current_), view->view.table), statement,
             KeyspaceOf(view->view, current_));
    }
  }

  // Every table and view created, in script order (a name created twice listed once).
  const std::vector<std::string>& names() const { return names_; }
  const std::string& KeyspaceOfName(const std::string& qualified) const {
    return created_.find(qualified)->second.keyspace;
  }
  const cql::Statement& StatementOf(const std::string& qualified) const {
    return *created_.find(qualified)->second.statement;
  }
  const std::map<std::string, StatusOr<cql::KeyspaceSchema>>& keyspaces() const {
    return keyspaces_;
  }

  // The schema of the table or view `qualified` (one of names()).
  StatusOr<cql::TableSchema> Build(const std::string& qualified, int depth = 0) const {
    const Created& c = created_.find(qualified)->second;
    const std::map<std::string, cql::CqlType> no_types;
    auto types_it = types_.find(c.keyspace);
    const auto& types = types_it == types_.end() ? no_types : types_it->second;
    if (auto* create = std::get_if<cql::CreateTableStatement>(&c.statement->body)) {
      cql::CreateTableStatement resolved = *create;
      for (cql::ColumnDefinition& column : resolved.columns) {
        PARTPLAY_RETURN_IF_ERROR(
            cql::ResolveUserTypes(column.type, c.keyspace, types, column.type_where));
      }
      return cql::BuildTable(resolved, c.keyspace);
    }
    const auto& view = *std::get_if<cql::CreateViewStatement>(&c.statement->body);
    std::string base = Qualified(c.keyspace, view.base.table);
    if (!created_.count(base) || depth > 0) {
      return Status(ErrorCode::kCqlInvalidRequest,
                    fmt::format("Base table '{}' doesn't exist", view.base.table), view.base.where);
    }
    PARTPLAY_ASSIGN_OR_RETURN(cql::TableSchema base_schema, Build(base, depth + 1));
    PARTPLAY_ASSIGN_OR_RETURN(cql::BuiltView built, cql::BuildView(view, base_schema, c.keyspace));
    return std::move(built.schema);
  }

 private:
  struct Created {
    const cql::Statement* statement;
    std::string keyspace;
  };
  void Record(const std::string& qualified, const cql::Statement& statement,
              const std::string& keyspace) {
    if (created_.count(qualified)) return;  // IF NOT EXISTS again: the first one stands
    created_.emplace(qualified, Created{&statement, keyspace});
    names_.push_back(qualified);
  }

  std::string current_;
  std::map<std::string, StatusOr<cql::KeyspaceSchema>> keyspaces_;
  std::map<std::string, std::map<std::string, cql::CqlType>> types_;
  std::map<std::string, Created> created_;
  std::vector<std::string> names_;
};

StatusOr<ScriptTable> FindTable(std::string_view script, std::string_view wanted) {
  auto [wanted_keyspace, wanted_table] = SplitTableName(wanted);
  if (wanted_table.empty()) return Status(ErrorCode::kBadOption, "give the table to size");
  std::vector<StatusOr<cql::Statement>> statements = cql::ParseScript(script);
  Status first_error;
  ScriptSchema schema;
  for (const StatusOr<cql::Statement>& parsed : statements) {
    if (!parsed.ok()) {
      if (first_error.ok()) first_error = parsed.status();
      continue;
    }
    schema.Add(parsed.value());
  }
  std::vector<std::string> matches;
  for (const std::string& name : schema.names()) {
    const std::string& keyspace = schema.KeyspaceOfName(name);
    if (name == Qualified(keyspace, wanted_table) &&
        (wanted_keyspace.empty() || wanted_keyspace == keyspace)) {
      matches.push_back(name);
    }
  }
  if (matches.empty()) {
    // A statement that does not parse may be the table's: its located error says more.
    if (!first_error.ok()) return first_error;
    std::string known;
    for (const std::string& t : schema.names()) known += (known.empty() ? "" : ", ") + t;
    return Status(ErrorCode::kCqlUnknown,
                  fmt::format("table {} is not created in the script ({})", wanted,
                              known.empty() ? "it creates no table" : "it creates " + known));
  }
  if (matches.size() > 1) {
    std::string list;
    for (const std::string& t : matches) list += (list.empty() ? "" : ", ") + t;
    return Status(ErrorCode::kCqlUnknown,
                  fmt::format("table {} is ambiguous ({}): give keyspace.table", wanted, list));
  }
  PARTPLAY_ASSIGN_OR_RETURN(cql::TableSchema table, schema.Build(matches[0]));
  const std::string match_keyspace = schema.KeyspaceOfName(matches[0]);
  ScriptTable out{std::move(table), std::string(schema.StatementOf(matches[0]).text), std::nullopt};
  if (auto ks = schema.keyspaces().find(match_keyspace); ks != schema.keyspaces().end()) {
    if (!ks->second.ok()) return ks->second.status();
    out.keyspace = ks->second.value();
  }
  return out;
}

// ---- Schema to sizing input -----------------------------------------------------------------

std::vector<std::string> ColumnNames(const cql::TableSchema& t, const std::vector<int>& indexes) {
  std::vector<std::string> out;
  for (int i : indexes) out.push_back(t.columns[static_cast<size_t>(i)].name);
  return out;
}

StatusOr<SizingInput> InputFromSchema(const cql::TableSchema& t, const TableSizingRequest& r,
                                      std::vector<std::string>& notes) {
  SizingInput in;
  for (const cql::ColumnSpec& c : t.columns) {
    in.columns.push_back(SizedOf(c));
  }
  for (const auto& given_size : r.avg_sizes) {
    // Not a structured binding: clang 14 (Emscripten's) cannot capture one in a lambda.
    const std::string& given = given_size.first;
    const double bytes = given_size.second;
    auto it = std::find_if(in.columns.begin(), in.columns.end(),
                           [&](const SizedColumn& c) { return c.name == given; });
    if (it == in.columns.end()) {
      std::string name = CqlName(given);
      it = std::find_if(in.columns.begin(), in.columns.end(),
                        [&](const SizedColumn& c) { return c.name == name; });
    }
    if (it == in.columns.end()) {
      std::string names;
      for (const SizedColumn& c : in.columns) names += (names.empty() ? "" : ", ") + c.name;
      return Status(ErrorCode::kBadOption,
                    fmt::format("an average size is given for {}, which is not a column of {} "
                                "(its columns: {})",
                                given, t.name, names));
    }
    if (!(bytes >= 0) || !std::isfinite(bytes)) {
      return Status(ErrorCode::kBadOption,
                    fmt::format("the average size of {} must be 0 bytes or more", it->name));
    }
    if (auto fixed = ColumnFixedSize(*it)) {
      notes.push_back(
          fmt::format("the average size given for {} is ignored: a {} is always {} "
                      "bytes",
                      it->name, it->type, FormatQuantity(*fixed)));
      continue;
    }
    it->avg_bytes = bytes;
  }
  in.rows_per_partition = r.rows_per_partition.value();
  in.partitions = r.partitions;
  in.t_avg = r.t_avg;
  return in;
}

// The replication factor to use and where it comes from.
std::pair<double, std::string> Replication(const TableSizingRequest& r, const ScriptTable& t) {
  if (r.replication_factor) return {*r.replication_factor, "option"};
  if (!t.keyspace) {
    if (t.schema.keyspace.empty()) return {1, "default: the table has no keyspace"};
    return {1, fmt::format("default: no CREATE KEYSPACE {} in the script", t.schema.keyspace)};
  }
  const cql::ReplicationStrategy& rs = t.keyspace->replication;
  if (rs.strategy == cql::ReplicationStrategy::Class::kSimple) {
    return {rs.replication_factor, fmt::format("keyspace {}: SimpleStrategy, replication_factor {}",
                                               t.keyspace->name, rs.replication_factor)};
  }
  int sum = 0;
  std::string terms;
  for (const auto& [dc, rf] : rs.datacenters) {
    sum += rf;
    terms += fmt::format("{}{} {}", terms.empty() ? "" : " + ", dc, rf);
  }
  if (rs.datacenters.size() != 1)
    terms = fmt::format("{} = {}", terms.empty() ? "none" : terms, sum);
  return {sum, fmt::format("keyspace {}: NetworkTopologyStrategy, {}", t.keyspace->name, terms)};
}

// ---- Cases ----------------------------------------------------------------------------------

std::string_view ScenarioLabel(std::string_view name) {
  if (name == "worst_case") return "worst case";
  if (name == "growth") return "after growth";
  return name;
}

}  // namespace

namespace sizing_internal {

std::pair<std::string, std::string> SplitTableName(std::string_view qualified) {
  bool quoted = false;
  for (size_t i = 0; i < qualified.size(); ++i) {
    if (qualified[i] == '"') quoted = !quoted;
    if (qualified[i] == '.' && !quoted) {
      return {CqlName(qualified.substr(0, i)), CqlName(qualified.substr(i + 1))};
    }
  }
  return {"", CqlName(qualified)};
}

SizedColumn SizedOf(const cql::ColumnSpec& c) {
  SizedColumn out;
  out.name = c.name;
  out.type = c.type.ToCql();
  out.role = RoleOf(c.kind);
  if (c.type.is_composite()) {
    out.user_type = true;
    if (int64_t fixed = cql::FixedValueSize(c.type)) out.fixed_bytes = static_cast<double>(fixed);
  } else if (c.type.is_vector()) {
    // vector<float, 768>: 768 × 4 bytes, no length per element; vector<text, n> varies.
    if (int64_t fixed = cql::FixedValueSize(c.type)) out.fixed_bytes = static_cast<double>(fixed);
  }
  return out;
}

ColumnRole RoleOf(cql::ColumnKind kind) {
  switch (kind) {
    case cql::ColumnKind::kPartitionKey:
      return ColumnRole::kPartitionKey;
    case cql::ColumnKind::kClustering:
      return ColumnRole::kClustering;
    case cql::ColumnKind::kStatic:
      return ColumnRole::kStatic;
    case cql::ColumnKind::kRegular:
      return ColumnRole::kRegular;
  }
  return ColumnRole::kRegular;
}

// A name as CQL reads it: "Quoted" keeps its case (and "" is a quote), others are lower-cased.
std::string CqlName(std::string_view name) {
  if (name.size() >= 2 && name.front() == '"' && name.back() == '"') {
    std::string out;
    for (size_t i = 1; i + 1 < name.size(); ++i) {
      out += name[i];
      if (name[i] == '"' && name[i + 1] == '"') ++i;
    }
    return out;
  }
  std::string out(name);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string Qualified(const std::string& keyspace, const std::string& table) {
  return keyspace.empty() ? cql::QuoteName(table)
                          : cql::QuoteName(keyspace) + "." + cql::QuoteName(table);
}

std::string_view RoleName(ColumnRole role) {
  switch (role) {
    case ColumnRole::kPartitionKey:
      return "partition_key";
    case ColumnRole::kClustering:
      return "clustering";
    case ColumnRole::kStatic:
      return "static";
    case ColumnRole::kRegular:
      return "regular";
  }
  return "regular";
}

// The size sizing.cpp uses for a column (its fixed size, else the average given).
double ColumnBytes(const SizedColumn& c) {
  if (auto fixed = ColumnFixedSize(c)) return *fixed;
  return c.avg_bytes;
}

StatusOr<SizingScenario> MakeScenario(std::string name, const SizingInput& in,
                                      std::string rows_expression, double per_query) {
  SizingScenario s;
  s.name = std::move(name);
  s.rows_expression = std::move(rows_expression);
  PARTPLAY_ASSIGN_OR_RETURN(s.terms, ComputePartitionSize(in));
  s.findings = CheckSizingLimits(s.terms);
  s.partitions_per_query = per_query;
  return s;
}

// The days a grown partition's rows span: its retention, or the whole horizon.
double GrowthSpanDays(const GrowthSeries& g) {
  int64_t kept = g.options.retention_days > 0
                     ? std::min(g.options.retention_days, g.options.horizon_days)
                     : g.options.horizon_days;
  return static_cast<double>(kept);
}

}  // namespace sizing_internal

StatusOr<std::vector<SizingTableInfo>> ListSizingTables(std::string_view cql_text) {
  std::vector<SizingTableInfo> out;
  Status first_error;
  std::vector<StatusOr<cql::Statement>> statements = cql::ParseScript(cql_text);
  ScriptSchema script;
  for (const StatusOr<cql::Statement>& parsed : statements) {
    if (!parsed.ok()) {
      if (first_error.ok()) first_error = parsed.status();
      continue;
    }
    script.Add(parsed.value());
  }
  for (const std::string& name : script.names()) {
    StatusOr<cql::TableSchema> schema = script.Build(name);
    if (!schema.ok()) {
      if (first_error.ok()) first_error = schema.status();
      continue;
    }
    SizingTableInfo info;
    info.name = name;
    for (const cql::ColumnSpec& c : schema->columns) {
      info.columns.push_back(SizedOf(c));
      if (!ColumnFixedSize(info.columns.back())) info.variable_columns.push_back(c.name);
    }
    out.push_back(std::move(info));
  }
  if (out.empty() && !first_error.ok()) return first_error;
  return out;
}

StatusOr<TableSizingReport> SizeTable(const TableSizingRequest& request) {
  PARTPLAY_ASSIGN_OR_RETURN(ScriptTable found, FindTable(request.cql, request.table));
  const cql::TableSchema& schema = found.schema;
  TableSizingReport r;
  r.keyspace = schema.keyspace;
  r.table = schema.name;
  r.create_table = found.create_text;
  r.partition_key = ColumnNames(schema, schema.partition_key);
  r.clustering = ColumnNames(schema, schema.clustering);
  PARTPLAY_ASSIGN_OR_RETURN(r.input, InputFromSchema(schema, request, r.notes));
  auto [rf, source] = Replication(request, found);
  r.input.replication_factor = rf;
  r.replication_source = std::move(source);
  r.rows = request.rows_per_partition;
  r.worst_rows = request.worst_rows_per_partition;

  PARTPLAY_ASSIGN_OR_RETURN(r.average, MakeScenario("average", r.input, r.rows.Expression(), 1));
  if (r.worst_rows) {
    SizingInput worst = r.input;
    worst.rows_per_partition = r.worst_rows->value();
    PARTPLAY_ASSIGN_OR_RETURN(r.worst_case,
                              MakeScenario("worst_case", worst, r.worst_rows->Expression(), 1));
    if (worst.rows_per_partition < r.input.rows_per_partition) {
      r.notes.push_back("the worst case has fewer rows per partition than the average case");
    }
  }
  if (request.growth) {
    PARTPLAY_ASSIGN_OR_RETURN(r.growth, ComputeGrowth(r.input, *request.growth));
    SizingInput grown = r.input;
    grown.rows_per_partition = r.growth->largest.rows;
    const GrowthOptions& g = r.growth->options;
    int64_t kept =
        g.retention_days > 0 ? std::min(g.retention_days, g.horizon_days) : g.horizon_days;
    PARTPLAY_ASSIGN_OR_RETURN(
        r.grown, MakeScenario("growth", grown,
                              fmt::format("{} rows per day × {} days kept",
                                          FormatQuantity(g.rows_per_day), FormatQuantity(kept)),
                              1));
    if (g.retention_days == 0 && schema.default_ttl > 0) {
      r.notes.push_back(fmt::format(
          "the table's default_time_to_live is {} s ({} days): give it as the retention to cap "
          "the growth",
          FormatQuantity(static_cast<double>(schema.default_ttl)),
          FormatQuantity(std::ceil(static_cast<double>(schema.default_ttl) / 86400))));
    }
  }
  for (const SizingScenario* s :
       {&r.average, r.worst_case ? &*r.worst_case : nullptr, r.grown ? &*r.grown : nullptr}) {
    if (s == nullptr) continue;
    for (const SizingFinding& f : s->findings) {
      r.redesign_reasons.push_back(fmt::format("{}: {}", ScenarioLabel(s->name), f.message));
    }
  }
  r.needs_redesign = !r.redesign_reasons.empty();

  bool hash_asked = false;
  for (const PartitionSplit& split : request.splits) {
    hash_asked |= split.kind == SplitKind::kHashBucket;
    PARTPLAY_ASSIGN_OR_RETURN(RedesignOption o, EvaluateRedesign(schema, r, split, false));
    r.options.push_back(std::move(o));
  }
  if (r.needs_redesign && request.suggest_splits && !hash_asked) {
    PARTPLAY_ASSIGN_OR_RETURN(std::optional<RedesignOption> o, SuggestHashBuckets(schema, r));
    if (o) {
      r.options.push_back(std::move(*o));
    } else {
      r.notes.push_back(
          "no hash bucket count brings every case within the limits (one row, or "
          "the static columns, already break one)");
    }
  }
  return r;
}

}  // namespace partplay
