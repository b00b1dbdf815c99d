#include "partplay/sizing/table_sizing.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <variant>

#include "core/message_format.h"
#include "partplay/cassandra/parser.h"
#include "partplay/cassandra/schema.h"
#include "partplay/ingest/json_diagnostics.h"
#include "partplay/core/json_writer.h"

namespace partplay {
namespace {

// ---- The table in the script ----------------------------------------------------------------

struct ScriptTable {
  cql::TableSchema schema;
  std::string create_text;
  std::optional<cql::KeyspaceSchema> keyspace;
};

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

// Splits "ks.table" at the first '.' outside double quotes.
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

std::string Qualified(const std::string& keyspace, const std::string& table) {
  return keyspace.empty() ? cql::QuoteName(table)
                          : cql::QuoteName(keyspace) + "." + cql::QuoteName(table);
}

StatusOr<ScriptTable> FindTable(std::string_view script, std::string_view wanted) {
  auto [wanted_keyspace, wanted_table] = SplitTableName(wanted);
  if (wanted_table.empty()) return Status(ErrorCode::kBadOption, "give the table to size");
  std::vector<StatusOr<cql::Statement>> statements = cql::ParseScript(script);
  std::string current;  // USE
  std::map<std::string, StatusOr<cql::KeyspaceSchema>> keyspaces;
  Status first_error;
  std::vector<std::string> tables;
  const cql::Statement* match = nullptr;
  std::string match_keyspace;
  std::vector<std::string> matches;
  for (const StatusOr<cql::Statement>& parsed : statements) {
    if (!parsed.ok()) {
      if (first_error.ok()) first_error = parsed.status();
      continue;
    }
    const cql::Statement& statement = parsed.value();
    if (auto* ks = std::get_if<cql::CreateKeyspaceStatement>(&statement.body)) {
      if (!keyspaces.count(ks->keyspace.text)) {
        keyspaces.emplace(ks->keyspace.text, cql::BuildKeyspace(*ks));
      }
    } else if (auto* use = std::get_if<cql::UseStatement>(&statement.body)) {
      current = use->keyspace.text;
    } else if (auto* create = std::get_if<cql::CreateTableStatement>(&statement.body)) {
      std::string keyspace = create->table.keyspace.empty() ? current : create->table.keyspace;
      tables.push_back(Qualified(keyspace, create->table.table));
      if (create->table.table == wanted_table &&
          (wanted_keyspace.empty() || wanted_keyspace == keyspace)) {
        if (match == nullptr) {
          match = &statement;
          match_keyspace = keyspace;
        }
        if (std::find(matches.begin(), matches.end(), tables.back()) == matches.end()) {
          matches.push_back(tables.back());
        }
      }
    }
  }
  if (match == nullptr) {
    // A statement that does not parse may be the table's: its located error says more.
    if (!first_error.ok()) return first_error;
    std::string known;
    for (const std::string& t : tables) known += (known.empty() ? "" : ", ") + t;
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
  const auto& create = std::get<cql::CreateTableStatement>(match->body);
  PARTPLAY_ASSIGN_OR_RETURN(cql::TableSchema schema, cql::BuildTable(create, match_keyspace));
  ScriptTable out{std::move(schema), std::string(match->text), std::nullopt};
  if (auto ks = keyspaces.find(match_keyspace); ks != keyspaces.end()) {
    if (!ks->second.ok()) return ks->second.status();
    out.keyspace = ks->second.value();
  }
  return out;
}

// ---- Schema to sizing input -----------------------------------------------------------------

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
  if (auto fixed = FixedCqlTypeSize(c.type)) return *fixed;
  return c.avg_bytes;
}

std::vector<std::string> ColumnNames(const cql::TableSchema& t, const std::vector<int>& indexes) {
  std::vector<std::string> out;
  for (int i : indexes) out.push_back(t.columns[static_cast<size_t>(i)].name);
  return out;
}

StatusOr<SizingInput> InputFromSchema(const cql::TableSchema& t, const TableSizingRequest& r,
                                      std::vector<std::string>& notes) {
  SizingInput in;
  for (const cql::ColumnSpec& c : t.columns) {
    in.columns.push_back({c.name, c.type.ToCql(), RoleOf(c.kind)});
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
    if (auto fixed = FixedCqlTypeSize(it->type)) {
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

std::string_view ScenarioLabel(std::string_view name) {
  if (name == "worst_case") return "worst case";
  if (name == "growth") return "after growth";
  return name;
}

// The days a grown partition's rows span: its retention, or the whole horizon.
double GrowthSpanDays(const GrowthSeries& g) {
  int64_t kept = g.options.retention_days > 0
                     ? std::min(g.options.retention_days, g.options.horizon_days)
                     : g.options.horizon_days;
  return static_cast<double>(kept);
}

// ---- Redesign options -----------------------------------------------------------------------

std::string KeyList(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + cql::QuoteName(n);
  return out;
}

std::string PrimaryKeyText(const std::vector<std::string>& partition_key,
                           const std::vector<std::string>& clustering) {
  std::string key = partition_key.size() == 1 ? cql::QuoteName(partition_key[0])
                                              : fmt::format("({})", KeyList(partition_key));
  if (!clustering.empty()) key += fmt::format(", {}", KeyList(clustering));
  return fmt::format("PRIMARY KEY ({})", key);
}

// "hotel_id" or "(hotel_id, region)": what one original partition is.
std::string KeyDescription(const std::vector<std::string>& partition_key) {
  return partition_key.size() == 1 ? partition_key[0] : fmt::format("({})", KeyList(partition_key));
}

std::string CreateTableText(const cql::TableSchema& original, const SizingInput& in,
                            const std::vector<std::string>& partition_key,
                            const std::vector<std::string>& clustering) {
  std::string out = fmt::format("CREATE TABLE {} (\n", Qualified(original.keyspace, original.name));
  for (const SizedColumn& c : in.columns) {
    out += fmt::format("    {} {}{},\n", cql::QuoteName(c.name), c.type,
                       c.role == ColumnRole::kStatic ? " static" : "");
  }
  out += fmt::format("    {}\n)", PrimaryKeyText(partition_key, clustering));
  bool any_descending = false;
  std::string order;
  for (const std::string& name : clustering) {
    const cql::ColumnSpec* c = original.Find(name);
    bool descending = c != nullptr && c->descending;
    any_descending |= descending;
    order += fmt::format("{}{} {}", order.empty() ? "" : ", ", cql::QuoteName(name),
                         descending ? "DESC" : "ASC");
  }
  if (any_descending) out += fmt::format(" WITH CLUSTERING ORDER BY ({})", order);
  return out + ";";
}

struct AdvisorContext {
  const cql::TableSchema& schema;
  const TableSizingReport& report;
};

std::string SplitRowsExpression(double rows, double factor, double result) {
  return fmt::format("⌈{} / {}⌉ = {}", FormatQuantity(rows), FormatQuantity(factor),
                     FormatQuantity(result));
}

// The option's title, query cost, trade-off and Cosmos DB form, in words.
void ExplainOption(const TableSizingReport& report, const std::vector<std::string>& partition_key,
                   double split_factor, RedesignOption& o) {
  const std::string key = KeyDescription(report.partition_key);
  const std::string new_column = o.moved_column.empty() ? o.added_column : o.moved_column;
  const std::string per = FormatQuantity(split_factor);
  const std::string rows_now = FormatQuantity(o.input.rows_per_partition);
  const std::string rows_before = FormatQuantity(report.input.rows_per_partition);
  std::string paths;
  for (const std::string& c : partition_key) paths += (paths.empty() ? "/" : ", /") + c;
  o.query_cost = fmt::format(
      "Reading every row of one {} (one partition before) now touches {} "
      "partition{}",
      key, per, split_factor == 1 ? "" : "s");
  if (o.growth && o.growth->partitions_per_query != split_factor) {
    o.query_cost += fmt::format(", {} after the growth horizon",
                                FormatQuantity(o.growth->partitions_per_query));
  }
  o.query_cost += ".";
  switch (o.split.kind) {
    case SplitKind::kMoveClusteringColumn:
      o.title = fmt::format("move {} into the partition key ({} values per partition)",
                            o.split.column, per);
      break;
    case SplitKind::kTimeBucket:
      o.title =
          o.moved_column.empty()
              ? fmt::format("time bucket: {} from {} ({} per partition over {} days)",
                            o.added_column, o.split.column, per, FormatQuantity(o.split.span_days))
              : fmt::format(
                    "time bucket: day, which is {} moved into the partition key "
                    "({} per partition over {} days)",
                    o.split.column, per, FormatQuantity(o.split.span_days));
      break;
    case SplitKind::kHashBucket:
      o.title = fmt::format("hash bucket: {} in 0..{} ({} buckets)", o.added_column,
                            FormatQuantity(o.split.buckets - 1), per);
      break;
  }
  if (o.split.kind == SplitKind::kHashBucket) {
    std::string source = report.clustering.empty() ? "the row's key"
                         : report.clustering.size() == 1
                             ? report.clustering[0]
                             : fmt::format("({})", KeyList(report.clustering));
    o.trade_off = fmt::format(
        "Each {} spreads over {} partitions of {} rows instead of {}, by a bucket the "
        "application computes on every write (for example a hash of {} mod {}). A query for one "
        "{} must read all {} buckets ({} queries, or an IN over {} keys) unless it can compute "
        "the bucket of the rows it wants.",
        key, per, rows_now, rows_before, source, per, key, per, per, per);
    o.cosmos = fmt::format(
        "In Cosmos DB: a synthetic key {}-bucket (partplay analyze --synthetic hash:PATH:{} "
        "models it) or a hierarchical key [{}]; the {} limit then applies to each bucket, and "
        "with the hierarchical key a query on {} alone is routed only to the physical partitions "
        "holding that prefix.",
        key, per, paths, LimitBytesText(kCosmosLogicalPartitionBytes), key);
  } else {
    bool time = o.split.kind == SplitKind::kTimeBucket && o.moved_column.empty();
    std::string unit(TimeBucketUnitName(o.split.unit));
    o.trade_off = time
                      ? fmt::format(
                            "Each partition holds one {} of one {}: {} rows instead of {}. A query "
                            "within one {} reads one partition, a range over k {}s reads k. The "
                            "application derives {} from {} on every write and query ({} partly "
                            "duplicates {}), and the current {} takes all of a {}'s writes.",
                            unit, key, rows_now, rows_before, unit, unit, o.added_column,
                            o.split.column, o.added_column, o.split.column, unit, key)
                      : fmt::format(
                            "Each partition holds one ({}, {}): {} rows instead of {}. A query "
                            "must name {} to stay in one partition; a range of {} becomes one "
                            "partition per value, and neighbouring values likely live on "
                            "different nodes.",
                            KeyList(report.partition_key), new_column, rows_now, rows_before,
                            new_column, new_column);
    o.cosmos = fmt::format(
        "In Cosmos DB: a synthetic key joining {} and {} or a hierarchical key [{}]; the {} "
        "limit then applies per full key, and with the hierarchical key a query on {} alone is "
        "routed only to the physical partitions holding that prefix.",
        key, new_column, paths, LimitBytesText(kCosmosLogicalPartitionBytes), key);
  }
}

StatusOr<RedesignOption> EvaluateSplit(const AdvisorContext& ctx, PartitionSplit split,
                                       bool suggested) {
  const TableSizingReport& report = ctx.report;
  RedesignOption o;
  o.suggested = suggested;
  PARTPLAY_ASSIGN_OR_RETURN(RedesignedInput avg, ApplySplit(report.input, split));
  split.new_column = avg.added_column;  // the growth case must add the same column
  o.split = split;
  o.input = avg.input;
  o.added_column = avg.added_column;
  o.added_type = avg.added_type;
  o.moved_column = avg.moved_column;
  PARTPLAY_ASSIGN_OR_RETURN(
      o.average, MakeScenario("average", avg.input,
                              SplitRowsExpression(report.input.rows_per_partition, avg.split_factor,
                                                  avg.input.rows_per_partition),
                              avg.split_factor));
  if (report.worst_case) {
    SizingInput base = report.input;
    base.rows_per_partition = report.worst_case->terms.nr;
    PARTPLAY_ASSIGN_OR_RETURN(RedesignedInput worst, ApplySplit(base, split));
    PARTPLAY_ASSIGN_OR_RETURN(
        o.worst_case, MakeScenario("worst_case", worst.input,
                                   SplitRowsExpression(base.rows_per_partition, worst.split_factor,
                                                       worst.input.rows_per_partition),
                                   worst.split_factor));
  }
  if (report.grown) {
    SizingInput base = report.input;
    base.rows_per_partition = report.grown->terms.nr;
    PartitionSplit grown_split = split;
    if (split.kind == SplitKind::kTimeBucket)
      grown_split.span_days = GrowthSpanDays(*report.growth);
    if (grown_split.kind != SplitKind::kTimeBucket || grown_split.span_days > 0) {
      PARTPLAY_ASSIGN_OR_RETURN(RedesignedInput grown, ApplySplit(base, grown_split));
      PARTPLAY_ASSIGN_OR_RETURN(
          o.growth, MakeScenario("growth", grown.input,
                                 SplitRowsExpression(base.rows_per_partition, grown.split_factor,
                                                     grown.input.rows_per_partition),
                                 grown.split_factor));
    }
  }
  o.clears_limits = o.average.findings.empty() &&
                    (!o.worst_case || o.worst_case->findings.empty()) &&
                    (!o.growth || o.growth->findings.empty());

  // The new primary key: the original partition key plus the moved or added column.
  std::vector<std::string> partition_key = report.partition_key;
  std::vector<std::string> clustering;
  partition_key.push_back(o.moved_column.empty() ? o.added_column : o.moved_column);
  for (const std::string& c : report.clustering) {
    if (c != o.moved_column) clustering.push_back(c);
  }
  o.primary_key = PrimaryKeyText(partition_key, clustering);
  o.create_table = CreateTableText(ctx.schema, o.input, partition_key, clustering);

  ExplainOption(report, partition_key, avg.split_factor, o);
  return o;
}

// The smallest hash bucket count clearing every limit in every case, if one does.
StatusOr<std::optional<RedesignOption>> SuggestHashBuckets(const AdvisorContext& ctx) {
  const TableSizingReport& r = ctx.report;
  double max_rows = r.input.rows_per_partition;
  if (r.worst_case) max_rows = std::max(max_rows, r.worst_case->terms.nr);
  if (r.grown) max_rows = std::max(max_rows, r.grown->terms.nr);
  max_rows = std::ceil(max_rows);
  auto clears = [&](double n) -> StatusOr<std::optional<RedesignOption>> {
    PartitionSplit split;
    split.kind = SplitKind::kHashBucket;
    split.buckets = n;
    PARTPLAY_ASSIGN_OR_RETURN(RedesignOption o, EvaluateSplit(ctx, split, true));
    if (!o.clears_limits) return std::optional<RedesignOption>();
    return std::optional<RedesignOption>(std::move(o));
  };
  if (max_rows < 2) return std::optional<RedesignOption>();
  double lo = 1, hi = 2;  // clears(lo) is false (or untested at 1), find hi that clears
  std::optional<RedesignOption> best;
  while (true) {
    PARTPLAY_ASSIGN_OR_RETURN(best, clears(hi));
    if (best) break;
    if (hi >= max_rows) return std::optional<RedesignOption>();  // one row per partition fails
    lo = hi;
    hi = std::min(hi * 2, max_rows);
  }
  while (hi - lo > 1) {
    double mid = std::floor((lo + hi) / 2);
    PARTPLAY_ASSIGN_OR_RETURN(std::optional<RedesignOption> o, clears(mid));
    if (o) {
      hi = mid;
      best = std::move(o);
    } else {
      lo = mid;
    }
  }
  return best;
}

}  // namespace

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

  AdvisorContext ctx{schema, r};
  bool hash_asked = false;
  for (const PartitionSplit& split : request.splits) {
    hash_asked |= split.kind == SplitKind::kHashBucket;
    PARTPLAY_ASSIGN_OR_RETURN(RedesignOption o, EvaluateSplit(ctx, split, false));
    r.options.push_back(std::move(o));
  }
  if (r.needs_redesign && request.suggest_splits && !hash_asked) {
    PARTPLAY_ASSIGN_OR_RETURN(std::optional<RedesignOption> o, SuggestHashBuckets(ctx));
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

// ---- The request as JSON --------------------------------------------------------------------

namespace {

namespace dom = simdjson::dom;

Status BadField(std::string_view field, std::string_view what) {
  return Status(ErrorCode::kBadOption, fmt::format("sizing request {}: {}", field, what));
}

StatusOr<double> NumberField(dom::element e, std::string_view field, double min = 0) {
  double d;
  if (e.get_double().get(d) || !std::isfinite(d)) return BadField(field, "must be a number");
  if (d < min) return BadField(field, fmt::format("must be {} or more", FormatQuantity(min)));
  return d;
}

StatusOr<int64_t> DaysField(dom::element e, std::string_view field) {
  PARTPLAY_ASSIGN_OR_RETURN(double d, NumberField(e, field));
  if (d != std::floor(d) || d > 1e15) return BadField(field, "must be a whole number of days");
  return static_cast<int64_t>(d);
}

StatusOr<std::string> StringField(dom::element e, std::string_view field) {
  std::string_view v;
  if (e.get_string().get(v)) return BadField(field, "must be a string");
  return std::string(v);
}

StatusOr<bool> BoolField(dom::element e, std::string_view field) {
  bool b;
  if (e.get_bool().get(b)) return BadField(field, "must be true or false");
  return b;
}

// 73000 | "100*730" | [100, 730] | [{"name": "rooms per hotel", "value": 100}, ...]
StatusOr<RowsEstimate> RowsField(dom::element e, std::string_view field) {
  if (e.is_string()) {
    PARTPLAY_ASSIGN_OR_RETURN(std::string text, StringField(e, field));
    return ParseRowsFormula(text);
  }
  RowsEstimate rows;
  dom::array array;
  if (e.get_array().get(array)) {
    PARTPLAY_ASSIGN_OR_RETURN(double v, NumberField(e, field));
    rows.factors.push_back({"", v});
    return rows;
  }
  for (dom::element item : array) {
    RowsFactor factor;
    dom::object object;
    if (item.get_object().get(object)) {
      PARTPLAY_ASSIGN_OR_RETURN(factor.value, NumberField(item, field));
    } else {
      bool has_value = false;
      for (dom::key_value_pair m : object) {
        if (m.key == "name") {
          PARTPLAY_ASSIGN_OR_RETURN(factor.name, StringField(m.value, field));
        } else if (m.key == "value") {
          PARTPLAY_ASSIGN_OR_RETURN(factor.value, NumberField(m.value, field));
          has_value = true;
        } else {
          return BadField(fmt::format("{}.{}", field, m.key), "unknown (known: name, value)");
        }
      }
      if (!has_value) return BadField(field, "a factor needs a value");
    }
    rows.factors.push_back(std::move(factor));
  }
  if (rows.factors.empty()) return BadField(field, "needs at least one factor");
  return rows;
}

StatusOr<PartitionSplit> SplitField(dom::element e) {
  dom::object object;
  if (e.get_object().get(object)) return BadField("splits", "each split must be an object");
  PartitionSplit split;
  bool has_kind = false;
  for (dom::key_value_pair m : object) {
    if (m.key == "kind") {
      PARTPLAY_ASSIGN_OR_RETURN(std::string kind, StringField(m.value, "splits.kind"));
      if (kind == "move_clustering_column")
        split.kind = SplitKind::kMoveClusteringColumn;
      else if (kind == "time_bucket")
        split.kind = SplitKind::kTimeBucket;
      else if (kind == "hash_bucket")
        split.kind = SplitKind::kHashBucket;
      else {
        return BadField("splits.kind",
                        "must be move_clustering_column, time_bucket or hash_bucket");
      }
      has_kind = true;
    } else if (m.key == "column") {
      PARTPLAY_ASSIGN_OR_RETURN(split.column, StringField(m.value, "splits.column"));
      split.column = CqlName(split.column);
    } else if (m.key == "distinct_values") {
      PARTPLAY_ASSIGN_OR_RETURN(split.distinct_values,
                                NumberField(m.value, "splits.distinct_values", 1));
    } else if (m.key == "unit") {
      PARTPLAY_ASSIGN_OR_RETURN(std::string unit, StringField(m.value, "splits.unit"));
      PARTPLAY_ASSIGN_OR_RETURN(split.unit, ParseTimeBucketUnit(unit));
    } else if (m.key == "span_days") {
      PARTPLAY_ASSIGN_OR_RETURN(split.span_days, NumberField(m.value, "splits.span_days"));
    } else if (m.key == "buckets") {
      PARTPLAY_ASSIGN_OR_RETURN(split.buckets, NumberField(m.value, "splits.buckets", 2));
    } else if (m.key == "new_column") {
      PARTPLAY_ASSIGN_OR_RETURN(split.new_column, StringField(m.value, "splits.new_column"));
      split.new_column = CqlName(split.new_column);
    } else {
      return BadField(fmt::format("splits.{}", m.key),
                      "unknown (known: kind, column, distinct_values, unit, span_days, buckets, "
                      "new_column)");
    }
  }
  if (!has_kind) return BadField("splits", "each split needs a kind");
  return split;
}

StatusOr<GrowthOptions> GrowthField(dom::element e) {
  dom::object object;
  if (e.get_object().get(object)) return BadField("growth", "must be an object or null");
  GrowthOptions g;
  for (dom::key_value_pair m : object) {
    if (m.key == "rows_per_day") {
      PARTPLAY_ASSIGN_OR_RETURN(g.rows_per_day, NumberField(m.value, "growth.rows_per_day"));
    } else if (m.key == "retention_days") {
      PARTPLAY_ASSIGN_OR_RETURN(g.retention_days, DaysField(m.value, "growth.retention_days"));
    } else if (m.key == "horizon_days") {
      PARTPLAY_ASSIGN_OR_RETURN(g.horizon_days, DaysField(m.value, "growth.horizon_days"));
    } else {
      return BadField(fmt::format("growth.{}", m.key),
                      "unknown (known: rows_per_day, retention_days, horizon_days)");
    }
  }
  return g;
}

}  // namespace

StatusOr<TableSizingRequest> ParseTableSizingRequestJson(std::string_view json) {
  JsonDiagnosis d = DiagnoseJsonValue(json);
  if (d.found) {
    return Status(ErrorCode::kMalformedJson, fmt::format("sizing request: {}", d.message),
                  SourceLocation{static_cast<int64_t>(d.offset)});
  }
  dom::parser parser;
  dom::element root;
  if (parser.parse(json.data(), json.size()).get(root)) {
    return Status(ErrorCode::kMalformedJson, "sizing request: not valid JSON");
  }
  dom::object object;
  if (root.get_object().get(object)) return BadField("", "must be a JSON object");
  TableSizingRequest r;
  bool has_rows = false;
  for (dom::key_value_pair m : object) {
    std::string_view k = m.key;
    dom::element v = m.value;
    if (k == "cql") {
      PARTPLAY_ASSIGN_OR_RETURN(r.cql, StringField(v, k));
    } else if (k == "table") {
      PARTPLAY_ASSIGN_OR_RETURN(r.table, StringField(v, k));
    } else if (k == "rows_per_partition") {
      PARTPLAY_ASSIGN_OR_RETURN(r.rows_per_partition, RowsField(v, k));
      has_rows = true;
    } else if (k == "worst_rows_per_partition") {
      if (!v.is_null()) {
        PARTPLAY_ASSIGN_OR_RETURN(r.worst_rows_per_partition, RowsField(v, k));
      }
    } else if (k == "avg_sizes") {
      dom::object sizes;
      if (v.get_object().get(sizes)) return BadField(k, "must be an object: column -> bytes");
      for (dom::key_value_pair size : sizes) {
        PARTPLAY_ASSIGN_OR_RETURN(double bytes,
                                  NumberField(size.value, fmt::format("avg_sizes.{}", size.key)));
        r.avg_sizes.emplace_back(std::string(size.key), bytes);
      }
    } else if (k == "partitions") {
      PARTPLAY_ASSIGN_OR_RETURN(r.partitions, NumberField(v, k));
    } else if (k == "replication_factor") {
      if (!v.is_null()) {
        PARTPLAY_ASSIGN_OR_RETURN(double rf, NumberField(v, k));
        r.replication_factor = rf;
      }
    } else if (k == "t_avg") {
      PARTPLAY_ASSIGN_OR_RETURN(r.t_avg, NumberField(v, k));
    } else if (k == "splits") {
      dom::array splits;
      if (v.get_array().get(splits)) return BadField(k, "must be an array");
      for (dom::element e : splits) {
        PARTPLAY_ASSIGN_OR_RETURN(PartitionSplit split, SplitField(e));
        r.splits.push_back(std::move(split));
      }
    } else if (k == "growth") {
      if (!v.is_null()) {
        PARTPLAY_ASSIGN_OR_RETURN(GrowthOptions g, GrowthField(v));
        r.growth = g;
      }
    } else if (k == "suggest_splits") {
      PARTPLAY_ASSIGN_OR_RETURN(r.suggest_splits, BoolField(v, k));
    } else {
      return BadField(k,
                      "unknown (known: cql, table, rows_per_partition, "
                      "worst_rows_per_partition, avg_sizes, partitions, replication_factor, "
                      "t_avg, splits, growth, suggest_splits)");
    }
  }
  if (!has_rows) return BadField("rows_per_partition", "is required");
  return r;
}

StatusOr<std::string> SizeTableJson(std::string_view request_json) {
  PARTPLAY_ASSIGN_OR_RETURN(TableSizingRequest request, ParseTableSizingRequestJson(request_json));
  PARTPLAY_ASSIGN_OR_RETURN(TableSizingReport report, SizeTable(request));
  return TableSizingToJson(report);
}

// ---- JSON output ----------------------------------------------------------------------------

namespace {

std::string TermsJson(const SizingTerms& t) {
  std::string s = "{";
  JsonMembers o{s};
  o.Num("nr", t.nr);
  o.Int("nc", t.nc);
  o.Int("npk", t.npk);
  o.Int("ns", t.ns);
  o.Num("nv", t.nv);
  o.Num("sum_partition_key", t.sum_partition_key);
  o.Num("sum_static", t.sum_static);
  o.Num("sum_regular", t.sum_regular);
  o.Num("sum_clustering", t.sum_clustering);
  o.Num("rows_term", t.rows_term);
  o.Num("metadata_term", t.metadata_term);
  o.Num("t_avg", t.t_avg);
  o.Num("st_bytes", t.st_bytes);
  o.Num("row_bytes", RowBytes(t));
  o.Num("partitions", t.partitions);
  o.Num("replication_factor", t.replication_factor);
  o.Num("table_bytes", t.table_bytes);
  return s + "}";
}

std::string FindingsJson(const std::vector<SizingFinding>& findings) {
  std::string s = "[";
  for (size_t i = 0; i < findings.size(); ++i) {
    if (i) s += ',';
    s += '{';
    JsonMembers o{s};
    o.Str("code", findings[i].code);
    o.Str("severity", findings[i].severity);
    o.Str("message", findings[i].message);
    o.Num("value", findings[i].value);
    o.Num("limit", findings[i].limit);
    s += '}';
  }
  return s + "]";
}

std::string ScenarioJson(const SizingScenario& sc) {
  std::string s = "{";
  JsonMembers o{s};
  o.Str("name", sc.name);
  o.Str("rows_expression", sc.rows_expression);
  o.Num("partitions_per_query", sc.partitions_per_query);
  o.Raw("terms", TermsJson(sc.terms));
  std::string arithmetic = "{";
  JsonMembers a{arithmetic};
  a.Str("nv", NvArithmetic(sc.terms));
  a.Str("st", StArithmetic(sc.terms));
  a.Str("table", TableArithmetic(sc.terms));
  arithmetic += '}';
  o.Raw("arithmetic", arithmetic);
  o.Raw("findings", FindingsJson(sc.findings));
  return s + "}";
}

std::string OptionalScenarioJson(const std::optional<SizingScenario>& sc) {
  return sc ? ScenarioJson(*sc) : "null";
}

std::string RowsJson(const RowsEstimate& rows) {
  std::string s = "{";
  JsonMembers o{s};
  o.Num("value", rows.value());
  o.Str("expression", rows.Expression());
  std::string factors = "[";
  for (size_t i = 0; i < rows.factors.size(); ++i) {
    if (i) factors += ',';
    factors += '{';
    JsonMembers f{factors};
    f.Str("name", rows.factors[i].name);
    f.Num("value", rows.factors[i].value);
    factors += '}';
  }
  o.Raw("factors", factors + "]");
  return s + "}";
}

std::string ColumnsJson(const SizingInput& in) {
  std::string s = "[";
  for (size_t i = 0; i < in.columns.size(); ++i) {
    const SizedColumn& c = in.columns[i];
    if (i) s += ',';
    s += '{';
    JsonMembers o{s};
    o.Str("name", c.name);
    o.Str("type", c.type);
    o.Str("role", RoleName(c.role));
    o.Num("bytes", ColumnBytes(c));
    o.Bool("estimated", !FixedCqlTypeSize(c.type).has_value());
    s += '}';
  }
  return s + "]";
}

std::string StringsJson(const std::vector<std::string>& list) {
  std::string s = "[";
  for (size_t i = 0; i < list.size(); ++i) {
    if (i) s += ',';
    AppendJsonString(list[i], s);
  }
  return s + "]";
}

std::string PointJson(const GrowthPoint& p) {
  std::string s = "{";
  JsonMembers o{s};
  o.Int("day", p.day);
  o.Num("rows", p.rows);
  o.Num("nv", p.nv);
  o.Num("st_bytes", p.st_bytes);
  return s + "}";
}

std::string GrowthJson(const GrowthSeries& g) {
  std::string s = "{";
  JsonMembers o{s};
  o.Num("rows_per_day", g.options.rows_per_day);
  o.Int("retention_days", g.options.retention_days);
  o.Int("horizon_days", g.options.horizon_days);
  std::string points = "[";
  for (size_t i = 0; i < g.points.size(); ++i) {
    if (i) points += ',';
    points += PointJson(g.points[i]);
  }
  o.Raw("points", points + "]");
  std::string crossings = "[";
  for (size_t i = 0; i < g.crossings.size(); ++i) {
    const ThresholdCrossing& c = g.crossings[i];
    if (i) crossings += ',';
    crossings += '{';
    JsonMembers m{crossings};
    m.Str("code", c.code);
    m.Str("measure", c.measure);
    m.Num("limit", c.limit);
    if (c.day) {
      m.Int("day", *c.day);
    } else {
      m.Raw("day", "null");
    }
    m.Bool("within_horizon", c.within_horizon);
    crossings += '}';
  }
  o.Raw("crossings", crossings + "]");
  o.Raw("largest", PointJson(g.largest));
  return s + "}";
}

std::string SplitJson(const PartitionSplit& split) {
  std::string s = "{";
  JsonMembers o{s};
  o.Str("kind", SplitKindName(split.kind));
  switch (split.kind) {
    case SplitKind::kMoveClusteringColumn:
      o.Str("column", split.column);
      o.Num("distinct_values", split.distinct_values);
      break;
    case SplitKind::kTimeBucket:
      o.Str("column", split.column);
      o.Str("unit", TimeBucketUnitName(split.unit));
      o.Num("span_days", split.span_days);
      break;
    case SplitKind::kHashBucket:
      o.Num("buckets", split.buckets);
      break;
  }
  if (!split.new_column.empty()) o.Str("new_column", split.new_column);
  return s + "}";
}

std::string OptionJson(const RedesignOption& opt) {
  std::string s = "{";
  JsonMembers o{s};
  o.Raw("split", SplitJson(opt.split));
  o.Bool("suggested", opt.suggested);
  o.Str("title", opt.title);
  o.Str("added_column", opt.added_column);
  o.Str("added_type", opt.added_type);
  o.Str("moved_column", opt.moved_column);
  o.Str("primary_key", opt.primary_key);
  o.Str("create_table", opt.create_table);
  o.Raw("columns", ColumnsJson(opt.input));
  o.Raw("average", ScenarioJson(opt.average));
  o.Raw("worst_case", OptionalScenarioJson(opt.worst_case));
  o.Raw("growth", OptionalScenarioJson(opt.growth));
  o.Bool("clears_limits", opt.clears_limits);
  o.Str("query_cost", opt.query_cost);
  o.Str("trade_off", opt.trade_off);
  o.Str("cosmos", opt.cosmos);
  return s + "}";
}

}  // namespace

std::string TableSizingToJson(const TableSizingReport& r) {
  std::string s = "{";
  JsonMembers o{s};
  o.Str("keyspace", r.keyspace);
  o.Str("table", r.table);
  o.Str("create_table", r.create_table);
  o.Raw("partition_key", StringsJson(r.partition_key));
  o.Raw("clustering", StringsJson(r.clustering));
  o.Raw("columns", ColumnsJson(r.input));
  o.Raw("rows_per_partition", RowsJson(r.rows));
  o.Raw("worst_rows_per_partition", r.worst_rows ? RowsJson(*r.worst_rows) : "null");
  o.Num("partitions", r.input.partitions);
  o.Num("replication_factor", r.input.replication_factor);
  o.Str("replication_source", r.replication_source);
  o.Num("t_avg", r.input.t_avg);
  o.Raw("average", ScenarioJson(r.average));
  o.Raw("worst_case", OptionalScenarioJson(r.worst_case));
  o.Raw("growth", r.growth ? GrowthJson(*r.growth) : "null");
  o.Raw("grown", OptionalScenarioJson(r.grown));
  o.Bool("needs_redesign", r.needs_redesign);
  o.Raw("redesign_reasons", StringsJson(r.redesign_reasons));
  std::string options = "[";
  for (size_t i = 0; i < r.options.size(); ++i) {
    if (i) options += ',';
    options += OptionJson(r.options[i]);
  }
  o.Raw("options", options + "]");
  o.Raw("notes", StringsJson(r.notes));
  return s + "}\n";
}

// ---- Text output ----------------------------------------------------------------------------

namespace {

std::string_view RoleText(ColumnRole role) {
  switch (role) {
    case ColumnRole::kPartitionKey:
      return "partition key";
    case ColumnRole::kClustering:
      return "clustering";
    case ColumnRole::kStatic:
      return "static";
    case ColumnRole::kRegular:
      return "regular";
  }
  return "regular";
}

void AppendColumns(const SizingInput& in, const std::string& indent, std::string& out) {
  size_t name_width = 6, type_width = 4;
  for (const SizedColumn& c : in.columns) {
    name_width = std::max(name_width, c.name.size());
    type_width = std::max(type_width, c.type.size());
  }
  out += fmt::format("{}{:<{}}  {:<{}}  {:<13}  bytes\n", indent, "column", name_width, "type",
                     type_width, "role");
  for (const SizedColumn& c : in.columns) {
    bool estimated = !FixedCqlTypeSize(c.type).has_value();
    out += fmt::format("{}{:<{}}  {:<{}}  {:<13}  {}{}\n", indent, c.name, name_width, c.type,
                       type_width, RoleText(c.role), FormatQuantity(ColumnBytes(c)),
                       estimated ? " (average given)" : "");
  }
}

void AppendFindings(const std::vector<SizingFinding>& findings, const std::string& indent,
                    std::string& out) {
  if (findings.empty()) {
    out += indent + fmt::format(
                        "within every limit ({} and {} values, {}, Cosmos DB's {} per partition "
                        "and {} per row)\n",
                        FormatQuantity(kCassandraCellsPerPartition),
                        FormatQuantity(kCassandraRecommendedValuesPerPartition),
                        LimitBytesText(kCassandraRecommendedPartitionBytes),
                        LimitBytesText(kCosmosLogicalPartitionBytes),
                        LimitBytesText(kCosmosItemBytes));
    return;
  }
  for (const SizingFinding& f : findings) {
    out += fmt::format("{}{}: {}\n", indent, f.severity, f.message);
  }
}

void AppendScenario(const SizingScenario& sc, const std::string& indent, bool show_query,
                    std::string& out) {
  out += fmt::format("{}Nr = {}", indent, sc.rows_expression);
  if (sc.rows_expression != FormatQuantity(sc.terms.nr) &&
      sc.rows_expression.find('=') == std::string::npos) {
    out += fmt::format(" = {}", FormatQuantity(sc.terms.nr));
  }
  out += " rows per partition\n";
  out += fmt::format("{}{}\n{}{}\n{}{}\n", indent, NvArithmetic(sc.terms), indent,
                     StArithmetic(sc.terms), indent, TableArithmetic(sc.terms));
  if (show_query) {
    out +=
        fmt::format("{}partitions: {}; a query for one original partition touches {}\n", indent,
                    FormatQuantity(sc.terms.partitions), FormatQuantity(sc.partitions_per_query));
  }
  AppendFindings(sc.findings, indent, out);
}

std::string DayText(const std::optional<int64_t>& day) {
  return day ? fmt::format("day {}", FormatQuantity(static_cast<double>(*day))) : "never";
}

void AppendGrowth(const GrowthSeries& g, const SizingScenario& grown, std::string& out) {
  const GrowthOptions& o = g.options;
  out += fmt::format(
      "\nGrowth: {} rows per day per partition, {}, over {} days\n", FormatQuantity(o.rows_per_day),
      o.retention_days > 0
          ? fmt::format("kept {} days (TTL)", FormatQuantity(static_cast<double>(o.retention_days)))
          : std::string("kept forever"),
      FormatQuantity(static_cast<double>(o.horizon_days)));
  out += "  day            rows              Nv  St\n";
  // At most a dozen rows: the crossings, the retention day, the horizon and an even sample.
  size_t every = std::max<size_t>(1, g.points.size() / 10);
  for (size_t i = 0; i < g.points.size(); ++i) {
    const GrowthPoint& p = g.points[i];
    bool marked = p.day == o.retention_days || i + 1 == g.points.size();
    for (const ThresholdCrossing& c : g.crossings) marked |= c.day && *c.day == p.day;
    if (!marked && i % every != 0) continue;
    out +=
        fmt::format("  {:>6}  {:>14}  {:>14}  {}\n", FormatQuantity(static_cast<double>(p.day)),
                    FormatQuantity(p.rows), FormatQuantity(p.nv), FormatDecimalBytes(p.st_bytes));
  }
  for (const ThresholdCrossing& c : g.crossings) {
    std::string limit =
        c.measure == "nv" ? FormatQuantity(c.limit) + " values" : LimitBytesText(c.limit);
    out += fmt::format("  over {}: {}{}\n", limit, DayText(c.day),
                       c.day && !c.within_horizon ? " (after the horizon)" : "");
  }
  out += "  the largest partition, at the horizon:\n";
  AppendScenario(grown, "    ", false, out);
}

}  // namespace

std::string TableSizingToText(const TableSizingReport& r) {
  std::string out = fmt::format("Table {}\n  {}\n\n", Qualified(r.keyspace, r.table),
                                PrimaryKeyText(r.partition_key, r.clustering));
  AppendColumns(r.input, "  ", out);
  const SizingTerms& t = r.average.terms;
  out += fmt::format(
      "\nNc = {} columns, Npk = {} primary key columns, Ns = {} static columns, "
      "t_avg = {} bytes per value\n",
      t.nc, t.npk, t.ns, FormatQuantity(t.t_avg));
  out +=
      fmt::format("partitions = {}, replication factor = {} ({})\n", FormatQuantity(t.partitions),
                  FormatQuantity(t.replication_factor), r.replication_source);
  out += "\nAverage case\n";
  AppendScenario(r.average, "  ", false, out);
  if (r.worst_case) {
    out += "\nWorst case\n";
    AppendScenario(*r.worst_case, "  ", false, out);
  }
  if (r.growth && r.grown) AppendGrowth(*r.growth, *r.grown, out);
  out += r.needs_redesign ? "\nRedesign: needed\n"
                          : "\nRedesign: not needed (every case is within "
                            "the limits)\n";
  for (const std::string& reason : r.redesign_reasons) out += "  " + reason + "\n";
  for (size_t i = 0; i < r.options.size(); ++i) {
    const RedesignOption& o = r.options[i];
    out += fmt::format("\nOption {}: {}{}\n", i + 1, o.title, o.suggested ? " (suggested)" : "");
    out += fmt::format("  {}\n", o.primary_key);
    std::string create = o.create_table;
    for (size_t at = 0; (at = create.find('\n', at)) != std::string::npos; at += 3) {
      create.replace(at, 1, "\n  ");
    }
    out += "  " + create + "\n";
    out += "  average case:\n";
    AppendScenario(o.average, "    ", true, out);
    if (o.worst_case) {
      out += "  worst case:\n";
      AppendScenario(*o.worst_case, "    ", true, out);
    }
    if (o.growth) {
      out += "  after growth:\n";
      AppendScenario(*o.growth, "    ", true, out);
    }
    out += fmt::format("  {}\n  {}\n  {}\n", o.query_cost, o.trade_off, o.cosmos);
  }
  if (!r.notes.empty()) {
    out += "\nNotes\n";
    for (const std::string& n : r.notes) out += "  " + n + "\n";
  }
  return out;
}

}  // namespace partplay
