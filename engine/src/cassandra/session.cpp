#include "partplay/cassandra/session.h"

#include <fmt/format.h>

#include <cctype>
#include <functional>

#include <iterator>
#include <variant>

#include "partplay/cassandra/bulk_load.h"
#include "partplay/cassandra/lexer.h"
#include "partplay/cassandra/modify.h"
#include "partplay/cassandra/parser.h"
#include "partplay/cassandra/select.h"
#include "partplay/cassandra/token.h"

namespace partplay::cql {
namespace {

Status Invalid(std::string message, const SourceLocation& where) {
  return Status(ErrorCode::kCqlInvalidRequest, std::move(message), where);
}
Status Unknown(std::string message, const SourceLocation& where) {
  return Status(ErrorCode::kCqlUnknown, std::move(message), where);
}

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

// The table a statement names, or null (DESCRIBE names one only as DESCRIBE TABLE).
const TableName* NamedTable(const StatementBody& body) {
  return std::visit(
      [](const auto& s) -> const TableName* {
        using S = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<S, DescribeStatement>) {
          return s.kind == DescribeStatement::Kind::kTable ? &s.table : nullptr;
        } else if constexpr (requires { s.table.table; }) {
          return &s.table;
        } else {
          return nullptr;
        }
      },
      body);
}

// The first word of a statement as a verb, upper case, when it is one CQL or cqlsh starts a
// statement with; empty otherwise (a typo is no verb).
std::string VerbOf(std::string_view text) {
  static constexpr std::string_view kVerbs[] = {
      "SELECT", "INSERT",      "UPDATE", "DELETE",  "CREATE",  "ALTER",     "DROP",
      "USE",    "TRUNCATE",    "DESCRIBE", "DESC",  "BEGIN",   "APPLY",     "COPY",
      "GRANT",  "REVOKE",      "LIST",   "CONSISTENCY", "SERIAL", "TRACING", "PAGING",
      "GUARDRAIL", "ADVANCE"};
  size_t end = 0;
  while (end < text.size() && std::isalpha(static_cast<unsigned char>(text[end]))) ++end;
  std::string word(text.substr(0, end));
  for (char& c : word) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  for (std::string_view v : kVerbs) {
    if (word == v) return word;
  }
  return "";
}

// Whether a modification can fail after it has written part of itself: it writes several rows or
// partitions (an IN), or an UPDATE's static cells before a regular one. Such a statement runs in
// a journal and is rolled back on error (a journal copies each partition it touches, so
// single-row statements, which check everything before they write, run without one).
bool MayWritePartly(const std::vector<Relation>& where, const UpdateStatement* update,
                    const TableSchema& t) {
  for (const Relation& r : where) {
    if (r.op == Operator::kIn) return true;
  }
  if (update == nullptr) return false;
  bool statics = false, regular = false;
  for (const Assignment& a : update->assignments) {
    const ColumnSpec* c = t.Find(a.column.text);
    if (c == nullptr) continue;
    (c->kind == ColumnKind::kStatic ? statics : regular) = true;
  }
  return statics && regular;
}

Ring DefaultRing() {
  StatusOr<Ring> r = Ring::Build(RingOptions{});
  return std::move(r).value();
}

}  // namespace

Session::Session(SessionOptions options)
    : options_(options), ring_(DefaultRing()), generator_(options.now_millis, options.seed) {
  StatusOr<Ring> r = Ring::Build(options.ring);
  if (r.ok()) ring_ = std::move(r).value();
  paging_ = options.page_size > 0;
  page_size_ = paging_ ? options.page_size : 100;
}

Status Session::OverrideReplicationFactor(int factor) {
  if (factor < 0 || factor > 1000) {
    return Status(ErrorCode::kBadOption,
                  fmt::format("a replication factor is 0 (as written) to 1000, not {}", factor));
  }
  replication_override_ = factor;
  return Status::Ok();
}

