#include "partplay/sizing/table_sizing_writers.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/message_format.h"
#include "partplay/core/json_writer.h"
#include "partplay/sizing/sizing_checks.h"
#include "sizing/table_sizing_internal.h"

namespace partplay {

using namespace sizing_internal;

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
  return JsonArray(findings, [](const SizingFinding& f, std::string& s) {
    s += '{';
    JsonMembers o{s};
    o.Str("code", f.code);
    o.Str("severity", f.severity);
    o.Str("message", f.message);
    o.Num("value", f.value);
    o.Num("limit", f.limit);
    s += '}';
  });
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
  o.Raw("checks", SizingChecksJson(&sc.terms));
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
  o.Raw("factors", JsonArray(rows.factors, [](const auto& factor, std::string& out) {
          out += '{';
          JsonMembers f{out};
          f.Str("name", factor.name);
          f.Num("value", factor.value);
          out += '}';
        }));
  return s + "}";
}

std::string ColumnsJson(const SizingInput& in) {
  return JsonArray(in.columns, [](const SizedColumn& c, std::string& s) {
    s += '{';
    JsonMembers o{s};
    o.Str("name", c.name);
    o.Str("type", c.type);
    o.Str("role", RoleName(c.role));
    o.Num("bytes", ColumnBytes(c));
    o.Bool("estimated", !ColumnFixedSize(c).has_value());
    o.Bool("time_bucket", c.role == ColumnRole::kClustering && CanTimeBucket(c.type));
    s += '}';
  });
}

std::string StringsJson(const std::vector<std::string>& list) {
  return JsonArray(list, [](const std::string& v, std::string& s) { AppendJsonString(v, s); });
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
  o.Raw("points", JsonArray(g.points, [](const GrowthPoint& p, std::string& out) {
          out += PointJson(p);
        }));
  o.Raw("crossings", JsonArray(g.crossings, [](const ThresholdCrossing& c, std::string& out) {
    out += '{';
    JsonMembers m{out};
    m.Str("code", c.code);
    m.Str("measure", c.measure);
    m.Num("limit", c.limit);
    if (c.day) {
      m.Int("day", *c.day);
    } else {
      m.Raw("day", "null");
    }
    m.Bool("within_horizon", c.within_horizon);
    out += '}';
  }));
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

std::string SizingTablesToJson(const std::vector<SizingTableInfo>& tables) {
  std::string s = "{\"tables\":[";
  for (size_t i = 0; i < tables.size(); ++i) {
    const SizingTableInfo& t = tables[i];
    if (i) s += ',';
    s += '{';
    JsonMembers o{s};
    o.Str("name", t.name);
    o.Raw("columns", JsonArray(t.columns, [](const SizedColumn& c, std::string& columns) {
      columns += '{';
      JsonMembers m{columns};
      m.Str("name", c.name);
      m.Str("type", c.type);
      m.Str("role", RoleName(c.role));
      if (auto fixed = ColumnFixedSize(c)) {
        m.Num("fixed_bytes", *fixed);
      } else {
        m.Raw("fixed_bytes", "null");
      }
      m.Bool("time_bucket", c.role == ColumnRole::kClustering && CanTimeBucket(c.type));
      columns += '}';
    }));
    o.Raw("variable_columns", StringsJson(t.variable_columns));
    s += '}';
  }
  return s + "]}\n";
}

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
  o.Raw("options", JsonArray(r.options, [](const auto& option, std::string& out) {
          out += OptionJson(option);
        }));
  o.Raw("notes", StringsJson(r.notes));
  o.Raw("checks", SizingChecksJson());
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
    bool estimated = !ColumnFixedSize(c).has_value();
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
