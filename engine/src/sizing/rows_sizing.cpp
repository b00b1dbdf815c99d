#include "partplay/sizing/rows_sizing.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/json_options.h"
#include "core/message_format.h"
#include "partplay/cassandra/value.h"
#include "partplay/core/json_writer.h"
#include "sizing/table_sizing_internal.h"

namespace partplay {

using namespace sizing_internal;

StatusOr<TableRowsRequest> ParseTableRowsRequestJson(std::string_view json) {
  simdjson::dom::parser parser;
  PARTPLAY_ASSIGN_OR_RETURN(simdjson::dom::object object,
                            internal::ParseOptionsObject(parser, json, "rows sizing request"));
  TableRowsRequest r;
  bool have_table = false;
  PARTPLAY_RETURN_IF_ERROR(internal::ReadOptionFields(
      object, "rows sizing",
      {
          {"table",
           [&](simdjson::dom::element v) -> Status {
             std::string_view name;
             if (v.get_string().get(name) || name.empty()) {
               return internal::BadOptionField("table", "must be a table name (\"ks.table\")")
                   .WithField("/table");
             }
             r.table = std::string(name);
             have_table = true;
             return Status::Ok();
           }},
          {"max_examples",
           [&](simdjson::dom::element v) -> Status {
             double d;
             if (v.get_double().get(d) || d < 0 || d > 10000 || d != std::floor(d)) {
               return internal::BadOptionField("max_examples",
                                               "must be a whole number from 0 to 10000")
                   .WithField("/max_examples");
             }
             r.max_examples = static_cast<size_t>(d);
             return Status::Ok();
           }},
      }));
  if (!have_table) {
    return internal::BadOptionField("table", "is required (\"ks.table\")").WithField("/table");
  }
  return r;
}

namespace {

// To 2 decimals, as the form shows a figure (FormatQuantity).
double Round2(double x) { return std::round(x * 100) / 100; }

// The keyspace, its user types, the base table of a view and the table, as DESCRIBE writes them.
std::string SchemaScript(const cql::Keyspace& keyspace, const cql::TableSchema& table) {
  std::string out = keyspace.schema.Describe();
  for (const std::string& type : keyspace.type_order) {
    auto t = keyspace.types.find(type);
    if (t != keyspace.types.end()) out += "\n\n" + cql::DescribeType(t->second);
  }
  if (table.is_view()) {
    auto base = keyspace.tables.find(table.view_base);
    if (base != keyspace.tables.end()) out += "\n\n" + base->second->schema().Describe();
  }
  return out + "\n\n" + table.Describe() + "\n";
}

// The partition key as the table layout writes it (cassandra/result_format.h): each component
// as cqlsh prints it, in a JSON array.
std::string KeyJson(const cql::TableSchema& t, const cql::Partition& p) {
  std::string out = "[";
  for (size_t i = 0; i < p.key.size(); ++i) {
    if (i) out += ',';
    AppendJsonString(i < t.partition_key.size()
                         ? cql::FormatCqlsh(t.partition_column(i).type, p.key[i])
                         : p.key[i],
                     out);
  }
  return out + "]";
}

// "ks.t" as the session names its tables (a quoted name may hold a dot: "a.b"."c.d" is
// a.b.c.d), else as CQL reads a name ("ks"."T", or "t" in the current keyspace).
StatusOr<cql::Table*> FindSessionTable(cql::Session& session, std::string_view name) {
  const auto& keyspaces = session.keyspaces();
  for (const auto& [keyspace_name, keyspace] : keyspaces) {
    if (name.size() <= keyspace_name.size() || name[keyspace_name.size()] != '.' ||
        name.substr(0, keyspace_name.size()) != keyspace_name) {
      continue;
    }
    auto t = keyspace.tables.find(std::string(name.substr(keyspace_name.size() + 1)));
    if (t != keyspace.tables.end()) return t->second.get();
  }
  auto [keyspace_name, table_name] = SplitTableName(name);
  if (keyspace_name.empty()) keyspace_name = session.current_keyspace();
  if (keyspace_name.empty()) {
    return Status(ErrorCode::kCqlUnknown,
                  fmt::format("no keyspace is in use: name the table {} as keyspace.table", name));
  }
  auto keyspace = keyspaces.find(keyspace_name);
  if (keyspace != keyspaces.end()) {
    auto t = keyspace->second.tables.find(table_name);
    if (t != keyspace->second.tables.end()) return t->second.get();
  }
  return Status(ErrorCode::kCqlUnknown, fmt::format("the session has no table {}", name));
}

double SizeOfValue(const cql::Value& v) { return v ? static_cast<double>(v->size()) : 0; }

// Adds one value (or a null) to a column's figures.
void Count(MeasuredColumn& c, const cql::Value& v) {
  if (v) {
    ++c.values;
    c.bytes += SizeOfValue(v);
  } else {
    ++c.nulls;
  }
}

}  // namespace

StatusOr<TableRowsSizing> SizeTableFromRows(cql::Session& session,
                                            const TableRowsRequest& request) {
  PARTPLAY_ASSIGN_OR_RETURN(cql::Table * found, FindSessionTable(session, request.table));
  const cql::Table& table = *found;
  const cql::TableSchema& schema = table.schema();
  PARTPLAY_ASSIGN_OR_RETURN(const cql::Keyspace* keyspace, session.FindKeyspace(schema.keyspace));
  const std::string qualified = Qualified(schema.keyspace, schema.name);
  if (table.partitions().empty()) {
    return Status(ErrorCode::kInvalidState,
                  fmt::format("{} holds no rows to measure: insert rows or load a file into it "
                              "first",
                              qualified));
  }

  TableRowsSizing r;
  r.keyspace = schema.keyspace;
  r.table = schema.name;
  r.view = schema.is_view();
  r.nc = static_cast<int>(schema.columns.size());
  r.npk = static_cast<int>(schema.partition_key.size() + schema.clustering.size());
  r.ns = static_cast<int>(schema.statics.size());
  const int per_row = r.nc - r.npk - r.ns;

  // The columns, in declaration order, and where each one's figures go: the partition key and
  // clustering columns by their place in the key, static and regular ones by their slot.
  std::vector<size_t> partition_slot, clustering_slot;
  std::vector<size_t> static_slot(schema.statics.size()), regular_slot(schema.regular.size());
  for (int i : schema.partition_key) partition_slot.push_back(static_cast<size_t>(i));
  for (int i : schema.clustering) clustering_slot.push_back(static_cast<size_t>(i));
  for (size_t i = 0; i < schema.columns.size(); ++i) {
    const cql::ColumnSpec& spec = schema.columns[i];
    const size_t position = static_cast<size_t>(spec.position);
    if (spec.kind == cql::ColumnKind::kStatic && position < static_slot.size()) {
      static_slot[position] = i;
    } else if (spec.kind == cql::ColumnKind::kRegular && position < regular_slot.size()) {
      regular_slot[position] = i;
    }
    SizedColumn sized = SizedOf(spec);
    MeasuredColumn c;
    c.name = spec.name;
    c.type = sized.type;
    c.role = sized.role;
    c.fixed_bytes = ColumnFixedSize(sized);
    c.per_partition =
        spec.kind == cql::ColumnKind::kPartitionKey || spec.kind == cql::ColumnKind::kStatic;
    r.columns.push_back(std::move(c));
  }

  std::vector<MeasuredPartition> measured;
  std::vector<PartitionFigures> figures;
  measured.reserve(table.partitions().size());
  figures.reserve(table.partitions().size());
  for (const auto& [key, p] : table.partitions()) {
    const cql::PartitionSize size = table.SizeOf(p);
    for (size_t k = 0; k < partition_slot.size() && k < p.key.size(); ++k) {
      Count(r.columns[partition_slot[k]], p.key[k]);
    }
    for (size_t k = 0; k < static_slot.size(); ++k) {
      Count(r.columns[static_slot[k]], k < p.statics.size() ? p.statics[k] : cql::Value());
    }
    double largest_row = 0;
    for (const auto& [clustering, row] : p.rows) {
      double row_bytes = 0;
      for (size_t k = 0; k < clustering_slot.size() && k < clustering.size(); ++k) {
        Count(r.columns[clustering_slot[k]], clustering[k]);
        row_bytes += static_cast<double>(clustering[k].size());
      }
      for (size_t k = 0; k < regular_slot.size(); ++k) {
        const cql::Value cell = k < row.cells.size() ? row.cells[k] : cql::Value();
        Count(r.columns[regular_slot[k]], cell);
        row_bytes += SizeOfValue(cell);
      }
      largest_row = std::max(largest_row, row_bytes);
    }
    r.rows += static_cast<uint64_t>(size.rows);
    std::string key_json = KeyJson(schema, p);
    MeasuredPartition m;
    m.key = key_json;
    m.rows = static_cast<double>(size.rows);
    m.bytes = static_cast<double>(size.bytes);
    // One row as a Cosmos DB item holds every column once (RowBytes, formulas.h).
    m.largest_row_bytes = static_cast<double>(p.key_bytes + p.static_bytes) + largest_row;
    m.values = static_cast<double>(size.cells);
    measured.push_back(std::move(m));
    figures.push_back({std::move(key_json), key.token, static_cast<double>(size.rows),
                       static_cast<double>(size.cells), static_cast<double>(size.bytes)});
  }
  r.partitions = measured.size();
  const double partitions = static_cast<double>(r.partitions);
  const double rows = static_cast<double>(r.rows);
  for (MeasuredColumn& c : r.columns) {
    const double over = c.per_partition ? partitions : rows;
    c.avg_bytes = over > 0 ? c.bytes / over : 0;
  }

  PARTPLAY_ASSIGN_OR_RETURN(r.measured,
                            SizeFromData(measured, {.values_per_row = static_cast<double>(per_row),
                                                    .max_examples = request.max_examples}));
  std::stable_sort(
      figures.begin(), figures.end(),
      [](const PartitionFigures& a, const PartitionFigures& b) { return a.st_bytes > b.st_bytes; });
  if (figures.size() > request.max_examples) figures.resize(request.max_examples);
  r.largest = std::move(figures);

  // What the schema form asks for, measured.
  TableSizingRequest& q = r.request;
  q.cql = SchemaScript(*keyspace, schema);
  q.table = qualified;
  const double mean_rows = Round2(r.measured.nr.mean);
  q.rows_per_partition.factors = {{"", mean_rows}};
  if (r.measured.nr.max > mean_rows) {
    q.worst_rows_per_partition = RowsEstimate{{{"", r.measured.nr.max}}};
  }
  bool rounded = mean_rows != r.measured.nr.mean;
  for (const MeasuredColumn& c : r.columns) {
    if (c.fixed_bytes) continue;
    const double avg = Round2(c.avg_bytes);
    rounded |= avg != c.avg_bytes;
    q.avg_sizes.emplace_back(c.name, avg);
  }
  q.partitions = partitions;

  r.notes.push_back(fmt::format(
      "Rows per partition: the mean over {} partition{} ({} row{}), {}; the worst case is the "
      "largest partition's rows, {}.",
      internal::GroupThousands(r.partitions), r.partitions == 1 ? "" : "s",
      internal::GroupThousands(r.rows), r.rows == 1 ? "" : "s", FormatQuantity(mean_rows),
      FormatQuantity(r.measured.nr.max)));
  if (rounded) {
    r.notes.push_back(
        "The mean rows and the average sizes are rounded to 2 decimals in the request, so its "
        "average St can differ from the measured mean by a few bytes.");
  }
  for (const MeasuredColumn& c : r.columns) {
    if (!c.fixed_bytes || c.nulls == 0) continue;
    r.notes.push_back(fmt::format(
        "{} ({}) is null in {} of {} {}: the formulas count its {} bytes in every {}, the "
        "measured St none for a null.",
        c.name, c.type, internal::GroupThousands(c.nulls),
        internal::GroupThousands(c.per_partition ? r.partitions : r.rows),
        c.per_partition ? "partitions" : "rows", FormatQuantity(*c.fixed_bytes),
        c.per_partition ? "partition" : "row"));
  }
  return r;
}

// ---- Output ---------------------------------------------------------------------------------

namespace {

std::string RowsJson(const RowsEstimate& rows) {
  std::string s;
  AppendJsonNumber(rows.value(), s);
  return s;
}

std::string RequestJson(const TableSizingRequest& q) {
  std::string s = "{";
  JsonMembers o{s};
  o.Str("cql", q.cql);
  o.Str("table", q.table);
  o.Raw("rows_per_partition", RowsJson(q.rows_per_partition));
  o.Raw("worst_rows_per_partition",
        q.worst_rows_per_partition ? RowsJson(*q.worst_rows_per_partition) : "null");
  std::string sizes = "{";
  JsonMembers a{sizes};
  for (const auto& [column, bytes] : q.avg_sizes) a.Num(column, bytes);
  o.Raw("avg_sizes", sizes + "}");
  o.Num("partitions", q.partitions);
  o.Raw("replication_factor", "null");
  return s + "}";
}

std::string ColumnJson(const MeasuredColumn& c) {
  std::string s = "{";
  JsonMembers o{s};
  o.Str("name", c.name);
  o.Str("type", c.type);
  o.Str("role", RoleName(c.role));
  if (c.fixed_bytes) {
    o.Num("fixed_bytes", *c.fixed_bytes);
  } else {
    o.Raw("fixed_bytes", "null");
  }
  o.Str("per", c.per_partition ? "partition" : "row");
  o.UInt("values", c.values);
  o.UInt("nulls", c.nulls);
  o.Num("bytes", c.bytes);
  o.Num("avg_bytes", c.avg_bytes);
  return s + "}";
}

}  // namespace

std::string TableRowsSizingToJson(const TableRowsSizing& r) {
  std::string s = "{";
  JsonMembers o{s};
  o.Str("keyspace", r.keyspace);
  o.Str("table", r.table);
  o.Bool("view", r.view);
  o.UInt("partitions", r.partitions);
  o.UInt("rows", r.rows);
  o.Int("nc", r.nc);
  o.Int("npk", r.npk);
  o.Int("ns", r.ns);
  o.Num("t_avg", kSizingDefaultTAvgBytes);
  o.Raw("columns", JsonArray(r.columns, [](const MeasuredColumn& c, std::string& out) {
          out += ColumnJson(c);
        }));
  o.Raw("largest", JsonArray(r.largest, [](const PartitionFigures& p, std::string& out) {
          out += '{';
          JsonMembers m{out};
          m.Str("key", p.key);
          m.Str("token", std::to_string(p.token));
          m.Num("rows", p.rows);
          m.Num("nv", p.nv);
          m.Num("st_bytes", p.st_bytes);
          out += '}';
        }));
  std::string measured = DataSizingToJson(r.measured);
  while (!measured.empty() && measured.back() == '\n') measured.pop_back();
  o.Raw("measured", measured);
  o.Raw("request", RequestJson(r.request));
  o.Raw("notes", JsonArray(r.notes, [](const std::string& n, std::string& out) {
          AppendJsonString(n, out);
        }));
  return s + "}\n";
}

StatusOr<std::string> SizeTableFromRowsJson(cql::Session& session, std::string_view request_json) {
  PARTPLAY_ASSIGN_OR_RETURN(TableRowsRequest request, ParseTableRowsRequestJson(request_json));
  PARTPLAY_ASSIGN_OR_RETURN(TableRowsSizing sizing, SizeTableFromRows(session, request));
  return TableRowsSizingToJson(sizing);
}

}  // namespace partplay