Status Session::ConfigureRing(const RingOptions& options) {
  PARTPLAY_ASSIGN_OR_RETURN(Ring r, Ring::Build(options));
  ring_ = std::move(r);
  options_.ring = options;
  return Status::Ok();
}

std::vector<StatementResult> Session::Execute(std::string_view script) {
  std::vector<StatementResult> out;
  StatementReader reader(script);
  while (std::optional<StatusOr<Statement>> next = reader.Next()) {
    StatusOr<Statement>& parsed = *next;
    StatementResult r;
    r.source_begin = reader.extent_begin();
    r.source_end = reader.extent_end();
    if (!parsed.ok()) {
      r.kind = StatementResult::Kind::kError;
      r.status = parsed.status();
      r.where = parsed.status().where();
      // What was written, and its verb when it starts as a statement does: a statement refused
      // as it is read is shown as written, not as one that does not parse.
      r.statement = std::string(script.substr(static_cast<size_t>(r.source_begin),
                                              static_cast<size_t>(r.source_end - r.source_begin)));
      r.verb = VerbOf(r.statement);
    } else {
      r = ExecuteStatement(parsed.value());
      r.source_begin = reader.extent_begin();
      r.source_end = reader.extent_end();
    }
    out.push_back(std::move(r));
  }
  return out;
}

StatusOr<Keyspace*> Session::ResolveKeyspace(const std::string& name, const SourceLocation& where) {
  std::string ks = name.empty() ? current_keyspace_ : name;
  if (ks.empty()) {
    return Invalid(
        "No keyspace has been specified. USE a keyspace, or explicitly specify "
        "keyspace.tablename",
        where);
  }
  auto it = keyspaces_.find(ks);
  if (it == keyspaces_.end())
    return Unknown(fmt::format("Keyspace '{}' does not exist", ks), where);
  return &it->second;
}

StatusOr<Table*> Session::ResolveTable(const TableName& name) {
  PARTPLAY_ASSIGN_OR_RETURN(Keyspace * ks, ResolveKeyspace(name.keyspace, name.where));
  auto it = ks->tables.find(name.table);
  if (it == ks->tables.end()) return Unknown("unconfigured table " + name.table, name.where);
  return it->second.get();
}

StatusOr<Table*> Session::FindTable(std::string_view qualified) {
  TableName n;
  size_t dot = qualified.find('.');
  if (dot == std::string_view::npos) {
    n.table = std::string(qualified);
  } else {
    n.keyspace = std::string(qualified.substr(0, dot));
    n.table = std::string(qualified.substr(dot + 1));
  }
  return ResolveTable(n);
}

StatusOr<const Keyspace*> Session::FindKeyspace(std::string_view name) const {
  auto it = keyspaces_.find(std::string(name));
  if (it == keyspaces_.end()) {
    return Unknown(fmt::format("Keyspace '{}' does not exist", name), SourceLocation{});
  }
  return &it->second;
}

StatusOr<int64_t> Session::LoadJson(std::string_view qualified_table, std::string_view json) {
  PARTPLAY_ASSIGN_OR_RETURN(std::unique_ptr<BulkLoad> load,
                            BulkLoad::Start(*this, qualified_table));
  load->set_count_rows_in_errors(false);
  PARTPLAY_RETURN_IF_ERROR(load->Append(json));
  PARTPLAY_RETURN_IF_ERROR(load->Finish());
  return load->rows();
}

std::vector<KeyspaceListing> Session::ListKeyspaces() const {
  std::vector<KeyspaceListing> out;
  for (const auto& [name, ks] : keyspaces_) {
    KeyspaceListing l;
    l.name = name;
    const ReplicationStrategy& r = ks.schema.replication;
    if (r.strategy == ReplicationStrategy::Class::kSimple) {
      l.replication_class = "SimpleStrategy";
      l.replication_options.emplace_back("replication_factor",
                                         std::to_string(r.replication_factor));
      l.copies = r.replication_factor;
    } else {
      l.replication_class = "NetworkTopologyStrategy";
      for (const auto& [dc, rf] : r.datacenters) {
        l.replication_options.emplace_back(dc, std::to_string(rf));
        l.copies += rf;
      }
    }
    l.cql = ks.schema.Describe();
    for (const auto& [table, t] : ks.tables) l.tables.push_back(table);
    out.push_back(std::move(l));
  }
  return out;
}

