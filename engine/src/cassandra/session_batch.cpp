// BEGIN [UNLOGGED | COUNTER] BATCH ... APPLY BATCH: Cassandra's checks (BatchStatement.validate,
// in its order and wording), then every statement applied, or none. The statements of a batch
// share one timestamp, so the model applies them as Cassandra resolves equal timestamps: the
// writes first (a cell written twice keeps the tombstone, else the greater value: Table's
// same-timestamp mode), then the deletions, which shadow the batch's own writes as a deletion at
// the same timestamp does. The result names the partitions written, with their tokens and
// replicas, and carries Cassandra's client warnings (batch size, unlogged batch across
// partitions).
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <variant>

#include "partplay/cassandra/batch_size.h"
#include "partplay/cassandra/modify.h"
#include "partplay/cassandra/session.h"
#include "partplay/cassandra/token.h"
#include "partplay/core/limits.h"

namespace partplay::cql {
namespace {

Status Invalid(std::string message, const SourceLocation& where) {
  return Status(ErrorCode::kCqlInvalidRequest, std::move(message), where);
}

const TableName& ChildTable(const BatchChild& c) {
  return std::visit([](const auto& s) -> const TableName& { return s.table; }, c.body);
}

const UsingClause& ChildUsing(const BatchChild& c) {
  return std::visit([](const auto& s) -> const UsingClause& { return s.using_clause; }, c.body);
}

bool ChildHasCondition(const BatchChild& c) {
  return std::visit(
      [](const auto& s) {
        using S = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<S, InsertStatement>) {
          return s.if_not_exists;
        } else {
          return s.if_exists || !s.conditions.empty();
        }
      },
      c.body);
}

std::string_view TypeName(BatchStatement::Type t) {
  switch (t) {
    case BatchStatement::Type::kLogged:
      return "LOGGED";
    case BatchStatement::Type::kUnlogged:
      return "UNLOGGED";
    case BatchStatement::Type::kCounter:
      return "COUNTER";
  }
  return "LOGGED";
}

// Java's AbstractCollection.toString of table names: "[ks.a, ks.b]" (a HashSet's order is its
// hash order; the model lists them sorted).
std::string JavaSet(const std::set<std::string>& names) {
  std::string out = "[";
  for (const std::string& n : names) {
    if (out.size() > 1) out += ", ";
    out += n;
  }
  return out + "]";
}

ResultSet AppliedRow() {
  ResultSet rs;
  rs.columns.push_back("[applied]");
  rs.types.push_back(CqlType::Native(TypeKind::kBoolean));
  rs.rows.push_back({EncodeBoolean(true)});
  rs.row_partition.push_back(-1);
  return rs;
}

// buildCasFailureResultSet for a batch: [applied] false, then every column when a statement has
// IF [NOT] EXISTS, else the primary key and the conditions' columns; a row per row the conditions
// read (the rows of their clusterings; with only static conditions, the partition's first row).
ResultSet CasFailureRows(const std::vector<CasPlan>& plans, const Table& table) {
  const TableSchema& t = table.schema();
  ResultSet rs;
  rs.columns.push_back("[applied]");
  rs.types.push_back(CqlType::Native(TypeKind::kBoolean));
  bool wildcard = false, statics = false;
  std::vector<int> columns;
  std::set<Clustering> rows_read;
  for (const CasPlan& p : plans) {
    if (!p.has_conditions()) continue;
    wildcard |= p.exists != CasPlan::Exists::kNone;
    if (p.statics_only) {
      statics = true;
    } else if (!p.slices) {
      rows_read.insert(p.clustering);
    }
    for (int c : p.condition_columns) {
      if (std::find(columns.begin(), columns.end(), c) == columns.end()) columns.push_back(c);
      statics |= t.columns[static_cast<size_t>(c)].kind == ColumnKind::kStatic;
    }
  }
  std::vector<int> shown;
  if (wildcard) {
    shown = t.select_order;
  } else {
    shown = t.partition_key;
    shown.insert(shown.end(), t.clustering.begin(), t.clustering.end());
    for (int c : columns) {
      if (std::find(shown.begin(), shown.end(), c) == shown.end()) shown.push_back(c);
    }
  }
  const Partition* part = table.Find(Table::KeyOf(plans[0].key));
  std::vector<std::pair<const Clustering*, const Row*>> found;
  if (part != nullptr) {
    for (const auto& [c, row] : part->rows) {
      if (rows_read.count(c)) found.emplace_back(&c, &row);
    }
    // Only static conditions: Cassandra reads one row to check the partition (a slice of 1).
    if (rows_read.empty() && statics) {
      if (!part->rows.empty()) {
        found.emplace_back(&part->rows.begin()->first, &part->rows.begin()->second);
      } else if (part->has_static()) {
        found.emplace_back(nullptr, nullptr);
      }
    }
  }
  if (!found.empty()) {
    for (int c : shown) {
      rs.columns.push_back(t.columns[static_cast<size_t>(c)].name);
      rs.types.push_back(t.columns[static_cast<size_t>(c)].type);
    }
  }
  for (const auto& [clustering, row] : found) {
    std::vector<Value> values{EncodeBoolean(false)};
    for (int c : shown) {
      values.push_back(CellValue(t.columns[static_cast<size_t>(c)], *part, clustering, row));
    }
    rs.rows.push_back(std::move(values));
    rs.row_partition.push_back(-1);
  }
  if (found.empty()) {
    rs.rows.push_back({EncodeBoolean(false)});
    rs.row_partition.push_back(-1);
  }
  return rs;
}

}  // namespace