std::string Session::QualifiedTable(const TableName& name) const {
  const std::string& ks = name.keyspace.empty() ? current_keyspace_ : name.keyspace;
  if (ks.empty() || name.table.empty()) return "";
  return ks + "." + name.table;
}

void Session::Place(ResultSet& rows, const KeyspaceSchema& keyspace) const {
  for (ResultPartition& p : rows.partitions) {
    p.replica_vnodes = ring_.ReplicaVnodes(p.token, keyspace.replication);
    p.replicas.clear();
    for (size_t vnode : p.replica_vnodes) p.replicas.push_back(ring_.tokens()[vnode].node);
  }
}

StatementResult Session::ExecuteStatement(const Statement& statement) {
  StatementResult result;
  result.where = statement.where;
  result.statement = std::string(statement.text);
  static constexpr const char* kVerbs[] = {
      "SELECT",   "INSERT",   "UPDATE", "DELETE", "CREATE", "USE",  "CREATE", "DROP", "DROP",
      "TRUNCATE", "DESCRIBE", "CREATE", "CREATE", "CREATE", "DROP", "",       "COPY",
      "ALTER",    "BATCH",    "ALTER",  "ALTER",  ""};
  static_assert(std::size(kVerbs) == std::variant_size_v<StatementBody>, "a verb per statement");
  result.verb = kVerbs[statement.body.index()];
  if (const auto* u = std::get_if<UnmodelledStatement>(&statement.body)) {
    result.verb = u->what.substr(0, u->what.find(' '));
  }
  if (const auto* c = std::get_if<ShellCommand>(&statement.body)) {
    static constexpr const char* kShellVerbs[] = {"CONSISTENCY", "SERIAL",    "TRACING",
                                                  "PAGING",      "GUARDRAIL", "ADVANCE"};
    result.verb = kShellVerbs[static_cast<size_t>(c->kind)];
  }
  if (const TableName* table = NamedTable(statement.body)) result.table = QualifiedTable(*table);
  auto fail = [&](Status s) {
    result.kind = StatementResult::Kind::kError;
    result.status = std::move(s);
    return result;
  };
  auto rows = [&](ResultSet rs, const TableName& table) {
    StatusOr<Keyspace*> ks = ResolveKeyspace(table.keyspace, table.where);
    if (ks.ok()) Place(rs, ks.value()->schema);
    result.kind = StatementResult::Kind::kRows;
    result.rows = std::move(rs);
    return result;
  };
  const SourceLocation& where = statement.where;
  // The keyspace of a table the statement resolved (it exists).
  static const KeyspaceSchema kNoKeyspace;
  auto KeyspaceOf = [&](const Table& t) -> const KeyspaceSchema& {
    auto it = keyspaces_.find(t.schema().keyspace);
    return it == keyspaces_.end() ? kNoKeyspace : it->second.schema;
  };
  auto WriteAccess = [](const TableSchema& t, bool conditional) {
    return t.is_counter() ? Access::kCounterWrite
           : conditional  ? Access::kConditionalWrite
                          : Access::kWrite;
  };
  // A write runs in a journal when it may fail part way, or when TRACING ON or a write
  // guardrail needs what it touched: the guardrails are checked on it (a violation puts it
  // back), the partitions it touched traced, then it is kept or put back.
  const bool guarding = guardrails_.enabled(Guardrail::kItemsPerCollection) ||
                        guardrails_.enabled(Guardrail::kPartitionSize) ||
                        guardrails_.enabled(Guardrail::kPartitionTombstones);
  auto EndWrite = [&](Table& t, bool journaled, Status status, StatementResult& r, Access access,
                      const std::function<Status()>& guard_items) {
    if (!journaled) return status;
    if (status.ok()) status = guard_items();
    if (!status.ok()) {
      t.Rollback();
      r.warnings.clear();
      return status;
    }
    std::vector<PartitionKey> keys = t.JournalKeys();
    GuardPartitionSizes(guardrails_, t, keys, r.warnings);
    std::vector<int64_t> tokens;
    for (const PartitionKey& k : keys) tokens.push_back(k.token);
    TraceAccess(r, access, KeyspaceOf(t), tokens, false);
    t.EndJournal();
    return status;
  };
  return std::visit(
      Overloaded{
          [&](const SelectStatement& s) -> StatementResult {
            StatusOr<Table*> table = ResolveTable(s.table);
            if (!table.ok()) return fail(table.status());
            const bool paged = paging_ && page_size_ > 0;
            SelectAccess access;
            StatusOr<ResultSet> rs = ExecuteSelect(s, *table.value(), generator_, where,
                                                   &result.warnings, paged, &access);
            if (!rs.ok()) return fail(rs.status());
            const KeyspaceSchema& ks = KeyspaceOf(*table.value());
            Status level = CheckLevel(Access::kRead, ks, s.table.table, where);
            if (!level.ok()) return fail(level);
            // SelectStatement.execute's page_size guardrail, then getSliceCommands'
            // partition_keys_in_select for a key IN.
            const bool pages = paged && (access.aggregate || !access.limit ||
                                         *access.limit > page_size_);
            if (pages) {
              Status g = Guard(guardrails_, Guardrail::kPageSize, page_size_, s.table.table,
                               result.warnings, where);
              if (!g.ok()) return fail(g);
            }
            if (access.key_in) {
              Status g = Guard(guardrails_, Guardrail::kPartitionKeysInSelect,
                               static_cast<int64_t>(access.tokens.size()), s.table.table,
                               result.warnings, where);
              if (!g.ok()) return fail(g);
            }
            TraceAccess(result, Access::kRead, ks, access.tokens, access.scan);
            if (pages) result.page_size = page_size_;
            return rows(std::move(rs).value(), s.table);
          },
          [&](const InsertStatement& s) -> StatementResult {
            StatusOr<Table*> table = ResolveTable(s.table);
            if (!table.ok()) return fail(table.status());
            if (table.value()->schema().is_view()) {
              return fail(Invalid("Cannot directly modify a materialized view", s.table.where));
            }
            Table& t = *table.value();
            const Access access = WriteAccess(t.schema(), s.if_not_exists);
            Status level = CheckLevel(access, KeyspaceOf(t), s.table.table, where);
            if (!level.ok()) return fail(level);
            const bool journal = tracing_ || guarding;
            if (journal) t.BeginJournal();
            auto r = ExecuteInsert(s, t, generator_, where);
            Status st = EndWrite(t, journal, r.ok() ? Status::Ok() : r.status(), result, access, [&] {
              return GuardCollectionItems(guardrails_, t.schema(), s, result.warnings);
            });
            SyncViews(t);
            if (!st.ok()) return fail(st);
            if (r.value()) return rows(std::move(*r.value()), s.table);
            result.kind = StatementResult::Kind::kVoid;
            return result;
          },
          [&](const UpdateStatement& s) -> StatementResult {
            StatusOr<Table*> table = ResolveTable(s.table);
            if (!table.ok()) return fail(table.status());
            if (table.value()->schema().is_view()) {
              return fail(Invalid("Cannot directly modify a materialized view", s.table.where));
            }
            Table& t = *table.value();
            const Access access =
                WriteAccess(t.schema(), s.if_exists || !s.conditions.empty());
            Status level = CheckLevel(access, KeyspaceOf(t), s.table.table, where);
            if (!level.ok()) return fail(level);
            bool journal = tracing_ || guarding || MayWritePartly(s.where, &s, t.schema());
            if (journal) t.BeginJournal();
            auto r = ExecuteUpdate(s, t, generator_, where);
            Status st = EndWrite(t, journal, r.ok() ? Status::Ok() : r.status(), result, access, [&] {
              return GuardCollectionItems(guardrails_, t.schema(), s, result.warnings);
            });
            SyncViews(t);
            if (!st.ok()) return fail(st);
            if (r.value()) return rows(std::move(*r.value()), s.table);
            result.kind = StatementResult::Kind::kVoid;
            return result;
          },
          [&](const DeleteStatement& s) -> StatementResult {
            StatusOr<Table*> table = ResolveTable(s.table);
            if (!table.ok()) return fail(table.status());
            if (table.value()->schema().is_view()) {
              return fail(Invalid("Cannot directly modify a materialized view", s.table.where));
            }
            Table& t = *table.value();
            const Access access =
                WriteAccess(t.schema(), s.if_exists || !s.conditions.empty());
            Status level = CheckLevel(access, KeyspaceOf(t), s.table.table, where);
            if (!level.ok()) return fail(level);
            bool journal = tracing_ || guarding || MayWritePartly(s.where, nullptr, t.schema());
            if (journal) t.BeginJournal();
            auto r = ExecuteDelete(s, t, generator_, where);
            Status st = EndWrite(t, journal, r.ok() ? Status::Ok() : r.status(), result, access,
                                 [] { return Status::Ok(); });
            SyncViews(t);
            if (!st.ok()) return fail(st);
            if (r.value()) return rows(std::move(*r.value()), s.table);
            result.kind = StatementResult::Kind::kVoid;
            return result;
          },
          [&](const CreateKeyspaceStatement& s) -> StatementResult {
            if (keyspaces_.count(s.keyspace.text)) {
              if (s.if_not_exists) {
                result.kind = StatementResult::Kind::kVoid;
                return result;
              }
              return fail(Invalid(fmt::format("Keyspace '{}' already exists", s.keyspace.text),
                                  s.keyspace.where));
            }
            StatusOr<KeyspaceSchema> ks = BuildKeyspace(s);
            if (!ks.ok()) return fail(ks.status());
            Keyspace k;
            k.schema = std::move(ks).value();
            if (replication_override_ > 0) {
              k.schema.replication.replication_factor = replication_override_;
              for (auto& [dc, rf] : k.schema.replication.datacenters) rf = replication_override_;
            }
            keyspaces_.emplace(s.keyspace.text, std::move(k));
            result.kind = StatementResult::Kind::kSchemaChange;
            result.message = fmt::format("CREATED KEYSPACE {}", s.keyspace.text);
            return result;
          },
          [&](const UseStatement& s) -> StatementResult {
            if (!keyspaces_.count(s.keyspace.text)) {
              return fail(Unknown(fmt::format("Keyspace '{}' does not exist", s.keyspace.text),
                                  s.keyspace.where));
            }
            current_keyspace_ = s.keyspace.text;
            result.kind = StatementResult::Kind::kVoid;
            return result;
          },
          [&](const CreateTableStatement& s) -> StatementResult {
            StatusOr<Keyspace*> ks = ResolveKeyspace(s.table.keyspace, s.table.where);
            if (!ks.ok()) return fail(ks.status());
            Keyspace& k = *ks.value();
            if (k.tables.count(s.table.table)) {
              if (s.if_not_exists) {
                result.kind = StatementResult::Kind::kVoid;
                return result;
              }
              return fail(Invalid(fmt::format("Cannot add already existing table \"{}\" to "
                                              "keyspace \"{}\"",
                                              s.table.table, k.schema.name),
                                  s.table.where));
            }
            if (k.views.count(s.table.table)) {
              return fail(Invalid(fmt::format("Cannot add already existing table \"{}\" to "
                                              "keyspace \"{}\"",
                                              s.table.table, k.schema.name),
                                  s.table.where));
            }
            CreateTableStatement resolved = s;
            for (ColumnDefinition& c : resolved.columns) {
              Status r = ResolveType(c.type, k, c.type_where);
              if (!r.ok()) return fail(r);
            }
            StatusOr<TableSchema> t = BuildTable(resolved, k.schema.name);
            if (!t.ok()) return fail(t.status());
            k.tables.emplace(s.table.table, std::make_unique<Table>(std::move(t).value()));
            result.kind = StatementResult::Kind::kSchemaChange;
            result.message = fmt::format("CREATED TABLE {}.{}", k.schema.name, s.table.table);
            return result;
          },
          [&](const DropTableStatement& s) -> StatementResult {
            StatusOr<Keyspace*> ks = ResolveKeyspace(s.table.keyspace, s.table.where);
            if (!ks.ok()) {
              if (s.if_exists && ks.status().code() == ErrorCode::kCqlUnknown) {
                result.kind = StatementResult::Kind::kVoid;
                return result;
              }
              return fail(ks.status());
            }
            Keyspace& k = *ks.value();
            auto dropped = k.tables.find(s.table.table);
            if (dropped != k.tables.end() && dropped->second->schema().is_view()) {
              return fail(
                  Invalid("Cannot use DROP TABLE on a materialized view. Please use DROP "
                          "MATERIALIZED VIEW instead.",
                          s.table.where));
            }
            for (const auto& [view_name, state] : k.views) {
              if (state.base == s.table.table) {
                return fail(Invalid(fmt::format("Cannot drop a table when materialized views "
                                                "still depend on it ({}.{})",
                                                k.schema.name, view_name),
                                    s.table.where));
              }
            }
            if (!k.tables.erase(s.table.table)) {
              if (s.if_exists) {
                result.kind = StatementResult::Kind::kVoid;
                return result;
              }
              return fail(
                  Unknown(fmt::format("Table '{}.{}' doesn't exist", k.schema.name, s.table.table),
                          s.table.where));
            }
            result.kind = StatementResult::Kind::kSchemaChange;
            result.message = fmt::format("DROPPED TABLE {}.{}", k.schema.name, s.table.table);
            return result;
          },
          [&](const DropKeyspaceStatement& s) -> StatementResult {
            if (!keyspaces_.erase(s.keyspace.text)) {
              if (s.if_exists) {
                result.kind = StatementResult::Kind::kVoid;
                return result;
              }
              return fail(Unknown(fmt::format("Keyspace '{}' doesn't exist", s.keyspace.text),
                                  s.keyspace.where));
            }
            if (current_keyspace_ == s.keyspace.text) current_keyspace_.clear();
            result.kind = StatementResult::Kind::kSchemaChange;
            result.message = fmt::format("DROPPED KEYSPACE {}", s.keyspace.text);
            return result;
          },
          [&](const TruncateStatement& s) -> StatementResult {
            StatusOr<Table*> table = ResolveTable(s.table);
            if (!table.ok()) return fail(table.status());
            if (table.value()->schema().is_view()) {
              return fail(
                  Invalid("Cannot TRUNCATE materialized view directly; must truncate base "
                          "table instead",
                          s.table.where));
            }
            table.value()->Clear();
            SyncViews(*table.value());
            result.kind = StatementResult::Kind::kVoid;
            return result;
          },
          [&](const DescribeStatement& s) -> StatementResult {
            result.kind = StatementResult::Kind::kDescribe;
            switch (s.kind) {
              case DescribeStatement::Kind::kTable: {
                StatusOr<Table*> table = ResolveTable(s.table);
                if (!table.ok()) {
                  // cqlsh's wording for DESCRIBE of a missing table.
                  if (table.status().message().rfind("unconfigured table", 0) == 0) {
                    return fail(
                        Unknown(fmt::format("'{}' not found in keyspace '{}'", s.table.table,
                                            s.table.keyspace.empty() ? current_keyspace_
                                                                     : s.table.keyspace),
                                s.table.where));
                  }
                  return fail(table.status());
                }
                result.message = table.value()->schema().Describe();
                return result;
              }
              case DescribeStatement::Kind::kKeyspace: {
                StatusOr<Keyspace*> ks = ResolveKeyspace(s.keyspace.text, where);
                if (!ks.ok()) return fail(ks.status());
                const Keyspace& k = *ks.value();
                result.message = k.schema.Describe();
                for (const std::string& type : k.type_order) {
                  auto t = k.types.find(type);
                  if (t != k.types.end()) result.message += "\n\n" + DescribeType(t->second);
                }
                // Each table, then its views (as cqlsh does).
                for (const auto& [name, table] : k.tables) {
                  if (table->schema().is_view()) continue;
                  result.message += "\n\n" + table->schema().Describe();
                  for (const auto& [view_name, view] : k.tables) {
                    if (view->schema().view_base == name) {
                      result.message += "\n\n" + view->schema().Describe();
                    }
                  }
                }
                return result;
              }
              case DescribeStatement::Kind::kTables: {
                StatusOr<Keyspace*> ks = ResolveKeyspace("", where);
                if (!ks.ok()) return fail(ks.status());
                for (const auto& [name, table] : ks.value()->tables) {
                  if (!result.message.empty()) result.message += ' ';
                  result.message += QuoteName(name);
                }
                return result;
              }
              case DescribeStatement::Kind::kKeyspaces: {
                for (const auto& [name, ks] : keyspaces_) {
                  if (!result.message.empty()) result.message += ' ';
                  result.message += QuoteName(name);
                }
                return result;
              }
            }
            return result;
          },
          [&](const CreateTypeStatement& s) { return CreateType(s, std::move(result)); },
          [&](const AlterTypeStatement& s) { return AlterType(s, std::move(result)); },
          [&](const AlterTableStatement& s) { return AlterTable(s, std::move(result)); },
          [&](const ShellCommand& c) { return RunShellCommand(c, std::move(result)); },
          [&](const AlterKeyspaceStatement& s) { return AlterKeyspace(s, std::move(result)); },
          [&](const CreateIndexStatement& s) { return CreateIndex(s, std::move(result)); },
          [&](const CreateViewStatement& s) { return CreateView(s, std::move(result)); },
          [&](const DropSchemaObjectStatement& s) {
            return DropSchemaObject(s, std::move(result));
          },
          [&](const CopyStatement& s) { return CopyFrom(s, std::move(result)); },
          [&](const BatchStatement& s) { return ExecuteBatch(s, std::move(result)); },
          [&](const UnmodelledStatement& s) -> StatementResult {
            result.kind = StatementResult::Kind::kVoid;
            result.warnings.push_back(fmt::format(
                "{} is not modelled by Partition Playground: the statement was accepted and "
                "ignored",
                s.what));
            return result;
          },
      },
      statement.body);
}