StatementResult Session::ExecuteBatch(const BatchStatement& b, StatementResult result) {
  auto fail = [&](Status s) {
    result.kind = StatementResult::Kind::kError;
    result.status = std::move(s);
    return result;
  };
  // Each statement's table, as preparing it resolves them (before the batch's own checks).
  std::vector<Table*> tables;
  for (const BatchChild& c : b.statements) {
    StatusOr<Table*> t = ResolveTable(ChildTable(c));
    if (!t.ok()) return fail(t.status());
    if (t.value()->schema().is_view()) {
      return fail(Invalid("Cannot directly modify a materialized view", ChildTable(c).where));
    }
    tables.push_back(t.value());
  }
  // BatchStatement.validate(), in its order.
  const SourceLocation& at = b.using_where.line > 0 ? b.using_where : result.where;
  bool has_conditions = false;
  for (const BatchChild& c : b.statements) has_conditions |= ChildHasCondition(c);
  if (b.using_clause.ttl) return fail(Invalid("Global TTL on the BATCH statement is not supported.", at));
  bool timestamp_set = b.using_clause.timestamp.has_value();
  if (timestamp_set && has_conditions) {
    return fail(Invalid("Cannot provide custom timestamp for conditional BATCH", at));
  }
  if (timestamp_set && b.type == BatchStatement::Type::kCounter) {
    return fail(Invalid("Cannot provide custom timestamp for counter BATCH", at));
  }
  bool has_counters = false, has_non_counters = false;
  for (size_t i = 0; i < b.statements.size(); ++i) {
    if (timestamp_set && ChildUsing(b.statements[i]).timestamp) {
      return fail(Invalid("Timestamp must be set either on BATCH or individual statements",
                          b.statements[i].where));
    }
    (tables[i]->schema().is_counter() ? has_counters : has_non_counters) = true;
  }
  if (timestamp_set && has_counters) {
    return fail(Invalid("Cannot provide custom timestamp for a BATCH containing counters", at));
  }
  if (b.type == BatchStatement::Type::kCounter && has_non_counters) {
    return fail(Invalid("Cannot include non-counter statement in a counter batch", result.where));
  }
  if (has_counters && has_non_counters) {
    return fail(Invalid("Counter and non-counter mutations cannot exist in the same batch",
                        result.where));
  }
  if (b.type == BatchStatement::Type::kLogged && has_counters) {
    return fail(Invalid("Cannot include a counter statement in a logged batch", result.where));
  }
  if (has_conditions) {
    for (size_t i = 1; i < tables.size(); ++i) {
      if (tables[i] != tables[0]) {
        return fail(Invalid("Batch with conditions cannot span multiple tables",
                            b.statements[i].where));
      }
    }
  }
  // The console's consistency level for each table written (ConsistencyLevel's checks).
  const Access access = has_conditions ? Access::kConditionalWrite
                        : has_counters ? Access::kCounterWrite
                                       : Access::kWrite;
  for (const Table* t : tables) {
    auto ks = keyspaces_.find(t->schema().keyspace);
    if (ks == keyspaces_.end()) continue;
    Status level = CheckLevel(access, ks->second.schema, t->schema().name, result.where);
    if (!level.ok()) return fail(level);
  }
  // makeCasRequest: one partition, no IN on the clustering columns, and per row one kind of
  // condition; the conditions all read the partition as it is before the batch.
  bool holds = true;
  std::optional<ResultSet> cas_failure;
  if (has_conditions) {
    std::vector<CasPlan> plans;
    std::map<std::pair<bool, Clustering>, int> row_kind;  // 1 exists, 2 not exists, 3 columns
    for (size_t i = 0; i < b.statements.size(); ++i) {
      const BatchChild& c = b.statements[i];
      StatusOr<CasPlan> plan = std::visit(
          [&](const auto& s) { return PlanCas(s, *tables[i], generator_, c.where); }, c.body);
      if (!plan.ok()) return fail(plan.status());
      const CasPlan& pl = plan.value();
      bool update = !std::holds_alternative<DeleteStatement>(c.body);
      if (pl.key_in) {
        return fail(Invalid("Batch with conditions cannot span multiple partitions (you cannot "
                            "use IN on the partition key)",
                            c.where));
      }
      if (!plans.empty() && pl.key != plans[0].key) {
        return fail(Invalid("Batch with conditions cannot span multiple partitions", c.where));
      }
      if (pl.clustering_in) {
        return fail(Invalid(fmt::format("IN on the clustering key columns is not supported with "
                                        "conditional {}",
                                        update ? "updates" : "deletions"),
                            c.where));
      }
      if (!pl.slices && pl.has_conditions()) {
        auto row = std::make_pair(pl.statics_only, pl.statics_only ? Clustering() : pl.clustering);
        auto it = row_kind.find(row);
        int kind = pl.exists == CasPlan::Exists::kExists      ? 1
                   : pl.exists == CasPlan::Exists::kNotExists ? 2
                                                              : 3;
        if (it != row_kind.end() && it->second != kind) {
          if (kind == 3) {
            return fail(Invalid("Cannot mix IF conditions and IF NOT EXISTS for the same row",
                                c.where));
          }
          if (it->second != 3) {
            return fail(Invalid(
                "Cannot mix IF EXISTS and IF NOT EXISTS conditions for the same row", c.where));
          }
          return fail(Invalid(fmt::format("Cannot mix IF conditions and IF {}EXISTS for the same row",
                                          kind == 2 ? "NOT " : ""),
                              c.where));
        }
        row_kind.emplace(row, kind);
      }
      plans.push_back(std::move(plan).value());
    }
    for (size_t i = 0; i < plans.size() && holds; ++i) {
      if (!plans[i].has_conditions()) continue;
      StatusOr<bool> h = CasHolds(plans[i], *tables[0], b.statements[i].where);
      if (!h.ok()) return fail(h.status());
      holds = h.value();
    }
    if (!holds) cas_failure = CasFailureRows(plans, *tables[0]);
  }

  // Apply: the writes, then the deletions; any error puts every table back as it was.
  std::vector<Table*> distinct = tables;
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  for (Table* t : distinct) {
    t->BeginJournal();
    t->set_same_timestamp(true);
  }
  // Every statement of the batch is written at the batch's one timestamp.
  generator_.PinTimestamp(generator_.NextWriteTimestamp());
  auto run = [&](size_t i) -> Status {
    BatchChild c = b.statements[i];
    if (timestamp_set) {
      std::visit([&](auto& s) { s.using_clause.timestamp = b.using_clause.timestamp; }, c.body);
    }
    StatusOr<std::optional<ResultSet>> r = std::visit(
        [&](const auto& s) -> StatusOr<std::optional<ResultSet>> {
          using S = std::decay_t<decltype(s)>;
          if constexpr (std::is_same_v<S, InsertStatement>) {
            InsertStatement plain = s;
            plain.if_not_exists = false;  // the batch's conditions were checked above
            return ExecuteInsert(plain, *tables[i], generator_, c.where);
          } else if constexpr (std::is_same_v<S, UpdateStatement>) {
            return has_conditions ? ExecuteUpdateUnconditionally(s, *tables[i], generator_, c.where)
                                  : ExecuteUpdate(s, *tables[i], generator_, c.where);
          } else {
            return has_conditions ? ExecuteDeleteUnconditionally(s, *tables[i], generator_, c.where)
                                  : ExecuteDelete(s, *tables[i], generator_, c.where);
          }
        },
        c.body);
    return r.status();
  };
  Status status = Status::Ok();
  for (int pass = 0; pass < 2 && status.ok(); ++pass) {
    for (size_t i = 0; i < b.statements.size() && status.ok(); ++i) {
      bool deletion = std::holds_alternative<DeleteStatement>(b.statements[i].body);
      if (deletion == (pass == 1)) status = run(i);
    }
  }
  generator_.PinTimestamp(std::nullopt);
  // The partitions written, per table, before the journals are closed.
  std::map<PartitionKey, std::set<std::string>> keys;  // partition -> tables
  std::set<std::pair<std::string, PartitionKey>> mutations;  // keyspace, partition
  std::map<std::string, const Table*> by_name;
  for (Table* t : distinct) {
    std::string name = t->schema().keyspace + "." + t->schema().name;
    by_name[name] = t;
    for (const PartitionKey& k : t->JournalKeys()) {
      keys[k].insert(name);
      mutations.emplace(t->schema().keyspace, k);
    }
  }
  std::set<std::string> table_names;
  for (const auto& [key, names] : keys) table_names.insert(names.begin(), names.end());
  // BatchStatement.verifyBatchSize and verifyBatchType: only for more than one mutation; a batch
  // over the fail threshold is refused before it writes anything.
  int64_t bytes = 0;
  if (status.ok()) {
    StatusOr<BatchDataSize> size = MeasureBatch(b, tables, generator_);
    if (size.ok()) {
      bytes = size.value().bytes;
    } else {
      status = size.status();
    }
  }
  if (status.ok() && !has_conditions && mutations.size() > 1) {
    if (bytes > kCassandraBatchSizeFailBytes) {
      status = Invalid("Batch too large", result.where);
    } else if (bytes > kCassandraBatchSizeWarnBytes) {
      result.warnings.push_back(fmt::format(
          "Batch for {} is of size {}, exceeding specified threshold of {} by {}.",
          JavaSet(table_names), bytes, kCassandraBatchSizeWarnBytes,
          bytes - kCassandraBatchSizeWarnBytes));
    }
    if (b.type != BatchStatement::Type::kLogged &&
        static_cast<int64_t>(keys.size()) > kCassandraUnloggedBatchPartitionsWarn) {
      result.warnings.push_back(fmt::format(
          "Unlogged batch covering {} partitions detected against table{} {}. You should use a "
          "logged batch for atomicity, or asynchronous writes for performance.",
          keys.size(), table_names.size() == 1 ? "" : "s", JavaSet(table_names)));
    }
  }
  // The write guardrails, on each statement's collections and each partition written.
  for (size_t i = 0; i < b.statements.size() && status.ok(); ++i) {
    if (const auto* ins = std::get_if<InsertStatement>(&b.statements[i].body)) {
      status = GuardCollectionItems(guardrails_, tables[i]->schema(), *ins, result.warnings);
    } else if (const auto* up = std::get_if<UpdateStatement>(&b.statements[i].body)) {
      status = GuardCollectionItems(guardrails_, tables[i]->schema(), *up, result.warnings);
    }
  }
  // A conditional batch whose conditions failed was run only to check its statements.
  bool keep = status.ok() && holds;
  if (keep) {
    for (const Table* t : distinct) GuardPartitionSizes(guardrails_, *t, t->JournalKeys(), result.warnings);
  }
  for (Table* t : distinct) {
    t->set_same_timestamp(false);
    if (keep) {
      t->EndJournal();
    } else {
      t->Rollback();
    }
    SyncViews(*t);
  }
  if (!status.ok()) {
    result.warnings.clear();
    return fail(status);
  }
  if (has_conditions) {
    // The [applied] row: true, or false with the rows the conditions read.
    StatusOr<Keyspace*> ks = ResolveKeyspace(tables[0]->schema().keyspace, result.where);
    ResultSet rows = holds ? AppliedRow() : std::move(*cas_failure);
    result.kind = StatementResult::Kind::kRows;
    result.rows = std::move(rows);
    if (ks.ok()) Place(result.rows, ks.value()->schema);
    if (!holds) return result;
  }

  BatchSummary summary;
  summary.type = std::string(TypeName(b.type));
  summary.statements = static_cast<int64_t>(b.statements.size());
  summary.mutations = static_cast<int64_t>(mutations.size());
  summary.distinct_keys = static_cast<int64_t>(keys.size());
  summary.data_size = bytes;
  for (const auto& [key, names] : keys) {
    for (const std::string& name : names) {
      const Table* t = by_name[name];
      BatchPartition bp;
      bp.table = name;
      for (int c : t->schema().partition_key) {
        bp.key_types.push_back(t->schema().columns[static_cast<size_t>(c)].type);
      }
      bp.partition.token = key.token;
      if (bp.key_types.size() == 1) {
        bp.partition.key.push_back(key.key);
      } else {
        for (std::string_view c : SplitCompositeKey(key.key)) bp.partition.key.emplace_back(c);
      }
      auto ks = keyspaces_.find(t->schema().keyspace);
      if (ks != keyspaces_.end()) {
        bp.partition.replica_vnodes = ring_.ReplicaVnodes(key.token, ks->second.schema.replication);
        for (size_t v : bp.partition.replica_vnodes) {
          bp.partition.replicas.push_back(ring_.tokens()[v].node);
        }
      }
      summary.partitions.push_back(std::move(bp));
    }
  }
  if (!has_conditions) result.kind = StatementResult::Kind::kVoid;
  result.batch = std::move(summary);
  auto ks = tables.empty() ? keyspaces_.end() : keyspaces_.find(tables[0]->schema().keyspace);
  if (ks != keyspaces_.end()) {
    std::vector<int64_t> tokens;
    for (const auto& [key, names] : keys) tokens.push_back(key.token);
    TraceAccess(result, access, ks->second.schema, tokens, false);
  }
  return result;
}

}  // namespace partplay::cql