StatusOr<int64_t> TokenOfLiterals(const std::vector<CqlType>& types,
                                  const std::vector<std::string>& literals) {
  if (types.size() != literals.size()) {
    return Status(ErrorCode::kUsage,
                  fmt::format("{} types but {} values", types.size(), literals.size()));
  }
  ValueGenerator gen;
  std::vector<std::string> components;
  for (size_t i = 0; i < types.size(); ++i) {
    if (types[i].is_multi_cell()) {
      return Status(ErrorCode::kCqlInvalidRequest,
                    fmt::format("Invalid non-frozen collection type for PRIMARY KEY component "
                                "{} ({})",
                                i + 1, types[i].ToCql()));
    }
    PARTPLAY_ASSIGN_OR_RETURN(Literal lit, ParseLiteral(literals[i]));
    PARTPLAY_ASSIGN_OR_RETURN(Value v,
                              LiteralToValue(types[i], lit, fmt::format("key{}", i + 1), gen));
    if (!v) {
      return Status(ErrorCode::kCqlInvalidRequest,
                    fmt::format("Invalid null value for partition key part key{}", i + 1),
                    lit.where);
    }
    components.push_back(std::move(*v));
  }
  return Murmur3Token(PartitionKeyBytes(components));
}

}  // namespace partplay::cql
